// `read --max-characters` smaller than the first block (issue 28 item 9): the first block cut at
// a character boundary (Chinese, a surrogate pair and a combining sequence kept whole), never an
// empty answer; `truncated: true`, and the command line says on stderr that it cut, stdout
// staying the Markdown alone. Documents made by pandoc, read by the built CLI.

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLI, ROOT, tempDir } from '../helpers/service.js';
import { watchStderrForWarnings } from '../helpers/warnings.js';

/** No lone surrogate (String.prototype.isWellFormed, which the project's lib target lacks). */
const wellFormed = (text: string): boolean => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(text);

/** The CLI starts its engines and reads a small document in a few seconds; waiting far longer. */
const SLOW = 180_000;
// 𠀀 is two UTF-16 units; é is e + a combining accent: a cut must keep each whole.
const FIRST_PARAGRAPH = '本地𠀀文件e\u0301处理服务不需要网络，所有文件都留在这台电脑上。';

let dir: string;

function read(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('DOCWASM_')));
  const result = spawnSync(process.execPath, [CLI, 'read', ...args], { cwd: dir, env, encoding: 'utf8', timeout: SLOW });
  watchStderrForWarnings(`docwasm read ${args.join(' ')}`, () => result.stderr ?? '');
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  dir = tempDir('docwasm-test-read-cut-');
  fs.writeFileSync(path.join(dir, 'cut.md'), `${FIRST_PARAGRAPH}\n\nSecond paragraph.\n`);
  execFileSync('pandoc', ['cut.md', '-o', 'cut.docx'], { cwd: dir });
  fs.copyFileSync(path.join(ROOT, 'fixtures', 'pdf', 'text.pdf'), path.join(dir, 'text.pdf'));
});

describe('read --max-characters smaller than the first block', () => {
  it(
    'prints the first block cut between two characters and says on stderr that it cut (docx, Chinese)',
    () => {
      for (const limit of [3, 4, 7, 8]) {
        const run = read(['cut.docx', '--max-characters', String(limit)]);
        expect(run.status, run.stderr).toBe(0);
        const text = run.stdout.replace(/\n$/, '');
        expect(text.length, JSON.stringify(text)).toBeGreaterThan(0);
        // The whole answer, its line end included, within the limit (issue 41 item 13).
        expect(run.stdout.length).toBeLessThanOrEqual(limit);
        expect(FIRST_PARAGRAPH.startsWith(text), JSON.stringify(text)).toBe(true);
        // Whole characters: no lone surrogate, and an e is never left without its accent.
        expect(wellFormed(text) && !/e$/.test(text), JSON.stringify(text)).toBe(true);
        // The mark counts what was printed, as data.characters does (the Markdown's final line end included).
        expect(run.stderr).toContain(`truncated at ${run.stdout.length} characters`);
      }
    },
    SLOW * 4,
  );

  it(
    'answers truncated: true with the cut text in --json, and no mark when nothing was cut',
    () => {
      const cut = JSON.parse(read(['cut.docx', '--max-characters', '2', '--json']).stdout) as {
        text: string;
        data: { truncated: boolean; characters: number };
      };
      expect(cut).toMatchObject({ text: '本\n', data: { truncated: true, characters: 2 } });
      const whole = read(['cut.docx']);
      expect(whole.stdout).toContain('Second paragraph.');
      expect(whole.stderr).not.toContain('truncated');
    },
    SLOW * 2,
  );

  it(
    "cuts a PDF's first text block, not its page marker",
    () => {
      const run = read(['text.pdf', '--max-characters', '8']);
      expect(run.status, run.stderr).toBe(0);
      expect(run.stdout).toBe('docwasm\n');
      expect(run.stderr).toContain('truncated at 8 characters');
    },
    SLOW,
  );
});
