// The PDF endpoints as docs/api.md ("PDF") states them, for both engines; outputs checked with qpdf
// and poppler, never with docwasm's own engines.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/make-pdf.js';
import { finishedJob, submitHeld } from '../helpers/jobs.js';
import { leftoverTempFiles, startService, type RunningService } from '../helpers/service.js';
import { outlineTitles, pageCount, pdfPageTexts, qpdfCheck, requiresPassword, sha256 } from '../helpers/tools.js';

describe.each(['mupdf', 'cpdf'] as const)('PDF endpoints on the %s engine', (engine) => {
  let service: RunningService;
  const file = (name: string) => path.join(service.dir, name);

  beforeAll(async () => {
    service = await startService(['--pdf-engine', engine]);
    fs.writeFileSync(
      file('a.pdf'),
      makePdf({
        pages: ['Alpha one', 'Alpha two'],
        bookmarks: [
          { title: 'Chapter A', page: 0 },
          { title: 'Section A2', page: 1 },
        ],
      }),
    );
    fs.writeFileSync(file('b.pdf'), makePdf({ pages: ['Beta one', 'Beta two', 'Beta three'], bookmarks: [{ title: 'Chapter B', page: 0 }] }));
    fs.writeFileSync(file('report.pdf'), makePdf({ pages: Array.from({ length: 6 }, (_, i) => `Report page ${i + 1}`) }));
    fs.writeFileSync(file('linked.pdf'), makePdf({ pages: ['Linked one', 'Linked two'], linkUri: 'https://example.com/docwasm' }));
    fs.writeFileSync(file('garbage.pdf'), Buffer.from('this is not a pdf at all, just text\n'.repeat(20)));
    fs.writeFileSync(file('fake.pdf'), Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(500, 0x41)]));
    execFileSync('qpdf', ['--encrypt', 'userpw', 'ownerpw', '256', '--', file('a.pdf'), file('locked.pdf')]);
    // Damaged but repairable: a wrong startxref offset.
    fs.writeFileSync(file('damaged.pdf'), Buffer.from(fs.readFileSync(file('b.pdf'), 'latin1').replace(/startxref\n\d+/, 'startxref\n999999'), 'latin1'));
    expect(service.stderr()).toBe('');
  });
  afterAll(() => service.stop());

  describe('POST /api/pdf/merge', () => {
    it('merges in order and reports the page count', async () => {
      const { status, body } = await service.post('/api/pdf/merge', { files: ['b.pdf', 'a.pdf'], output: 'merged.pdf' });
      expect(status).toBe(200);
      expect(body).toMatchObject({ success: true, outputPath: file('merged.pdf'), data: { pages: 5 } });
      expect(qpdfCheck(file('merged.pdf'))).toBe(true);
      expect(pdfPageTexts(file('merged.pdf'))).toEqual(['Beta one', 'Beta two', 'Beta three', 'Alpha one', 'Alpha two']);
    });

    it('keeps the bookmarks of every input, pointing at the right pages', async () => {
      await service.post('/api/pdf/merge', { files: ['a.pdf', 'b.pdf'], output: 'bookmarks.pdf' });
      expect(outlineTitles(file('bookmarks.pdf'))).toEqual([
        { title: 'Chapter A', page: 1 },
        { title: 'Section A2', page: 2 },
        { title: 'Chapter B', page: 3 },
      ]);
    });

    it('keeps link annotations of every input', async () => {
      await service.post('/api/pdf/merge', { files: ['a.pdf', 'linked.pdf'], output: 'links.pdf' });
      const uris = execFileSync('qpdf', ['--qdf', '--object-streams=disable', file('links.pdf'), '-'])
        .toString('latin1')
        .match(/https:\/\/example\.com\/docwasm/g);
      expect(uris?.length).toBe(2);
      expect(qpdfCheck(file('links.pdf'))).toBe(true);
    });

    it('repairs a damaged but readable input', async () => {
      const { status } = await service.post('/api/pdf/merge', { files: ['damaged.pdf', 'a.pdf'], output: 'repaired.pdf' });
      expect(status).toBe(200);
      expect(pageCount(file('repaired.pdf'))).toBe(5);
    });

    it('answers PASSWORD_REQUIRED for an encrypted input, leaving no output', async () => {
      const { status, body } = await service.post('/api/pdf/merge', { files: ['a.pdf', 'locked.pdf'], output: 'never.pdf' });
      expect(status).toBe(422);
      expect(body.code).toBe('PASSWORD_REQUIRED');
      expect(fs.existsSync(file('never.pdf'))).toBe(false);
      expect(leftoverTempFiles(service.dir)).toEqual([]);
    });

    it('answers INVALID_INPUT for a file that is not a PDF or cannot be parsed', async () => {
      for (const input of ['garbage.pdf', 'fake.pdf']) {
        const { status, body } = await service.post('/api/pdf/merge', { files: ['a.pdf', input], output: 'never.pdf' });
        expect(status).toBe(422);
        expect(body.code).toBe('INVALID_INPUT');
      }
      expect(fs.existsSync(file('never.pdf'))).toBe(false);
      expect(leftoverTempFiles(service.dir)).toEqual([]);
    });

    it('replaces an input atomically when output equals input', async () => {
      fs.copyFileSync(file('a.pdf'), file('self.pdf'));
      const { status } = await service.post('/api/pdf/merge', { files: ['self.pdf', 'b.pdf'], output: 'self.pdf' });
      expect(status).toBe(200);
      expect(pageCount(file('self.pdf'))).toBe(5);
    });

    it('serves 20 concurrent merges', async () => {
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) => service.post('/api/pdf/merge', { files: ['a.pdf', 'b.pdf'], output: `concurrent/${i}.pdf` })),
      );
      expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
      for (let i = 0; i < 20; i++) expect(pageCount(file(`concurrent/${i}.pdf`))).toBe(5);
    });
  });

  describe('POST /api/pdf/split', () => {
    it('writes one <stem>_<item>.pdf per item into the input dir by default', async () => {
      const { status, body } = await service.post('/api/pdf/split', { input: 'report.pdf', pages: '1-3, 5 ,6' });
      expect(status).toBe(200);
      expect(body.outputPath).toBe(service.dir);
      expect(body.data?.files).toEqual([file('report_1-3.pdf'), file('report_5.pdf'), file('report_6.pdf')]);
      expect(pdfPageTexts(file('report_1-3.pdf'))).toEqual(['Report page 1', 'Report page 2', 'Report page 3']);
      expect(pdfPageTexts(file('report_5.pdf'))).toEqual(['Report page 5']);
      expect(qpdfCheck(file('report_6.pdf'))).toBe(true);
    });

    it('writes into outputDir, creating it', async () => {
      const { body } = await service.post('/api/pdf/split', { input: 'report.pdf', pages: '2-4', outputDir: 'parts/out' });
      expect(body.outputPath).toBe(file('parts/out'));
      expect(pageCount(file('parts/out/report_2-4.pdf'))).toBe(3);
    });

    it('answers INVALID_PAGE_RANGE for malformed, reversed, zero or out-of-range items, writing nothing', async () => {
      for (const pages of ['0', '3-1', '1-', 'a', '1,,2', '2-7', '7', '1;2', '']) {
        const { status, body } = await service.post('/api/pdf/split', { input: 'report.pdf', pages, outputDir: 'bad' });
        expect([status, body.code, pages]).toEqual(pages === '' ? [400, 'VALIDATION_ERROR', pages] : [422, 'INVALID_PAGE_RANGE', pages]);
      }
      expect(fs.existsSync(file('bad')) ? fs.readdirSync(file('bad')) : []).toEqual([]);
    });

    it('answers PASSWORD_REQUIRED for an encrypted input', async () => {
      expect((await service.post('/api/pdf/split', { input: 'locked.pdf', pages: '1' })).body.code).toBe('PASSWORD_REQUIRED');
    });
  });

  describe('POST /api/pdf/encrypt', () => {
    it('produces a PDF that opens only with the password (AES-256 by default)', async () => {
      const before = sha256(file('a.pdf'));
      const { status, body } = await service.post('/api/pdf/encrypt', { input: 'a.pdf', output: 'secret.pdf', password: 'open sesame' });
      expect(status).toBe(200);
      expect(body.data).toMatchObject({ algorithm: 'aes256' });
      expect(requiresPassword(file('secret.pdf'))).toBe(true);
      expect(qpdfCheck(file('secret.pdf'), 'open sesame')).toBe(true);
      expect(() => pdfPageTexts(file('secret.pdf'))).toThrow();
      expect(pdfPageTexts(file('secret.pdf'), 'open sesame')).toEqual(['Alpha one', 'Alpha two']);
      const info = execFileSync('qpdf', ['--password=open sesame', '--show-encryption', file('secret.pdf')]).toString();
      expect(info).toMatch(/AESv3/);
      expect(sha256(file('a.pdf'))).toBe(before);
    });

    it('supports aes128 and a separate owner password', async () => {
      const { status } = await service.post('/api/pdf/encrypt', {
        input: 'a.pdf',
        output: 'secret128.pdf',
        password: 'user',
        ownerPassword: 'owner',
        algorithm: 'aes128',
      });
      expect(status).toBe(200);
      expect(requiresPassword(file('secret128.pdf'))).toBe(true);
      expect(execFileSync('qpdf', ['--password=user', '--show-encryption', file('secret128.pdf')]).toString()).toMatch(/AESv2/);
      expect(pdfPageTexts(file('secret128.pdf'), 'user')).toEqual(['Alpha one', 'Alpha two']);
      expect(qpdfCheck(file('secret128.pdf'), 'owner')).toBe(true);
    });

    it('answers VALIDATION_ERROR for an empty password or an unknown algorithm', async () => {
      for (const extra of [{ password: '' }, { password: 'x', algorithm: 'rc4' }]) {
        const { status, body } = await service.post('/api/pdf/encrypt', { input: 'a.pdf', output: 'x.pdf', ...extra });
        expect(status).toBe(400);
        expect(body.code).toBe('VALIDATION_ERROR');
      }
    });

    it('answers PASSWORD_REQUIRED for an already encrypted input', async () => {
      expect((await service.post('/api/pdf/encrypt', { input: 'locked.pdf', output: 'x.pdf', password: 'p' })).body.code).toBe('PASSWORD_REQUIRED');
    });
  });
});

