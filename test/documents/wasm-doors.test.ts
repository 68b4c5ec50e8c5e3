// Every door converting office files with LibreOffice in WebAssembly (--document-backend wasm,
// forced even where an installed LibreOffice exists): an HTTP async job, a pipeline step and a
// watched folder of one `serve --watch` process (one office start for the three), then the CLI
// one-shot and the MCP server (a process, so an office, of their own each). CSV input is read
// from real files made by other programs (docling's test data, with quoted commas and CRLF
// line ends). Every product is read back with pdftotext, qpdf or unzip, never with docwasm's code.

import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopAtEnd } from '../helpers/cleanup.js';
import { documentFixtures, officeProcessesOf, pdfText, SLIDE_TEXT, TEXT_LINE, zipPart, type DocumentFixtures } from '../helpers/documents.js';
import { finishedJob, submitHeld } from '../helpers/jobs.js';
import { attachService, CLI, freePort, leftoverTempFiles, ROOT, tempDir, type RunningService } from '../helpers/service.js';
import { qpdfCheck } from '../helpers/tools.js';
import { WASM_TEST_TIMEOUT_MS, waitForOfficeReady } from '../helpers/wasm-office.js';
import { watchStderrForWarnings } from '../helpers/warnings.js';
import { stateOf, waitFor } from '../helpers/watch.js';
import { officeTag } from '../../src/wasm-office/wasm-office.js';

const BACKEND = 'libreoffice-wasm';
/** docling's CSV test data (fixtures/README.md): quoted fields holding commas, CRLF line ends. */
const DOCLING = path.join(ROOT, 'fixtures', 'reading', 'docling');
const CUSTOMERS = path.join(DOCLING, 'csv-comma.csv');
const COMMA_IN_CELL = path.join(DOCLING, 'csv-comma-in-cell.csv');

/** The texts of an XML part's elements that hold text only (a spreadsheet cell's string). */
const elementTexts = (xml: string, tag: string) => [...xml.matchAll(new RegExp(`<${tag}\\b[^>]*>([^<]*)</${tag}>`, 'g'))].map((m) => m[1]);
/** The character data of an XML part: runs and spans split text arbitrarily. */
const xmlText = (xml: string) => xml.replace(/<[^>]+>/g, '');

/** A PDF of docling's customers CSV: quoted fields are one cell each (split, they would keep their quotes). */
function expectCustomerCells(pdf: string): void {
  const text = pdfText(pdf);
  for (const cell of ['Lozano, Dr', 'Dominguez, Mcmillan and Donovan', 'Preston', 'zunigavanessa@smith.info']) expect(text).toContain(cell);
  expect(text).not.toContain('"');
}

/**
 * LibreOffice's CSV as the input it came from: it quotes numeric cells (`"42"`, the same value,
 * RFC 4180) and ends lines with LF where the input had CRLF.
 */
const csvAsInput = (text: string) =>
  text
    .replace(/"([0-9][0-9.-]*)"/g, '$1')
    .replace(/\r\n/g, '\n')
    .trimEnd();

let fx: DocumentFixtures;
let service: RunningService;
/** The watched folder of the service (outside its base dir: the watch state file is a dotfile). */
let watched: { inDir: string; outDir: string };

beforeAll(async () => {
  fx = await documentFixtures();
  const root = tempDir('docwasm-wasm-doors-watch-');
  watched = { inDir: path.join(root, 'in'), outDir: path.join(root, 'out') };
  fs.mkdirSync(watched.inDir);
  const steps = path.join(root, 'steps.json');
  fs.writeFileSync(steps, JSON.stringify([{ operation: 'convert', format: 'pdf' }]));
  const port = await freePort();
  const dir = tempDir('docwasm-wasm-doors-');
  const args = [
    CLI,
    'serve',
    '--port',
    String(port),
    '--base-dir',
    dir,
    '--document-backend',
    'wasm',
    '--watch',
    watched.inDir,
    '--steps',
    steps,
    '--out',
    watched.outDir,
    '--settle',
    '0.2',
  ];
  service = await attachService(spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] }), port, dir);
  for (const from of [fx.text[0], fx.text[1], fx.presentation[0], CUSTOMERS, COMMA_IN_CELL] as string[])
    fs.copyFileSync(from, path.join(dir, path.basename(from)));
  await waitForOfficeReady(service);
}, WASM_TEST_TIMEOUT_MS);

afterAll(async () => {
  await service?.stop();
});

const file = (name: string) => path.join(service.dir, name);

