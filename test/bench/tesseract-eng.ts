// `tsx test/bench/tesseract-eng.ts DIR ROUNDS VARIANT...`: tesseract settings for `eng` against
// the tesseract CLI as a user runs it (`tesseract page.png - -l eng`, Debian's data,
// OMP_THREAD_LIMIT=1). Each variant is one warm tesseract.js worker in this process; a read's
// cost is the CPU time of this process around it (process.cpuUsage: tesseract.js runs in a
// nested thread of this process, nothing else runs here meanwhile), the CLI's its user + system
// time (/usr/bin/time). Rounds interleave every variant and the CLI page by page; medians, and
// each page's CER (whitespace ignored, test/helpers/ocr-accuracy.ts). Pages: the `npm run bench`
// English page (DejaVu Sans 12 pt, 300 dpi) and test/helpers/ocr-page-set.ts's English pages
// (Serif 11 pt, Sans 10 pt, Serif 11 pt degraded), handed over as the OCR worker does (grey PNM).
// VARIANT: `DATA:key=value,key=value` with DATA `best` (the shipped best_int) or a folder
// holding eng.traineddata; a parameter read only at initialisation is written `!name=value`;
// e.g. `best:` `best:tessedit_do_invert=0` `tessdata:!load_system_dawg=0`.
// LANGS=chi_sim+eng reads with the shipped chi_sim beside each variant's eng; PAGES=mixed or zh
// reads test/helpers/ocr-page-set.ts's mixed or Chinese pages instead.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import tesseract from 'tesseract.js';
import { characterErrorRate } from '../helpers/ocr-accuracy.js';
import { ENGLISH_TEXT, renderPage } from '../helpers/ocr-images.js';
import { CHINESE_PAGES, ENGLISH_PAGES, MIXED_PAGES, expectedText, renderTestPage } from '../helpers/ocr-page-set.js';
import { decodeImage } from '../../wasm/image/decode.js';
import { greyOf, greyToPnm, toPnm } from '../../wasm/ocr/pnm.js';
import { enableRelaxedSimd } from '../../wasm/ocr/relaxed-simd.js';
import { inflateTraineddata, withoutSubLanguages } from '../../src/ocr/traineddata.js';

const [dir, roundsArg = '3', ...variantArgs] = process.argv.slice(2);
if (!dir || variantArgs.length === 0) throw new Error('usage: tesseract-eng.ts DIR ROUNDS VARIANT...');
fs.mkdirSync(dir, { recursive: true });
const rounds = Number(roundsArg);
const langs = process.env.LANGS ?? 'eng';
const otherPages = ({ mixed: MIXED_PAGES, zh: CHINESE_PAGES } as Record<string, typeof MIXED_PAGES | undefined>)[process.env.PAGES ?? ''];
process.stderr.write(`relaxed SIMD: ${enableRelaxedSimd()}\n`);

const cpuNow = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

interface Page {
  name: string;
  png: string;
  pnm: Uint8Array;
  expected: string;
}

async function pages(): Promise<Page[]> {
  const specs = otherPages
    ? otherPages.map((spec) => ({ name: spec.name, expected: expectedText(spec), render: () => renderTestPage(spec) }))
    : [
        {
          name: 'bench A4 Sans 12pt',
          expected: Array<string>(9).fill(ENGLISH_TEXT).join('\n'),
          render: () => renderPage(Array<string>(9).fill(ENGLISH_TEXT), 'latin'),
        },
        ...ENGLISH_PAGES.map((spec) => ({ name: spec.name, expected: expectedText(spec), render: () => renderTestPage(spec) })),
      ];
  const out: Page[] = [];
  for (const spec of specs) {
    const png = path.join(dir as string, `${spec.name.replace(/\W+/g, '-')}.png`);
    if (!fs.existsSync(png)) fs.writeFileSync(png, await spec.render());
    const image = await decodeImage(new Uint8Array(fs.readFileSync(png)), { maxPixels: 1e8 });
    const grey = greyOf(image);
    out.push({ name: spec.name, png, pnm: grey ? greyToPnm(grey) : toPnm(image), expected: spec.expected });
  }
  return out;
}

interface Variant {
  label: string;
  worker: tesseract.Worker;
}

