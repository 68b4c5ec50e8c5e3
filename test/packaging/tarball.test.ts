// The published package as a user gets it: `npm pack`, then `npm install <tarball>` into an empty
// project from npm's cache only. The installed tree holds no native addon (`*.node`, optional
// dependencies included), no dangling source map, and `npx docwasm --version` runs. The commands
// docs/install-and-run.md gives for a tarball and a clone run as written, the MCP client
// configuration's included (started by the SDK's client, as an MCP host would).
// Needs `npm run build` first, like every test of the built service.

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePdf } from '../helpers/make-pdf.js';
import { ROOT } from '../helpers/service.js';
import { WASM_OFFICE_PACKAGE } from '../../core/wasm-office-package.js';

const NPM_QUIET = ['--no-audit', '--no-fund', '--loglevel=error'];

function npm(args: string[], cwd: string): string {
  return execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
}

/** Installs from the cache only; `--prefer-offline` when the cache lacks something `--offline` needs. */
function installOffline(tarball: string, cwd: string): void {
  try {
    npm(['install', tarball, '--offline', ...NPM_QUIET], cwd);
  } catch {
    npm(['install', tarball, '--prefer-offline', ...NPM_QUIET], cwd);
  }
}

function filesUnder(dir: string, match: (name: string) => boolean): string[] {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && match(entry.name))
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

/**
 * npx as a user runs it, taking packages from npm's cache first (the tests run offline), as the
 * slim install README describes (`--omit=optional`: no WebAssembly office, 243 of the 637 MB).
 * The project's `npm install` takes the optional dependencies and is checked for native addons; npx's
 * two installs (the relative and the absolute tarball path are two entries in its cache) only
 * run commands that need no office, and so also show that a slim install runs.
 */
const NPX_ENV = { ...process.env, npm_config_prefer_offline: 'true', npm_config_omit: 'optional' };

function npx(args: string[], cwd: string): string {
  return execFileSync('npx', args, { cwd, env: NPX_ENV, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000 }).trim();
}

const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

/** npx keeps what it installs in <cache>/_npx/<hash>/: the folders holding installs of `source` (a tarball or a folder). */
function npxInstallsOf(source: string): string[] {
  const dir = path.join(npm(['config', 'get', 'cache'], os.tmpdir()).trim(), '_npx');
  return (fs.existsSync(dir) ? fs.readdirSync(dir) : [])
    .map((entry) => path.join(dir, entry))
    .filter((install) => {
      const manifest = path.join(install, 'package.json');
      // It names the source by a path relative to itself: ../../../../tmp/docwasm-pack-…/docwasm-….tgz
      return fs.existsSync(manifest) && fs.readFileSync(manifest, 'utf8').includes(`/${path.relative('/', source)}"`);
    });
}

function removeNpxInstalls(source: string): void {
  for (const install of npxInstallsOf(source)) fs.rmSync(install, { recursive: true, force: true });
}

