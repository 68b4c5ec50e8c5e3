// Text that reaches a PDF engine is taken exactly or refused (issue 20, item 2): mupdf takes
// passwords in a C option string, so "abc\u0000def" encrypted with "abc" and an empty owner
// password, and the output opened without any password. Real HTTP over loopback to the built
// service on both engines; outputs read back with qpdf only.

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/make-pdf.js';
import { leftoverTempFiles, startService, type RunningService } from '../helpers/service.js';
import { requiresPassword, sha256 } from '../helpers/tools.js';
import { mupdfEngine } from '../../wasm/pdf/mupdf-engine.js';
import { errorCodeOf } from '../helpers/error-code.js';

/** `password` with a NUL at the start, in the middle and at the end. */
const withNul = (password: string) => [`\u0000${password}`, `${password.slice(0, 3)}\u0000${password.slice(3)}`, `${password}\u0000`];
/** The NUL variants, then `password` with half of a surrogate pair in it. */
const unrepresentable = (password: string) => [...withNul(password), `${password.slice(0, 3)}\ud800${password.slice(3)}`];
const NUL_VARIANTS = withNul('abcdef');
const UNREPRESENTABLE = unrepresentable('abcdef');

/** Every operation that reads a PDF, with `password` given for its input. */
const READING_REQUESTS: Record<string, (password: string) => Record<string, unknown>> = {
  'pdf/info': (password) => ({ input: 'locked.pdf', password }),
  'pdf/metadata': (password) => ({ input: 'locked.pdf', output: 'never/m.pdf', password, title: 'T' }),
  'pdf/decrypt': (password) => ({ input: 'locked.pdf', output: 'never/d.pdf', password }),
  'pdf/rotate': (password) => ({ input: 'locked.pdf', output: 'never/r.pdf', password, degrees: 90 }),
  'pdf/rearrange': (password) => ({ input: 'locked.pdf', output: 'never/a.pdf', password, pages: '1' }),
  'pdf/watermark': (password) => ({ input: 'locked.pdf', output: 'never/w.pdf', password, text: 'DRAFT' }),
  'pdf/compress': (password) => ({ input: 'locked.pdf', output: 'never/c.pdf', password }),
  'pdf/to-pdfa': (password) => ({ input: 'locked.pdf', output: 'never/p.pdf', password }),
  'pdf/merge': (password) => ({ files: ['locked.pdf'], output: 'never/merged.pdf', password }),
  'pdf/split': (password) => ({ input: 'locked.pdf', outputDir: 'never', password, pages: '1' }),
  'pdf/encrypt': (password) => ({ input: 'locked.pdf', output: 'never/e.pdf', inputPassword: password, password: 'fresh' }),
  'pdf/to-images': (password) => ({ input: 'locked.pdf', outputDir: 'never', password }),
  ocr: (password) => ({ input: 'locked.pdf', password }),
};

const qpdfStatus = (...args: string[]) => spawnSync('qpdf', args).status;

