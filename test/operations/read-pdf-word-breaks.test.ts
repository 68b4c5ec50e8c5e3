// A Latin word too long for its table cell, which LibreOffice breaks where the cell's width runs
// out, with no hyphen (DataX's plugin manuals: "bearerTok" / "en"), read as one word again; a
// cell wrapped at a space keeps its space (wasm/read/pdf-word-breaks.ts). Made by pandoc (gfm →
// docx) and LibreOffice, whose table is borderless but for the rule under its header; the layout
// is checked with pdftotext -bbox before the reading is.

import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSoffice, SOFFICE } from '../helpers/soffice.js';
import { inProcess, type InProcess } from './in-process.js';
import { pdfWords as wordsOf, type PdfWord as Word } from '../helpers/pdf-words.js';

let ops: InProcess;

const TABLE = [
  '| Key | Meaning | Required | Default | Example |',
  '| - | - | - | - | - |',
  '| database | The database name | yes | - | graph |',
  '| bearerToken | Access token | no | - | - |',
  '| kerberosTicket | Access ticket | no | - | - |',
  '| batchDataVariableName | Name of the batch | no | - | batch |',
  '| maxTransactionRetryTimeSeconds | Longest time a transaction runs | no | 30 | 30 |',
  '| retry count | How often to retry | no | 3 | 3 |',
];

const SETTINGS_MD = `# Writer settings\n\n${TABLE.join('\n').replace('| - | - | - | - | - |', '|---|---|---|---|---|')}\n`;

beforeAll(async () => {
  ops = await inProcess({ soffice: SOFFICE, workers: '1' });
  ops.put('settings.md', SETTINGS_MD);
  execFileSync('pandoc', ['-f', 'gfm', 'settings.md', '-o', 'settings.docx'], { cwd: ops.dir });
  runSoffice(ops.at('profile'), ['--convert-to', 'pdf', 'settings.docx'], ops.dir);
}, 180_000);
afterAll(() => ops.close());

describe('read: a word broken inside a narrow table cell', () => {
  it('joins a word LibreOffice broke where the cell ran out, and keeps a space where the cell wrapped at one (pandoc → docx → LibreOffice)', async () => {
    // The layout: the long keys are broken with no hyphen, each piece a word of its own, the
    // first pieces run nearly to the next column; "database" wraps alone, short of its column.
    const words = wordsOf(ops.at('settings.pdf'));
    const texts = words.map((w) => w.text);
    for (const piece of ['bearerTok', 'en', 'kerberosTi', 'cket', 'VariableN', 'ame', 'TimeSecon', 'ds']) expect(texts).toContain(piece);
    expect(texts).not.toContain('bearerToken');
    const [broken, meaning] = [words.find((w) => w.text === 'bearerTok') as Word, words.find((w) => w.text === 'Meaning') as Word];
    expect(meaning.x - broken.right).toBeLessThan(20);
    expect(texts.filter((t) => t === 'database')).toHaveLength(2);

    const text = (await ops.ok('read', { input: 'settings.pdf' })).text ?? '';
    expect(text).toContain(TABLE.join('\n'));
  });
});
