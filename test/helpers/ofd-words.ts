// The Latin words an OFD's TextCode draws, as a reader sees them: runs of two or more ASCII
// letters and digits, cut where the code moves to another line (a DeltaY that is not 0: an
// invoice's cipher block is one TextCode wrapped every 27 characters). Read from the XML's own
// attributes, for tests and benches that judge pdftotext's words against the document.

/** XML character data as text: the five named entities and numeric references (`&#x20;` is a space). */
export const xmlText = (raw: string): string =>
  raw
    .replace(/&#x([0-9a-f]+);/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');

/** DeltaY as the standard writes it: numbers, "g N v" standing for v repeated N times. */
function deltas(text: string): number[] {
  const tokens = text
    .trim()
    .split(/[\s,]+/)
    .filter(Boolean);
  const values: number[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i] === 'g') {
      values.push(...Array<number>(Number(tokens[i + 1])).fill(Number(tokens[i + 2])));
      i += 2;
    } else values.push(Number(tokens[i]));
  }
  return values;
}

/** The Latin words of one TextCode (its text already unescaped, its DeltaY attribute or undefined). */
export function latinWords(text: string, deltaY: string | undefined): string[] {
  const chars = [...text];
  const dy = deltas(deltaY ?? '');
  const lines: string[] = [''];
  chars.forEach((char, i) => {
    lines[lines.length - 1] += char;
    if ((dy[i] ?? 0) !== 0) lines.push('');
  });
  return lines.flatMap((line) => line.match(/[A-Za-z0-9]{2,}/g) ?? []);
}
