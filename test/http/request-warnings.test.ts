// What a newcomer's request meets over HTTP (docs/api.md, "Unknown fields" and "convert"): a
// misspelt field is ignored but answered as a warning naming the field it may mean — in the
// answer, a pipeline step's, an async job's 202 and result, the log line's count and the
// OpenAPI document; `convert` takes its format from the output's extension; a missing field
// says it is required (and which unknown field may have meant it), a wrong type says what JSON
// it must be.

import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DOCUMENT_FIXTURES, pdfText, TEXT_LINE } from '../helpers/documents.js';
import { pollJob } from '../helpers/jobs.js';
import { makePdf } from '../helpers/make-pdf.js';
import { startService, type RunningService } from '../helpers/service.js';
import { pageCount, qpdfCheck } from '../helpers/tools.js';

let service: RunningService;
const file = (name: string) => path.join(service.dir, name);

beforeAll(async () => {
  service = await startService();
  fs.writeFileSync(file('in.pdf'), makePdf({ pages: ['first page', 'second page'] }));
  fs.copyFileSync(path.join(DOCUMENT_FIXTURES, 'text-docx.docx'), file('letter.docx'));
});
afterAll(() => service.stop());

/** Waits for a log line matching `line` on the service's stderr (it is written after the answer). */
async function logged(line: RegExp): Promise<string> {
  for (const deadline = Date.now() + 10_000; !line.test(service.stderr()) && Date.now() < deadline;) await new Promise((resolve) => setTimeout(resolve, 50));
  return service.stderr();
}

describe('unknown fields', () => {
  it('answers a misspelt field as a warning naming the field it may mean, and does the work', async () => {
    const response = await service.post('/api/pdf/compress', { input: 'in.pdf', output: 'small.pdf', qualty: 10 });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.warnings).toEqual(['unknown field "qualty" ignored; did you mean "quality"?']);
    expect(qpdfCheck(file('small.pdf'))).toBe(true);
    expect(await logged(/POST \/api\/pdf\/compress 200 - \d+ms 1 warning$/m)).toMatch(/POST \/api\/pdf\/compress 200 - \d+ms 1 warning$/m);
  });

  it('compares case-insensitively, suggests only within two edits, and names every unknown field', async () => {
    const response = await service.post('/api/pdf/rotate', { input: 'in.pdf', output: 'turned.pdf', degrees: 90, Pages: '1', colour: 'red' });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.warnings).toEqual(['unknown field "Pages" ignored; did you mean "pages"?', 'unknown field "colour" ignored']);
    expect(await logged(/POST \/api\/pdf\/rotate 200 - \d+ms 2 warnings$/m)).toMatch(/POST \/api\/pdf\/rotate 200 - \d+ms 2 warnings$/m);
  });

  it('carries no warnings when every field is known', async () => {
    const response = await service.post('/api/pdf/info', { input: 'in.pdf' });
    expect(response.status).toBe(200);
    expect(response.body).not.toHaveProperty('warnings');
  });

  it("warns about a pipeline step's unknown field, naming the step", async () => {
    const response = await service.post('/api/pipeline', {
      input: 'in.pdf',
      steps: [
        { operation: 'pdf/rotate', degrees: 90 },
        { operation: 'pdf/compress', qualty: 10 },
      ],
      output: 'chain.pdf',
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.warnings).toEqual(['step 2 (pdf/compress): unknown field "qualty" ignored; did you mean "quality"?']);
    expect(pageCount(file('chain.pdf'))).toBe(2);
  });

  it("puts the warnings in an async job's 202 answer and in its result", async () => {
    const accepted = await service.post('/api/pdf/compress', { input: 'in.pdf', output: 'later.pdf', qualty: 10, async: true });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(202);
    const warning = 'unknown field "qualty" ignored; did you mean "quality"?';
    expect(accepted.body.warnings).toEqual([warning]);
    const states = await pollJob(service, (accepted.body.data as { jobId: string }).jobId);
    const last = states.at(-1);
    expect(last?.status).toBe('succeeded');
    expect((last?.result as { warnings?: string[] } | undefined)?.warnings).toEqual([warning]);
  });

  it('describes warnings in the OpenAPI success envelope', async () => {
    const document = (await service.get('/openapi.json')).body as {
      components: { schemas: { Success: { properties: Record<string, { type?: string; items?: { type: string } }> } } };
    };
    expect(document.components.schemas.Success.properties.warnings).toMatchObject({ type: 'array', items: { type: 'string' } });
  });
});

describe('messages of a request that fails validation', () => {
  it('says a missing field is required and which unknown field may have meant it', async () => {
    const response = await service.post('/api/pdf/merge', { file: ['in.pdf', 'in.pdf'], output: 'merged.pdf' });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain('files is required; unknown field "file" — did you mean "files"?');
    expect(response.body.error).not.toContain('received undefined');
    expect(fs.existsSync(file('merged.pdf'))).toBe(false);
  });

  it('finds the meant field inside a list of objects too', async () => {
    const response = await service.post('/api/pdf/redact', { input: 'in.pdf', output: 'red.pdf', areas: [{ page: 1, x: 0, y: 0, width: 10, heigth: 10 }] });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain('areas[0].height is required; unknown field "areas[0].heigth" — did you mean "height"?');
  });

  it('says an object field must be a JSON object', async () => {
    const response = await service.post('/api/pdf/fill', { input: 'in.pdf', output: 'filled.pdf', values: 'name=Ada' });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain('values: must be a JSON object, not a string');
  });
});

describe('convert without format', () => {
  it("takes the format from the output's extension (.md)", async () => {
    const response = await service.post('/api/convert', { input: 'letter.docx', output: 'letter.md' });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect((response.body.data as { format: string }).format).toBe('md');
    expect(fs.readFileSync(file('letter.md'), 'utf8')).toContain(TEXT_LINE);
  });

  it("takes the format from the output's extension (.PDF, any case)", async () => {
    const response = await service.post('/api/convert', { input: 'letter.docx', output: 'letter.PDF' });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect((response.body.data as { format: string }).format).toBe('pdf');
    expect(pdfText(file('letter.PDF'))).toContain(TEXT_LINE);
  }, 240_000);

  it('says format is required when the output has no extension, without listing every format as the error', async () => {
    const response = await service.post('/api/convert', { input: 'letter.docx', output: 'letter' });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('VALIDATION_ERROR');
    expect(response.body.error).toContain('format is required (or give an output with a known extension');
    expect(response.body.error).not.toContain('Invalid option');
  });

  it("says the output's extension is not a known format, and lists convert's formats", async () => {
    const response = await service.post('/api/convert', { input: 'letter.docx', output: 'letter.mp3' });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain("format is required: the output's extension .mp3 is not a known format; the formats of convert are pdf, docx");
    expect(fs.existsSync(file('letter.mp3'))).toBe(false);
  });

  it('still refuses pdfa with a format inferred as something else than pdf', async () => {
    const response = await service.post('/api/convert', { input: 'letter.docx', output: 'letter.odt', pdfa: '2b' });
    expect(response.status).toBe(400);
    expect(response.body.error).toContain('pdfa applies to format "pdf" only');
  });
});