describe('PDF job limits', () => {
  it('stops a job past --timeout with TIMEOUT, leaves nothing behind, and serves the next job', async () => {
    // 10 s: far above the next job, which starts a replacement worker (seconds on a loaded
    // machine); the merge of 1,000 copies of 6,000 pages is slow by construction, on any machine.
    const service = await startService(['--timeout', '10', '--workers', '1']);
    try {
      const big = path.join(service.dir, 'big.pdf');
      fs.writeFileSync(big, makePdf({ pages: Array.from({ length: 6000 }, (_, i) => `Page ${i}`) }));
      fs.writeFileSync(path.join(service.dir, 'one.pdf'), makePdf({ pages: ['One'] }));
      // Warm: the worker is up before the clock of the timed job runs.
      expect((await service.post('/api/pdf/merge', { files: ['one.pdf'], output: 'warm.pdf' })).status).toBe(200);
      const files = Array(1000).fill('big.pdf');
      const { status, body } = await service.post('/api/pdf/merge', { files, output: 'huge.pdf' });
      expect(status).toBe(504);
      expect(body.code).toBe('TIMEOUT');
      expect(fs.existsSync(path.join(service.dir, 'huge.pdf'))).toBe(false);
      expect(leftoverTempFiles(service.dir)).toEqual([]);
      const next = await service.post('/api/pdf/merge', { files: ['one.pdf'], output: 'after.pdf' });
      expect(next.status).toBe(200);
    } finally {
      await service.stop();
    }
  });

  it('answers BUSY with Retry-After when the queue is full', async () => {
    const service = await startService(['--workers', '1', '--queue-limit', '1']);
    try {
      fs.writeFileSync(path.join(service.dir, 'big.pdf'), makePdf({ pages: Array.from({ length: 1500 }, (_, i) => `Page ${i}`) }));
      // A merge of 30,000 pages (3–4.5 s here on a loaded 2-core machine; one of 3,000 pages took
      // 0.1 s, too close to the other requests' arrival) holds the one worker, seen holding it
      // (202) before the others are sent: one waits, the rest find the queue full.
      const held = await submitHeld(service, '/api/pdf/merge', { files: Array(20).fill('big.pdf'), output: 'held.pdf' });
      const responses = await Promise.all(
        Array.from({ length: 7 }, (_, i) => service.post('/api/pdf/merge', { files: ['big.pdf', 'big.pdf'], output: `q${i}.pdf` })),
      );
      const busy = responses.filter((r) => r.body.code === 'BUSY');
      expect(busy.length).toBeGreaterThan(0);
      expect(busy[0]?.status).toBe(503);
      expect(Number(busy[0]?.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(responses.filter((r) => r.status === 200).length).toBeGreaterThan(0);
      expect(responses.every((r) => r.status === 200 || r.body.code === 'BUSY')).toBe(true);
      expect((await finishedJob(service, held)).status).toBe('succeeded');
    } finally {
      await service.stop();
    }
  });
});
