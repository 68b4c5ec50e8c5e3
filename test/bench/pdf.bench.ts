// PDF rows: merge, split and encrypt through HTTP against the qpdf CLI, on a ~1,000-page text
// PDF and a ~40 MB image PDF, plus a merge of two one-page PDFs and the engine called directly,
// to show the service overhead ("core" rows); and the PDF tools ("tools" rows): compress of a ~55 MB photo PDF against
// Ghostscript's /ebook (sizes and SSIM of both in the row's name), rotate/rearrange/decrypt/watermark of a 1,000-page PDF against qpdf, and
// PDF/A-2b of a 50-page PDF against Ghostscript. DOCWASM_BENCH_PDF=core|tools|compress runs one kind
// only (compress: that row alone).

import fs from 'node:fs';
import path from 'node:path';
import { makeImagePdf, makePdf } from '../helpers/make-pdf.js';
import { makePhotoBook } from '../helpers/pdf-tool-fixtures.js';
import { pageSimilarities } from '../helpers/page-similarity.js';
import { ROOT } from '../helpers/service.js';
import { postOk, runCommand, type BenchCase, type BenchSuite } from './harness.js';

interface Fixture {
  label: string;
  halves: [string, string];
  whole: string;
  pages: number;
}

function writeFixtures(work: string): Fixture[] {
  const text = (count: number, tag: string) => makePdf({ pages: Array.from({ length: count }, (_, i) => `${tag} page ${i + 1}`) });
  const fixtures: Fixture[] = [];
  for (const [label, a, b] of [
    ['1,000-page text PDF', text(500, 'A'), text(500, 'B')],
    ['40 MB image PDF', makeImagePdf(4, 1300), makeImagePdf(4, 1300)],
  ] as const) {
    const slug = label.split(' ')[0]?.replace(/\W/g, '') ?? 'x';
    const halves: [string, string] = [path.join(work, `${slug}-a.pdf`), path.join(work, `${slug}-b.pdf`)];
    fs.writeFileSync(halves[0], a);
    fs.writeFileSync(halves[1], b);
    fixtures.push({ label, halves, whole: path.join(work, `${slug}-whole.pdf`), pages: 0 });
  }
  return fixtures;
}

const ROWS = process.env.DOCWASM_BENCH_PDF ?? 'all';
if (!['all', 'core', 'tools', 'compress'].includes(ROWS)) throw new Error(`DOCWASM_BENCH_PDF must be core, tools, compress or all, not ${ROWS}`);

const suite: BenchSuite = async (ctx) => [...(ROWS === 'all' || ROWS === 'core' ? await coreCases(ctx) : []), ...(ROWS === 'core' ? [] : await toolCases(ctx))];

const coreCases: BenchSuite = async ({ service, work }) => {
  const fixtures = writeFixtures(work);
  const cases: BenchCase[] = [smallMergeCase(service, work), await overheadCase(service, fixtures[0] as Fixture, work)];
  for (const fx of fixtures) {
    await runCommand('qpdf', ['--empty', '--pages', ...fx.halves, '--', fx.whole]);
    const pageCount = Number((await import('node:child_process')).execFileSync('qpdf', ['--show-npages', fx.whole]).toString().trim());
    const third = Math.floor(pageCount / 3);
    const items = [`1-${third}`, `${third + 1}-${2 * third}`, `${2 * third + 1}-${pageCount}`];
    const out = (name: string) => path.join(work, name);
    cases.push(
      {
        group: 'pdf',
        name: `merge 2 → ${fx.label}`,
        ours: () => postOk(service, '/api/pdf/merge', { files: fx.halves, output: out('merged-ours.pdf') }),
        native: { tool: 'qpdf', run: () => runCommand('qpdf', ['--empty', '--pages', ...fx.halves, '--', out('merged-qpdf.pdf')]) },
      },
      {
        group: 'pdf',
        name: `split ${fx.label} into 3`,
        ours: () => postOk(service, '/api/pdf/split', { input: fx.whole, pages: items.join(','), outputDir: out('split-ours') }),
        native: {
          tool: 'qpdf',
          run: async () => {
            for (const item of items) await runCommand('qpdf', [fx.whole, '--pages', '.', item, '--', out(`split-qpdf-${item}.pdf`)]);
          },
        },
      },
      {
        group: 'pdf',
        name: `encrypt AES-256 ${fx.label}`,
        ours: () => postOk(service, '/api/pdf/encrypt', { input: fx.whole, output: out('enc-ours.pdf'), password: 'secret' }),
        native: { tool: 'qpdf', run: () => runCommand('qpdf', ['--encrypt', 'secret', 'secret', '256', '--', fx.whole, out('enc-qpdf.pdf')]) },
      },
    );
  }
  return cases.map((c) => ({ iterations: 9, ...c }));
};

