// Scanned-document rows: OCR of a 20-page 300-dpi English scan (text, and searchable PDF) against
// what OCRmyPDF does natively — pdftoppm -r 300 then tesseract per page, one thread each, two
// pages at a time, with the English data Debian installs (tesseract-ocr-eng), as a user runs it
// (issue 32's anchor); to-images of a 100-page PDF against pdftoppm; from-images of 20 JPEGs
// against img2pdf where it is installed.

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cameraPhoto } from '../helpers/images.js';
import { makePdf } from '../helpers/make-pdf.js';
import { ENGLISH_TEXT, renderPage } from '../helpers/ocr-images.js';
import { makeScannedPdf } from '../helpers/scanned-pdf.js';
import { postOk, runCommand, type BenchCase, type BenchSuite } from './harness.js';
import { DEBIAN_TESSDATA } from '../helpers/tools.js';

const PARALLEL = 2;
const SCAN_PAGES = 20;

/** pdftoppm renders every page, then tesseract reads them PARALLEL at a time, one thread each. */
function nativeOcr(pdf: string, work: string, output: 'txt' | 'pdf'): () => Promise<void> {
  const dir = path.join(work, `native-ocr-${output}`);
  const script = [
    `rm -rf "${dir}" && mkdir -p "${dir}"`,
    `pdftoppm -r 300 -gray "${pdf}" "${dir}/page"`,
    `ls "${dir}"/page-*.pgm | OMP_THREAD_LIMIT=1 xargs -P ${PARALLEL} -I{} tesseract {} {} --tessdata-dir "${DEBIAN_TESSDATA}" -l eng ${output} 2>/dev/null`,
  ].join(' && ');
  return () => runCommand('bash', ['-c', script]);
}

const suite: BenchSuite = async ({ service, work }) => {
  const cases: BenchCase[] = [];
  if (!fs.existsSync(path.join(DEBIAN_TESSDATA, 'eng.traineddata')))
    throw new Error(`no ${DEBIAN_TESSDATA}/eng.traineddata: scripts/install-test-tools.sh installs tesseract-ocr-eng`);
  const page = await renderPage(Array<string>(9).fill(ENGLISH_TEXT), 'latin');
  const scan = path.join(work, `scan-${SCAN_PAGES}.pdf`);
  fs.writeFileSync(scan, await makeScannedPdf(Array.from({ length: SCAN_PAGES }, () => ({ image: page, dpi: 300 }))));
  for (const output of ['txt', 'pdf'] as const) {
    cases.push({
      group: 'scans',
      name: `OCR ${SCAN_PAGES}-page 300-dpi English scan → ${output === 'txt' ? 'text' : 'searchable PDF'}`,
      iterations: 1,
      ours: () => postOk(service, '/api/ocr', { input: scan, language: 'eng', ...(output === 'pdf' && { output: path.join(work, 'scan-ocr.pdf') }) }),
      native: { tool: `pdftoppm + tesseract ×${PARALLEL}`, run: nativeOcr(scan, work, output) },
    });
  }

  const doc = path.join(work, 'doc-100.pdf');
  fs.writeFileSync(doc, makePdf({ pages: Array.from({ length: 100 }, (_, i) => `${ENGLISH_TEXT.slice(0, 60)} page ${i + 1}`) }));
  cases.push({
    group: 'scans',
    name: 'to-images 100-page PDF, 150 dpi PNG',
    iterations: 3,
    ours: () => postOk(service, '/api/pdf/to-images', { input: doc, outputDir: path.join(work, 'pages-ours') }),
    native: { tool: 'pdftoppm -r 150 -png', run: () => runCommand('pdftoppm', ['-r', '150', '-png', doc, path.join(work, 'pages-native')]) },
  });

  const jpegs: string[] = [];
  for (let i = 0; i < 20; i++) {
    const file = path.join(work, `photo-${String(i).padStart(2, '0')}.jpg`);
    if (i === 0) await (await cameraPhoto(3000, 2000)).jpeg({ quality: 85 }).toFile(file);
    else fs.copyFileSync(jpegs[0] as string, file);
    jpegs.push(file);
  }
  const hasImg2pdf = spawnSync('img2pdf', ['--version']).status === 0;
  cases.push({
    group: 'scans',
    name: 'from-images 20 JPEGs (6 MP)',
    iterations: 5,
    ours: () => postOk(service, '/api/pdf/from-images', { files: jpegs, output: path.join(work, 'album-ours.pdf') }),
    ...(hasImg2pdf && { native: { tool: 'img2pdf', run: () => runCommand('img2pdf', [...jpegs, '-o', path.join(work, 'album-native.pdf')]) } }),
  });
  return cases;
};

export default suite;
