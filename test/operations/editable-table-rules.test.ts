// Editable documents (issue 44): a ruled table keeps the PDF's rules — their colour, and a header
// ruled off by a heavier line keeps it, so its row is as tall as the PDF's (LibreOffice makes a
// row as tall as its text and its borders: with a half-point line there, each header row came out
// a point short and every line under it rose). docling's word_tables.docx (Word's "Grid Table 1
// Light" style: light blue rules, 1½ pt under the header), printed to PDF by LibreOffice,
// converted to DOCX in process and rendered back by LibreOffice; lines found by pdftotext's boxes,
// colours read from the source's and the DOCX's XML (unzip) — never by our own reader.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runSoffice } from '../helpers/soffice.js';
import { ROOT } from '../helpers/service.js';
import { inProcess, type InProcess } from './in-process.js';

let ops: InProcess;
let rendered: string;

const SOURCE = path.join(ROOT, 'fixtures/reading/docling/word_tables.docx');

beforeAll(async () => {
  ops = await inProcess();
  ops.put('tables.docx', fs.readFileSync(SOURCE));
  runSoffice(path.join(ops.dir, 'profile'), ['--convert-to', 'pdf', '--outdir', ops.dir, ops.at('tables.docx')]);
  await ops.ok('convert', { input: 'tables.pdf', output: 'tables-out.docx' });
  runSoffice(path.join(ops.dir, 'profile'), ['--convert-to', 'pdf', '--outdir', path.join(ops.dir, 'rendered'), ops.at('tables-out.docx')]);
  rendered = path.join(ops.dir, 'rendered', 'tables-out.pdf');
}, 240_000);
afterAll(() => ops.close());

/** Points from the first page's top to each line reading `text`, top to bottom. */
function topsOf(pdf: string, text: string): number[] {
  const boxes = execFileSync('pdftotext', ['-f', '1', '-l', '1', '-bbox-layout', pdf, '-']).toString();
  const tops: number[] = [];
  for (const line of boxes.matchAll(/<line xMin="[\d.]+" yMin="([\d.]+)"[^>]*>([\s\S]*?)<\/line>/g)) {
    const words = [...(line[2] as string).matchAll(/<word [^>]*>([^<]*)<\/word>/g)].map((w) => w[1]).join(' ');
    if (words === text) tops.push(Number(line[1]));
  }
  return tops;
}

const channels = (hex: string) => [0, 2, 4].map((at) => parseInt(hex.slice(at, at + 2), 16));

describe('convert PDF → docx: a ruled table keeps the rules the PDF draws', () => {
  it("keeps each header row as tall as the PDF's, its heavier rule under it, so the tables below stand where the PDF's do", () => {
    const [sourceHeaders, backHeaders] = [topsOf(ops.at('tables.pdf'), 'Header 0.0'), topsOf(rendered, 'Header 0.0')];
    const [sourceFirst, backFirst] = [topsOf(ops.at('tables.pdf'), 'Cell 1.0'), topsOf(rendered, 'Cell 1.0')];
    expect(sourceHeaders.length).toBe(5);
    expect(backHeaders.length).toBe(5);
    // Header to first row: 15.5 pt in the PDF, 14.5 with a half-point rule.
    const pitch = (firsts: number[], headers: number[]) => headers.map((top, k) => (firsts[k] as number) - top);
    const off = pitch(backFirst, backHeaders).map((back, k) => Math.abs(back - (pitch(sourceFirst, sourceHeaders)[k] as number)));
    expect(Math.max(...off)).toBeLessThanOrEqual(0.5);
    // Four header rows above the last table: 4 pt high before.
    expect(Math.abs((backHeaders[4] as number) - (sourceHeaders[4] as number))).toBeLessThanOrEqual(1.5);
  });

  it("draws the rules in the table style's colour, not black", () => {
    const style = /w:styleId="GridTable1Light-Accent1"[\s\S]*?<w:insideH [^>]*w:color="([0-9A-F]{6})"/.exec(
      execFileSync('unzip', ['-p', SOURCE, 'word/styles.xml']).toString(),
    )?.[1];
    const xml = execFileSync('unzip', ['-p', ops.at('tables-out.docx'), 'word/document.xml']).toString();
    const drawn = [...xml.matchAll(/<w:insideH [^>]*w:color="([0-9A-Fa-f]{6})"/g)].map((m) => m[1] as string);
    expect(style).toBeDefined();
    expect(drawn.length).toBeGreaterThanOrEqual(5);
    // The PDF holds the colour to two decimals a channel: within 3 of 255.
    for (const hex of drawn) channels(hex).forEach((value, k) => expect(Math.abs(value - (channels(style as string)[k] as number))).toBeLessThanOrEqual(3));
  });
});
