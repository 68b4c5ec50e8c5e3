// The parts of docs/ that are written from the code's own tables, so they cannot go stale:
// the error codes (core/errors.ts), the options (src/config.ts FLAGS) and convert's formats
// (the format registry, src/formats/registry.ts). `npm run docs` writes
// them; test/docs/docs.test.ts fails when a file no longer holds what the code says.

import fs from 'node:fs';
import { FLAGS } from '../../src/config.js';
import { ERROR_CODES, MEANING_BY_CODE, STATUS_BY_CODE } from '../../core/errors.js';
import { convertMatrix } from '../../src/formats/registry.js';

interface GeneratedSection {
  file: string;
  marker: string;
  render: () => string;
}

export const GENERATED: readonly GeneratedSection[] = [
  { file: 'docs/errors.md', marker: 'error-codes', render: renderErrorTable },
  { file: 'docs/options.md', marker: 'options', render: renderOptionsTable },
  { file: 'docs/api.md', marker: 'convert-formats', render: renderConvertTable },
];

function renderErrorTable(): string {
  const rows = ERROR_CODES.map((code) => `| \`${code}\` | ${STATUS_BY_CODE[code]} | ${MEANING_BY_CODE[code]} |`);
  return ['| code | HTTP | when |', '|---|---|---|', ...rows].join('\n');
}

function renderOptionsTable(): string {
  const rows = FLAGS.map((f) => `| \`--${f.flag}\`${f.repeatable ? ' (repeatable)' : ''} | \`${f.env}\` | ${f.description.replaceAll('|', '\\|').replaceAll('<', '\\<')} |`);
  return ['| flag | environment | meaning |', '|---|---|---|', ...rows].join('\n');
}

function renderConvertTable(): string {
  const rows = convertMatrix().map((row) => `| ${row.extensions.map((e) => `.${e}`).join(' ')} | ${row.formats.join(', ')} |`);
  return ['| input (by extension, any case) | formats |', '|---|---|', ...rows].join('\n');
}

const WRITER: Readonly<Record<string, string>> = {
  bench: 'npm run bench',
  'bench-read': 'npm run bench -- read',
  'bench-ocr': 'npm run bench -- ocr',
  'bench-ofd': 'npm run bench -- ofd',
  'bench-paddle': 'npm run bench -- paddle',
  'bench-paddle-cer': 'npm run bench -- paddle',
  'bench-paddle-mixed': 'npm run bench -- paddle-mixed',
  'bench-wasm-documents': 'npm run bench -- wasm-documents',
  reliability: 'npm run test:reliability',
  'ofd-corpus': 'npm run bench:ofd-corpus',
  'office-fidelity': 'npm run bench:office-fidelity',
  'bench-memory': 'npm run bench:memory',
  'editable-quality': 'npm run bench:editable',
  'editable-xlsx': 'npm run bench:editable -- --xlsx',
};
const fence = (marker: string) => [`<!-- generated:${marker} (${WRITER[marker] ?? 'npm run docs'}) -->`, `<!-- /generated:${marker} -->`] as const;

/** The text between a section's markers in its file, or undefined when the markers are missing. */
export function currentSection(section: GeneratedSection): string | undefined {
  return generatedText(section.file, section.marker);
}

/** The text between `marker`'s markers in `file`, or undefined when they are missing. */
export function generatedText(file: string, marker: string): string | undefined {
  const [open, close] = fence(marker);
  const text = fs.readFileSync(file, 'utf8');
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  return start < 0 || end < start ? undefined : text.slice(start + open.length, end).trim();
}

export function writeSection(section: GeneratedSection): void {
  replaceGenerated(section.file, section.marker, section.render());
}

/** Puts `content` between the markers in `file` (also used by the bench and reliability reports). */
export function replaceGenerated(file: string, marker: string, content: string): void {
  const [open, close] = fence(marker);
  const text = fs.readFileSync(file, 'utf8');
  const start = text.indexOf(open);
  const end = text.indexOf(close);
  if (start < 0 || end < start) throw new Error(`${file}: markers ${open} … ${close} not found`);
  fs.writeFileSync(file, `${text.slice(0, start + open.length)}\n${content}\n${text.slice(end)}`);
}
