// README's examples with their answers, written from real runs so they cannot go stale: each
// command is run as a reader of the README would run it — `curl` against a real service,
// `npx docwasm` from the clone — on fixture files in a work dir, and its output is shown under
// it as `# …` lines, with the work dir shown as /home/me. `npm run docs` writes them between
// README's generated markers; test/docs/readme-examples.test.ts fails when they differ.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { makePdf } from '../helpers/make-pdf.js';
import { DOCUMENT_FIXTURES } from '../helpers/documents.js';
import { ROOT, startService, type RunningService } from '../helpers/service.js';

/** README shows paths of a user's home; the runs happen in a work dir of the clone. */
const SHOWN_DIR = '/home/me';
/** The port README's curl commands name: the service's default. */
const README_PORT = 19873;
const RUN_TIMEOUT_MS = 300_000;

interface ExampleBlock {
  /** The marker in README.md: `<!-- generated:<marker> (npm run docs) -->`. */
  marker: string;
  /** Shell commands, each run in the work dir, shown with their output. */
  commands: readonly string[];
}

export const README_EXAMPLES: readonly ExampleBlock[] = [
  {
    marker: 'readme-http',
    commands: [`curl -s localhost:${README_PORT}/api/pdf/merge -H 'Content-Type: application/json' \\\n  -d '{"files": ["a.pdf", "b.pdf"], "output": "merged.pdf"}'`],
  },
  {
    marker: 'readme-cli',
    commands: ['npx docwasm pdf split report.pdf --pages 1-3,5 --output-dir parts', 'npx docwasm convert letter.docx -o letter.pdf', 'npx docwasm ocr scan.png'],
  },
];

/** The fixture files the examples name, in `dir`. */
async function putFixtures(dir: string, service: RunningService): Promise<void> {
  fs.writeFileSync(path.join(dir, 'a.pdf'), makePdf({ pages: ['Invoice 1', 'Invoice 1, page 2'] }));
  fs.writeFileSync(path.join(dir, 'b.pdf'), makePdf({ pages: ['Invoice 2'] }));
  fs.writeFileSync(path.join(dir, 'report.pdf'), makePdf({ pages: ['Summary', 'Figures', 'Tables', 'Notes', 'Appendix'] }));
  fs.copyFileSync(path.join(DOCUMENT_FIXTURES, 'text-docx.docx'), path.join(dir, 'letter.docx'));
  // A scan drawn by docwasm's own renderer (mupdf's built-in Helvetica), the same on every machine.
  fs.writeFileSync(path.join(dir, 'page.pdf'), makePdf({ pages: ['Scanned invoice 4471'] }));
  const rendered = await service.post('/api/pdf/to-images', { input: 'page.pdf', outputDir: 'rendered', format: 'png', dpi: 200 });
  if (rendered.status !== 200) throw new Error(`rendering the scan failed: ${JSON.stringify(rendered.body)}`);
  fs.renameSync(path.join(dir, 'rendered', 'page_1.png'), path.join(dir, 'scan.png'));
  fs.rmSync(path.join(dir, 'rendered'), { recursive: true });
  fs.rmSync(path.join(dir, 'page.pdf'));
}

/** Runs every example and answers each block's text, by marker. */
export async function renderReadmeExamples(): Promise<Map<string, string>> {
  // In the clone, so that `npx docwasm` finds the clone's own bin (.scratch-* is git-ignored).
  const dir = fs.mkdtempSync(path.join(ROOT, '.scratch-readme-'));
  let service: RunningService | undefined;
  try {
    service = await startService(['--base-dir', dir]);
    await putFixtures(dir, service);
    const port = service.port;
    const shown = new Map<string, string>();
    for (const block of README_EXAMPLES) shown.set(block.marker, ['```sh', ...block.commands.flatMap((command) => [command, ...answerLines(runExample(command, dir, port), dir)]), '```'].join('\n'));
    return shown;
  } finally {
    await service?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs one command as a shell would, README's port swapped for the service's; answers its stdout. */
function runExample(command: string, dir: string, port: number): string {
  const run = spawnSync('bash', ['-c', command.replaceAll(`localhost:${README_PORT}`, `localhost:${port}`)], {
    cwd: dir,
    encoding: 'utf8',
    timeout: RUN_TIMEOUT_MS,
    // npx must find the clone's own bin, never ask the registry.
    env: { ...withoutDocwasmEnv(process.env), npm_config_offline: 'true', npm_config_update_notifier: 'false' },
  });
  if (run.status !== 0) throw new Error(`README example failed (${run.status}): ${command}\n${run.stderr}`);
  return run.stdout;
}

function withoutDocwasmEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('DOCWASM_')));
}

/** The output as `# ` lines, the work dir shown as README's home dir. */
function answerLines(stdout: string, dir: string): string[] {
  const lines = stdout.replaceAll(fs.realpathSync(dir), SHOWN_DIR).replaceAll(dir, SHOWN_DIR).trimEnd().split('\n');
  return lines.map((line) => `# ${line}`.trimEnd());
}
