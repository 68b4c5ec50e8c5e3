// The WebAssembly office's font replacement table (profile.ts) and the family names it leaves
// out for the fonts the office is given (fonts.ts). That the office applies the table is checked
// on a running office: test/helpers/wasm-office.ts, expectFontReplacements.

import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fontFamilies } from '../../src/documents/fonts.js';
import { bundledCjkFonts, WASM_FONT_REPLACEMENTS, WASM_REPLACEMENT_PROBE, wasmOfficeRegistryModifications } from '../../src/documents/profile.js';
import { tempDir } from '../helpers/service.js';

const pairs = (xcu: string) => [...xcu.matchAll(/"ReplaceFont" oor:op="fuse"><value>([^<]+)<\/value>.*?"SubstituteFont" oor:op="fuse"><value>([^<]+)</g)].map((m) => [m[1], m[2]]);

describe("the WebAssembly office's font replacement table", () => {
  it('replaces the metric-compatible families and the common ones, always, and switches the table on', () => {
    const xcu = wasmOfficeRegistryModifications();
    expect(new Map(pairs(xcu).map(([a, b]) => [a, b]))).toEqual(new Map(Object.entries(WASM_FONT_REPLACEMENTS)));
    expect(WASM_FONT_REPLACEMENTS).toMatchObject({ Times: 'Liberation Serif', Helvetica: 'Liberation Sans', Courier: 'Liberation Mono', Consolas: 'DejaVu Sans Mono', Verdana: 'Noto Sans' });
    expect(xcu).toContain('<prop oor:name="Replacement" oor:op="fuse"><value>true</value></prop>');
    expect(xcu.match(/"Always" oor:op="fuse"><value>true</g)).toHaveLength(Object.keys(WASM_FONT_REPLACEMENTS).length);
    // The hardened settings stay.
    expect(xcu).toContain('DisableMacrosExecution');
    expect(WASM_FONT_REPLACEMENTS[WASM_REPLACEMENT_PROBE.family]?.replaceAll(' ', '')).toBe(WASM_REPLACEMENT_PROBE.face);
  });

  it('leaves out a family the office is given (any case), so a --font-dir Verdana is used as Verdana', () => {
    const replaced = pairs(wasmOfficeRegistryModifications(['verdana', 'Some Other'])).map(([font]) => font);
    expect(replaced).not.toContain('Verdana');
    expect(replaced).toContain('Courier');
    expect(replaced).toHaveLength(Object.keys(WASM_FONT_REPLACEMENTS).length - 1);
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
