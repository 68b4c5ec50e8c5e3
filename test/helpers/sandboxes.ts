// Which OS sandboxes this machine offers the tests: bubblewrap (`bwrap`, Debian package
// bubblewrap) and unprivileged namespaces through util-linux `unshare`. A test that forces one
// the machine lacks is skipped with a message saying what to install, instead of failing
// (the service itself falls back: auto → bwrap, else namespace, else profile).

import { spawnSync } from 'node:child_process';

const PROBES: Record<string, [string, string[], string]> = {
  bwrap: [
    'bwrap',
    ['--unshare-all', '--ro-bind', '/', '/', '--proc', '/proc', '--dev', '/dev', 'true'],
    'install bubblewrap (apt-get install bubblewrap) and allow unprivileged user namespaces',
  ],
  namespace: [
    'unshare',
    ['--user', '--map-root-user', '--mount', '--net', '--pid', '--fork', 'true'],
    'util-linux unshare must be able to create user namespaces (sysctl kernel.unprivileged_userns_clone=1)',
  ],
};

/** Whether `--document-sandbox <mode>` can work here ('auto' and 'profile' always can). */
export function sandboxWorks(mode: string): boolean {
  const probe = PROBES[mode];
  if (!probe) return true;
  if (process.platform !== 'linux') return false;
  return spawnSync(probe[0], probe[1], { stdio: 'ignore', timeout: 10_000 }).status === 0;
}

/** The modes of `wanted` this machine can run; each one left out is named with how to get it. */
export function usableSandboxModes(wanted: readonly string[]): string[] {
  return wanted.filter((mode) => {
    if (sandboxWorks(mode)) return true;
    console.warn(`skipping --document-sandbox ${mode} tests: ${PROBES[mode]?.[2] ?? 'not available here'}`);
    return false;
  });
}
