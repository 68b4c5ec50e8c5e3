// Turns a SandboxView into a command line: bubblewrap arguments, or a shell script run under
// `unshare` (user + mount + pid + network namespaces) that builds the same view on a tmpfs and
// pivots into it. Both give the office a fresh /proc (its own processes only), a minimal /dev,
// no network and no capabilities.

import type { SandboxView, ViewEntry } from './sandbox-view.js';

export interface WrappedCommand {
  command: string;
  args: string[];
}

export function bwrapCommand(bwrap: string, view: SandboxView, command: string, args: readonly string[]): WrappedCommand {
  const mounts = view.entries.flatMap(bwrapMount);
  return {
    command: bwrap,
    args: [
      '--unshare-all',
      '--die-with-parent',
      '--cap-drop',
      'ALL',
      '--proc',
      '/proc',
      '--dev',
      '/dev',
      ...mounts,
      '--chdir',
      view.cwd,
      '--',
      command,
      ...args,
    ],
  };
}

function bwrapMount(entry: ViewEntry): string[] {
  switch (entry.kind) {
    case 'read-only':
      return ['--ro-bind', entry.path, entry.path];
    case 'symlink':
      return ['--symlink', entry.target, entry.path];
    case 'writable':
      return ['--bind', entry.source, entry.path];
  }
}

export interface NamespaceTools {
  unshare: string;
  /** util-linux setpriv, to drop the namespace's capabilities before LibreOffice starts. */
  setpriv: string | undefined;
}

/**
 * `root` is an empty host directory used as the mount point of the new root; it stays empty on
 * the host (the tmpfs is mounted on it only inside the private mount namespace).
 */
export function namespaceCommand(tools: NamespaceTools, root: string, view: SandboxView, command: string, args: readonly string[]): WrappedCommand {
  const dropCapabilities = tools.setpriv ? `${quote(tools.setpriv)} --no-new-privs --inh-caps=-all --bounding-set=-all -- ` : '';
  const script = [
    'set -e',
    `r=${quote(root)}`,
    'mount -t tmpfs -o mode=0755 docwasm "$r"',
    'ro() { if [ -d "$1" ]; then mkdir -p "$r$1"; else mkdir -p "$r${1%/*}"; : > "$r$1"; fi; mount --rbind "$1" "$r$1"; mount -o remount,bind,ro "$r$1"; }',
    'rw() { mkdir -p "$r$2"; mount --bind "$1" "$r$2"; }',
    'sym() { mkdir -p "$r${2%/*}"; ln -s "$1" "$r$2"; }',
    ...view.entries.map(namespaceMount),
    'mkdir -p "$r/proc" "$r/dev/shm"',
    'mount -t proc proc "$r/proc"',
    'for d in null zero full random urandom; do : > "$r/dev/$d"; mount --bind "/dev/$d" "$r/dev/$d"; done',
    'mount -t tmpfs -o mode=1777 shm "$r/dev/shm"',
    'cd "$r" && mkdir .host && pivot_root . .host && cd / && umount -l /.host && rmdir /.host',
    `cd ${quote(view.cwd)}`,
    // The shell stays as the namespace's PID 1 instead of exec-ing the office: orphans of the
    // namespace (gpgconf, gpg and gpgsm, which LibreOffice starts through GPGME and never waits
    // for) are handed to PID 1, and a shell waiting for its child reaps every child that exits.
    // Its exit status is the office's.
    `${dropCapabilities}"$@" &`,
    'wait $!',
  ].join('\n');
  return {
    command: tools.unshare,
    args: [
      '--user',
      '--map-root-user',
      '--mount',
      '--net',
      '--pid',
      '--ipc',
      '--uts',
      '--fork',
      '--kill-child',
      '--',
      '/bin/sh',
      '-c',
      script,
      'docwasm-sandbox',
      command,
      ...args,
    ],
  };
}

function namespaceMount(entry: ViewEntry): string {
  switch (entry.kind) {
    case 'read-only':
      return `ro ${quote(entry.path)}`;
    case 'symlink':
      return `sym ${quote(entry.target)} ${quote(entry.path)}`;
    case 'writable':
      return `rw ${quote(entry.source)} ${quote(entry.path)}`;
  }
}

function quote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
