// The format registry drives the code (issue 43): an input format is its declaration — one entry
// in core/input-formats.ts's INPUT_FORMATS — plus, where it converts by code of its own, that
// code: its converter src/formats/kinds/<kind>.ts and, where that code runs in the engine
// workers, its engine wasm/<kind>/format.ts. The service's registry (src/formats/registry.ts) and
// the workers' (wasm/shared/format-engines.ts) find both by the kind's name: no list to add to.
// OFD proves it: outside its declaration, its converter and its engine (wasm/ofd/), no code
// names it.

import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { convertMatrix, convertTargets, formatsConvertedTo } from '../../src/formats/registry.js';
import { FILE_FLOWS, readsOf } from '../../src/operations/file-kinds.js';
import { CONVERT_OPERATIONS } from '../../src/operations/convert.js';
import { formatOfExtension, INPUT_FORMATS } from '../../core/input-formats.js';
import { formatEngine } from '../../wasm/shared/format-engines.js';
import { codeFiles, codeOf } from '../helpers/code-files.js';

/** Where OFD may be named: its declaration, its converter, its engine. */
const OFD_PLACES = ['core/input-formats.ts', 'src/formats/kinds/ofd.ts', 'wasm/ofd/'];

describe('format registry', () => {
  it('names OFD nowhere outside its declaration, its converter and its engine (file names and contents)', () => {
    const naming = codeFiles('core', 'src', 'wasm')
      .filter((file) => !OFD_PLACES.some((place) => (place.endsWith('/') ? file.startsWith(place) : file === place)))
      .filter((file) => /ofd/i.test(file) || /ofd/i.test(codeOf(file)));
    expect(naming).toEqual([]);
  });

  it('judges a file by its content in one place: no reader, converter or worker looks again (formatOfSniffed, formatOfPackage, packageFormatOf)', () => {
    // The table that defines them, the one judgement (stream-info), the content check before an office
    // (is the file what its name says?) and the OFD engine checking its own package.
    const judges = ['core/input-formats.ts', 'src/formats/stream-info.ts', 'src/document-checks/content-check.ts', 'wasm/ofd/open.ts'];
    const calling = codeFiles('core', 'src', 'wasm').filter((file) => /\b(formatOfSniffed|formatOfPackage|packageFormatOf)\(/.test(codeOf(file)));
    expect(calling.filter((file) => !judges.includes(file))).toEqual([]);
  });

  it("writes the matrix from the converters' targets: every input format converts to md, OFD by its own converter", () => {
    for (const format of INPUT_FORMATS) expect(convertTargets(format), format.kind).toContain('md');
    const ofd = formatOfExtension('ofd');
    expect(ofd && convertTargets(ofd)).toEqual(['pdf', 'md', 'txt']);
    const docx = formatOfExtension('docx');
    expect(docx && convertTargets(docx)).toEqual(['pdf', 'docx', 'odt', 'txt', 'md']);
    const rows = convertMatrix();
    expect(rows.flatMap((row) => row.extensions).sort()).toEqual(INPUT_FORMATS.flatMap((f) => f.extensions).sort());
  });

  it("generates convert's format description and the pipeline's file kinds from the same matrix", () => {
    const description = JSON.stringify(CONVERT_OPERATIONS.map((operation) => z.toJSONSchema(operation.input, { io: 'input', unrepresentable: 'any' })));
    for (const row of convertMatrix()) expect(description).toContain(`${row.extensions.map((e) => `.${e}`).join('/')} → ${row.formats.join(', ')}`);
    const convert = FILE_FLOWS.convert;
    for (const target of ['pdf', 'txt', 'md', 'docx', 'xlsx', 'pptx', 'csv']) {
      const kinds = [...new Set(formatsConvertedTo(target).map((f) => f.fileKind))];
      expect(convert && [...readsOf(convert, target)].sort(), target).toEqual(kinds.sort());
    }
  });

  it('adds a format by its declaration alone: its converter and engine are found by its name, and nothing else holds a module of its own', async () => {
    const declared = INPUT_FORMATS.filter((f) => f.ownCode);
    expect(declared.map((f) => f.kind)).toContain('ofd');
    for (const format of declared) {
      const { convert } = (await import(/* @vite-ignore */ `../../src/formats/kinds/${format.kind}.js`)) as { convert?: unknown };
      expect(typeof convert, format.kind).toBe('function');
      const engine = format.ownCode?.engine
        ? ((await import(/* @vite-ignore */ `../../wasm/${format.kind}/format.js`)) as { engine?: Record<string, unknown> }).engine
        : undefined;
      if (format.ownCode?.engine) expect(Object.keys(engine ?? {}).sort(), format.kind).toEqual(['markdown', 'pdf', 'text']);
    }
    // No module of its own that is not declared (it would never be found), and no registry that lists one.
    const kindsOfModules = codeFiles('src/formats/kinds').map((file) => path.basename(file, '.ts'));
    expect(kindsOfModules.sort()).toEqual(declared.map((f) => f.kind).sort());
    const engines = codeFiles('wasm').filter((file) => /^wasm\/[^/]+\/format\.ts$/.test(file));
    expect(engines.sort()).toEqual(declared.filter((f) => f.ownCode?.engine).map((f) => `wasm/${f.kind}/format.ts`));
    // The path is built from the table's word only: any other kind is refused before.
    for (const kind of ['pdf', 'docx', '../read/worker', 'nothing']) expect(() => formatEngine(kind), kind).toThrow(`No engine of its own reads ${kind}`);
    for (const registry of ['src/formats/registry.ts', 'wasm/shared/format-engines.ts'])
      expect(codeOf(registry), registry).not.toMatch(/from '\.\/kinds\/|from '\.\.\/[\w-]+\/(format|engine)\.js'/);
  });
});
