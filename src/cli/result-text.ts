// What a one-shot command prints on success, without --json: the answer's message and, for the
// operations that answer data, the data itself laid out for a person — one line a property,
// form field, signature, page or file (docs/cli-and-mcp.md "What a command prints"). Scripts
// use --json, which prints the envelope as it is.

import type { SuccessEnvelope } from '../operations/envelope.js';
import type { FormField, PageSize, PdfInfo, SignatureInfo } from '../../wasm/pdf/engine.js';
import { printable, propertyLines, tableLines } from './text-layout.js';

type Data = Record<string, unknown>;

/** The lines that show an operation's data, by operation id; the message alone for the others. */
const DATA_LINES: Readonly<Record<string, (data: Data) => string[]>> = {
  'pdf/info': (data) => infoLines(data as unknown as PdfInfo),
  'pdf/form-fields': (data) => formFieldLines((data.fields ?? []) as FormField[]),
  'pdf/signatures': (data) => signatureLines((data.signatures ?? []) as SignatureInfo[]),
  ocr: ocrLines,
  read: readLines,
  'pdf/fill': (data) => listLines('Filled', data.filled),
  'pdf/split': (data) => listLines('Wrote', data.files),
  'pdf/to-images': (data) => listLines('Wrote', data.files),
  'convert/batch': batchLines,
  pipeline: (data) => listLines('Wrote', data.files),
};

/**
 * The text printed for a successful answer. `printText`: the command was run to print a text
 * (ocr, read without -o), which is then all it prints.
 */
export function resultText(operationId: string, envelope: SuccessEnvelope, { printText }: { printText: boolean }): string {
  if (printText && envelope.text !== undefined) return withNewline(envelope.text);
  const lines = [`${envelope.message}${envelope.outputPath ? ` → ${envelope.outputPath}` : ''}`];
  const data = DATA_LINES[operationId];
  if (data && envelope.data) lines.push(...data(envelope.data));
  return withNewline(lines.join('\n'));
}

const yesNo = (value: boolean): string => (value ? 'yes' : 'no');
const orNone = (value: string | null | undefined): string => (value === null || value === undefined || value === '' ? '-' : value);

function infoLines(info: PdfInfo): string[] {
  return propertyLines([
    ['Pages', String(info.pages)],
    ['PDF version', info.pdfVersion],
    ['Encrypted', yesNo(info.encrypted)],
    ['Title', orNone(info.title)],
    ['Author', orNone(info.author)],
    ['Subject', orNone(info.subject)],
    ['Keywords', orNone(info.keywords)],
    ['Creator', orNone(info.creator)],
    ['Producer', orNone(info.producer)],
    ['Created', orNone(info.creationDate)],
    ['Modified', orNone(info.modDate)],
    ...pageSizeProperties(info.pageSizes, info.pages),
  ]);
}

/** Page sizes in runs of equal pages: `Page size: 612 × 792 pt` for one run, a line a run else. */
function pageSizeProperties(sizes: readonly PageSize[], pages: number): [string, string][] {
  const runs: { first: number; last: number; size: PageSize }[] = [];
  sizes.forEach((size, i) => {
    const run = runs.at(-1);
    if (run && run.size.width === size.width && run.size.height === size.height) run.last = i + 1;
    else runs.push({ first: i + 1, last: i + 1, size });
  });
  const shown = (size: PageSize) => `${round(size.width)} × ${round(size.height)} pt`;
  const unlisted = pages > sizes.length ? [['Page sizes', `pages ${sizes.length + 1}-${pages} not measured`] as [string, string]] : [];
  if (runs.length === 1 && unlisted.length === 0) return [['Page size', shown((runs[0] as (typeof runs)[0]).size)]];
  return [...runs.map(({ first, last, size }): [string, string] => [first === last ? `Page ${first}` : `Pages ${first}-${last}`, shown(size)]), ...unlisted];
}

