// `docwasm mcp` driven by a real MCP client from the official SDK over stdio, as an AI agent's
// host would: the tools are listed with their JSON Schemas, merge / OCR / convert produce files
// checked with independent tools, a path outside --allow-dir is an error result carrying its
// code, and the server exits by itself when its stdin closes.

import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentFixtures, officeProcessesOf, pdfText, TEXT_LINE, waitFor } from '../helpers/documents.js';
import { makePdf } from '../helpers/make-pdf.js';
import { renderText } from '../helpers/ocr-images.js';
import { callTool, type ToolEnvelope } from '../helpers/mcp-call.js';
import { CLI, leftoverTempFiles, tempDir, workingPid } from '../helpers/service.js';
import { pageCount, qpdfCheck } from '../helpers/tools.js';

let dir: string;
let outside: string;
let client: Client;
let transport: StdioClientTransport;
let serverStderr = '';

const call = (name: string, args: Record<string, unknown>) => callTool(client, name, args);

beforeAll(async () => {
  dir = tempDir('docwasm-mcp-');
  outside = tempDir('docwasm-mcp-outside-');
  fs.writeFileSync(path.join(dir, 'a.pdf'), makePdf({ pages: ['Alpha one', 'Alpha two'] }));
  fs.writeFileSync(path.join(dir, 'b.pdf'), makePdf({ pages: ['Bravo one'] }));
  fs.writeFileSync(path.join(outside, 'secret.pdf'), makePdf({ pages: ['Secret'] }));
  fs.writeFileSync(path.join(dir, 'line.png'), await renderText('Hello from the agent', { width: 1200 }));
  const docs = await documentFixtures();
  fs.copyFileSync(docs.text[0] as string, path.join(dir, 'letter.docx'));
  fs.copyFileSync(docs.text[3] as string, path.join(dir, 'notes.odt'));

  transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--allow-dir', dir, '--base-dir', dir], stderr: 'pipe' });
  transport.stderr?.on('data', (chunk: Buffer) => (serverStderr += chunk.toString()));
  client = new Client({ name: 'docwasm-test', version: '1.0.0' });
  await client.connect(transport);
}, 120_000);

