// Nobody gets in and no path escapes, through every endpoint: the guards (Host, Origin, content
// type, token), the allowed dirs against `..`, symlinks, unicode and very long paths, and file
// names with spaces, unicode and a leading `-` (which must never become an option, LibreOffice's
// command line included).

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawRequest } from '../helpers/raw-http.js';
import { startService, tempDir, type RunningService } from '../helpers/service.js';
import { sha256 } from '../helpers/tools.js';
import { recordFigures } from './figures.js';
import { writeFixtures } from './fixtures.js';
import { outputsOf } from './load-run.js';
import { OPERATIONS, type Operation } from './operations.js';

const CONTRACT_CODES = new Set([
  'INVALID_JSON',
  'VALIDATION_ERROR',
  'PATH_NOT_ALLOWED',
  'FILE_NOT_FOUND',
  'OUTPUT_NOT_WRITABLE',
  'TOO_LARGE',
  'INVALID_INPUT',
  'UNSUPPORTED_CONVERSION',
  'UNSUPPORTED_FORMAT',
]);
const tally = { guardRequests: 0, pathAttacks: 0, oddNames: 0 };
afterAll(() => recordFigures('security', tally));

/** The error code of an answer; for a batch, the code of its first failed item. */
function codeOf(body: Record<string, unknown> & { code?: string; data?: Record<string, unknown> }): string | undefined {
  const results = body.data?.results as { success: boolean; code?: string }[] | undefined;
  return body.code ?? results?.find((r) => !r.success)?.code;
}

// One service for the three parts below, started once (its engines warm once, LibreOffice
// included): a token, and one allowed dir that is also its base dir, beside a dir outside it.
const TOKEN = 'correct-horse-battery-staple';
const AUTHORIZED = { authorization: `Bearer ${TOKEN}` };
const ODD = '-rf --help 报告 ü';
let service: RunningService;
let allowed: string;
let outside: string;
beforeAll(async () => {
  const root = tempDir('docwasm-jail-');
  allowed = path.join(root, 'allowed');
  outside = path.join(root, 'outside');
  fs.mkdirSync(allowed);
  fs.mkdirSync(outside);
  await writeFixtures(allowed);
  await writeFixtures(outside);
  fs.symlinkSync(outside, path.join(allowed, 'link-out'));
  const inputs = new Set(OPERATIONS.map((o) => o.input));
  for (const f of inputs) fs.symlinkSync(path.join(outside, f), path.join(allowed, `linked-${f}`));
  const unicodeDir = path.join(allowed, '目录 ü');
  fs.mkdirSync(unicodeDir);
  for (const f of inputs) fs.copyFileSync(path.join(allowed, f), path.join(unicodeDir, `文件 ${f}`));
  for (const op of OPERATIONS) fs.copyFileSync(path.join(allowed, op.input), path.join(allowed, `${ODD} ${op.name}.${op.inputExtension}`));
  service = await startService(['--token', TOKEN, '--allow-dir', allowed, '--base-dir', allowed]);
});
afterAll(() => service.stop());

/** A request that passes the guards (the token). */
const post = (route: string, body: unknown) => service.post(route, body, AUTHORIZED);

