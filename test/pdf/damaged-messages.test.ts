// A damaged PDF gets the contract's answer and nothing else: mupdf and cpdf print a diary of
// their repairs to stderr themselves ("format error: cannot find startxref", "warning: trying
// to repair broken xref", "Attempting to reconstruct the malformed pdf bytes...", "ERROR:
// decryptPdf: Failure(...)"), which reached the terminal of one-shot commands and the service
// log. On both engines: a repaired file succeeds with an empty stderr, an unreadable one prints
// exactly `docwasm: CODE: message`. The damaged files are LibreOffice's fixture PDF, cut.

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, leftoverTempFiles, startService, tempDir, type RunningService } from '../helpers/service.js';

const FIXTURE = path.resolve('fixtures/pdf/text.pdf');
/** One line, the contract's code and a message of one line. */
const CONTRACT_LINE = /^docwasm: (INVALID_INPUT|PASSWORD_REQUIRED): [^\n]+\n$/;

let dir: string;

function docwasm(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('DOCWASM_')));
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, env, encoding: 'utf8', timeout: 120_000 });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  dir = tempDir();
  const bytes = fs.readFileSync(FIXTURE);
  // Repairable: everything but the cross-reference pointer at the end.
  fs.writeFileSync(path.join(dir, 'no-startxref.pdf'), bytes.subarray(0, bytes.lastIndexOf('startxref')));
  // Beyond repair: the first half, which holds no page tree.
  fs.writeFileSync(path.join(dir, 'half.pdf'), bytes.subarray(0, Math.floor(bytes.length / 2)));
  // Beyond repair: a header and nothing of a PDF after it.
  fs.writeFileSync(path.join(dir, 'header-only.pdf'), Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(500, 0x41)]));
  execFileSync('qpdf', ['--encrypt', 'userpw', 'ownerpw', '256', '--', FIXTURE, path.join(dir, 'locked.pdf')]);
});

describe.each(['mupdf', 'cpdf'] as const)('damaged PDFs on the %s engine, one-shot', (engine) => {
  const run = (...args: string[]) => docwasm([...args, '--pdf-engine', engine]);

  it('a repairable file: the command succeeds and stderr stays empty', () => {
    const info = run('pdf', 'info', 'no-startxref.pdf');
    expect([info.status, info.stderr]).toEqual([0, '']);
    expect(info.stdout).toContain('1 page(s)');
    const split = run('pdf', 'split', 'no-startxref.pdf', '--pages', '1', '--output-dir', `split-${engine}`);
    expect([split.status, split.stderr]).toEqual([0, '']);
    expect(execFileSync('pdftotext', [path.join(dir, `split-${engine}`, 'no-startxref_1.pdf'), '-']).toString()).toContain('docwasm fixture');
  });

  it.each(['half.pdf', 'header-only.pdf'])('%s: INVALID_INPUT, one line on stderr, nothing written', (name) => {
    for (const args of [
      ['pdf', 'info', name],
      ['pdf', 'rearrange', name, '--pages', '1', '-o', `never-${engine}/out.pdf`],
      ['pdf', 'merge', name, 'no-startxref.pdf', '-o', `never-${engine}/merged.pdf`],
    ]) {
      const result = run(...args);
      expect(result.status, args.join(' ')).toBe(1);
      expect(result.stderr, args.join(' ')).toMatch(CONTRACT_LINE);
      expect(result.stderr).toContain('INVALID_INPUT: ');
      expect(result.stderr).not.toMatch(/format error|warning:|Pdf\.PDFError|ERROR:|\\n/);
    }
    expect(fs.existsSync(path.join(dir, `never-${engine}`, 'out.pdf'))).toBe(false);
    expect(leftoverTempFiles(dir)).toEqual([]);
  });

  it('a wrong password: PASSWORD_REQUIRED, one line (cpdf no longer prints each attempt)', () => {
    const result = run('pdf', 'info', 'locked.pdf', '--password', 'wrong');
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(CONTRACT_LINE);
    expect(result.stderr).toContain('PASSWORD_REQUIRED: ');
  });
});

it('mupdf renders a repaired file quietly (to-images, compress)', () => {
  const images = docwasm(['pdf', 'to-images', 'no-startxref.pdf', '--dpi', '36', '--output-dir', 'images']);
  expect([images.status, images.stderr]).toEqual([0, '']);
  expect(fs.readdirSync(path.join(dir, 'images'))).toEqual(['no-startxref_1.png']);
  const compressed = docwasm(['pdf', 'compress', 'no-startxref.pdf', '-o', 'compressed.pdf']);
  expect([compressed.status, compressed.stderr]).toEqual([0, '']);
});

describe('damaged PDFs in the service log', () => {
  let service: RunningService;

  beforeAll(async () => {
    service = await startService();
    for (const name of ['no-startxref.pdf', 'half.pdf', 'header-only.pdf']) fs.copyFileSync(path.join(dir, name), path.join(service.dir, name));
  }, 60_000);

  afterAll(async () => {
    await service.stop();
  });

  it('logs the request lines and none of mupdf’s messages', async () => {
    expect((await service.post('/api/pdf/info', { input: 'no-startxref.pdf' })).status).toBe(200);
    for (const name of ['half.pdf', 'header-only.pdf']) {
      const { status, body } = await service.post('/api/pdf/info', { input: name });
      expect([status, body.code]).toEqual([422, 'INVALID_INPUT']);
      expect(body.error).toMatch(/^Not a readable PDF \(.+\)$/);
    }
    const log = service.stderr();
    expect(log.match(/POST \/api\/pdf\/info (200|422)/g)).toHaveLength(3);
    // What mupdf printed for these files before: "syntax error: expected object number", "format
    // error: cannot find startxref", "warning: trying to repair broken xref", "warning: repairing PDF document".
    expect(log).not.toMatch(/syntax error|format error|warning:|startxref|repair/i);
  });
});
