// Temp dirs named with their service's PID (src/files/owned-temp-dirs.ts): what a service killed
// with SIGKILL left is removed by the next one, and nothing of a running process or of another name.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { reapOrphanedTempDirs } from '../../src/files/owned-temp-dirs.js';
import { tempDir } from '../helpers/service.js';

describe('temp dirs named with their owner’s PID', () => {
  it('are removed once their owner has exited, and only then', async () => {
    const tmp = tempDir();
    const exited = spawnSync(process.execPath, ['-e', '']).pid as number;
    const names = {
      dead: `docwasm-tessdata-${exited}-aB3xYz`,
      ours: `docwasm-tessdata-${process.pid}-aB3xYz`,
      parents: `docwasm-tessdata-${process.ppid}-aB3xYz`,
      otherPrefix: `docwasm-pipeline-${exited}-aB3xYz`,
      unnamed: 'docwasm-tessdata-aB3xYz',
    };
    for (const name of Object.values(names)) fs.mkdirSync(path.join(tmp, name));
    fs.writeFileSync(path.join(tmp, names.dead, 'eng.traineddata'), 'x');
    await reapOrphanedTempDirs('docwasm-tessdata-', tmp);
    expect(fs.readdirSync(tmp).sort()).toEqual([names.otherPrefix, names.ours, names.parents, names.unnamed].sort());
  });
});
