// A watcher says it watches only once SIGINT and SIGTERM stop it cleanly. Scripts (and these
// tests) stop it as soon as that line appears; a signal that came before its handlers were set
// killed it outright, its folder locks left behind (seen once with the cores loaded 25 deep). The
// window is too short to hit on purpose, so a preload module reports, at the moment the line is
// written, how many SIGTERM listeners the process has: by construction, not by timing.

import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { freePort, tempDir } from '../helpers/service.js';
import { layout, LONG, startWatch, stopWatch } from '../helpers/watch.js';

const LOCK = '.docwasm-watch.lock';

/** A preload that writes `SIGTERM listeners: N` just before the watcher's `watching` line. */
function listenerProbe(): NodeJS.ProcessEnv {
  const file = path.join(tempDir('docwasm-watch-probe-'), 'probe.mjs');
  fs.writeFileSync(
    file,
    `const write = process.stderr.write.bind(process.stderr);
process.stderr.write = (chunk, ...rest) => {
  if (String(chunk).includes('docwasm watch: watching')) write('SIGTERM listeners: ' + process.listenerCount('SIGTERM') + '\\n');
  return write(chunk, ...rest);
};
`,
  );
  return { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --import ${pathToFileURL(file).href}`.trim() };
}

describe('the watching line comes once a signal stops the watcher cleanly', () => {
  it.each([
    ['watch', (args: string[]) => ({ args, command: ['watch'] })],
    ['serve --watch', (args: string[], port: number) => ({ args: ['--port', String(port), '--watch', ...args], command: ['serve'] })],
  ] as const)(
    '%s: its SIGTERM handler is set when it says it watches, and SIGTERM then removes its locks',
    async (_name, command) => {
      const { inDir, outDir, steps } = layout();
      const { args, command: words } = command([inDir, '--steps', steps, '--out', outDir], await freePort());
      const watch = await startWatch(args, words, 'docwasm watch: watching', listenerProbe());
      const probe = /SIGTERM listeners: (\d+)/.exec(watch.stderr());
      expect(probe, watch.stderr()).not.toBeNull();
      expect(Number(probe?.[1])).toBeGreaterThan(0);
      await stopWatch(watch);
      expect(watch.child.exitCode, watch.stderr()).toBe(0);
      expect(fs.existsSync(path.join(outDir, LOCK))).toBe(false);
      expect(fs.existsSync(path.join(inDir, LOCK))).toBe(false);
    },
    LONG,
  );
});
