// The installed production tree (docs/http-runtime.md): no package runs anything at install
// time that could reach the network, except the ones listed below with why each is harmless,
// and none brings a native binary (`.node`) or a node-gyp build. Scarf's install analytics,
// pulled in by swagger-ui-dist, is switched off by `scarfSettings.enabled: false` in our
// package.json: the test runs Scarf's own postinstall, network guarded, to see it stop.

import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { writeNetworkGuard } from '../helpers/ocr-network-guard.js';
import { ROOT, tempDir } from '../helpers/service.js';
import { productionTree } from '../../scripts/production-tree.mjs';

const run = promisify(execFile);

/** The hooks npm runs when it installs a package (prepare runs only for git and local packages). */
const INSTALL_HOOKS = ['preinstall', 'install', 'postinstall'] as const;

/** Every install script the production tree may hold, exactly, and why it is harmless. */
const KNOWN_INSTALL_SCRIPTS: Record<string, { postinstall: string; harmless: string }> = {
  '@scarf/scarf': {
    postinstall: 'node ./report.js',
    harmless:
      'install analytics; it stops when any package.json between the installing root and it says scarfSettings.enabled: false, as ours does (checked below)',
  },
  protobufjs: {
    postinstall: 'node scripts/postinstall',
    harmless: "(onnxruntime-web's) reads its own and its dependent's package.json and may print a version-scheme warning; no network, writes nothing",
  },
  'tesseract.js': {
    postinstall: 'opencollective-postinstall || true',
    harmless: 'opencollective-postinstall only prints a donation banner with console.log (no network); "|| true" keeps a missing one harmless',
  },
};

/** Install paths (`node_modules/…`) of the packages an install of docwasm brings (scripts/production-tree.mjs says which). */
function productionPackages(): string[] {
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Parameters<typeof productionTree>[0] };
  return productionTree(lock.packages).filter((where) => fs.existsSync(path.join(ROOT, where, 'package.json')));
}

function readPackage(where: string): { name: string; scripts?: Record<string, string> } {
  return JSON.parse(fs.readFileSync(path.join(ROOT, where, 'package.json'), 'utf8')) as { name: string; scripts?: Record<string, string> };
}

/** Files of one package (not of the packages nested in its own node_modules, listed on their own). */
function packageFiles(dir: string): string[] {
  const found: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'node_modules') found.push(...packageFiles(full));
    else if (entry.isFile()) found.push(full);
  }
  return found;
}

describe('the installed production tree', () => {
  const packages = productionPackages();

  it('is the tree of package-lock.json, read from node_modules', () => {
    expect(packages.length).toBeGreaterThan(50);
    expect(packages).toContain('node_modules/swagger-ui-dist');
    expect(packages).toContain('node_modules/@scarf/scarf');
  });

  it('runs no install script but the known harmless ones, and builds nothing with node-gyp', () => {
    const found: Record<string, Record<string, string>> = {};
    for (const where of packages) {
      const { name, scripts = {} } = readPackage(where);
      const hooks = Object.fromEntries(INSTALL_HOOKS.filter((hook) => scripts[hook] !== undefined).map((hook) => [hook, scripts[hook] as string]));
      // npm runs `node-gyp rebuild` for a binding.gyp even without an install script.
      if (fs.existsSync(path.join(ROOT, where, 'binding.gyp'))) hooks.install ??= 'node-gyp rebuild (implicit)';
      if (Object.keys(hooks).length > 0) found[name] = hooks;
    }
    const known = Object.fromEntries(Object.entries(KNOWN_INSTALL_SCRIPTS).map(([name, { postinstall }]) => [name, { postinstall }]));
    expect(found).toEqual(known);
  });

  it('holds no native binary (.node)', () => {
    const native = packages.flatMap((where) => packageFiles(path.join(ROOT, where)).filter((file) => file.endsWith('.node')));
    expect(native.map((file) => path.relative(ROOT, file))).toEqual([]);
  });

  it("switches Scarf's analytics off: its postinstall, run as npm would, stops on our setting and reaches for no network", async () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scarfSettings?: { enabled?: boolean } };
    expect(manifest.scarfSettings).toEqual({ enabled: false });
    const guard = writeNetworkGuard(tempDir());
    const project = scarfChain(manifest.scarfSettings);
    const scarf = path.join(project, 'node_modules/@scarf/scarf');
    const npm = npmAnsweringLs(project);
    const env = {
      ...withoutScarfOptOuts(process.env),
      ...guard.env,
      PATH: `${npm}${path.delimiter}${process.env.PATH ?? ''}`,
      INIT_CWD: project,
      SCARF_VERBOSE: 'true',
    };
    const { stdout, stderr } = await run(process.execPath, [path.join(scarf, 'report.js')], { cwd: scarf, env, timeout: 120_000 });
    expect(`${stdout}${stderr}`).toContain('Scarf has been disabled via a package.json in the dependency chain.');
    expect(guard.lines().filter((line) => line.startsWith('ATTEMPT'))).toEqual([]);
  });
});

/**
 * The dependency chain Scarf walks, root → swagger-ui-dist → @scarf/scarf, as npm installs it, with
 * our package.json's scarfSettings at its root and Scarf's own code. Scarf gives `npm ls` a fixed
 * 3 s: on our whole tree of ~1,000 packages that ran out on a loaded machine, so its walk is
 * made over this tree of two (swagger-ui-dist by its manifest alone, which is all npm ls reads).
 */
function scarfChain(scarfSettings: unknown): string {
  const project = tempDir('docwasm-scarf-');
  const installed = (name: string) => path.join(ROOT, 'node_modules', name);
  const swagger = JSON.parse(fs.readFileSync(path.join(installed('swagger-ui-dist'), 'package.json'), 'utf8')) as { version: string };
  fs.writeFileSync(
    path.join(project, 'package.json'),
    JSON.stringify({ name: 'scarf-chain', version: '1.0.0', dependencies: { 'swagger-ui-dist': swagger.version }, scarfSettings }),
  );
  fs.mkdirSync(path.join(project, 'node_modules/swagger-ui-dist'), { recursive: true });
  fs.copyFileSync(path.join(installed('swagger-ui-dist'), 'package.json'), path.join(project, 'node_modules/swagger-ui-dist/package.json'));
  fs.cpSync(installed('@scarf/scarf'), path.join(project, 'node_modules/@scarf/scarf'), { recursive: true });
  return project;
}

/**
 * A folder holding an `npm` that prints what the real `npm ls @scarf/scarf --json --long` printed
 * for `project`, run here first with no limit. Scarf gives that command a fixed 3 s, which npm's
 * own start-up passed with both cores busy (the test then saw Scarf give up, not stop on our
 * setting); its walk still reads npm's real answer for this tree.
 */
function npmAnsweringLs(project: string): string {
  const answer = execFileSync('npm', ['ls', '@scarf/scarf', '--json', '--long'], { cwd: project, encoding: 'utf8' });
  const dir = tempDir('docwasm-npm-ls-');
  fs.writeFileSync(path.join(dir, 'ls.json'), answer);
  fs.writeFileSync(path.join(dir, 'npm'), `#!/bin/sh\n[ "$1" = ls ] || exit 1\ncat '${path.join(dir, 'ls.json')}'\n`, { mode: 0o755 });
  return dir;
}

/** Scarf also obeys these; a test run must not pass because of them. */
function withoutScarfOptOuts(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const rest = { ...env };
  for (const name of ['SCARF_ANALYTICS', 'SCARF_NO_ANALYTICS', 'DO_NOT_TRACK']) delete rest[name];
  return rest;
}
