// Data laid out for a terminal: `Label: value` lines and tables with aligned columns. Widths are
// display widths (a Chinese character takes two columns), and every value is kept on its line:
// control characters (a multi-line form value, a name with a tab) are shown escaped.

import { displayWidth } from '../../core/cjk-text.js';

const GAP = '  ';

/** `text` on one line: line breaks, tabs and other control characters as `\n`, `\t`, `\u001b`. */
export function printable(text: string): string {
  return text.replace(/[\p{Cc}\u2028\u2029]/gu, (char) => {
    const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };
    return named[char] ?? `\\u${(char.codePointAt(0) ?? 0).toString(16).padStart(4, '0')}`;
  });
}

function padEnd(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

/** One `Label: value` line a property, the values starting in one column. */
export function propertyLines(properties: readonly (readonly [string, string])[]): string[] {
  const width = Math.max(0, ...properties.map(([label]) => displayWidth(label) + 1));
  return properties.map(([label, value]) => `${padEnd(`${label}:`, width)} ${printable(value)}`.trimEnd());
}

/** A header line and one line a row, each column as wide as its widest cell. */
export function tableLines(headers: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const cells = [headers, ...rows].map((row) => row.map(printable));
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => displayWidth(row[column] ?? ''))));
  return cells.map((row) =>
    row
      .map((cell, column) => (column === row.length - 1 ? cell : padEnd(cell, widths[column] ?? 0)))
      .join(GAP)
      .trimEnd(),
  );
}