describe('security: guards on every endpoint', () => {
  const good = (port: number) => ({ host: `127.0.0.1:${port}`, 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` });
  const cases: { name: string; change: (port: number) => Record<string, string>; status: number; code: string }[] = [
    { name: 'no token', change: () => ({ authorization: '' }), status: 401, code: 'UNAUTHORIZED' },
    { name: 'wrong token', change: () => ({ authorization: `Bearer ${TOKEN}x` }), status: 401, code: 'UNAUTHORIZED' },
    { name: 'token as Basic', change: () => ({ authorization: `Basic ${TOKEN}` }), status: 401, code: 'UNAUTHORIZED' },
    { name: 'foreign Host', change: (port) => ({ host: `evil.example:${port}` }), status: 403, code: 'FORBIDDEN_HOST' },
    { name: 'rebinding Host', change: (port) => ({ host: `127.0.0.1.evil.example:${port}` }), status: 403, code: 'FORBIDDEN_HOST' },
    { name: 'Host on another port', change: (port) => ({ host: `localhost:${port + 1}` }), status: 403, code: 'FORBIDDEN_HOST' },
    { name: 'foreign Origin', change: () => ({ origin: 'http://evil.example' }), status: 403, code: 'FORBIDDEN_ORIGIN' },
    { name: 'null Origin', change: () => ({ origin: 'null' }), status: 403, code: 'FORBIDDEN_ORIGIN' },
    { name: 'text/plain body', change: () => ({ 'content-type': 'text/plain' }), status: 415, code: 'UNSUPPORTED_CONTENT_TYPE' },
    { name: 'form body', change: () => ({ 'content-type': 'application/x-www-form-urlencoded' }), status: 415, code: 'UNSUPPORTED_CONTENT_TYPE' },
  ];

  for (const op of OPERATIONS) {
    it(`${op.route}: refuses every guard violation and does no work`, async () => {
      const body = JSON.stringify(op.body(`guarded-${op.name}`));
      const accepted = await rawRequest(service.port, {
        method: 'POST',
        path: op.route,
        headers: good(service.port),
        body: JSON.stringify(op.body(`allowed-${op.name}`)),
      });
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
      for (const c of cases) {
        const headers = Object.fromEntries(Object.entries({ ...good(service.port), ...c.change(service.port) }).filter(([, v]) => v !== ''));
        const r = await rawRequest(service.port, { method: 'POST', path: op.route, headers, body });
        tally.guardRequests++;
        expect({ case: c.name, status: r.status, code: r.body.code }).toEqual({ case: c.name, status: c.status, code: c.code });
      }
      expect(fs.readdirSync(path.join(allowed, 'out')).filter((f) => f.includes('guarded'))).toEqual([]);
    });
  }
});

describe('security: allowed dirs against .., symlinks, unicode and very long paths', () => {
  const outsideState = () => fs.readdirSync(outside).map((f) => `${f}:${sha256(path.join(outside, f))}`);

  for (const op of OPERATIONS) {
    it(`${op.route}: PATH_NOT_ALLOWED for every escape, works inside, never a 500`, async () => {
      const fixture = op.input;
      const before = outsideState();
      const escapes = [`../outside/${fixture}`, `link-out/${fixture}`, path.join(outside, fixture), `linked-${fixture}`, `out/../../outside/${fixture}`];
      for (const input of escapes) {
        const r = await post(op.route, op.body(`esc-${op.name}`, input));
        tally.pathAttacks++;
        expect({ input, code: codeOf(r.body) }).toEqual({ input, code: 'PATH_NOT_ALLOWED' });
      }
      for (const out of op.writes === false ? [] : ['../../outside/escaped', '../link-out/escaped']) {
        const r = await post(op.route, op.body(out));
        tally.pathAttacks++;
        expect({ out, code: codeOf(r.body) }).toEqual({ out, code: 'PATH_NOT_ALLOWED' });
      }
      expect(outsideState()).toEqual(before);
      // Inside: `..` that stays inside, and unicode names with spaces.
      for (const input of [`目录 ü/../${fixture}`, `目录 ü/文件 ${fixture}`]) {
        const r = await post(op.route, op.body(`inside-${op.name}-ü 文件`, input));
        expect(r.status, `${input}: ${JSON.stringify(r.body)}`).toBe(200);
        for (const file of outputsOf(r.body)) expect(file.startsWith(allowed)).toBe(true);
      }
      // Very long: one component past NAME_MAX, and a path past PATH_MAX.
      for (const input of [`${'ü'.repeat(200)}.${op.inputExtension}`, `${'deep/'.repeat(900)}x.${op.inputExtension}`]) {
        const r = await post(op.route, op.body(`long-${op.name}`, input));
        tally.pathAttacks++;
        expect(r.status).not.toBe(500);
        expect(CONTRACT_CODES.has(String(codeOf(r.body))), JSON.stringify(r.body)).toBe(true);
      }
      if (op.writes === false) return;
      const longOut = await post(op.route, op.body('x'.repeat(300)));
      expect(longOut.status).not.toBe(500);
      expect(CONTRACT_CODES.has(String(codeOf(longOut.body))), JSON.stringify(longOut.body)).toBe(true);
    });
  }
});

describe('security: file names with spaces, unicode and a leading "-" through every endpoint', () => {
  const check = async (op: Operation) => {
    const input = `${ODD} ${op.name}.${op.inputExtension}`;
    const r = await post(op.route, op.body(`-o --outdir 输出 ${op.name}`, input));
    tally.oddNames++;
    expect(r.status, `${op.name}: ${JSON.stringify(r.body)}`).toBe(200);
    const outputs = outputsOf(r.body);
    if (op.writes !== false) expect(outputs.length).toBeGreaterThan(0);
    for (const file of outputs) {
      expect(fs.statSync(file).size, file).toBeGreaterThan(0);
      expect(path.basename(file).startsWith('-') || path.dirname(file).includes('-o --outdir 输出')).toBe(true);
    }
    if (op.engine === 'document') {
      const pdf = outputs.find((f) => path.basename(f).startsWith(ODD)) ?? (outputs[0] as string);
      expect(execFileSync('pdftotext', [pdf, '-']).toString()).toContain('Quarterly report');
    }
  };

  for (const op of OPERATIONS) it(`${op.route}: reads "${ODD} ${op.name}.${op.inputExtension}" as a file, never as an option`, () => check(op));

  it('left no file named like an option anywhere else', () => {
    const stray = fs
      .readdirSync(allowed, { recursive: true })
      .map(String)
      .filter((f) => /(^|\/)(--help|--outdir|-rf)$/.test(f));
    expect(stray).toEqual([]);
    expect(fs.readdirSync(process.cwd()).filter((f) => f.startsWith('-'))).toEqual([]);
  });
});
