import { describe, expect, it } from 'vitest';
import { signedRevision } from '../../wasm/pdf/sign/byte-range.js';

// A signature dictionary's bytes as other signers lay them out, with the gap and range computed
// from the text: what the byte-range rules accept and what they refuse, without a PDF parser.

const CMS = Buffer.from('3082000a0102030405060708090a', 'hex');

/** `before` + `<hex>` + `after`, and the /ByteRange computed for it into `{RANGE}` (padded in place). */
function layout(before: string, hex: string, after: string): { file: Buffer; range: string[] } {
  const room = (text: string) => text.replace('{RANGE}', ' '.repeat(40)).length;
  const gapStart = room(before);
  const gapEnd = gapStart + hex.length + 2;
  const total = gapEnd + room(after);
  const range = ['0', String(gapStart), String(gapEnd), String(total - gapEnd)];
  const fill = (text: string) => text.replace('{RANGE}', `[0 ${range[1]} ${range[2]} ${range[3]}]`.padEnd(40, ' '));
  return { file: Buffer.from(`${fill(before)}<${hex}>${fill(after)}`, 'latin1'), range };
}

const head = '%PDF-1.7\n1 0 obj\n<</Type/Catalog>>\nendobj\n7 0 obj\n';

describe('signedRevision', () => {
  it.each([
    ['ByteRange before /Contents, LF ending', `${head}<</Type/Sig/ByteRange{RANGE}/Contents`, '/M(D:2026)>>\nendobj\nstartxref\n9\n%%EOF\n'],
    [
      'ByteRange after /Contents, space before the string, CRLF ending',
      `${head}<< /Type /Sig /Contents `,
      ' /ByteRange {RANGE} >>\r\nendobj\r\nstartxref\r\n9\r\n%%EOF\r\n',
    ],
    ['no end-of-line after %%EOF', `${head}<</ByteRange{RANGE}/Contents`, '>>\nendobj\nstartxref\n9\n%%EOF'],
  ])('accepts a sound layout: %s', (_label, before, after) => {
    const { file, range } = layout(before, CMS.toString('hex').toUpperCase(), after);
    expect(signedRevision(file, range, CMS)).toEqual({ gapStart: Number(range[1]), gapEnd: Number(range[2]), end: file.length });
  });

  it('accepts lowercase hex', () => {
    const { file, range } = layout(`${head}<</ByteRange{RANGE}/Contents`, CMS.toString('hex'), '>>\nendobj\n%%EOF\n');
    expect(signedRevision(file, range, CMS)).toBeDefined();
  });

  it.each([
    ['a space inside the hex string', `${CMS.toString('hex').slice(0, 10)} ${CMS.toString('hex').slice(11)}`],
    ['an odd number of hex digits', `${CMS.toString('hex')}0`],
    ['hex of other bytes than the /Contents read', CMS.toString('hex').replace(/^30/, '31')],
  ])('refuses %s', (_label, hex) => {
    const { file, range } = layout(`${head}<</ByteRange{RANGE}/Contents`, hex, '>>\nendobj\n%%EOF\n');
    expect(signedRevision(file, range, CMS)).toBeUndefined();
  });

  it('refuses a gap that is not the value of /Contents', () => {
    const { file, range } = layout(`${head}<</ByteRange{RANGE}/Cert`, CMS.toString('hex'), '>>\nendobj\n%%EOF\n');
    expect(signedRevision(file, range, CMS)).toBeUndefined();
  });

  it('refuses a dictionary writing /ByteRange twice (a decoy of the right digits next to the real one)', () => {
    const { file, range } = layout(`${head}<</ByteRange{RANGE}/Reason(/ByteRange[0 1 2 3])/Contents`, CMS.toString('hex'), '>>\nendobj\n%%EOF\n');
    expect(signedRevision(file, range, CMS)).toBeUndefined();
  });

  it('refuses a range that ends anywhere but after %%EOF', () => {
    const { file, range } = layout(`${head}<</ByteRange{RANGE}/Contents`, CMS.toString('hex'), '>>\nendobj\n%%EOF\n\n\n');
    expect(signedRevision(file, range, CMS)).toBeUndefined();
  });

  it('refuses numbers as the parser may print them but not as written: signs, 16 digits and more, reals', () => {
    const { file, range } = layout(`${head}<</ByteRange{RANGE}/Contents`, CMS.toString('hex'), '>>\nendobj\n%%EOF\n');
    expect(signedRevision(file, ['0', range[1] ?? '', range[2] ?? '', `+${range[3]}`], CMS)).toBeUndefined();
    expect(signedRevision(file, ['0', range[1] ?? '', range[2] ?? '', `000000000000000${range[3]}`], CMS)).toBeUndefined();
    expect(signedRevision(file, ['0', range[1] ?? '', range[2] ?? '', ''], CMS)).toBeUndefined();
  });
});