const round = (points: number): string => String(Math.round(points * 100) / 100);

function formFieldLines(fields: readonly FormField[]): string[] {
  if (fields.length === 0) return [];
  const value = (field: FormField): string =>
    typeof field.value === 'boolean' ? (field.value ? 'checked' : 'unchecked') : field.value === null ? '-' : field.value;
  const rows = fields.map((field) => [field.name, field.type, value(field), field.options?.join(', ') ?? '', String(field.page), yesNo(field.readOnly)]);
  return tableLines(['NAME', 'TYPE', 'VALUE', 'OPTIONS', 'PAGE', 'READ-ONLY'], rows);
}

function signatureLines(signatures: readonly SignatureInfo[]): string[] {
  if (signatures.length === 0) return [];
  const commonName = (dn: string): string => /(?:^|,\s*)CN=([^,]+)/.exec(dn)?.[1] ?? dn;
  const certificate = (c: SignatureInfo['certificate']): string =>
    c ? `${commonName(c.subject)}, issued by ${commonName(c.issuer)}, until ${c.notAfter.slice(0, 10)}` : '-';
  const trusted = (s: SignatureInfo): string => (s.trusted ? 'yes' : s.trustProblem ? `no (${s.trustProblem})` : 'no');
  const rows = signatures.map((s) => [
    s.name,
    orNone(s.signedAt),
    yesNo(s.valid),
    trusted(s),
    yesNo(s.coversWholeDocument),
    orNone(s.reason),
    orNone(s.location),
    certificate(s.certificate),
  ]);
  return tableLines(['SIGNER', 'SIGNED AT', 'VALID', 'TRUSTED', 'WHOLE FILE', 'REASON', 'LOCATION', 'CERTIFICATE'], rows);
}

interface OcrPage {
  page: number;
  characters: number;
  confidence: number | null;
  engine?: string;
  skipped?: boolean;
}

/** OCR written to a file: the engine and confidence, and a line a page for a PDF. */
function ocrLines(data: Data): string[] {
  const confidence = (value: unknown): string => (typeof value === 'number' ? String(Math.round(value)) : '-');
  const lines = propertyLines([
    ['Language', String(data.language)],
    ['Engine', String(data.engine)],
    ['Confidence', confidence(data.confidence)],
  ]);
  if (!Array.isArray(data.pages)) return lines;
  const rows = (data.pages as OcrPage[]).map((p) => [
    String(p.page),
    String(p.characters),
    confidence(p.confidence),
    p.skipped ? 'has text, not read' : (p.engine ?? ''),
  ]);
  return [...lines, ...tableLines(['PAGE', 'CHARACTERS', 'CONFIDENCE', 'ENGINE'], rows)];
}

/** A document read into a file: which pages, and which of them OCR read. */
function readLines(data: Data): string[] {
  const ocrPages = Array.isArray(data.ocrPages) && data.ocrPages.length > 0 ? data.ocrPages.join(', ') : 'none';
  return propertyLines([
    ...(typeof data.pages === 'number' ? [['Pages', String(data.pages)] as [string, string]] : []),
    ['Read by OCR', ocrPages],
    ['Truncated', yesNo(data.truncated === true)],
  ]);
}

/** A line an item of a list of names or paths. */
function listLines(verb: string, items: unknown): string[] {
  return Array.isArray(items) ? items.map((item) => `  ${verb} ${printable(String(item))}`) : [];
}

interface BatchItem {
  input: string;
  success: boolean;
  outputPath?: string;
}

/** A line a converted file (those that failed are named on stderr). */
function batchLines(data: Data): string[] {
  const results = Array.isArray(data.results) ? (data.results as BatchItem[]) : [];
  return results.filter((r) => r.success).map((r) => `  ${printable(r.input)} → ${printable(r.outputPath ?? '')}`);
}

const withNewline = (text: string): string => (text.endsWith('\n') ? text : `${text}\n`);