/** The offices `pid` runs are WebAssembly ones: no soffice was started, though one may be installed. */
function wasmOffices(pid: number): boolean[] {
  return officeProcessesOf(pid).map((p) => p.args.endsWith(` ${officeTag(pid)}`));
}

describe('serve --document-backend wasm', { timeout: WASM_TEST_TIMEOUT_MS }, () => {
  it('health names the WebAssembly office, ready, sandboxed by construction', async () => {
    const { body } = await service.get('/api/health');
    expect(body.data?.document).toMatchObject({ available: true, backend: BACKEND, sandbox: 'wasm', state: 'ready' });
    expect(wasmOffices(service.child.pid as number)).toEqual([true]);
  });

  it('an async job converts a batch (docx, a legacy .doc, pptx, a real CSV) to PDF, progress counting the files', async () => {
    const files = ['text-docx.docx', 'text-doc.doc', 'slides-pptx.pptx', 'csv-comma.csv'];
    const jobId = await submitHeld(service, '/api/convert/batch', { files, format: 'pdf', outputDir: 'async' });
    const job = await finishedJob(service, jobId, WASM_TEST_TIMEOUT_MS - 60_000);
    expect(job, JSON.stringify(job.result)).toMatchObject({
      status: 'succeeded',
      progress: { done: 4, total: 4 },
      result: { success: true, data: { succeeded: 4, failed: 0 } },
    });
    for (const name of ['text-docx', 'text-doc']) expect(pdfText(file(`async/${name}.pdf`))).toContain(TEXT_LINE);
    expect(pdfText(file('async/slides-pptx.pdf'))).toContain(SLIDE_TEXT);
    expectCustomerCells(file('async/csv-comma.pdf'));
    for (const name of files) expect(qpdfCheck(file(`async/${path.parse(name).name}.pdf`))).toBe(true);
    expect(leftoverTempFiles(service.dir)).toEqual([]);
  });

  it('reads CSV as the installed office does: one cell per field, into xlsx, ods and csv (sync batches)', async () => {
    const files = ['csv-comma.csv', 'csv-comma-in-cell.csv'];
    for (const format of ['xlsx', 'ods', 'csv']) {
      const { status, body } = await service.post('/api/convert/batch', { files, format, outputDir: `csv/${format}` });
      expect(status).toBe(200);
      expect(body.data, format).toMatchObject({ succeeded: 2, failed: 0 });
    }
    const strings = elementTexts(zipPart(file('csv/xlsx/csv-comma.xlsx'), 'xl/sharedStrings.xml'), 't');
    expect(strings).toEqual(expect.arrayContaining(['Lozano, Dr', 'Dominguez, Mcmillan and Donovan', 'Customer Id']));
    // The sheet is named after the file, as the installed office names it.
    expect(zipPart(file('csv/xlsx/csv-comma.xlsx'), 'xl/workbook.xml')).toContain('<sheet name="csv-comma"');
    expect(elementTexts(zipPart(file('csv/ods/csv-comma-in-cell.ods'), 'content.xml'), 'text:p')).toEqual([
      '1',
      '2',
      '3',
      '4',
      'a',
      'b',
      'c',
      'd',
      'a',
      ',',
      'c',
      'd',
      'a',
      'b',
      'c',
      'd',
      'a',
      'b',
      'c',
      'd',
    ]);
    for (const source of [CUSTOMERS, COMMA_IN_CELL]) {
      const written = fs.readFileSync(file(`csv/csv/${path.basename(source)}`), 'utf8');
      expect(csvAsInput(written)).toBe(csvAsInput(fs.readFileSync(source, 'utf8')));
    }
  });

  it('a pipeline converts a pptx and watermarks the PDF', async () => {
    const steps = [
      { operation: 'convert', format: 'pdf' },
      { operation: 'pdf/watermark', text: 'WASMSTEP', rotation: 0 },
    ];
    const { status, body } = await service.post('/api/pipeline', { input: 'slides-pptx.pptx', steps, output: 'pipeline/slides.pdf' });
    expect(status, JSON.stringify(body)).toBe(200);
    expect(qpdfCheck(file('pipeline/slides.pdf'))).toBe(true);
    const text = pdfText(file('pipeline/slides.pdf'));
    expect(text).toContain(SLIDE_TEXT);
    expect(text.replace(/\s/g, '')).toContain('WASMSTEP');
    expect(fs.readdirSync(file('pipeline'))).toEqual(['slides.pdf']);
  });

  it('the watched folder converts dropped office files, leaving the inputs as they were', async () => {
    const dropped = { 'letter.docx': fx.text[0] as string, 'customers.csv': CUSTOMERS };
    for (const [name, from] of Object.entries(dropped)) fs.copyFileSync(from, path.join(watched.inDir, name));
    const settled = () => Object.values(stateOf(watched.outDir)).filter((entry) => entry.status !== 'running').length === 2;
    await waitFor(settled, `two files handled:\n${service.stderr()}`, WASM_TEST_TIMEOUT_MS - 60_000);
    expect(stateOf(watched.outDir)).toMatchObject({ 'letter.docx': { status: 'done' }, 'customers.csv': { status: 'done' } });
    expect(pdfText(path.join(watched.outDir, 'letter.pdf'))).toContain(TEXT_LINE);
    expectCustomerCells(path.join(watched.outDir, 'customers.pdf'));
    for (const [name, from] of Object.entries(dropped)) expect(fs.readFileSync(path.join(watched.inDir, name))).toEqual(fs.readFileSync(from));
    expect(wasmOffices(service.child.pid as number).every(Boolean)).toBe(true);
  });
});

