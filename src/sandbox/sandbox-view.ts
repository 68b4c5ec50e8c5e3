// What a sandboxed LibreOffice sees of the file system: read-only system files (programs,
// libraries, fonts and their configuration), the LibreOffice installation, the bundled CJK
// fonts, and one writable directory — its slot, which holds its profile and the document being
// converted (also shown at /documents). Nothing else of the host exists inside: no home dirs, no allowed dirs, no /proc of
// other processes, no network.

import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import path from 'node:path';

export type ViewEntry =
  { kind: 'read-only'; path: string } | { kind: 'symlink'; path: string; target: string } | { kind: 'writable'; path: string; source: string };

export interface SandboxView {
  /** Mounted in this order: a later entry may sit inside an earlier one. */
  entries: ViewEntry[];
  /** Working directory inside the sandbox. */
  cwd: string;
}

/** System paths LibreOffice needs on Linux; missing ones are skipped. /etc is not shown whole. */
const SYSTEM_PATHS = [
  '/usr',
  '/bin',
  '/sbin',
  '/lib',
  '/lib32',
  '/lib64',
  '/libx32',
  '/etc/alternatives',
  '/etc/fonts',
  '/etc/ld.so.cache',
  '/etc/libreoffice',
  '/etc/localtime',
  '/etc/nsswitch.conf',
  '/var/cache/fontconfig',
];

/** Where the office sees the slot's documents dir inside an OS sandbox: a path that says nothing about the service. */
export const OFFICE_DOCUMENTS_MOUNT = '/documents';

/** The slot's documents dir: one fresh directory per document being converted (office-staging.ts). */
export function documentsDir(slotDir: string): string {
  return path.join(slotDir, 'documents');
}

/** The office's working directory: empty, so nothing is reachable through /proc/self/cwd. */
export function emptyWorkingDir(slotDir: string): string {
  return path.join(slotDir, 'empty');
}

/** The directories a slot's view mounts; they must exist before an office starts. */
export function viewDirs(slotDir: string): string[] {
  return [sandboxTmpDir(slotDir), documentsDir(slotDir), emptyWorkingDir(slotDir)];
}

/** Where a slot keeps the sandbox's /tmp: LibreOffice puts its IPC pipe in /tmp, and the warm office and each launcher must find the same one. */
export function sandboxTmpDir(slotDir: string): string {
  return path.join(slotDir, 'tmp');
}

export interface ViewInputs {
  slotDir: string;
  soffice: string;
  /** Extra read-only paths (the bundled fonts the profile links to). */
  readOnly: readonly string[];
}

export function sandboxView({ slotDir, soffice, readOnly }: ViewInputs): SandboxView {
  const entries: ViewEntry[] = SYSTEM_PATHS.flatMap(systemEntry);
  entries.push({ kind: 'writable', path: '/tmp', source: sandboxTmpDir(slotDir) });
  entries.push({ kind: 'writable', path: slotDir, source: slotDir });
  entries.push({ kind: 'writable', path: OFFICE_DOCUMENTS_MOUNT, source: documentsDir(slotDir) });
  const shown = entries.filter((e) => e.kind === 'read-only').map((e) => e.path);
  for (const extra of [installationRoot(soffice), ...readOnly.map(realDir)]) {
    if (extra === undefined || shown.some((dir) => isWithin(extra, dir))) continue;
    entries.push({ kind: 'read-only', path: extra });
    shown.push(extra);
  }
  return { entries, cwd: emptyWorkingDir(slotDir) };
}

function systemEntry(hostPath: string): ViewEntry[] {
  try {
    if (lstatSync(hostPath).isSymbolicLink()) return [{ kind: 'symlink', path: hostPath, target: readlinkSync(hostPath) }];
    return [{ kind: 'read-only', path: hostPath }];
  } catch {
    return [];
  }
}

/** `<root>/program/soffice` → `<root>` (the whole installation, wherever it is). */
function installationRoot(soffice: string): string | undefined {
  try {
    return path.dirname(path.dirname(realpathSync(soffice)));
  } catch {
    return undefined;
  }
}

function realDir(file: string): string | undefined {
  try {
    return path.dirname(realpathSync(file));
  } catch {
    return undefined;
  }
}

function isWithin(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith(`..${path.sep}`) && relative !== '..' && !path.isAbsolute(relative));
}
