// Which OS sandbox LibreOffice runs in, decided once per process by trying it: bubblewrap when
// installed and working, else unprivileged namespaces through util-linux `unshare`, else none
// ('profile': the hardened LibreOffice profile and the content checks alone — Windows, macOS,
// or a Linux that refuses user namespaces). `--document-sandbox` forces a choice; a forced
// sandbox that does not work fails the office's start instead of silently running unconfined.

import { spawnSync } from 'node:child_process';
import { accessSync, constants as fsConstants, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { documentsDir, OFFICE_DOCUMENTS_MOUNT, sandboxView, viewDirs, type SandboxView } from './sandbox-view.js';
import { bwrapCommand, namespaceCommand, type NamespaceTools, type WrappedCommand } from './sandbox-wrappers.js';

export const SANDBOX_CHOICES = ['auto', 'bwrap', 'namespace', 'profile'] as const;
export type SandboxChoice = (typeof SANDBOX_CHOICES)[number];
export type SandboxKind = Exclude<SandboxChoice, 'auto'>;

type Sandbox = { kind: 'bwrap'; bwrap: string } | { kind: 'namespace'; tools: NamespaceTools } | { kind: 'profile' };

const SYSTEM_BIN_DIRS = ['/usr/bin', '/bin', '/usr/sbin', '/sbin'];
const PROBE_TIMEOUT_MS = 10_000;

let choice: SandboxChoice = 'auto';
let decided: { sandbox: Sandbox } | { error: string } | undefined;

/** Sets the --document-sandbox choice; call before the first office starts. */
export function chooseOfficeSandbox(value: SandboxChoice): void {
  choice = value;
  decided = undefined;
}

/** The protection in force for documents: 'bwrap', 'namespace' or 'profile'. */
export function officeSandboxKind(): SandboxKind {
  return choice === 'auto' ? currentSandbox().kind : choice;
}

/** The slot's documents dir as the office sees it: mounted at a neutral path in an OS sandbox, the host path without one. */
export function documentsDirInOffice(slotDir: string): string {
  return officeSandboxKind() === 'profile' ? documentsDir(slotDir) : OFFICE_DOCUMENTS_MOUNT;
}

/** The office command wrapped in the sandbox in force, seeing `view`. Throws when a forced sandbox does not work. */
export function wrapInSandbox(view: SandboxView, rootMountPoint: string, command: string, args: readonly string[]): WrappedCommand {
  const sandbox = currentSandbox();
  if (choice !== 'auto' && sandbox.kind !== choice) {
    throw new Error(
      `the document sandbox "${choice}" (--document-sandbox) does not work here: ${decided && 'error' in decided ? decided.error : 'unavailable'}`,
    );
  }
  switch (sandbox.kind) {
    case 'bwrap':
      return bwrapCommand(sandbox.bwrap, view, command, args);
    case 'namespace':
      mkdirSync(rootMountPoint, { recursive: true });
      return namespaceCommand(sandbox.tools, rootMountPoint, view, command, args);
    case 'profile':
      return { command, args: [...args] };
  }
}

function currentSandbox(): Sandbox {
  if (!decided) {
    try {
      decided = { sandbox: detectSandbox(choice) };
    } catch (err) {
      decided = { error: err instanceof Error ? err.message : String(err) };
    }
  }
  return 'sandbox' in decided ? decided.sandbox : { kind: 'profile' };
}

function detectSandbox(wanted: SandboxChoice): Sandbox {
  if (wanted === 'profile' || process.platform !== 'linux') {
    if (wanted !== 'profile' && wanted !== 'auto') throw new Error(`OS sandboxes exist only on Linux (this is ${process.platform})`);
    return { kind: 'profile' };
  }
  const failures: string[] = [];
  if (wanted === 'auto' || wanted === 'bwrap') {
    const bwrap = findProgram('bwrap');
    const failure = bwrap ? probe((view) => bwrapCommand(bwrap, view, '/bin/true', []), 'bwrap') : 'bwrap is not installed';
    if (bwrap && failure === undefined) return { kind: 'bwrap', bwrap };
    failures.push(failure ?? '');
  }
  if (wanted === 'auto' || wanted === 'namespace') {
    const unshare = findProgram('unshare');
    const tools = unshare ? { unshare, setpriv: findProgram('setpriv') } : undefined;
    const failure = tools ? probe((view, root) => namespaceCommand(tools, root, view, '/bin/true', []), 'unshare') : 'unshare (util-linux) is not installed';
    if (tools && failure === undefined) return { kind: 'namespace', tools };
    failures.push(failure ?? '');
  }
  if (wanted !== 'auto') throw new Error(failures.join('; '));
  return { kind: 'profile' };
}

/** Runs `true` in the sandbox over a scratch view; undefined when it worked, else why not. */
function probe(wrap: (view: SandboxView, root: string) => WrappedCommand, name: string): string | undefined {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'docwasm-sandbox-probe-'));
  try {
    for (const dir of viewDirs(scratch)) mkdirSync(dir);
    const root = path.join(scratch, 'root');
    mkdirSync(root);
    const { command, args } = wrap(sandboxView({ slotDir: scratch, soffice: '/bin/true', readOnly: [] }), root);
    const result = spawnSync(command, args, {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { PATH: SYSTEM_BIN_DIRS.join(':') },
      timeout: PROBE_TIMEOUT_MS,
      encoding: 'utf8',
    });
    if (result.status === 0) return undefined;
    const reason = result.error?.message ?? (result.stderr.trim().split('\n').at(-1) || `exit status ${result.status ?? result.signal}`);
    return `${name} cannot create a sandbox here (${reason})`;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

export function findProgram(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter).filter((d) => path.isAbsolute(d)), ...SYSTEM_BIN_DIRS];
  for (const dir of dirs) {
    const candidate = path.join(dir, name);
    try {
      accessSync(candidate, fsConstants.X_OK);
      return candidate;
    } catch {
      /* not here */
    }
  }
  return undefined;
}
