// Starting a LibreOffice process for a slot: in the sandbox in force, with an environment built
// from scratch (the service's own may hold DOCWASM_TOKEN and other secrets), its temp files
// (the /tmp/lu*.tmp dirs soffice.bin leaves) kept inside the slot, and in its own process group.

import type { ChildProcess, StdioOptions } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { withAddressSpaceLimit, type MemoryCeiling } from './office-memory.js';
import { spawnGroup } from './process-group.js';
import { bundledCjkFonts } from '../documents/profile.js';
import { wrapInSandbox } from '../sandbox/sandbox.js';
import { emptyWorkingDir, sandboxTmpDir, sandboxView, viewDirs } from '../sandbox/sandbox-view.js';

export interface OfficeSpawn {
  soffice: string;
  args: readonly string[];
  /** The slot's directory: the only place the office may write. */
  slotDir: string;
  stdio: StdioOptions;
  /** Variables added to the minimal environment (tests, diagnostics); never the service's whole env. */
  extraEnv?: NodeJS.ProcessEnv | undefined;
  /** The address-space ceiling of every process the office starts. */
  memory?: MemoryCeiling | undefined;
}

/** Variables passed through from the service: locale, time zone and the operator's fontconfig, which shape output. */
const PASSED_THROUGH = /^(LANG|LANGUAGE|LC_[A-Z]+|TZ|FONTCONFIG_FILE)$/;
/** What Windows programs cannot start without. */
const WINDOWS_ESSENTIALS = ['SystemRoot', 'windir', 'SystemDrive', 'ComSpec', 'PATHEXT', 'NUMBER_OF_PROCESSORS', 'PROCESSOR_ARCHITECTURE'];

export function spawnOffice({ soffice, args, slotDir, stdio, extraEnv, memory }: OfficeSpawn): ChildProcess {
  const tmp = sandboxTmpDir(slotDir);
  const home = path.join(slotDir, 'home');
  for (const dir of [home, ...viewDirs(slotDir)]) mkdirSync(dir, { recursive: true });
  // A fontconfig file given to the service (FONTCONFIG_FILE) must be readable inside too.
  const fontconfig = process.env.FONTCONFIG_FILE ? [process.env.FONTCONFIG_FILE] : [];
  const view = sandboxView({ slotDir, soffice, readOnly: [...bundledCjkFonts(), ...fontconfig] });
  const sandboxed = wrapInSandbox(view, path.join(slotDir, 'sandbox-root'), soffice, args);
  const limited = withAddressSpaceLimit(memory, sandboxed.command, sandboxed.args);
  // An empty working directory: nothing to reach through /proc/self/cwd or a relative path.
  return spawnGroup(limited.command, limited.args, { stdio, cwd: emptyWorkingDir(slotDir), env: { ...officeEnvironment(home, tmp), ...extraEnv } });
}

export function officeEnvironment(
  home: string,
  tmp: string,
  parent: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(parent)) {
    if (value !== undefined && PASSED_THROUGH.test(name)) env[name] = value;
  }
  if (platform === 'win32') {
    for (const name of WINDOWS_ESSENTIALS) {
      const value = parent[name];
      if (value !== undefined) env[name] = value;
    }
    return {
      ...env,
      PATH: path.win32.join(parent.SystemRoot ?? 'C:\\Windows', 'System32'),
      USERPROFILE: home,
      APPDATA: home,
      LOCALAPPDATA: home,
      TEMP: tmp,
      TMP: tmp,
    };
  }
  return { ...env, PATH: '/usr/bin:/bin:/usr/sbin:/sbin', HOME: home, TMPDIR: tmp };
}
