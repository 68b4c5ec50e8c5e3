// The LibreOffice backend's process rules: a conversion stopped at its limit delivers nothing of
// its partial file; offices replaced after N files and after a crash; the queue bound → BUSY;
// nothing left running after SIGTERM. Also what the managed profile guarantees: a CJK font of its
// own, and no fetching of linked content. (A stalled conversion → TIMEOUT with its office killed,
// process group and all, and replaced: the document case of test/reliability/faults.test.ts.)

import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  documentFixtures,
  isAlive,
  killHard,
  odtWithLinkedImage,
  officePipesOf,
  officeProcessesOf,
  pdfFontNames,
  pdfText,
  TEXT_LINE,
  waitFor,
  type DocumentFixtures,
} from '../helpers/documents.js';
import { ENGLISH_TEXT } from '../helpers/ocr-images.js';
import { leftoverTempFiles, startService, tempDir, type RunningService } from '../helpers/service.js';
import { makeDocx } from '../reliability/docx.js';

/** PIDs of the warm offices (the processes holding a slot's anchor document). */
const officePids = (service: RunningService) =>
  officeProcessesOf(service.child.pid as number)
    .filter((p) => p.args.includes('anchor.txt'))
    .map((p) => p.pid);
/** An office starts in 1–6 s on a busy 2-core machine. */
const OFFICE_START_MS = 60_000;

let fx: DocumentFixtures;
beforeAll(async () => {
  fx = await documentFixtures();
});

describe('process hygiene (one slot)', () => {
  it('leaves no soffice process behind after SIGTERM', async () => {
    const service = await startService(['--workers', '1']);
    const pid = service.child.pid as number;
    try {
      fs.copyFileSync(fx.text[0] as string, path.join(service.dir, 'small.docx'));
      expect((await service.post('/api/convert', { input: 'small.docx', output: 'small.pdf', format: 'pdf' })).status).toBe(200);
      expect(officeProcessesOf(pid).length).toBeGreaterThan(0);
    } finally {
      expect(await service.stop('SIGTERM')).toBe(0);
    }
    expect(await waitFor(() => officeProcessesOf(pid).length === 0, 5000)).toBe(true);
  });
});

describe('a conversion stopped at its limit while LibreOffice writes its product (--timeout 20)', () => {
  // LibreOffice writes the PDF in place as it exports: 20 s into the long document it has begun
  // (an 82-byte stub here, quiet or loaded), far from done (185 s of work here). That stub was
  // delivered as a success, a damaged PDF answered 200; it must be a TIMEOUT with nothing written.
  it('answers TIMEOUT and delivers nothing of the partial file', async () => {
    const service = await startService(['--workers', '1', '--timeout', '20']);
    try {
      fs.writeFileSync(path.join(service.dir, 'big.docx'), makeDocx(Array.from({ length: 120_000 }, (_, i) => `Paragraph ${i}: ${ENGLISH_TEXT}`)));
      fs.copyFileSync(fx.text[0] as string, path.join(service.dir, 'small.docx'));
      expect((await service.post('/api/convert', { input: 'small.docx', output: 'warm.pdf', format: 'pdf' })).status).toBe(200);
      const { status, body } = await service.post('/api/convert', { input: 'big.docx', output: 'big.pdf', format: 'pdf' });
      expect([status, body.code], JSON.stringify(body)).toEqual([504, 'TIMEOUT']);
      expect(fs.existsSync(path.join(service.dir, 'big.pdf'))).toBe(false);
      expect(leftoverTempFiles(service.dir)).toEqual([]);
    } finally {
      await service.stop();
    }
  }, 180_000);
});

