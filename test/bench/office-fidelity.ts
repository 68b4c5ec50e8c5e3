// Fidelity of LibreOffice in WebAssembly against the installed LibreOffice: every file of a corpus
// of real office files made by other programs (fixtures/office-fidelity/, listed with sources in
// fixtures/README.md, plus a few Word-made fixtures already in the tree) converted to PDF by two
// running services, `--document-backend libreoffice` and `--document-backend wasm`, and the two
// PDFs compared with tools that are not docwasm's: poppler's pdfinfo (pages), pdftotext (the
// word multiset), pdftoppm (72-dpi renders, compared page by page with SSIM) and pdffonts (the
// fonts each PDF draws with, which explain most differences). The installed office is given the
// font files the WebAssembly one bundles (office-fonts.ts), so that both set text in the same
// fonts; a third service, the installed office with only the machine's fonts, shows what a user of
// a bare distribution LibreOffice would compare against; with OFFICE_FIDELITY_SOFFICE naming
// another LibreOffice (a newer version: libreoffice-backports.sh unpacks Debian's), a fourth
// service, that office with the same fonts, tells version differences from the WebAssembly
// build's own. The page goes into docs/office-fidelity.md. `npm run bench:office-fidelity [-- part of a file name]` (with a
// name, only those files, and the docs are left alone).

import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { ssim } from 'ssim.js';
import { replaceGenerated } from '../docs/generated.js';
import { ROOT, startService, stopAndRemove, type RunningService } from '../helpers/service.js';
import { ppmToRgba, type Rendered } from '../helpers/page-similarity.js';
import { pdfinfo } from '../helpers/pdf-inspect.js';
import { readVersion } from '../../src/installed-office/soffice-detect.js';
import { waitForOfficeReady } from '../helpers/wasm-office.js';
import { shareWasmOfficeFonts } from './office-fonts.js';

const exec = promisify(execFile);
const CORPUS_DIR = path.join(ROOT, 'fixtures/office-fidelity');
/** Chinese Word documents made by python-docx (fixtures/office-fidelity-cjk/make.py). */
const CJK_DIR = path.join(ROOT, 'fixtures/office-fidelity-cjk');
/** Files made by Microsoft Office that the tree already holds (fixtures/README.md says where from). */
const TREE_FILES = [
  'fixtures/reading/docling/word_tables.docx',
  'fixtures/reading/docling/docx_rich_cells.docx',
  'fixtures/office-content/textbox.docx',
  'fixtures/office-content/drawingml.docx',
  'fixtures/office-content/pptx_chart.pptx',
  'fixtures/office-content/xlsx_02_sample_sales_data.xlsm',
];
/** The corpus folder also holds a licence text. */
const OFFICE_FILE = /\.(docx?|rtf|odt|xlsx|xlsm|xls|ods|csv|pptx?|odp)$/i;
/** The installed office with the WebAssembly office's fonts, and the WebAssembly office. */
const SERVICES = ['libreoffice', 'wasm'] as const;
type Backend = (typeof SERVICES)[number];

/** A further office the WebAssembly PDFs are compared with, by pages and words only. */
interface Reference {
  name: string;
  /** Its column's heading. */
  label: string;
  /** What the service is started with besides the common flags. */
  flags: string[];
  sameFonts: boolean;
}
/** The targets of issue 30, stated beside the figures. */
const PAGES_TARGET = 0.95;
const WORDS_TARGET = 0.99;

interface Conversion {
  /** The PDF, or undefined when the conversion failed. */
  pdf?: string;
  /** "1234 ms" or "TIMEOUT", "CONVERSION_FAILED", … */
  outcome: string;
  pages?: number;
  words: Map<string, number>;
  fonts: Set<string>;
}

interface Row {
  file: string;
  bytes: number;
  native: Conversion;
  wasm: Conversion;
  /** Words of the wasm PDF found in the native one, over the native one's words (multisets). */
  wordOverlap?: number;
  /** Each reference office's PDF, and the wasm PDF's words against it as above. */
  references: Record<string, { conversion: Conversion; wordOverlap?: number }>;
  /** SSIM of each page both PDFs have. */
  ssims: number[];
  /** Fonts the native PDF draws with and the wasm one does not, and the other way round. */
  fontsOnlyNative: string[];
  fontsOnlyWasm: string[];
}

