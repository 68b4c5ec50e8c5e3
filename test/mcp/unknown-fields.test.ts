// MCP and unknown fields (docs/cli-and-mcp.md): every tool's input schema closes its objects
// (`additionalProperties: false`), so a client that checks arguments catches a typo first; the
// server itself still answers a misspelt field with the envelope's `warnings`, as HTTP does,
// and `convert` takes its format from the output's extension. A real SDK client over stdio.

import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_FIXTURES, TEXT_LINE } from '../helpers/documents.js';
import { makePdf } from '../helpers/make-pdf.js';
import { callTool, type ToolEnvelope } from '../helpers/mcp-call.js';
import { CLI, tempDir } from '../helpers/service.js';
import { pageCount, qpdfCheck } from '../helpers/tools.js';

let dir: string;
let client: Client;

const call = (name: string, args: Record<string, unknown>) => callTool(client, name, args);

beforeAll(async () => {
  dir = tempDir('docwasm-mcp-fields-');
  fs.writeFileSync(path.join(dir, 'a.pdf'), makePdf({ pages: ['Alpha one', 'Alpha two'] }));
  fs.copyFileSync(path.join(DOCUMENT_FIXTURES, 'text-docx.docx'), path.join(dir, 'letter.docx'));
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--allow-dir', dir, '--base-dir', dir], stderr: 'ignore' });
  client = new Client({ name: 'docwasm-test', version: '1.0.0' });
  await client.connect(transport);
}, 120_000);

afterAll(async () => {
  await client?.close();
});

describe('MCP tools and unknown fields', () => {
  it('declares additionalProperties: false on every tool, nested objects included, pipeline steps left open', async () => {
    const { tools } = await client.listTools();
    expect(tools.length).toBeGreaterThan(20);
    for (const tool of tools) expect(tool.inputSchema.additionalProperties, tool.name).toBe(false);
    const redact = tools.find((tool) => tool.name === 'pdf_redact')?.inputSchema.properties as Record<string, { items?: { additionalProperties?: unknown } }>;
    expect(redact.areas?.items?.additionalProperties).toBe(false);
    const pipeline = tools.find((tool) => tool.name === 'pipeline')?.inputSchema.properties as Record<string, { items?: { additionalProperties?: unknown } }>;
    expect(pipeline.steps?.items?.additionalProperties).not.toBe(false);
  });

  it('answers a misspelt field with a warning naming the field meant, in the text and the structured content', async () => {
    const { result, envelope } = await call('pdf_compress', { input: 'a.pdf', output: 'small.pdf', qualty: 10 });
    expect(result.isError).toBe(false);
    const warning = 'unknown field "qualty" ignored; did you mean "quality"?';
    expect(envelope.warnings).toEqual([warning]);
    expect((result.structuredContent as unknown as ToolEnvelope).warnings).toEqual([warning]);
    expect(qpdfCheck(path.join(dir, 'small.pdf'))).toBe(true);
  });

  it("warns about a pipeline step's unknown field, naming the step", async () => {
    const { envelope } = await call('pipeline', { input: 'a.pdf', steps: [{ operation: 'pdf/rotate', degres: 90 }], output: 'turned.pdf' });
    // degrees is required: the step fails validation and says which field was meant.
    expect(envelope.success).toBe(false);
    expect(envelope.error).toContain('step 1 (pdf/rotate): degrees is required; unknown field "degres" — did you mean "degrees"?');
    const fine = await call('pipeline', { input: 'a.pdf', steps: [{ operation: 'pdf/rotate', degrees: 90, page: '1' }], output: 'turned.pdf' });
    expect(fine.envelope.warnings).toEqual(['step 1 (pdf/rotate): unknown field "page" ignored; did you mean "pages"?']);
    expect(pageCount(path.join(dir, 'turned.pdf'))).toBe(2);
  });

  it("takes convert's format from the output's extension", async () => {
    const { envelope } = await call('convert', { input: 'letter.docx', output: 'letter.md' });
    expect(envelope.success, envelope.error).toBe(true);
    expect(envelope.data?.format).toBe('md');
    expect(fs.readFileSync(path.join(dir, 'letter.md'), 'utf8')).toContain(TEXT_LINE);
  });
});
