// The names the watcher makes from input names: within NAME_MAX (bytes, not characters, cut
// between characters), numbered where taken, and escaped for the log.

import { describe, expect, it } from 'vitest';
import { errorRecordName, escapeControls, fitName, numberedName } from '../../src/watch/names.js';

const bytes = (text: string) => Buffer.byteLength(text);

describe('watch names', () => {
  it('keeps a name that fits as it is', () => {
    expect(errorRecordName('report.pdf')).toBe('report.pdf.error.json');
    expect(numberedName('report.pdf', 2)).toBe('report (2).pdf');
    expect(numberedName('README', 3)).toBe('README (3)');
    expect(numberedName('.hidden', 2)).toBe('.hidden (2)');
    expect(numberedName('archive.tar.gz', 2)).toBe('archive.tar (2).gz');
  });

  it('shortens a long name to 255 bytes between characters, with a hash that tells long names apart', () => {
    for (const char of ['a', 'é', '文', '😀']) {
      const name = `${char.repeat(Math.floor(251 / bytes(char)))}.pdf`;
      const record = errorRecordName(name);
      expect(bytes(record)).toBeLessThanOrEqual(255);
      expect(record).toMatch(/~[0-9a-f]{12}\.error\.json$/);
      // Cut between characters: no replacement character where a multi-byte one was split.
      expect(Buffer.from(record).toString('utf8')).toBe(record);
      expect(record.startsWith(char.repeat(10))).toBe(true);
      expect(errorRecordName(name)).toBe(record);
      expect(errorRecordName(`b${name}`)).not.toBe(record);
      const numbered = numberedName(name, 12);
      expect(bytes(numbered)).toBeLessThanOrEqual(255);
      expect(numbered).toMatch(/ \(12\)\.pdf$/);
    }
    expect(fitName('x'.repeat(300))).toHaveLength(255);
  });

  it('writes control characters and line separators as escapes', () => {
    expect(escapeControls('a\nb\rc\td')).toBe('a\\nb\\rc\\td');
    expect(escapeControls('\u001b[2J\u0000\u007f\u0085\u2028\u2029')).toBe('\\u001b[2J\\u0000\\u007f\\u0085\\u2028\\u2029');
    expect(escapeControls('résumé 文书 → ok')).toBe('résumé 文书 → ok');
  });
});
