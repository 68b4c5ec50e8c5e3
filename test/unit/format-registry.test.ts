// The format registry drives the code (issue 43): an input format is one module plus one line in
// the registry of each floor it runs on — core/input-formats.ts (what a file is),
// src/formats/registry.ts (what convert makes of it), wasm/shared/format-engines.ts (its engine
// in the workers). OFD proves it: outside those, its module (src/formats/ofd.ts) and its engine
// (wasm/ofd/), no code names it.

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { convertMatrix, convertTargets, formatsConvertedTo } from '../../src/formats/registry.js';
import { FILE_FLOWS, readsOf } from '../../src/operations/file-kinds.js';
import { CONVERT_OPERATIONS } from '../../src/operations/convert.js';
import { formatOfExtension, INPUT_FORMATS } from '../../core/input-formats.js';
import { codeFiles, codeOf } from '../helpers/code-files.js';

/** Where OFD may be named: its module, its engine, and the registry's line on each floor. */
const OFD_PLACES = ['src/formats/ofd.ts', 'wasm/ofd/', 'core/input-formats.ts', 'src/formats/registry.ts', 'wasm/shared/format-engines.ts'];

describe('format registry', () => {
  it('names OFD nowhere outside its module, its engine and the registry (file names and contents)', () => {
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
});
