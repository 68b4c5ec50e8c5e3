// OFD text that searches (issue 47 item 2, CONTRACT v0.5): fonts the document only names draw
// with shipped metric-compatible faces, and a substitute glyph fills the advance the OFD gives
// it, so pdftotext reads Latin words — invoice numbers, amounts, codes — whole. Judged with
// poppler's pdftotext and pdffonts and with unzip, never with docwasm's code.

import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeZip } from '../helpers/zip.js';
import { latinWords, xmlText } from '../helpers/ofd-words.js';
import { ROOT, startService, type RunningService } from '../helpers/service.js';

const FIXTURES = path.join(ROOT, 'fixtures/ofd');
const NS = 'xmlns:ofd="http://www.ofdspec.org/2016"';
const run = (tool: string, args: string[]) => execFileSync(tool, args, { encoding: 'utf8', maxBuffer: 1 << 26 });

/** pdftotext -bbox's words (each glyph kept, hyphens too). */
const pdfWords = (pdf: string) => [...run('pdftotext', ['-bbox', pdf, '-']).matchAll(/<word [^>]*>([^<]*)<\/word>/g)].map((m) => m[1] as string);

/** The Latin words (two or more ASCII letters and digits, a line at a time) of every TextCode of the package's pages and templates, read with unzip. */
function latinWordsOf(file: string): string[] {
  const names = run('unzip', ['-Z1', file])
    .split('\n')
    .filter((n) => /(Pages|Tpls)\/[^/]+\/Content\.xml$/i.test(n));
  const words: string[] = [];
  for (const name of names) {
    const result = spawnSync('unzip', ['-p', file, name], { encoding: 'utf8', maxBuffer: 1 << 26 });
    for (const m of result.stdout.matchAll(/<(?:\w+:)?TextCode\b([^>]*)>([^<]*)</g))
      words.push(...latinWords(xmlText(m[2] as string), /\sDeltaY="([^"]*)"/.exec(m[1] as string)?.[1]));
  }
  return words;
}

/** One page with the same line of text in each named font, glyphs 0.5 em apart (a Chinese face's half-width cells). */
function namedFontsOfd(fonts: readonly string[], text: string): Buffer {
  const size = 4;
  const objects = fonts
    .map(
      (_, i) =>
        `<ofd:TextObject ID="${10 + i}" Boundary="5 ${5 + i * 8} 190 8" Font="${i + 1}" Size="${size}"><ofd:TextCode X="0" Y="5" DeltaX="g ${[...text].length - 1} ${size / 2}">${text}</ofd:TextCode></ofd:TextObject>`,
    )
    .join('');
  const fontList = fonts.map((name, i) => `<ofd:Font ID="${i + 1}" FontName="${name}" FamilyName="${name}"/>`).join('');
  return makeZip([
    {
      name: 'OFD.xml',
      data: `<ofd:OFD ${NS} DocType="OFD" Version="1.0"><ofd:DocBody><ofd:DocInfo/><ofd:DocRoot>Doc_0/Document.xml</ofd:DocRoot></ofd:DocBody></ofd:OFD>`,
    },
    {
      name: 'Doc_0/Document.xml',
      data: `<ofd:Document ${NS}><ofd:CommonData><ofd:PageArea><ofd:PhysicalBox>0 0 210 60</ofd:PhysicalBox></ofd:PageArea><ofd:PublicRes>PublicRes.xml</ofd:PublicRes></ofd:CommonData><ofd:Pages><ofd:Page ID="1" BaseLoc="Pages/Page_0/Content.xml"/></ofd:Pages></ofd:Document>`,
    },
    { name: 'Doc_0/PublicRes.xml', data: `<ofd:Res ${NS}><ofd:Fonts>${fontList}</ofd:Fonts></ofd:Res>` },
    { name: 'Doc_0/Pages/Page_0/Content.xml', data: `<ofd:Page ${NS}><ofd:Content><ofd:Layer ID="2">${objects}</ofd:Layer></ofd:Content></ofd:Page>` },
  ]);
}

let service: RunningService;

beforeAll(async () => {
  service = await startService();
}, 120_000);

afterAll(async () => {
  await service.stop();
});

const convert = async (name: string, bytes: Buffer): Promise<string> => {
  fs.writeFileSync(path.join(service.dir, name), bytes);
  const answer = await service.post('/api/convert', { input: name, output: `${name}.pdf` });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return path.join(service.dir, `${name}.pdf`);
};

describe('Latin words read whole (pdftotext)', () => {
  it('fonts named but not embedded — a Chinese face, Arial, Times New Roman, Courier New, an unknown face — draw words without inner gaps', async () => {
    const fonts = ['宋体', 'Arial', 'Times New Roman', 'Courier New', 'Some Face'];
    const pdf = await convert('named-fonts.ofd', namedFontsOfd(fonts, 'Resource path probe 2.15630MB798AF4ECT No.0012 10000.00'));
    const lines = run('pdftotext', ['-layout', pdf, '-'])
      .split('\n')
      .map((l) => l.trim().split(/\s+/).join(' '))
      .filter(Boolean);
    expect(lines).toEqual(fonts.map(() => 'Resource path probe 2.15630MB798AF4ECT No.0012 10000.00'));
    // Arial, Times and Courier are drawn with their metric-compatible Liberation faces, embedded.
    const faces = run('pdffonts', [pdf]);
    for (const face of ['LiberationSans', 'LiberationSerif', 'LiberationMono']) expect(faces).toContain(face);
  }, 120_000);

  it.each(['helloworld.ofd', 'two-pages.ofd', 'invoice-fptpl.ofd', 'invoice-templates.ofd', 'invoice-v4signed.ofd'])(
    "%s: every Latin word of its TextCodes is one of pdftotext's words or inside one",
    async (name) => {
      const wanted = latinWordsOf(path.join(FIXTURES, name));
      expect(wanted.length).toBeGreaterThan(0);
      const words = pdfWords(await convert(name, fs.readFileSync(path.join(FIXTURES, name))));
      const broken = wanted.filter((word) => !words.some((w) => w.includes(word)));
      expect(broken).toEqual([]);
    },
    120_000,
  );
});

describe('every character in the extracted text (issue 47 item 3)', () => {
  // ofdrw's z.ofd: pages 3 and 4 draw Thai (ฤำ) and Tamil (போ) through CGTransform glyph indexes
  // of Tahoma and Latha, fonts it names but does not embed: no shipped face has those glyphs.
  it('Thai and Tamil drawn through CGTransform in a font the OFD does not embed are in the text (ActualText), clusters whole', async () => {
    const pdf = await convert('scripts.ofd', fs.readFileSync(path.join(FIXTURES, 'multipage-fonts-images.ofd')));
    const page = (n: number) => run('pdftotext', ['-f', String(n), '-l', String(n), pdf, '-']).replace(/\s+/g, '');
    // Page 3: one object maps ำ alone (CodePosition 1), another draws it as two glyphs.
    expect(page(3).match(/ฤำ/g)).toHaveLength(2);
    // Page 4: போ as one glyph for ோ, and the two characters as a cluster of three glyphs.
    expect(page(4).match(/போ/g)).toHaveLength(2);
  }, 120_000);
});
