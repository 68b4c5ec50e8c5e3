// `tsx test/bench/ocr-cpu.ts DIR ROUNDS [TESSDATA]`: CPU time of one `/api/ocr` of an A4 English
// page through the built service against the tesseract CLI as a user runs it (`tesseract
// page.png out -l eng`, Debian's data, OMP_THREAD_LIMIT=1). The service's cost is the CPU time
// of its whole process (all threads: /proc/PID/stat utime + stime) around the request, the CLI's
// its user + system time (/usr/bin/time) — on a shared machine CPU time, not wall time, is the
// figure that survives. A second service started with `--tessdata TESSDATA` (e.g. a folder
// holding best_int's eng.traineddata) is measured beside the default one. Rounds interleave
// every reader; one warm-up request per service and language first; medians and CER.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { characterErrorRate } from '../helpers/ocr-accuracy.js';
import { ENGLISH_TEXT, renderPage } from '../helpers/ocr-images.js';
import { ENGLISH_PAGES, expectedText, renderTestPage } from '../helpers/ocr-page-set.js';
import { startService, stopAndRemove, type RunningService } from '../helpers/service.js';

const [dir, roundsArg = '5', tessdata] = process.argv.slice(2);
if (!dir) throw new Error('usage: ocr-cpu.ts DIR ROUNDS [TESSDATA]');
fs.mkdirSync(dir, { recursive: true });
const rounds = Number(roundsArg);
const TICK_MS = 1000 / Number(execFileSync('getconf', ['CLK_TCK']).toString().trim());
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

function processCpuMs(pid: number): number {
  // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

interface Page {
  name: string;
  png: string;
  expected: string;
}

const specs = [
  {
    name: 'bench A4 Sans 12pt',
    expected: Array<string>(9).fill(ENGLISH_TEXT).join('\n'),
    render: () => renderPage(Array<string>(9).fill(ENGLISH_TEXT), 'latin'),
  },
  { name: 'en Serif 11pt 300dpi', expected: expectedText(ENGLISH_PAGES[0] as never), render: () => renderTestPage(ENGLISH_PAGES[0] as never) },
];
const pages: Page[] = [];
for (const spec of specs) {
  const png = path.join(dir, `${spec.name.replace(/\W+/g, '-')}.png`);
  if (!fs.existsSync(png)) fs.writeFileSync(png, await spec.render());
  pages.push({ name: spec.name, png, expected: spec.expected });
}

const services: { label: string; service: RunningService }[] = [{ label: 'docwasm (shipped data)', service: await startService(['--timeout', '600']) }];
if (tessdata) services.push({ label: `docwasm --tessdata ${tessdata}`, service: await startService(['--timeout', '600', '--tessdata', tessdata]) });
const languages = ['eng', 'chi_sim+eng'];

async function ourRead(service: RunningService, page: Page, language: string): Promise<{ cpu: number; text: string }> {
  const pid = service.child.pid as number;
  const start = processCpuMs(pid);
  const { status, body } = await service.post('/api/ocr', { input: page.png, language });
  if (status !== 200) throw new Error(`ocr ${status}: ${JSON.stringify(body)}`);
  return { cpu: processCpuMs(pid) - start, text: String(body.text) };
}

function cliRead(page: Page, language: string): { cpu: number; text: string } {
  const timeFile = path.join(dir as string, 'time.txt');
  const out = path.join(dir as string, 'cli-out');
  execFileSync('/usr/bin/time', ['-o', timeFile, '-f', '%U %S', 'tesseract', page.png, out, '-l', language], {
    env: { ...process.env, OMP_THREAD_LIMIT: '1' },
    stdio: 'ignore',
  });
  const [user = 0, sys = 0] = fs.readFileSync(timeFile, 'utf8').trim().split(/\s+/).map(Number);
  return { cpu: (user + sys) * 1000, text: fs.readFileSync(`${out}.txt`, 'utf8') };
}

const cpu = new Map<string, number[]>();
const cer = new Map<string, number>();
const note = (key: string, read: { cpu: number; text: string }, page: Page) => {
  cpu.set(key, [...(cpu.get(key) ?? []), read.cpu]);
  cer.set(key, characterErrorRate(page.expected, read.text));
};

for (const { service } of services) for (const language of languages) await ourRead(service, pages[0] as Page, language);
for (let round = 0; round < rounds; round++) {
  for (const page of pages) {
    for (const language of languages) {
      note(`cli|${page.name}|${language}`, cliRead(page, language), page);
      for (const { label, service } of services) note(`${label}|${page.name}|${language}`, await ourRead(service, page, language), page);
    }
  }
  process.stderr.write(`round ${round + 1} done\n`);
}

process.stdout.write('| page, language | reader | CPU (median) | ratio to the CLI | CER |\n|---|---|---|---|---|\n');
for (const page of pages) {
  for (const language of languages) {
    const cli = median(cpu.get(`cli|${page.name}|${language}`) ?? []);
    for (const label of ['cli', ...services.map((s) => s.label)]) {
      const key = `${label}|${page.name}|${language}`;
      const ms = median(cpu.get(key) ?? []);
      const ratio = label === 'cli' ? '–' : `${(ms / cli).toFixed(2)}×`;
      process.stdout.write(
        `| ${page.name}, ${language} | ${label === 'cli' ? 'tesseract CLI, Debian data' : label} | ${Math.round(ms)} ms | ${ratio} | ${((cer.get(key) ?? 0) * 100).toFixed(2)} % |\n`,
      );
    }
  }
}
for (const { service } of services) await stopAndRemove(service);