function corpus(only: string | undefined): string[] {
  const own = [CORPUS_DIR, CJK_DIR].flatMap((dir) =>
    fs
      .readdirSync(dir)
      .filter((name) => OFFICE_FILE.test(name))
      .map((name) => path.join(dir, name)),
  );
  const files = [...own, ...TREE_FILES.map((file) => path.join(ROOT, file))].filter((file) => !only || path.basename(file).includes(only));
  return byTurns(files.sort((a, b) => path.basename(a).localeCompare(path.basename(b))));
}

/** One file of each format in turn, so that a run cut short has judged every format. */
function byTurns(files: readonly string[]): string[] {
  const byFormat = new Map<string, string[]>();
  for (const file of files) {
    const format = path.extname(file).toLowerCase();
    byFormat.set(format, [...(byFormat.get(format) ?? []), file]);
  }
  const queues = [...byFormat.values()];
  const ordered: string[] = [];
  while (ordered.length < files.length) for (const queue of queues) if (queue.length) ordered.push(queue.shift() as string);
  return ordered;
}

const errorOf = (body: Record<string, unknown>) => String((body.error as { code?: string } | undefined)?.code ?? body.code ?? 'failed');

/**
 * POST /api/convert, once more when the socket was closed under the request: fetch reuses a
 * kept-alive connection that the server may close at the moment it is reused (a service idle
 * while the other converts), and then the request never reached it.
 */
async function post(service: RunningService, body: { input: string; output: string }): Promise<Awaited<ReturnType<RunningService['post']>>> {
  try {
    return await service.post('/api/convert', body);
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code !== 'UND_ERR_SOCKET') throw error;
    return service.post('/api/convert', body);
  }
}

async function convert(service: RunningService, file: string, keepIn: string, backend: string): Promise<Conversion> {
  const name = path.basename(file);
  fs.copyFileSync(file, path.join(service.dir, name));
  const started = performance.now();
  const answer = await post(service, { input: name, output: `${name}.pdf` });
  const ms = Math.round(performance.now() - started);
  fs.rmSync(path.join(service.dir, name), { force: true });
  if (answer.status !== 200) return { outcome: `${answer.status} ${errorOf(answer.body)}`, words: new Map(), fonts: new Set() };
  const pdf = path.join(keepIn, `${name}.${backend}.pdf`);
  fs.renameSync(path.join(service.dir, `${name}.pdf`), pdf);
  return { pdf, outcome: `${ms} ms`, pages: Number(pdfinfo(pdf).Pages), words: await words(pdf), fonts: await fonts(pdf) };
}

/**
 * A word: a run of characters between white space, except that each Chinese, Japanese or Korean
 * character is a word of its own (those scripts put no spaces between words, so a run would be
 * a whole line, and where a line breaks would decide whether it matched).
 */