describe.each(['mupdf', 'cpdf'] as const)('text handed to the %s engine', (engine) => {
  let service: RunningService;
  const file = (name: string) => path.join(service.dir, name);
  const post = (operation: string, body: Record<string, unknown>) => service.post(`/api/${operation}`, body);

  /** The request fails with VALIDATION_ERROR naming `field`, writes nothing and leaves the input as it was. */
  async function expectRefused(operation: string, body: Record<string, unknown>, field: string): Promise<void> {
    const before = sha256(file('plain.pdf'));
    const { status, body: answer } = await post(operation, body);
    expect([status, answer.code], `${operation} ${JSON.stringify(body)}: ${answer.error}`).toEqual([400, 'VALIDATION_ERROR']);
    expect(answer.error).toContain(field);
    expect(fs.existsSync(file('never'))).toBe(false);
    expect(leftoverTempFiles(service.dir)).toEqual([]);
    expect(sha256(file('plain.pdf'))).toBe(before);
  }

  beforeAll(async () => {
    service = await startService(['--pdf-engine', engine]);
    fs.writeFileSync(file('plain.pdf'), makePdf({ pages: ['Secret page'] }));
    execFileSync('qpdf', ['--encrypt', 'userpw', 'ownerpw', '256', '--', file('plain.pdf'), file('locked.pdf')]);
  }, 60_000);

  afterAll(async () => {
    await service.stop();
  });

  describe('pdf/encrypt', () => {
    it.each(UNREPRESENTABLE)('refuses %j as the password and as the owner password', async (password) => {
      await expectRefused('pdf/encrypt', { input: 'plain.pdf', output: 'never/e.pdf', password }, 'password');
      await expectRefused('pdf/encrypt', { input: 'plain.pdf', output: 'never/e.pdf', password: 'fine', ownerPassword: password }, 'ownerPassword');
      await expectRefused(
        'pdf/encrypt',
        { input: 'plain.pdf', output: 'never/e.pdf', password: 'fine', algorithm: 'aes128', ownerPassword: password },
        'ownerPassword',
      );
    });

    it('refuses passwords that AES-256 would cut (over 127 bytes) and takes one of exactly 127 bytes', async () => {
      const longest = '密'.repeat(42) + 'a'; // 42 × 3 + 1 = 127 bytes
      await expectRefused('pdf/encrypt', { input: 'plain.pdf', output: 'never/e.pdf', password: `${longest}b` }, 'password');
      const { status, body } = await post('pdf/encrypt', { input: 'plain.pdf', output: 'long.pdf', password: longest });
      expect(status, body.error).toBe(200);
      expect(requiresPassword(file('long.pdf'))).toBe(true);
      expect(qpdfStatus(`--password=${longest}`, '--check', file('long.pdf'))).toBe(0);
      expect(qpdfStatus(`--password=${longest.slice(0, -1)}`, '--check', file('long.pdf'))).not.toBe(0);
    });

    it('takes any Unicode password exactly with AES-256', async () => {
      const password = 'pässwörd 密码 😀';
      const { status, body } = await post('pdf/encrypt', { input: 'plain.pdf', output: 'unicode.pdf', password, ownerPassword: 'öwner' });
      expect(status, body.error).toBe(200);
      expect(requiresPassword(file('unicode.pdf'))).toBe(true);
      const encryption = execFileSync('qpdf', [`--password=${password}`, '--show-encryption', file('unicode.pdf')]).toString();
      expect(encryption).toMatch(/R = 6/);
      expect(encryption).toMatch(/stream encryption method: AESv3/);
      expect(qpdfStatus('--password=öwner', '--check', file('unicode.pdf'))).toBe(0);
      for (const wrong of ['pässwörd', 'pässwörd 密码', '']) expect(qpdfStatus(`--password=${wrong}`, '--check', file('unicode.pdf'))).not.toBe(0);
    });

    it('refuses aes128 passwords that are not printable ASCII or longer than 32 characters', async () => {
      for (const password of ['密码', 'é', 'a😀', 'tab\there', 'x'.repeat(33)]) {
        await expectRefused('pdf/encrypt', { input: 'plain.pdf', output: 'never/e.pdf', password, algorithm: 'aes128' }, 'password');
      }
      const password = 'x'.repeat(31) + '~';
      const { status, body } = await post('pdf/encrypt', { input: 'plain.pdf', output: 'aes128.pdf', password, algorithm: 'aes128' });
      expect(status, body.error).toBe(200);
      expect(requiresPassword(file('aes128.pdf'))).toBe(true);
      expect(execFileSync('qpdf', [`--password=${password}`, '--show-encryption', file('aes128.pdf')]).toString()).toMatch(/stream encryption method: AESv2/);
    });
  });

  it.each(Object.keys(READING_REQUESTS))('%s refuses an input password holding NUL or a lone surrogate', async (operation) => {
    for (const variant of unrepresentable('userpw')) {
      const request = (READING_REQUESTS[operation] as (password: string) => Record<string, unknown>)(variant);
      await expectRefused(operation, request, operation === 'pdf/encrypt' ? 'inputPassword' : 'password');
    }
  });

  it.each(['title', 'author', 'subject', 'keywords', 'creator'])(
    'pdf/metadata refuses a %s with NUL, a lone surrogate or a control character XMP cannot hold',
    async (field) => {
      for (const value of [...UNREPRESENTABLE, 'bell\u0007', 'escape\u001b[31m']) {
        await expectRefused('pdf/metadata', { input: 'plain.pdf', output: 'never/m.pdf', [field]: value }, field);
      }
    },
  );

  it('pdf/watermark refuses text with NUL, a lone surrogate or a control character (one line)', async () => {
    for (const text of [...UNREPRESENTABLE, 'two\nlines', 'tab\there', 'del\u007f']) {
      await expectRefused('pdf/watermark', { input: 'plain.pdf', output: 'never/w.pdf', text }, 'text');
    }
  });

  it('ocr takes a language only as an installed code, so a NUL cannot cut "eng\\u0000…" to "eng"', async () => {
    for (const language of withNul('eng')) {
      const { status, body } = await post('ocr', { input: 'plain.pdf', language });
      expect([status, body.code], JSON.stringify(language)).toEqual([422, 'UNSUPPORTED_LANGUAGE']);
    }
  });

  it.runIf(engine === 'mupdf')('pdf/watermark refuses characters its font has no glyph for, naming them', async () => {
    const { status, body } = await post('pdf/watermark', { input: 'plain.pdf', output: 'never/w.pdf', text: 'OK 😀\u00a0' });
    expect([status, body.code]).toEqual([400, 'VALIDATION_ERROR']);
    expect(body.error).toContain('U+1F600 (😀), U+00A0');
    expect(fs.existsSync(file('never/w.pdf'))).toBe(false);
    expect(leftoverTempFiles(service.dir)).toEqual([]);
  });
});

describe('the mupdf engine called directly (no schema in front)', () => {
  const pdf = new Uint8Array(makePdf({ pages: ['Direct'] }));
  const sink = () => {
    throw new Error('nothing may be written');
  };

  it.each(NUL_VARIANTS)('refuses to encrypt with %j rather than cut it', (password) => {
    expect(errorCodeOf(() => mupdfEngine.encrypt(pdf, { userPassword: password, ownerPassword: 'owner', algorithm: 'aes256' }, sink))).toBe('VALIDATION_ERROR');
    expect(errorCodeOf(() => mupdfEngine.encrypt(pdf, { userPassword: 'user', ownerPassword: password, algorithm: 'aes128' }, sink))).toBe('VALIDATION_ERROR');
  });

  it('refuses to open with a password holding NUL rather than try its first part', () => {
    expect(errorCodeOf(() => mupdfEngine.pageCount(pdf, 'abc\u0000def'))).toBe('VALIDATION_ERROR');
  });
});
