// Chrome's print of an HTML page to PDF, for tests that read what Chrome's print lays out.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import type { InProcess } from './in-process.js';

/**
 * Chrome's print of `html` to `pdf` in `ops`' dir. Chrome's singleton socket goes in TMPDIR,
 * whose path the tests' private temp root makes too long for a socket: a short one, removed after.
 */
export function printWithChrome(ops: InProcess, html: string, pdf: string): void {
  ops.put(`${pdf}.html`, html);
  const tmp = fs.mkdtempSync('/tmp/chrome-');
  try {
    execFileSync(
      'chromium',
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--no-pdf-header-footer',
        `--user-data-dir=${ops.at('chrome-profile')}`,
        `--print-to-pdf=${ops.at(pdf)}`,
        ops.at(`${pdf}.html`),
      ],
      { stdio: 'ignore', timeout: 120_000, env: { ...process.env, TMPDIR: tmp } },
    );
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** Liberation Serif by name (scripts/test-tools.txt): the tests measure where Chrome wraps and breaks in it. */
const SERIF = ['--variable', 'mainfont=Liberation Serif'] as const;

/**
 * Chrome's print of pandoc's standalone HTML of `markdown` (GitHub's Markdown) to `${name}.pdf`
 * in `ops`' dir, titled `name`, in Liberation Serif unless `pandocArgs` say otherwise.
 */
export function printMarkdownWithChrome(ops: InProcess, name: string, markdown: string, pandocArgs: readonly string[] = SERIF): void {
  const html = execFileSync('pandoc', ['-f', 'gfm', '-s', '--metadata', `pagetitle=${name}`, ...pandocArgs], { input: markdown, encoding: 'utf8' });
  printWithChrome(ops, html, `${name}.pdf`);
}
