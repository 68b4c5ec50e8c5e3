// The paper a locale gives (src/documents/paper.ts), as LibreOffice's getDefaultPaperForLocale
// does, and what each office is told so that it lays out on that paper.

import { describe, expect, it } from 'vitest';
import { installedOfficePaper, localePaper, wasmOfficeLocale } from '../../src/documents/paper.js';

describe('the locale paper', () => {
  it.each(['en_US.UTF-8', 'en_CA.UTF-8', 'es_MX.UTF-8', 'fr_CA', 'es_CO.UTF-8', 'en_PH'])('is Letter under %s', (LANG) => {
    expect(localePaper({ LANG })).toBe('letter');
  });

  it.each(['C', 'C.UTF-8', 'POSIX', 'zh_CN.UTF-8', 'de_DE.UTF-8', 'en_GB.UTF-8', 'fr_FR', ''])('is A4 under "%s"', (LANG) => {
    expect(localePaper({ LANG })).toBe('a4');
  });

  it('reads LC_ALL, then LC_PAPER, then LANG', () => {
    expect(localePaper({ LC_ALL: 'de_DE.UTF-8', LC_PAPER: 'en_US.UTF-8', LANG: 'en_US.UTF-8' })).toBe('a4');
    expect(localePaper({ LC_PAPER: 'en_US.UTF-8', LANG: 'de_DE.UTF-8' })).toBe('letter');
    expect(localePaper({})).toBe('a4');
  });
});

describe('what the offices are told', () => {
  it('leaves the installed office its locale when that gives the paper, else sets LC_PAPER (LC_ALL moved to LANG)', () => {
    expect(installedOfficePaper('a4', { LANG: 'C' })).toEqual({ PAPERSIZE: 'a4' });
    expect(installedOfficePaper('letter', { LANG: 'C' })).toEqual({ PAPERSIZE: 'letter', LC_PAPER: 'en_US.UTF-8' });
    expect(installedOfficePaper('a4', { LC_ALL: 'en_US.UTF-8' })).toEqual({ PAPERSIZE: 'a4', LC_ALL: '', LANG: 'en_US.UTF-8', LC_PAPER: 'C' });
  });

  it("gives the WebAssembly office the machine's locale when it gives the paper, else the language in a country of that paper", () => {
    expect(wasmOfficeLocale('a4', { LANG: 'zh_CN.UTF-8' })).toBe('zh-CN');
    expect(wasmOfficeLocale('letter', { LANG: 'en_US.UTF-8' })).toBe('en-US');
    expect(wasmOfficeLocale('a4', { LANG: 'C' })).toBe('en-AQ');
    expect(wasmOfficeLocale('letter', { LANG: 'de_DE.UTF-8' })).toBe('de-US');
    expect(wasmOfficeLocale('a4', { LANG: 'es_MX.UTF-8' })).toBe('es-AQ');
  });
});