const WORD =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]|[^\s\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;

/** The PDF's words as pdftotext reads them, counted. */
async function words(pdf: string): Promise<Map<string, number>> {
  const { stdout } = await exec('pdftotext', ['-enc', 'UTF-8', pdf, '-'], { maxBuffer: 1 << 28 });
  const counts = new Map<string, number>();
  for (const word of stdout.match(WORD) ?? []) counts.set(word, (counts.get(word) ?? 0) + 1);
  return counts;
}

/** The names of the fonts a PDF draws with (pdffonts), without the subset prefix. */
async function fonts(pdf: string): Promise<Set<string>> {
  const { stdout } = await exec('pdffonts', [pdf], { maxBuffer: 1 << 24 });
  return new Set(
    stdout
      .split('\n')
      .slice(2)
      .map((line) => line.split(/\s+/)[0]?.replace(/^[A-Z]{6}\+/, '') ?? '')
      .filter(Boolean),
  );
}

/** The native PDF's words (counted with repeats), and how many of them the wasm PDF has too. */
function sharedWords(native: Map<string, number>, wasm: Map<string, number>): { total: number; shared: number } {
  let total = 0;
  let shared = 0;
  for (const [word, count] of native) {
    total += count;
    shared += Math.min(count, wasm.get(word) ?? 0);
  }
  return { total, shared };
}

function overlap(native: Map<string, number>, wasm: Map<string, number>): number | undefined {
  const { total, shared } = sharedWords(native, wasm);
  return total === 0 ? undefined : shared / total;
}

/** Every page of a PDF at 72 dpi, as pdftoppm draws it (binary PPM files in a temp dir). */
async function render(pdf: string, into: string): Promise<Rendered[]> {
  const prefix = path.join(into, path.basename(pdf));
  await exec('pdftoppm', ['-r', '72', pdf, prefix], { maxBuffer: 1 << 24 });
  const pages = fs
    .readdirSync(into)
    .filter((n) => n.startsWith(`${path.basename(pdf)}-`) && n.endsWith('.ppm'))
    .sort((a, b) => pageNumber(a) - pageNumber(b));
  return pages.map((page) => {
    const file = path.join(into, page);
    const picture = ppmToRgba(fs.readFileSync(file), file);
    fs.rmSync(file);
    return picture;
  });
}

const pageNumber = (name: string) => Number(/-(\d+)\.ppm$/.exec(name)?.[1]);

/** The picture on a white canvas of the given size (two offices may choose different page sizes). */
function onCanvas(picture: Rendered, width: number, height: number): Rendered {
  if (picture.width === width && picture.height === height) return picture;
  const data = new Uint8ClampedArray(width * height * 4).fill(255);
  for (let y = 0; y < picture.height; y++) data.set(picture.data.subarray(y * picture.width * 4, (y + 1) * picture.width * 4), y * width * 4);
  return { data, width, height };
}

async function pageSsims(native: string, wasm: string, scratch: string): Promise<number[]> {
  const [a, b] = await Promise.all([render(native, scratch), render(wasm, scratch)]);
  const ssims: number[] = [];
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    const left = a[i] as Rendered;
    const right = b[i] as Rendered;
    const width = Math.max(left.width, right.width);
    const height = Math.max(left.height, right.height);
    ssims.push(ssim(onCanvas(left, width, height), onCanvas(right, width, height)).mssim);
  }
  return ssims;
}

async function compare(services: Record<string, RunningService>, references: readonly Reference[], file: string, scratch: string): Promise<Row> {
  const names = [...SERVICES, ...references.map((r) => r.name)];
  const conversions = await Promise.all(names.map((name) => convert(services[name] as RunningService, file, scratch, name)));
  const [native, wasm, ...others] = conversions as [Conversion, Conversion, ...Conversion[]];
  const both = native.pdf !== undefined && wasm.pdf !== undefined;
  const against = (conversion: Conversion) => ({
    conversion,
    wordOverlap: conversion.pdf !== undefined && wasm.pdf !== undefined ? overlap(conversion.words, wasm.words) : undefined,
  });
  const row: Row = {
    file: path.basename(file),
    bytes: fs.statSync(file).size,
    native,
    wasm,
    wordOverlap: both ? overlap(native.words, wasm.words) : undefined,
    references: Object.fromEntries(references.map((reference, i) => [reference.name, against(others[i] as Conversion)])),
    ssims: both ? await pageSsims(native.pdf as string, wasm.pdf as string, scratch) : [],
    fontsOnlyNative: [...native.fonts].filter((f) => !wasm.fonts.has(f)).sort(),
    fontsOnlyWasm: [...wasm.fonts].filter((f) => !native.fonts.has(f)).sort(),
  };
  for (const { pdf } of conversions) if (pdf) fs.rmSync(pdf, { force: true });
  return row;
}

const percent = (part: number, whole: number) => (whole === 0 ? '–' : `${((100 * part) / whole).toFixed(1)} %`);
const mean = (values: readonly number[]) => values.reduce((s, v) => s + v, 0) / values.length;
const fixed = (value: number | undefined, digits = 3) => (value === undefined || Number.isNaN(value) ? '–' : value.toFixed(digits));