/** Runs the built CLI to its end; the office it starts is its own. */
function runCli(args: string[], cwd: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child: ChildProcess = stopAtEnd(spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'] }));
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (status) => resolve({ status, stdout, stderr })));
}

describe('the CLI one-shot with --document-backend wasm', { timeout: WASM_TEST_TIMEOUT_MS }, () => {
  it('converts a batch of a docx and a real CSV to PDF, and exits', async () => {
    const dir = tempDir('docwasm-wasm-doors-cli-');
    fs.copyFileSync(fx.text[0] as string, path.join(dir, 'letter.docx'));
    fs.copyFileSync(CUSTOMERS, path.join(dir, 'customers.csv'));
    const run = await runCli(
      ['convert', 'batch', 'letter.docx', 'customers.csv', '--format', 'pdf', '--output-dir', 'out', '--document-backend', 'wasm', '--json'],
      dir,
    );
    watchStderrForWarnings('the CLI', () => run.stderr);
    expect(run.status, run.stderr).toBe(0);
    const envelope = JSON.parse(run.stdout) as { success: boolean; data: { succeeded: number } };
    expect(envelope).toMatchObject({ success: true, data: { succeeded: 2 } });
    expect(pdfText(path.join(dir, 'out', 'letter.pdf'))).toContain(TEXT_LINE);
    expectCustomerCells(path.join(dir, 'out', 'customers.pdf'));
    expect(fs.readdirSync(dir).sort()).toEqual(['customers.csv', 'letter.docx', 'out']);
  });
});

describe('the MCP server with --document-backend wasm', { timeout: WASM_TEST_TIMEOUT_MS }, () => {
  let client: Client | undefined;
  afterAll(async () => {
    await client?.close();
  });

  it('converts a docx to odt and reads a legacy .doc as Markdown', async () => {
    const dir = tempDir('docwasm-wasm-doors-mcp-');
    fs.copyFileSync(fx.text[0] as string, path.join(dir, 'letter.docx'));
    fs.copyFileSync(fx.text[1] as string, path.join(dir, 'old.doc'));
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [CLI, 'mcp', '--document-backend', 'wasm', '--allow-dir', dir, '--base-dir', dir],
      stderr: 'pipe',
    });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    watchStderrForWarnings('the MCP server', () => stderr);
    client = new Client({ name: 'docwasm-test', version: '1.0.0' });
    await client.connect(transport);
    // The first call waits for the office's start.
    const timeout = WASM_TEST_TIMEOUT_MS - 120_000;
    const converted = (await client.callTool({ name: 'convert', arguments: { input: 'letter.docx', output: 'letter.odt' } }, undefined, {
      timeout,
    })) as CallToolResult;
    expect(converted.isError, JSON.stringify(converted.content)).toBeFalsy();
    expect(converted.structuredContent).toMatchObject({ success: true, data: { format: 'odt', backend: BACKEND } });
    expect(xmlText(zipPart(path.join(dir, 'letter.odt'), 'content.xml'))).toContain(TEXT_LINE);
    const read = (await client.callTool({ name: 'read', arguments: { input: 'old.doc' } }, undefined, { timeout })) as CallToolResult;
    expect(read.isError, JSON.stringify(read.content)).toBeFalsy();
    const first = read.content[0];
    expect(first?.type === 'text' ? first.text : '').toContain(TEXT_LINE);
  });
});