afterAll(async () => {
  await client?.close();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

describe('docwasm mcp', () => {
  it('lists one tool per operation, with its JSON Schema and summary', async () => {
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of ['pdf_merge', 'pdf_split', 'pdf_encrypt', 'image_resize', 'image_convert', 'ocr', 'convert', 'convert_batch'])
      expect(names).toContain(name);
    const merge = tools.find((t) => t.name === 'pdf_merge');
    expect(merge?.description).toMatch(/merge/i);
    expect(merge?.inputSchema.type).toBe('object');
    expect(merge?.inputSchema.required).toEqual(expect.arrayContaining(['files', 'output']));
    expect(Object.keys(merge?.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['files', 'output']));
    const resize = tools.find((t) => t.name === 'image_resize');
    expect((resize?.inputSchema.properties as Record<string, { enum?: string[] }>).fit?.enum).toEqual(['fill', 'inside', 'cover']);
  });

  it('annotates each tool with what it does to files: read-only, may replace a file, repeatable, local only', async () => {
    const { tools } = await client.listTools();
    const annotations = Object.fromEntries(tools.map((t) => [t.name, t.annotations]));
    expect(annotations.pdf_info).toEqual({ readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false });
    expect(annotations.pdf_merge).toEqual({ readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false });
    // Rotating a file in place twice turns it twice; rendering pages to images again writes the same images.
    expect(annotations.pdf_rotate?.idempotentHint).toBe(false);
    expect(annotations.pdf_to_images?.idempotentHint).toBe(true);
    // OCR writes its text or a searchable PDF when given an output.
    expect(annotations.ocr?.readOnlyHint).toBe(false);
    for (const tool of tools) expect(tool.annotations?.openWorldHint, tool.name).toBe(false);
  });

  it('refuses an unknown tool with one protocol error whose message says it once', async () => {
    const refusal = await client.callTool({ name: 'pdf_shred', arguments: {} }).then(
      () => undefined,
      (err: unknown) => err as Error & { code?: number },
    );
    expect(refusal?.code).toBe(-32602);
    expect(refusal?.message).toMatch(/^MCP error -32602: Unknown tool "pdf_shred"; the tools are /);
    expect(refusal?.message.match(/MCP error/g)).toHaveLength(1);
  });

  it('merges PDFs (checked with qpdf), answering the envelope as text and structured content', async () => {
    const { result, envelope } = await call('pdf_merge', { files: ['a.pdf', 'b.pdf'], output: 'merged.pdf' });
    expect(result.isError).toBeFalsy();
    expect(envelope).toMatchObject({ success: true, outputPath: path.join(dir, 'merged.pdf'), data: { pages: 3, files: 2 } });
    expect(result.structuredContent).toEqual(envelope);
    expect(qpdfCheck(path.join(dir, 'merged.pdf'))).toBe(true);
    expect(pageCount(path.join(dir, 'merged.pdf'))).toBe(3);
  });

  it('reads the text of an image', async () => {
    const { result, envelope } = await call('ocr', { input: path.join(dir, 'line.png') });
    expect(result.isError).toBeFalsy();
    expect(envelope.success).toBe(true);
    expect(envelope.text).toContain('Hello from the agent');
  });

  it('reads a document: the text an agent gets is the Markdown itself, the envelope in structuredContent', async () => {
    const result = (await client.callTool({ name: 'read', arguments: { input: 'letter.docx' } }, undefined, { timeout: 120_000 })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const first = result.content[0] as { type: string; text: string };
    expect(first.type).toBe('text');
    expect(first.text).toContain(TEXT_LINE);
    expect(first.text.trimStart().startsWith('{')).toBe(false);
    const envelope = result.structuredContent as unknown as ToolEnvelope;
    expect(envelope).toMatchObject({ success: true, text: first.text });
  });

  it('converts a .docx and an .odt to PDF (checked with pdftotext)', async () => {
    const single = await call('convert', { input: 'letter.docx', output: 'letter.pdf', format: 'pdf' });
    expect(single.result.isError).toBeFalsy();
    expect(pdfText(path.join(dir, 'letter.pdf'))).toContain(TEXT_LINE);
    const batch = await call('convert_batch', { files: ['notes.odt'], format: 'pdf', outputDir: 'converted' });
    expect(batch.envelope).toMatchObject({ success: true, data: { succeeded: 1, failed: 0 } });
    expect(pdfText(path.join(dir, 'converted', 'notes.pdf'))).toContain(TEXT_LINE);
  });

  it('answers a path outside --allow-dir as an error result with its code, and writes nothing', async () => {
    const { result, envelope } = await call('pdf_merge', { files: [path.join(outside, 'secret.pdf')], output: 'stolen.pdf' });
    expect(result.isError).toBe(true);
    expect(envelope).toMatchObject({ success: false, code: 'PATH_NOT_ALLOWED' });
    expect((result.content[0] as { text: string }).text).toContain('PATH_NOT_ALLOWED');
    expect(fs.existsSync(path.join(dir, 'stolen.pdf'))).toBe(false);
  });

  it('answers invalid arguments as VALIDATION_ERROR', async () => {
    const { result, envelope } = await call('image_resize', { input: 'line.png', output: 'x.png', width: 10, scale: 2 });
    expect(result.isError).toBe(true);
    expect(envelope.code).toBe('VALIDATION_ERROR');
    expect(leftoverTempFiles(dir)).toEqual([]);
  });

  it('keeps stdout for protocol messages only', async () => {
    // An SDK client that reads anything but JSON-RPC on stdout reports it through onerror.
    const errors: Error[] = [];
    client.onerror = (err) => errors.push(err);
    const { envelope } = await call('pdf_split', { input: 'a.pdf', pages: '1,2', outputDir: 'parts' });
    expect(envelope.success).toBe(true);
    expect(errors).toEqual([]);
    expect(serverStderr).not.toContain('internal error');
  });
});

describe('docwasm mcp process', () => {
  it('writes only JSON-RPC to stdout and exits by itself, status 0, when its stdin closes, after starting engines and LibreOffice', async () => {
    const child = spawn(process.execPath, [CLI, 'mcp', '--base-dir', dir], { stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const answered = (id: number) => waitFor(() => stdout.includes(`"id":${id}`), 120_000);
    const send = (message: object) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    try {
      send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
      expect(await answered(1)).toBe(true);
      // The server's PID tags its offices: on older Node a launcher's child (malloc-restart.ts).
      const server = workingPid(child.pid!);
      send({ method: 'notifications/initialized' });
      send({ id: 2, method: 'tools/call', params: { name: 'pdf_merge', arguments: { files: ['a.pdf'], output: 'raw.pdf' } } });
      send({ id: 3, method: 'tools/call', params: { name: 'convert', arguments: { input: 'letter.docx', output: 'raw-letter.pdf', format: 'pdf' } } });
      send({ id: 4, method: 'tools/call', params: { name: 'ocr', arguments: { input: 'line.png' } } });
      for (const id of [2, 3, 4]) expect(await answered(id)).toBe(true);
      child.stdin.end();
      const status = await Promise.race([exited, new Promise<string>((resolve) => setTimeout(() => resolve('still running'), 60_000))]);
      expect(status).toBe(0);
      expect(officeProcessesOf(server)).toEqual([]);
      // Every line on stdout is a JSON-RPC message.
      for (const line of stdout.split('\n').filter((l) => l !== '')) expect((JSON.parse(line) as { jsonrpc?: string }).jsonrpc).toBe('2.0');
      expect(pageCount(path.join(dir, 'raw.pdf'))).toBe(2);
      expect(pdfText(path.join(dir, 'raw-letter.pdf'))).toContain(TEXT_LINE);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 240_000);
});
