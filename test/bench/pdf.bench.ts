// PDF rows: merge, split and encrypt through HTTP against the qpdf CLI, on a ~1,000-page text
// PDF and a ~40 MB image PDF; plus the engine called directly, to show the service overhead.

import fs from 'node:fs';
import path from 'node:path';
import { makeImagePdf, makePdf } from '../helpers/make-pdf.js';
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

const suite: BenchSuite = async ({ service, work }) => {
  const fixtures = writeFixtures(work);
  const cases: BenchCase[] = [];
  for (const fx of fixtures) {
    if (cases.length === 0) cases.push(await overheadCase(service, fx, work));
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
        mupdfEngine.merge(fx.halves.map((f) => fs.readFileSync(f)), (pdf) => fs.writeFileSync(path.join(work, 'overhead-direct.pdf'), pdf));
      },
    },
  };
}

export default suite;
