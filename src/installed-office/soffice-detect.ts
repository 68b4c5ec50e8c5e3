// Finds LibreOffice at run time: --soffice / DOCWASM_SOFFICE, then a portable LibreOffice
// beside docwasm (a USB stick carrying both), then PATH, then the usual install locations. The version comes from share/registry/main.xcd (a 25 ms read) instead of
// `soffice --version` (a 300 ms start of the office).

import { constants as fsConstants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type SofficeDetection = { found: true; path: string; version: string } | { found: false; reason: string };

export interface DetectOptions {
  /** --soffice / DOCWASM_SOFFICE; when given, only this path is tried. */
  explicit?: string | undefined;
  env?: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  /** Where docwasm is installed (the package or bundle root); a portable LibreOffice is looked for in it and beside it. */
  installDir?: string;
}

/** This package's root: the folder holding dist/ (or src/, when run from the sources). */
const INSTALL_DIR = ((sourceParent: string) => (path.basename(sourceParent) === 'dist' ? path.dirname(sourceParent) : sourceParent))(
  fileURLToPath(new URL('../..', import.meta.url)),
);

export async function detectSoffice({
  explicit,
  env = process.env,
  platform = process.platform,
  installDir = INSTALL_DIR,
}: DetectOptions = {}): Promise<SofficeDetection> {
  if (explicit !== undefined) {
    // An explicit choice is never silently replaced by another installation.
    const resolved = await executableAt(path.resolve(explicit), platform);
    if (!resolved) return { found: false, reason: `the soffice program given with --soffice/DOCWASM_SOFFICE was not found or is not executable: ${explicit}` };
    return { found: true, path: resolved, version: await readVersion(resolved) };
  }
  for (const candidate of [...portableCandidates(installDir, platform), ...candidatePaths(env, platform)]) {
    const resolved = await executableAt(candidate, platform);
    if (resolved) return { found: true, path: resolved, version: await readVersion(resolved) };
  }
  return { found: false, reason: 'LibreOffice (soffice) was not found on PATH or in the usual install locations' };
}

/**
 * A portable LibreOffice put in or beside docwasm's folder: LibreOffice Portable (Windows,
 * PortableApps layout) or an unpacked LibreOffice (`LibreOffice/program/soffice`, or the app on macOS).
 */
export function portableCandidates(installDir: string, platform: NodeJS.Platform): string[] {
  const p = platform === 'win32' ? path.win32 : path.posix;
  const programs =
    platform === 'win32'
      ? [
          'LibreOfficePortable/App/libreoffice/program/soffice.com',
          'LibreOfficePortable/App/libreoffice/program/soffice.exe',
          'LibreOffice/program/soffice.com',
          'LibreOffice/program/soffice.exe',
        ]
      : platform === 'darwin'
        ? ['LibreOffice.app/Contents/MacOS/soffice', 'LibreOffice/program/soffice']
        : ['LibreOffice/program/soffice', 'LibreOfficePortable/App/libreoffice/program/soffice'];
  return [installDir, p.dirname(installDir)].flatMap((root) => programs.map((program) => p.join(root, ...program.split('/'))));
}

/** PATH entries first, then the platform's usual locations, in the order they are tried. */
export function candidatePaths(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string[] {
  const windows = platform === 'win32';
  const names = windows ? ['soffice.com', 'soffice.exe'] : ['soffice', 'libreoffice'];
  const pathDirs = (env.PATH ?? env.Path ?? '').split(windows ? ';' : ':').filter((d) => d !== '');
  const fromPath = pathDirs.flatMap((dir) => names.map((name) => path.join(dir, name)));
  return [...fromPath, ...usualLocations(env, platform)];
}

function usualLocations(env: NodeJS.ProcessEnv, platform: NodeJS.Platform): string[] {
  if (platform === 'darwin') {
    return ['/Applications/LibreOffice.app/Contents/MacOS/soffice', path.join(env.HOME ?? '', 'Applications/LibreOffice.app/Contents/MacOS/soffice')];
  }
  if (platform === 'win32') {
    const roots = [env.ProgramFiles, env['ProgramFiles(x86)'], env.ProgramW6432, 'C:\\Program Files'].filter((r): r is string => Boolean(r));
    return [...new Set(roots)].map((root) => path.win32.join(root, 'LibreOffice', 'program', 'soffice.com'));
  }
  return [
    '/usr/lib/libreoffice/program/soffice',
    '/usr/lib64/libreoffice/program/soffice',
    '/usr/local/lib/libreoffice/program/soffice',
    // Upstream .deb/.rpm builds install to /opt/libreofficeX.Y; the glob is expanded at detection.
    '/opt/libreoffice*/program/soffice',
    '/snap/bin/libreoffice',
    '/var/lib/flatpak/exports/bin/org.libreoffice.LibreOffice',
    path.join(env.HOME ?? '', '.local/share/flatpak/exports/bin/org.libreoffice.LibreOffice'),
  ];
}

async function executableAt(candidate: string, platform: NodeJS.Platform): Promise<string | undefined> {
  for (const file of await expandOptGlob(candidate)) {
    try {
      const stat = await fs.stat(file);
      if (!stat.isFile()) continue;
      if (platform !== 'win32') await fs.access(file, fsConstants.X_OK);
      return file;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

/** `/opt/libreoffice*` → the installed versions, newest name first. */
async function expandOptGlob(candidate: string): Promise<string[]> {
  const star = candidate.indexOf('*');
  if (star < 0) return [candidate];
  const parent = path.dirname(candidate.slice(0, star));
  const prefix = path.basename(candidate.slice(0, star));
  const rest = candidate.slice(candidate.indexOf('/', star));
  const names = await fs.readdir(parent).catch(() => [] as string[]);
  return names
    .filter((n) => n.startsWith(prefix))
    .sort()
    .reverse()
    .map((n) => path.join(parent, n) + rest);
}

/** `ooSetupVersionAboutBox` (e.g. 7.4.7.2) from the installation's main.xcd; `unknown` otherwise. */
export async function readVersion(sofficePath: string): Promise<string> {
  const real = await fs.realpath(sofficePath).catch(() => sofficePath);
  for (const xcd of [
    path.join(path.dirname(real), '..', 'share', 'registry', 'main.xcd'),
    path.join(path.dirname(real), '..', 'Resources', 'registry', 'main.xcd'),
  ]) {
    const text = await fs.readFile(xcd, 'utf8').catch(() => undefined);
    const version = text === undefined ? undefined : versionInXcd(text);
    if (version) return version;
  }
  return 'unknown';
}

/** The version a LibreOffice's registry (main.xcd) states for its About box ("24.8.8.0.0"). */
export function versionInXcd(xcd: string): string | undefined {
  return /<prop oor:name="ooSetupVersionAboutBox">\s*<value>([^<]+)<\/value>/.exec(xcd)?.[1];
}