describe('supervision, queue bound and managed profile (one slot, --queue-limit 1, recycle after 2 files, no system CJK font)', () => {
  let service: RunningService;
  let hits = 0;
  let server: http.Server;

  beforeAll(async () => {
    // A fontconfig that sees only DejaVu: any CJK glyph in the PDF must come from the profile's font.
    const fontHome = tempDir('docwasm-fonts-');
    fs.writeFileSync(
      path.join(fontHome, 'fonts.conf'),
      `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig><dir>/usr/share/fonts/truetype/dejavu</dir><cachedir>${fontHome}/cache</cachedir></fontconfig>\n`,
    );
    server = http.createServer((_req, res) => {
      hits++;
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    service = await startService(['--workers', '1', '--queue-limit', '1'], {
      FONTCONFIG_FILE: path.join(fontHome, 'fonts.conf'),
      DOCWASM_SOFFICE_RECYCLE_AFTER: '2',
    });
    fs.copyFileSync(fx.text[0] as string, path.join(service.dir, 'small.docx'));
  });
  afterAll(async () => {
    server?.close();
    await service?.stop();
  });

  it('answers BUSY with Retry-After when more requests wait than the queue allows', async () => {
    const responses = await Promise.all(
      Array.from({ length: 5 }, (_, i) => service.post('/api/convert', { input: 'small.docx', output: `busy-${i}.pdf`, format: 'pdf' })),
    );
    const busy = responses.filter((r) => r.body.code === 'BUSY');
    expect(busy.length).toBeGreaterThan(0);
    expect(busy[0]?.status).toBe(503);
    expect(busy[0]?.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(responses.some((r) => r.status === 200)).toBe(true);
  });

  it('sets Chinese text in the bundled CJK font when the system has none', async () => {
    const { status } = await service.post('/api/convert', { input: 'small.docx', output: 'cjk.pdf', format: 'pdf' });
    expect(status).toBe(200);
    expect(pdfFontNames(path.join(service.dir, 'cjk.pdf')).some((name) => name.includes('NotoSansHans'))).toBe(true);
  });

  it('never fetches linked content while converting', async () => {
    const { port } = server.address() as AddressInfo;
    fs.writeFileSync(path.join(service.dir, 'linked.odt'), odtWithLinkedImage(`http://127.0.0.1:${port}/pixel.png`));
    const { status } = await service.post('/api/convert', { input: 'linked.odt', output: 'linked.pdf', format: 'pdf' });
    expect(status).toBe(200);
    expect(pdfText(path.join(service.dir, 'linked.pdf'))).toContain(TEXT_LINE);
    expect(hits).toBe(0);
  });

  it(
    'replaces an office after N converted files',
    async () => {
      // The earlier tests' conversions may just have had the office replaced: wait for the new one.
      expect(await waitFor(() => officePids(service).length > 0, OFFICE_START_MS)).toBe(true);
      const before = officePids(service);
      for (const name of ['r1', 'r2']) {
        expect((await service.post('/api/convert', { input: 'small.docx', output: `${name}.pdf`, format: 'pdf' })).status).toBe(200);
      }
      expect(await waitFor(() => before.every((pid) => !isAlive(pid)))).toBe(true);
      expect(await waitFor(() => officePids(service).length > 0, OFFICE_START_MS)).toBe(true);
    },
    3 * OFFICE_START_MS,
  );

  it(
    'restarts an office that died while idle, and the next job succeeds',
    async () => {
      expect(await waitFor(() => officePids(service).length > 0, OFFICE_START_MS)).toBe(true);
      const victims = officePids(service);
      for (const pid of victims) killHard(pid);
      expect(await waitFor(() => victims.every((pid) => !isAlive(pid)))).toBe(true);
      const { status } = await service.post('/api/convert', { input: 'small.docx', output: 'after-crash.pdf', format: 'pdf' });
      expect(status).toBe(200);
      expect(officePids(service).some((pid) => victims.includes(pid))).toBe(false);
    },
    3 * OFFICE_START_MS,
  );
});

// bwrap's --die-with-parent takes the offices down with a killed service; without an OS sandbox
// (macOS, Windows, or a host that refuses namespaces) they outlive it and the next service reaps them.
describe('offices left by a service that was killed (SIGKILL), with the profile sandbox only', () => {
  it('are killed by the next service that starts LibreOffice', async () => {
    const first = await startService(['--workers', '1', '--document-sandbox', 'profile']);
    fs.copyFileSync(fx.text[0] as string, path.join(first.dir, 'small.docx'));
    expect((await first.post('/api/convert', { input: 'small.docx', output: 'a.pdf', format: 'pdf' })).status).toBe(200);
    const orphans = officeProcessesOf(first.child.pid as number).map((p) => p.pid);
    expect(orphans.length).toBeGreaterThan(0);
    // Without an OS sandbox the offices' single-instance sockets are the host's /tmp/OSL_PIPE_….
    const orphanPipes = officePipesOf(officeProcessesOf(first.child.pid as number));
    expect(orphanPipes.length).toBeGreaterThan(0);
    expect(orphanPipes.every((pipe) => fs.existsSync(pipe))).toBe(true);
    await first.stop('SIGKILL');
    try {
      expect(orphans.some((pid) => isAlive(pid))).toBe(true); // a SIGKILL cannot be caught: they did outlive it
      const second = await startService(['--workers', '1', '--document-sandbox', 'profile']);
      try {
        fs.copyFileSync(fx.text[0] as string, path.join(second.dir, 'small.docx'));
        expect((await second.post('/api/convert', { input: 'small.docx', output: 'b.pdf', format: 'pdf' })).status).toBe(200);
        expect(await waitFor(() => orphans.every((pid) => !isAlive(pid)))).toBe(true);
        expect(orphanPipes.filter((pipe) => fs.existsSync(pipe))).toEqual([]);
      } finally {
        await second.stop();
      }
    } finally {
      for (const pid of orphans) killHard(pid);
      for (const pipe of orphanPipes) fs.rmSync(pipe, { force: true });
    }
  });
});
