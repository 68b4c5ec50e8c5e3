// Under the `unshare` sandbox the office's launcher used to be PID 1 of its namespace, and PID 1
// that never waits keeps every orphan as a zombie: with gnupg installed LibreOffice starts
// gpgconf/gpg/gpgsm through GPGME and left five zombies per office until it stopped (issue 19).
// After conversions, the office's process tree holds no zombie.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentFixtures, officeProcessesOf, waitFor } from '../helpers/documents.js';
import { usableSandboxModes } from '../helpers/sandboxes.js';
import { startService, type RunningService } from '../helpers/service.js';

interface Row {
  pid: number;
  ppid: number;
  stat: string;
  command: string;
}

function processTable(): Row[] {
  return spawnSync('ps', ['-eo', 'pid=,ppid=,stat=,comm='], { encoding: 'utf8' })
    .stdout.split('\n')
    .map((line) => /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), stat: m[3] as string, command: m[4] as string }));
}

/** Every process below `root` (its children, their children, …). */
function descendants(root: number): Row[] {
  const table = processTable();
  const found: Row[] = [];
  const parents = [root];
  while (parents.length > 0) {
    const parent = parents.pop() as number;
    for (const row of table.filter((r) => r.ppid === parent)) {
      found.push(row);
      parents.push(row.pid);
    }
  }
  return found;
}

const gpgInstalled = spawnSync('gpgconf', ['--version']).status === 0;

describe.runIf(usableSandboxModes(['namespace']).length > 0)('office processes under --document-sandbox namespace', () => {
  let service: RunningService;

  beforeAll(async () => {
    if (!gpgInstalled) console.warn('gnupg is not installed: LibreOffice starts no gpg helpers, so this test cannot show zombies (apt-get install gnupg)');
    service = await startService(['--workers', '1', '--document-sandbox', 'namespace']);
    fs.copyFileSync((await documentFixtures()).text[0] as string, path.join(service.dir, 'small.docx'));
  });

  afterAll(async () => {
    const pid = service?.child.pid;
    await service?.stop();
    if (pid !== undefined) expect(await waitFor(() => officeProcessesOf(pid).length === 0, 5000)).toBe(true);
    if (service) fs.rmSync(service.dir, { recursive: true, force: true });
  });

  it('leaves no zombie in the office process tree after conversions', async () => {
    for (const output of ['one.pdf', 'two.pdf']) {
      const { status } = await service.post('/api/convert', { input: 'small.docx', output, format: 'pdf' });
      expect(status).toBe(200);
    }
    const tree = descendants(service.child.pid as number);
    expect(tree.some((row) => row.command.startsWith('soffice'))).toBe(true);
    // GPGME's helpers exit within moments of starting; a zombie is one nobody reaped.
    expect(await waitFor(() => descendants(service.child.pid as number).every((row) => !row.stat.startsWith('Z')), 10_000)).toBe(true);
  });
});
