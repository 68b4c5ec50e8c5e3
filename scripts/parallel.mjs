// Runs chains of npm scripts side by side, for `npm test`'s checks on a 2-core machine: each
// argument is a comma-separated chain run in order (`node scripts/parallel.mjs lint typecheck,build`
// runs lint beside typecheck-then-build). eslint, knip, depcruise and tsc are each single-threaded,
// so the second core would idle if they ran one after another. Each chain's output is printed
// whole when the chain ends (never interleaved); the exit status is 1 if any script failed.

import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** Runs one script with its output captured; resolves with its exit status and output. */
function runScript(name) {
  return new Promise((resolve) => {
    const child = spawn(npm, ['run', name], { stdio: ['ignore', 'pipe', 'pipe'], shell: process.platform === 'win32' });
    const output = [];
    child.stdout.on('data', (chunk) => output.push(chunk));
    child.stderr.on('data', (chunk) => output.push(chunk));
    child.on('error', (err) => resolve({ status: 1, output: Buffer.from(`${err.message}\n`) }));
    child.on('close', (code, signal) => resolve({ status: code ?? (signal ? 1 : 0), output: Buffer.concat(output) }));
  });
}

/** Runs a chain's scripts in order, stopping at the first that fails. */
async function runChain(names) {
  for (const name of names) {
    const { status, output } = await runScript(name);
    process.stdout.write(output);
    if (status !== 0) {
      process.stderr.write(`npm run ${name} failed (exit ${status})\n`);
      return false;
    }
  }
  return true;
}

const chains = process.argv.slice(2).map((arg) => arg.split(',').filter(Boolean));
if (chains.length === 0) {
  process.stderr.write('usage: node scripts/parallel.mjs SCRIPT[,SCRIPT...] ...\n');
  process.exit(2);
}
const results = await Promise.all(chains.map(runChain));
process.exit(results.every(Boolean) ? 0 : 1);