describe('the packed tarball installed into an empty project', () => {
  let work: string;
  let project: string;
  let tarball: string;

  beforeAll(() => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'docwasm-pack-'));
    project = path.join(work, 'project');
    fs.mkdirSync(project);
    fs.writeFileSync(path.join(project, 'package.json'), '{"name":"docwasm-install-check","private":true}\n');
    // dist/ is already built; prepack's clean rebuild is what `npm publish` runs.
    const [packed] = JSON.parse(npm(['pack', '--ignore-scripts', '--json', '--pack-destination', work, ...NPM_QUIET], ROOT)) as { filename: string }[];
    tarball = path.join(work, (packed as { filename: string }).filename);
    installOffline(tarball, project);
    // 10× the install's minute on a quiet machine: on a loaded one it took over the 3 minutes allowed before.
  }, 600_000);
  afterAll(() => {
    if (tarball) removeNpxInstalls(tarball);
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('holds no native addon anywhere in node_modules, the optional WebAssembly office included', () => {
    expect(fs.existsSync(path.join(project, 'node_modules', WASM_OFFICE_PACKAGE))).toBe(true);
    expect(filesUnder(path.join(project, 'node_modules'), (name) => name.endsWith('.node'))).toEqual([]);
  });

  it('ships neither source maps nor sources they would point at', () => {
    expect(filesUnder(path.join(project, 'node_modules/docwasm'), (name) => name.endsWith('.map') || name.endsWith('.ts'))).toEqual([]);
  });

  it('runs `npx docwasm --version` and shows users no install script of its own', () => {
    const version = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
    expect(npm(['exec', '--offline', '--', 'docwasm', '--version'], project).trim()).toBe(version);
    const installed = JSON.parse(fs.readFileSync(path.join(project, 'node_modules/docwasm/package.json'), 'utf8')) as { scripts?: Record<string, string> };
    for (const hook of ['preinstall', 'install', 'postinstall', 'prepare']) expect(installed.scripts?.[hook]).toBeUndefined();
  });

  it("leaves the shared queue's libraries out (BullMQ's msgpackr brings a native decoder): --queue says how to add them, exit 2", () => {
    expect(fs.existsSync(path.join(project, 'node_modules/bullmq'))).toBe(false);
    const cli = path.join(project, 'node_modules/docwasm/dist/src/cli/main.js');
    const result = spawnSync(process.execPath, [cli, 'worker', '--queue', 'redis://127.0.0.1:9'], { cwd: project, encoding: 'utf8' });
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('npm install bullmq ioredis');
  });

  it('packs the bin and the CLI it runs executable (tsc writes 0644), and neither the staleness check nor sources', () => {
    const listing = execFileSync('tar', ['-tvzf', tarball], { encoding: 'utf8' }).split('\n');
    for (const program of ['package/bin/docwasm.mjs', 'package/dist/src/cli/main.js']) {
      expect(
        listing.find((line) => line.endsWith(` ${program}`)),
        program,
      ).toMatch(/^-rwxr-xr-x /);
    }
    expect(listing.filter((line) => / package\/(scripts|src)\//.test(line))).toEqual([]);
  });

  it('runs the documented tarball commands: npx ./docwasm-<version>.tgz, and npx --package … docwasm', () => {
    const spec = `./${path.basename(tarball)}`;
    expect(npx(['--yes', spec, '--version'], work)).toBe(VERSION);
    expect(npx(['--yes', '--package', spec, 'docwasm', 'pdf', 'merge', '--help'], work)).toContain('Usage: docwasm pdf merge FILES...');
    // Slim, as NPX_ENV asks: the WebAssembly office was left out.
    const installs = npxInstallsOf(tarball);
    expect(installs).toHaveLength(1);
    expect(fs.existsSync(path.join(installs[0] as string, 'node_modules/docwasm'))).toBe(true);
    expect(fs.existsSync(path.join(installs[0] as string, 'node_modules', WASM_OFFICE_PACKAGE))).toBe(false);
  }, 600_000);

  it('serves MCP when started as the documented client configuration for a tarball starts it', async () => {
    const files = path.join(work, 'agent-files');
    fs.mkdirSync(files);
    fs.writeFileSync(path.join(files, 'a.pdf'), makePdf({ pages: ['One', 'Two'] }));
    // { "command": "npx", "args": ["--yes", "--package", "/abs/docwasm-<version>.tgz", "docwasm", "mcp", "--allow-dir", DIR] }
    const transport = new StdioClientTransport({
      command: 'npx',
      args: ['--yes', '--package', tarball, 'docwasm', 'mcp', '--allow-dir', files],
      cwd: os.tmpdir(),
      env: NPX_ENV as Record<string, string>,
      stderr: 'pipe',
    });
    const client = new Client({ name: 'docwasm-packaging-test', version: '1.0.0' });
    try {
      // npx installs the tarball before the server can answer `initialize`: the SDK's own 60 s
      // request limit is not a bound for that (82 s for the npx test above with both cores busy).
      await client.connect(transport, { timeout: 540_000 });
      const result = await client.callTool({ name: 'pdf_info', arguments: { input: path.join(files, 'a.pdf') } }, undefined, { timeout: 120_000 });
      expect(result.structuredContent).toMatchObject({ success: true, data: { pages: 2 } });
    } finally {
      await client.close();
    }
  }, 600_000);
});

describe('the documented commands of a clone', () => {
  afterAll(() => removeNpxInstalls(ROOT));

  it('runs the built bin as a program, and through npx docwasm', () => {
    expect(execFileSync(path.join(ROOT, 'dist/src/cli/main.js'), ['--version'], { cwd: ROOT, encoding: 'utf8' }).trim()).toBe(VERSION);
    expect(npx(['docwasm', '--version'], ROOT)).toBe(VERSION);
  }, 300_000);
});