/**
 * A job whose engine work takes about a millisecond: the row is the service's own cost per
 * request (HTTP, validation, path checks, staging, the worker round trip, the rename) against
 * qpdf's start-up and the same merge.
 */
function smallMergeCase(service: Parameters<BenchSuite>[0]['service'], work: string): BenchCase {
  const pages: [string, string] = [path.join(work, 'small-1.pdf'), path.join(work, 'small-2.pdf')];
  pages.forEach((file, i) => fs.writeFileSync(file, makePdf({ pages: [`Small page ${i + 1}`] })));
  return {
    group: 'pdf',
    name: 'small merge (2 × 1 page) service overhead',
    ours: () => postOk(service, '/api/pdf/merge', { files: pages, output: path.join(work, 'small-ours.pdf') }),
    native: { tool: 'qpdf', run: () => runCommand('qpdf', ['--empty', '--pages', ...pages, '--', path.join(work, 'small-qpdf.pdf')]) },
    iterations: 31,
  };
}

/** The same merge through HTTP and by calling the mupdf engine in this process. */
async function overheadCase(service: Parameters<BenchSuite>[0]['service'], fx: Fixture, work: string): Promise<BenchCase> {
  const { mupdfEngine } = (await import(path.join(ROOT, 'dist/wasm/pdf/mupdf-engine.js'))) as typeof import('../../wasm/pdf/mupdf-engine.js');
  return {
    group: 'pdf',
    name: `service overhead: merge ${fx.label} (HTTP vs engine in-process)`,
    ours: () => postOk(service, '/api/pdf/merge', { files: fx.halves, output: path.join(work, 'overhead-ours.pdf') }),
    native: {
      tool: 'mupdf engine direct',
      run: async () => {
        mupdfEngine.merge(
          fx.halves.map((f) => fs.readFileSync(f)),
          (pdf) => fs.writeFileSync(path.join(work, 'overhead-direct.pdf'), pdf),
        );
      },
    },
  };
}

const megabytes = (file: string) => `${(fs.statSync(file).size / 1e6).toFixed(1)} MB`;
const kilobytes = (file: string) => `${Math.round(fs.statSync(file).size / 1e3)} KB`;

const PHOTO_PAGES = 8;

/**
 * compress against Ghostscript's /ebook (both downsample to 150 dpi). The row's name carries
 * both output sizes and how close each looks to the input (mean SSIM of the pages rendered at
 * 150 dpi by poppler), measured once, when the runner reads the name after the timed runs.
 */
function compressCase(service: Parameters<BenchSuite>[0]['service'], at: (name: string) => string): BenchCase {
  const input = at('photos.pdf');
  const [ours, gs] = [at('photos-ours.pdf'), at('photos-gs.pdf')];
  let figures: string | undefined;
  const describe = () => {
    if (!fs.existsSync(ours) || !fs.existsSync(gs)) return '';
    const [oursSsim, gsSsim] = pageSimilarities(input, [ours, gs]).map((value) => value.toFixed(4));
    return ` → docwasm ${kilobytes(ours)} (SSIM ${oursSsim}), gs ${kilobytes(gs)} (SSIM ${gsSsim})`;
  };
  return {
    group: 'pdf',
    get name() {
      figures ||= describe();
      return `compress ${megabytes(input)} photo PDF (${PHOTO_PAGES} pages)${figures}`;
    },
    ours: () => postOk(service, '/api/pdf/compress', { input, output: ours }),
    native: {
      tool: 'gs -dPDFSETTINGS=/ebook',
      run: () => runCommand('gs', ['-q', '-dNOPAUSE', '-dBATCH', '-dSAFER', '-sDEVICE=pdfwrite', '-dPDFSETTINGS=/ebook', `-sOutputFile=${gs}`, input]),
    },
    iterations: 3,
  };
}