async function variant(arg: string): Promise<Variant> {
  const [data = 'best', paramText = ''] = arg.split(/:(.*)/s);
  const langPath = path.join(dir as string, `data-${data.replace(/\W+/g, '-')}`);
  fs.mkdirSync(langPath, { recursive: true });
  const source =
    data === 'best'
      ? 'node_modules/@tesseract.js-data/eng/4.0.0_best_int/eng.traineddata.gz'
      : (['eng.traineddata', 'eng.traineddata.gz'].map((name) => path.join(data, name)).find((file) => fs.existsSync(file)) ?? data);
  fs.writeFileSync(path.join(langPath, 'eng.traineddata'), await inflateTraineddata(new Uint8Array(fs.readFileSync(source))));
  if (langs.includes('chi_sim')) {
    const chi = await inflateTraineddata(new Uint8Array(fs.readFileSync('node_modules/@tesseract.js-data/chi_sim/4.0.0_best_int/chi_sim.traineddata.gz')));
    fs.writeFileSync(path.join(langPath, 'chi_sim.traineddata'), withoutSubLanguages(chi) ?? chi);
  }
  const pairs = paramText
    .split(',')
    .filter(Boolean)
    .map((kv) => kv.split('=') as [string, string]);
  // `!name=value`: a parameter tesseract reads only at initialisation (load_system_dawg…).
  const params = Object.fromEntries(pairs.filter(([key]) => !key.startsWith('!')));
  const initParams = Object.fromEntries(pairs.filter(([key]) => key.startsWith('!')).map(([key, value]) => [key.slice(1), value]));
  const worker = await tesseract.createWorker(langs, tesseract.OEM.LSTM_ONLY, { langPath, gzip: false, cacheMethod: 'none' }, initParams);
  if (Object.keys(params).length > 0) await worker.setParameters(params);
  return { label: arg, worker };
}

function cliRead(png: string): { cpu: number; text: string } {
  const timeFile = path.join(dir as string, 'time.txt');
  const text = execFileSync('/usr/bin/time', ['-o', timeFile, '-f', '%U %S', 'tesseract', png, '-', '-l', langs], {
    env: { ...process.env, OMP_THREAD_LIMIT: '1' },
    stdio: ['ignore', 'pipe', 'ignore'],
  }).toString();
  const [user = 0, sys = 0] = fs.readFileSync(timeFile, 'utf8').trim().split(/\s+/).map(Number);
  return { cpu: (user + sys) * 1000, text };
}

async function ourRead(v: Variant, page: Page): Promise<{ cpu: number; text: string }> {
  const start = cpuNow();
  const { data } = await v.worker.recognize(page.pnm, {}, { text: true });
  return { cpu: cpuNow() - start, text: data.text };
}

const pageList = await pages();
const variants: Variant[] = [];
for (const arg of variantArgs) variants.push(await variant(arg));
const cpu = new Map<string, number[]>();
const cer = new Map<string, number>();
const record = (key: string, value: number) => cpu.set(key, [...(cpu.get(key) ?? []), value]);

// A warm-up read per variant, uncounted.
for (const v of variants) await ourRead(v, pageList[0] as Page);
for (let round = 0; round < rounds; round++) {
  for (const page of pageList) {
    const cli = cliRead(page.png);
    record(`cli|${page.name}`, cli.cpu);
    cer.set(`cli|${page.name}`, characterErrorRate(page.expected, cli.text));
    for (const v of variants) {
      const ours = await ourRead(v, page);
      record(`${v.label}|${page.name}`, ours.cpu);
      cer.set(`${v.label}|${page.name}`, characterErrorRate(page.expected, ours.text));
    }
  }
  process.stderr.write(`round ${round + 1} done\n`);
}

const labels = ['cli', ...variants.map((v) => v.label)];
process.stdout.write(`| reader | ${pageList.map((p) => p.name).join(' | ')} |\n|---|${pageList.map(() => '---|').join('')}\n`);
for (const label of labels) {
  const cells = pageList.map((page) => {
    const key = `${label}|${page.name}`;
    const ratio = label === 'cli' ? '' : ` (${(median(cpu.get(key) ?? []) / median(cpu.get(`cli|${page.name}`) ?? [])).toFixed(2)}×)`;
    return `${Math.round(median(cpu.get(key) ?? []))} ms${ratio}, CER ${((cer.get(key) ?? 0) * 100).toFixed(2)} %`;
  });
  process.stdout.write(`| ${label} | ${cells.join(' | ')} |\n`);
}
for (const v of variants) await v.worker.terminate();
