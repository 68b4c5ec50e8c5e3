// The socket a running office listens on (issue 20, item 5): docwasm must compute its name as
// LibreOffice does, or `--document-sandbox profile` leaves /tmp/OSL_PIPE_* behind for every
// profile whose MD5 has a byte below 0x10 (LibreOffice writes the bytes unpadded). Real offices
// are started on profile paths chosen to have such bytes, and on one without.

import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { officePipePath } from '../../src/installed-office/office-pipe.js';
import { waitFor } from '../helpers/documents.js';
import { ROOT } from '../helpers/service.js';
import { startOffice, stopOffice } from '../helpers/soffice.js';

/** The built module, as the service runs it. */
const OFFICE_PIPE_MODULE = path.join(ROOT, 'dist', 'src', 'installed-office', 'office-pipe.js');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'docwasm-pipe-'));
const bytesOf = (url: string) => [...createHash('md5').update(Buffer.from(url, 'utf16le')).digest()];

/** The first profile dirs below `work` whose URL's digest has (or has not) a byte below 0x10. */
function profiles(count: number, smallByte: boolean): string[] {
  const found: string[] = [];
  for (let i = 0; found.length < count; i++) {
    const dir = path.join(work, `profile-${i}`);
    if (bytesOf(pathToFileURL(dir).href).some((b) => b < 0x10) === smallByte) found.push(dir);
  }
  return found;
}

afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe.skipIf(process.platform === 'win32')('the office pipe name', () => {
  it('is the unpadded hex of the digest, for many profile paths', () => {
    for (let i = 0; i < 500; i++) {
      const url = pathToFileURL(path.join(work, `p${i}`)).href;
      const pipe = officePipePath(url) as string;
      expect(pipe).toMatch(/^\/tmp\/OSL_PIPE_\d+_SingleOfficeIPC_[0-9a-f]{16,32}$/);
      expect(pipe.split('_').at(-1)).toBe(
        bytesOf(url)
          .map((b) => b.toString(16))
          .join(''),
      );
    }
  });

  it.each([...profiles(2, true), ...profiles(1, false)])(
    'names the socket a real office listens on (%s)',
    async (dir) => {
      const url = pathToFileURL(dir).href;
      const pipe = officePipePath(url) as string;
      const office = startOffice(dir, []);
      try {
        // An office starts in 1–6 s on a busy machine; its socket appears once it listens.
        expect(await waitFor(() => fs.existsSync(pipe), 60_000)).toBe(true);
      } finally {
        await stopOffice(office, dir);
      }
    },
    90_000,
  );
});

// A service that dies on an uncaught error kills its offices in an exit hook (process-group.ts);
// their sockets must go with them. A real process registers a real (stale) socket and throws.
describe.skipIf(process.platform === 'win32')("a running office's socket when the service dies on an uncaught error", () => {
  const dying = (pipe: string, forget: boolean) =>
    spawnSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        `const { removePipeAtExit } = await import(${JSON.stringify(pathToFileURL(OFFICE_PIPE_MODULE).href)}); const forget = removePipeAtExit(${JSON.stringify(pipe)}); ${forget ? 'forget();' : ''} throw new Error('boom');`,
      ],
      { encoding: 'utf8' },
    );

  it.each([
    [false, 'is removed as the process exits'],
    [true, 'is left alone once forgotten (its office already gone and the socket handled)'],
  ])('forgotten %s: %s', (forget) => {
    const pipe = path.join(work, `socket-${String(forget)}`);
    execFileSync('python3', ['-c', 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])', pipe]);
    const result = dying(pipe, forget);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('boom');
    expect(fs.existsSync(pipe)).toBe(forget);
    fs.rmSync(pipe, { force: true });
  });
});