function median(values: readonly number[]): number | undefined {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return undefined;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

const wordsOk = (row: Row, share: number | undefined) =>
  row.wasm.pdf !== undefined && (share === undefined ? row.wasm.words.size === 0 : share >= WORDS_TARGET);

/** A reference office's cells of the summary: pages equal, words ≥ the target, its failures. */
function referenceCells(rows: readonly Row[], reference: Reference): { pages: string; words: string; failures: number } {
  const judged = rows.filter((r) => r.references[reference.name]?.conversion.pdf !== undefined);
  const pagesEqual = judged.filter((r) => r.wasm.pages === r.references[reference.name]?.conversion.pages);
  const wordsEqual = judged.filter((r) => wordsOk(r, r.references[reference.name]?.wordOverlap));
  return {
    pages: `${percent(pagesEqual.length, judged.length)} (${pagesEqual.length}/${judged.length})`,
    words: `${percent(wordsEqual.length, judged.length)} (${wordsEqual.length}/${judged.length})`,
    failures: rows.length - judged.length,
  };
}

function summary(rows: readonly Row[], references: readonly Reference[], readyMs: number): string[] {
  const judged = rows.filter((r) => r.native.pdf !== undefined);
  const pagesEqual = judged.filter((r) => r.wasm.pages === r.native.pages);
  const wordsEqual = judged.filter((r) => wordsOk(r, r.wordOverlap));
  const fileSsims = judged.filter((r) => r.ssims.length > 0).map((r) => mean(r.ssims));
  const pageSsims = judged.flatMap((r) => r.ssims);
  const others = references.map((reference) => referenceCells(rows, reference));
  const cells = (cell: (c: ReturnType<typeof referenceCells>) => string | number) => others.map((c) => ` ${cell(c)} |`).join('');
  const dashes = others.map(() => ' – |').join('');
  const failed = (backend: Backend) => rows.filter((r) => (backend === 'libreoffice' ? r.native : r.wasm).pdf === undefined);
  const failures = (backend: Backend) =>
    failed(backend)
      .map((r) => `${r.file} (${(backend === 'libreoffice' ? r.native : r.wasm).outcome})`)
      .join(', ') || 'none';
  return [
    `Run ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${os.cpus().length} × ${os.cpus()[0]?.model.trim() ?? 'cpu'} (shared with other work), Node ${process.version}; the WebAssembly office was ready ${(readyMs / 1000).toFixed(0)} s after its service listened.`,
    '',
    `${rows.length} files. The installed LibreOffice converted ${judged.length}; the figures below are over those (a file the WebAssembly office fails counts against it). "Same fonts": the office also has the WebAssembly office's font files; "machine's fonts": the installed office as a bare Debian install has it.`,
    '',
    `| measure | WebAssembly against installed, same fonts |${references.map((r) => ` … ${r.label} |`).join('')} target |`,
    `|---|--:|${references.map(() => '--:|').join('')}--:|`,
    `| page count equal | ${percent(pagesEqual.length, judged.length)} (${pagesEqual.length}/${judged.length}) |${cells((c) => c.pages)} ≥ ${PAGES_TARGET * 100} % |`,
    `| pdftotext words ≥ ${WORDS_TARGET * 100} % the same | ${percent(wordsEqual.length, judged.length)} (${wordsEqual.length}/${judged.length}) |${cells((c) => c.words)} all files |`,
    `| words found, all files together | ${percent(sumShared(judged), sumWords(judged))} of ${sumWords(judged)} |${dashes} – |`,
    `| SSIM of 72-dpi pages, median of the files' means | ${fixed(median(fileSsims))} |${dashes} reported |`,
    `| SSIM, lowest file mean / lowest page | ${fixed(Math.min(...fileSsims))} / ${fixed(Math.min(...pageSsims))} (${pageSsims.length} pages compared) |${dashes} reported |`,
    `| failures: the office compared with | ${failed('libreoffice').length}: ${failures('libreoffice')} |${cells((c) => c.failures)} – |`,
    `| failures: WebAssembly | ${failed('wasm').length}: ${failures('wasm')} |${dashes} – |`,
  ];
}

const sumWords = (rows: readonly Row[]) => rows.reduce((s, r) => s + sharedWords(r.native.words, r.wasm.words).total, 0);
const sumShared = (rows: readonly Row[]) => rows.reduce((s, r) => s + sharedWords(r.native.words, r.wasm.words).shared, 0);

function table(rows: readonly Row[], references: readonly Reference[]): string[] {
  const fontList = (names: readonly string[]) => (names.length ? names.join(', ') : '–');
  const wordsCell = (share: number | undefined) => (share === undefined ? '–' : `${(100 * share).toFixed(1)} %`);
  const referenceCell = (r: Row, reference: Reference) => {
    const compared = r.references[reference.name];
    if (!compared) return '–';
    return compared.conversion.pdf === undefined ? compared.conversion.outcome : `${compared.conversion.pages}, ${wordsCell(compared.wordOverlap)}`;
  };
  return [
    `| file | KB | installed: time, pages | wasm: time, pages | words | SSIM mean (min) | fonts only installed | fonts only wasm |${references.map((r) => ` ${r.label}: pages, words |`).join('')}`,
    `|---|--:|---|---|--:|---|---|---|${references.map(() => '---|').join('')}`,
    ...rows.map((r) => {
      const pages = (c: Conversion) => (c.pdf === undefined ? c.outcome : `${c.outcome}, ${c.pages}`);
      const differs = r.native.pdf !== undefined && r.wasm.pages !== r.native.pages ? ' **≠**' : '';
      const ssimCell = r.ssims.length ? `${fixed(mean(r.ssims))} (${fixed(Math.min(...r.ssims))})` : '–';
      return `| ${r.file} | ${Math.ceil(r.bytes / 1024)} | ${pages(r.native)} | ${pages(r.wasm)}${differs} | ${wordsCell(r.wordOverlap)} | ${ssimCell} | ${fontList(r.fontsOnlyNative)} | ${fontList(r.fontsOnlyWasm)} |${references.map((reference) => ` ${referenceCell(r, reference)} |`).join('')}`;
    }),
  ];
}

async function main(): Promise<void> {
  const only = process.argv[2];
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'docwasm-office-fidelity-'));
  // Generous bounds: the machine is shared, and a first conversion of each kind warms the office.
  const flags = ['--timeout', '600', '--office-start-timeout', '900'];
  const services: Record<string, RunningService> = {};
  const references = await referenceOffices();
  const rows: Row[] = [];
  let readyMs = 0;
  try {
    const shared = shareWasmOfficeFonts(scratch);
    process.stderr.write(`office-fidelity: ${shared.count} font files of the WebAssembly office given to the installed one (${shared.fontconfig})\n`);
    services.libreoffice = await startService([...flags, '--document-backend', 'libreoffice'], { FONTCONFIG_FILE: shared.fontconfig });
    services.wasm = await startService([...flags, '--document-backend', 'wasm']);
    for (const reference of references) {
      services[reference.name] = await startService(
        [...flags, '--document-backend', 'libreoffice', ...reference.flags],
        reference.sameFonts ? { FONTCONFIG_FILE: shared.fontconfig } : {},
      );
    }
    const waited = performance.now();
    await waitForOfficeReady(services.wasm, 1_800_000);
    readyMs = Math.round(performance.now() - waited);
    const files = corpus(only);
    for (const file of files) {
      const row = await compare(services, references, file, scratch);
      rows.push(row);
      const others = references.map((r) => `${r.name}=${row.references[r.name]?.conversion.pages ?? row.references[r.name]?.conversion.outcome}`).join(' ');
      process.stderr.write(
        `office-fidelity: ${row.file} installed=${row.native.outcome}/${row.native.pages ?? '–'} ${others} wasm=${row.wasm.outcome}/${row.wasm.pages ?? '–'} words=${fixed(row.wordOverlap)} ssim=${row.ssims.length ? fixed(mean(row.ssims)) : '–'}\n`,
      );
      // The page is written after every file, so that a run cut short still leaves its figures.
      if (!only) replaceGenerated('docs/office-fidelity.md', 'office-fidelity', fidelityPage(rows, references, readyMs, files.length));
    }
  } finally {
    for (const service of Object.values(services)) await stopAndRemove(service);
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  process.stdout.write(`${fidelityPage(rows, references, readyMs, rows.length)}\n`);
}

/**
 * The installed office as a bare Debian install has it (the machine's fonts), and, when
 * OFFICE_FIDELITY_SOFFICE names one, another LibreOffice with the same fonts as the others.
 */
async function referenceOffices(): Promise<Reference[]> {
  const machine: Reference = { name: 'machine-fonts', label: "installed, machine's fonts", flags: [], sameFonts: false };
  const other = process.env.OFFICE_FIDELITY_SOFFICE;
  if (!other) return [machine];
  // As the service's own detection reads it (main.xcd); the backports script links share/registry/main.xcd to it.
  const version = await readVersion(other);
  return [machine, { name: 'other-version', label: `LibreOffice ${version}, same fonts`, flags: ['--soffice', other], sameFonts: true }];
}

function fidelityPage(rows: readonly Row[], references: readonly Reference[], readyMs: number, planned: number): string {
  const cut = rows.length < planned ? [`**A partial run: ${rows.length} of ${planned} files.**`, ''] : [];
  return [...cut, ...summary(rows, references, readyMs), '', ...table(rows, references)].join('\n');
}

await main();