/** The PDF tools against the native tools a user would otherwise run. */
const toolCases: BenchSuite = async ({ service, work }) => {
  const dir = path.join(work, 'tools');
  fs.mkdirSync(dir, { recursive: true });
  // The fixtures are large (~90 MB): gone when the run ends, whatever happens.
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const at = (name: string) => path.join(dir, name);

  // ~55 MB: 8 pages, each a 1,800 x 1,350 px photo-like image (Flate, ~7 MB) drawn at 240 dpi,
  // above Ghostscript's downsampling threshold (1.5 x 150 dpi), so that both downsample.
  fs.writeFileSync(at('photos.pdf'), makePhotoBook(PHOTO_PAGES, 1800, 1350));
  const compress = compressCase(service, at);
  if (ROWS === 'compress') return [compress];
  fs.writeFileSync(at('thousand.pdf'), makePdf({ pages: Array.from({ length: 1000 }, (_, i) => `Page ${i + 1} of the long document`) }));
  fs.writeFileSync(at('stamp.pdf'), makePdf({ pages: ['CONFIDENTIAL'] }));
  fs.writeFileSync(at('fifty.pdf'), makePdf({ pages: Array.from({ length: 50 }, (_, i) => `Archived page ${i + 1}`) }));
  await runCommand('qpdf', ['--encrypt', 'secret', 'secret', '256', '--', at('thousand.pdf'), at('thousand-locked.pdf')]);

  const thousand = at('thousand.pdf');
  const qpdfCase = (name: string, tool: string, route: string, body: Record<string, unknown>, qpdfArgs: string[]): BenchCase => ({
    group: 'pdf',
    name,
    ours: () => postOk(service, route, body),
    native: { tool: `qpdf ${tool}`, run: () => runCommand('qpdf', qpdfArgs) },
    iterations: 7,
  });

  return [
    compress,
    qpdfCase('rotate 1,000 pages +90°', '--rotate=+90', '/api/pdf/rotate', { input: thousand, output: at('rotated-ours.pdf'), degrees: 90 }, [
      thousand,
      '--rotate=+90',
      '--',
      at('rotated-qpdf.pdf'),
    ]),
    qpdfCase(
      'rearrange 1,000 pages "1000-1" (reverse)',
      '--pages . z-1',
      '/api/pdf/rearrange',
      { input: thousand, output: at('reversed-ours.pdf'), pages: '1000-1' },
      [thousand, '--pages', '.', 'z-1', '--', at('reversed-qpdf.pdf')],
    ),
    qpdfCase(
      'decrypt 1,000 pages (AES-256)',
      '--decrypt',
      '/api/pdf/decrypt',
      { input: at('thousand-locked.pdf'), password: 'secret', output: at('decrypted-ours.pdf') },
      ['--password=secret', '--decrypt', at('thousand-locked.pdf'), at('decrypted-qpdf.pdf')],
    ),
    qpdfCase('watermark 1,000 pages', '--overlay --repeat=1', '/api/pdf/watermark', { input: thousand, output: at('stamped-ours.pdf'), text: 'CONFIDENTIAL' }, [
      thousand,
      '--overlay',
      at('stamp.pdf'),
      '--repeat=1',
      '--',
      at('stamped-qpdf.pdf'),
    ]),
    {
      group: 'pdf',
      name: 'to-pdfa (2b) of 50 pages',
      ours: () => postOk(service, '/api/pdf/to-pdfa', { input: at('fifty.pdf'), output: at('fifty-ours.pdf'), level: '2b' }),
      native: {
        tool: 'gs -dPDFA=2 (Debian)',
        run: () =>
          runCommand('gs', [
            '-q',
            '-dPDFA=2',
            '-dBATCH',
            '-dNOPAUSE',
            '-sColorConversionStrategy=RGB',
            '-sDEVICE=pdfwrite',
            `-sOutputFile=${at('fifty-gs.pdf')}`,
            at('fifty.pdf'),
          ]),
      },
      iterations: 5,
    },
  ];
};

export default suite;
