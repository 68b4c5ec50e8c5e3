// The global teardown's view of LibreOffice's sockets in /tmp (test/setup/office-traces.ts):
// a stale socket named after a profile of the run is the run's leftover; another new stale one
// cannot be attributed; a socket something listens on is a running office, not debris. The
// sockets are real: bound by python3 (which, unlike Node, leaves the file when it exits) and
// by a Node server that stays listening.

import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { officePipePath } from '../../src/installed-office/office-pipe.js';
import { OfficeTraces } from '../setup/office-traces.js';

const made: string[] = [];
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'docwasm-traces-'));

/** A socket file nothing listens on, as a killed office leaves it. */
function staleSocket(file: string): string {
  execFileSync('python3', ['-c', 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])', file]);
  made.push(file);
  return file;
}

const strayName = () => `/tmp/OSL_PIPE_${os.userInfo().uid}_SingleOfficeIPC_${randomBytes(16).toString('hex')}`;

afterAll(() => {
  for (const file of made) fs.rmSync(file, { force: true });
  fs.rmSync(root, { recursive: true, force: true });
});

describe.skipIf(process.platform !== 'linux')('LibreOffice traces in /tmp', () => {
  it('attributes a stale socket to the profile of this run it is named after', () => {
    const traces = new OfficeTraces(root);
    const url = pathToFileURL(path.join(root, 'slot-0', 'profile')).href;
    traces.noteCommandLine(`/usr/lib/libreoffice/program/soffice.bin\0-env:UserInstallation=${url}\0--headless\0`);
    const pipe = staleSocket(officePipePath(url) as string);
    const { ours, unattributed } = traces.leftovers();
    expect(ours).toEqual([`${pipe} (office profile ${url})`]);
    expect(unattributed).not.toContain(pipe);
  });

  it('does not attribute a profile outside the run root', () => {
    const traces = new OfficeTraces(root);
    const elsewhere = pathToFileURL(path.join(os.tmpdir(), `elsewhere-${randomBytes(4).toString('hex')}`, 'profile')).href;
    traces.noteCommandLine(`soffice\0-env:UserInstallation=${elsewhere}\0`);
    const pipe = staleSocket(officePipePath(elsewhere) as string);
    const { ours, unattributed } = traces.leftovers();
    expect(ours).toEqual([]);
    expect(unattributed).toContain(pipe);
  });

  it('ignores sockets that were there before, and sockets an office still listens on', async () => {
    const old = staleSocket(strayName());
    const traces = new OfficeTraces(root);
    const live = strayName();
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(live, resolve));
    try {
      const { ours, unattributed } = traces.leftovers();
      expect([...ours, ...unattributed].filter((entry) => entry.startsWith(old) || entry.startsWith(live))).toEqual([]);
      // …while the same kind of socket, new and stale, is reported.
      const fresh = staleSocket(strayName());
      expect(traces.leftovers().unattributed).toContain(fresh);
    } finally {
      await new Promise((resolve) => server.close(resolve));
      fs.rmSync(live, { force: true });
    }
  });
});
