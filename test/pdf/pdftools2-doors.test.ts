// Redact, stamp, forms and sign through the doors other than a synchronous HTTP request: async
// jobs, MCP tools, and the cpdf engine (which leaves them to mupdf: BACKEND_UNAVAILABLE).

import fs from 'node:fs';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { describe, expect, it } from 'vitest';
import { formPdf } from '../helpers/form-fixtures.js';
import { allText } from '../helpers/pdf2-checks.js';
import { personalDataPdf, SECRETS } from '../helpers/redact-fixtures.js';
import { CLI, startService, tempDir } from '../helpers/service.js';

/** A valid request of each new operation, on `personal.pdf` and `form.pdf`. */
const REQUESTS: Record<string, Record<string, unknown>> = {
  'pdf/redact': { input: 'personal.pdf', output: 'out.pdf', patterns: ['email'] },
  'pdf/stamp': { input: 'personal.pdf', output: 'out.pdf', text: 'PAID' },
  'pdf/form-fields': { input: 'form.pdf' },
  'pdf/fill': { input: 'form.pdf', output: 'out.pdf', values: { fullName: 'A' } },
  'pdf/flatten': { input: 'form.pdf', output: 'out.pdf' },
  'pdf/sign': { input: 'personal.pdf', output: 'out.pdf', certificate: 'none.p12' },
  'pdf/signatures': { input: 'personal.pdf' },
};

describe('redact, stamp, forms and signing through every door', () => {
  it('run as async jobs: 202, then the result under /api/jobs/<id>', async () => {
    const service = await startService();
    try {
      fs.writeFileSync(path.join(service.dir, 'personal.pdf'), personalDataPdf());
      const accepted = await service.post('/api/pdf/redact', { ...REQUESTS['pdf/redact'], output: 'async.pdf', async: true });
      expect(accepted.status).toBe(202);
      const jobId = (accepted.body.data as { jobId: string }).jobId;
      let job: Record<string, unknown> = {};
      for (let i = 0; i < 600 && job.status !== 'succeeded' && job.status !== 'failed'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        job = (await service.get(`/api/jobs/${jobId}`)).body.data ?? {};
      }
      expect(job).toMatchObject({ operation: 'pdf/redact', status: 'succeeded', result: { success: true, data: { pages: [1] } } });
      expect(allText(path.join(service.dir, 'async.pdf'))).not.toContain(SECRETS.email);
    } finally {
      await service.stop();
    }
  });

  it('are MCP tools with their schemas, and a call answers the envelope', async () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'form.pdf'), formPdf());
    const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', '--base-dir', dir], stderr: 'pipe' });
    const client = new Client({ name: 'docwasm-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name);
      for (const name of ['pdf_redact', 'pdf_stamp', 'pdf_form_fields', 'pdf_fill', 'pdf_flatten', 'pdf_sign', 'pdf_signatures']) expect(names).toContain(name);
      const sign = tools.find((tool) => tool.name === 'pdf_sign');
      expect(Object.keys(sign?.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['certificate', 'certificatePassword', 'visible']));
      const result = await client.callTool({
        name: 'pdf_fill',
        arguments: { input: 'form.pdf', output: 'mcp.pdf', values: { fullName: 'Via MCP' }, flatten: true },
      });
      expect(result.isError).toBeFalsy();
      expect(allText(path.join(dir, 'mcp.pdf'))).toContain('Via MCP');
      const refused = await client.callTool({ name: 'pdf_fill', arguments: { input: 'form.pdf', output: 'mcp2.pdf', values: { nobody: 'x' } } });
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain('VALIDATION_ERROR');
    } finally {
      await client.close();
    }
  });

  it('answer BACKEND_UNAVAILABLE on the cpdf engine', async () => {
    const service = await startService(['--pdf-engine', 'cpdf']);
    try {
      fs.writeFileSync(path.join(service.dir, 'personal.pdf'), personalDataPdf());
      fs.writeFileSync(path.join(service.dir, 'form.pdf'), formPdf());
      fs.writeFileSync(path.join(service.dir, 'none.p12'), 'x');
      for (const [operation, body] of Object.entries(REQUESTS)) {
        const response = await service.post(`/api/${operation}`, body);
        expect([response.status, response.body.code], operation).toEqual([503, 'BACKEND_UNAVAILABLE']);
      }
      expect(fs.existsSync(path.join(service.dir, 'out.pdf'))).toBe(false);
    } finally {
      await service.stop();
    }
  });
});
