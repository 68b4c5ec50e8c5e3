// The WebAssembly office's font aliases (profile.ts) and the family names it leaves out for the
// fonts the office is given (fonts.ts). That the office applies them is checked on a running
// office: test/helpers/wasm-office.ts, expectFontAliases; the file is checked here with
// fontconfig's own parser (fc-match, Debian's fontconfig).

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fontFamilies } from '../../src/documents/fonts.js';
import { bundledCjkFonts, registryModifications, SHIPPED_CJK_FAMILY, WASM_FONT_ALIASES, wasmOfficeProfile } from '../../src/documents/profile.js';
import { tempDir } from '../helpers/service.js';

const ALIASES_FILE = '/instdir/share/fontconfig/conf.d/29-docwasm-aliases.conf';
const aliases = (conf: string) => [...conf.matchAll(/<family>([^<]+)<\/family><prefer><family>([^<]+)</g)].map((m) => [m[1], m[2]]);

describe("the WebAssembly office's font aliases", () => {
  it('alias the metric-compatible families and the common ones, beside the hardened settings', () => {
    const profile = wasmOfficeProfile();
    expect(Object.keys(profile).sort()).toEqual([ALIASES_FILE, '/instdir/user/registrymodifications.xcu']);
    expect(new Map(aliases(profile[ALIASES_FILE] ?? '').map(([a, b]) => [a, b]))).toEqual(new Map(Object.entries(WASM_FONT_ALIASES)));
    expect(WASM_FONT_ALIASES).toMatchObject({
      Times: 'Liberation Serif',
      Helvetica: 'Liberation Sans',
      Courier: 'Liberation Mono',
      Consolas: 'DejaVu Sans Mono',
      Verdana: 'Noto Sans',
    });
    expect(profile['/instdir/user/registrymodifications.xcu']).toBe(registryModifications());
    expect(registryModifications()).toContain('DisableMacrosExecution');
  });

  it('is a configuration fontconfig reads: fc-match sets Consolas in the face the file names, and not without it', () => {
    const dir = tempDir('docwasm-font-aliases-');
    // The aliases and DejaVu's faces (fonts-dejavu-core), nothing else: the answer is the file's.
    const withFaces = (conf: string) => conf.replace('<fontconfig>', `<fontconfig><dir>/usr/share/fonts/truetype/dejavu</dir><cachedir>${dir}</cachedir>`);
    const match = (conf: string) => {
      fs.writeFileSync(path.join(dir, 'fonts.conf'), withFaces(conf));
      return execFileSync('fc-match', ['Consolas'], { env: { ...process.env, FONTCONFIG_FILE: path.join(dir, 'fonts.conf') } }).toString();
    };
    expect(match(wasmOfficeProfile()[ALIASES_FILE] ?? '')).toContain('"DejaVu Sans Mono"');
    expect(match('<?xml version="1.0"?>\n<fontconfig>\n</fontconfig>\n')).not.toContain('"DejaVu Sans Mono"');
  });

  it('set the faces Chinese documents name in the shipped CJK face: fc-match 宋体 and 微软雅黑 answer it', () => {
    const dir = tempDir('docwasm-font-aliases-cjk-');
    const fonts = path.dirname(bundledCjkFonts()[0] as string);
    const conf = (wasmOfficeProfile()[ALIASES_FILE] ?? '').replace(
      '<fontconfig>',
      `<fontconfig><dir>${fonts}</dir><dir>/usr/share/fonts/truetype/dejavu</dir><cachedir>${dir}</cachedir>`,
    );
    fs.writeFileSync(path.join(dir, 'fonts.conf'), conf);
    const match = (family: string) =>
      execFileSync('fc-match', ['-f', '%{family}', family], { env: { ...process.env, FONTCONFIG_FILE: path.join(dir, 'fonts.conf') } }).toString();
    for (const family of ['宋体', 'SimSun', '微软雅黑', 'Microsoft YaHei', '仿宋_GB2312']) expect(match(family), family).toContain(SHIPPED_CJK_FAMILY);
    expect(match('Verdana')).not.toContain(SHIPPED_CJK_FAMILY);
  });

  it('leave out a family the office is given (any case), so a --font-dir Verdana is used as Verdana', () => {
    const aliased = aliases(wasmOfficeProfile(['verdana', 'Some Other'])[ALIASES_FILE] ?? '').map(([font]) => font);
    expect(aliased).not.toContain('Verdana');
    expect(aliased).toContain('Courier');
    expect(aliased).toHaveLength(Object.keys(WASM_FONT_ALIASES).length - 1);
  });
});

describe('the family names of a font file', () => {
  it('reads the shipped CJK face (OpenType CFF)', () => {
    const [regular] = bundledCjkFonts();
    expect(regular).toBeDefined();
    expect(fontFamilies(regular as string)).toContain('Noto Sans S Chinese');
  });

  it('answers no family for a file that is not a font, a truncated font, or a missing file', () => {
    const dir = tempDir('docwasm-font-names-');
    const notFont = path.join(dir, 'a.ttf');
    fs.writeFileSync(notFont, 'not a font at all, only text');
    const truncated = path.join(dir, 'b.otf');
    fs.writeFileSync(truncated, fs.readFileSync(bundledCjkFonts()[0] as string).subarray(0, 200));
    for (const file of [notFont, truncated, path.join(dir, 'missing.ttf')]) expect(fontFamilies(file)).toEqual([]);
  });
});
