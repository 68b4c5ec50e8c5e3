// One-shot commands run as a user's shell would run them: `node dist/src/cli/main.js <words> …`
// in a working directory of fixtures, outputs checked with independent tools (qpdf, pdftotext,
// ImageMagick's identify), exit statuses and stderr lines as the contract states them.

import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentFixtures, officeProcessesOf, pdfText, TEXT_LINE } from '../helpers/documents.js';
import { makePdf } from '../helpers/make-pdf.js';
import { renderText } from '../helpers/ocr-images.js';
import { CLI, leftoverTempFiles, tempDir } from '../helpers/service.js';
import { watchStderrForWarnings } from '../helpers/warnings.js';
import { pageCount, pdfPageTexts, qpdfCheck, requiresPassword } from '../helpers/tools.js';

/** Generous: the machine may be shared; nothing here depends on its speed. */
const SLOW = 180_000;

let dir: string;
let outside: string;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function docwasm(args: string[], options: { env?: NodeJS.ProcessEnv; input?: string; cwd?: string } = {}): Run {
  const result: SpawnSyncReturns<string> = spawnSync(process.execPath, [CLI, ...args], {
    cwd: options.cwd ?? dir,
    env: { ...withoutDocwasmEnv(process.env), ...options.env },
    input: options.input ?? '',
    encoding: 'utf8',
    timeout: SLOW,
  });
  // A Node warning on the terminal breaks the progress line; the per-file setup fails on it.
  watchStderrForWarnings(`docwasm ${args.join(' ')}`, () => result.stderr ?? '');
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** The tests set every DOCWASM_* they need; none leaks in from the shell that runs them. */
function withoutDocwasmEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !name.startsWith('DOCWASM_')));
}

function identify(file: string): { width: number; height: number; format: string } {
  const [width, height, format] = spawnSync('identify', ['-format', '%w %h %m', file], { encoding: 'utf8' }).stdout.trim().split(' ');
  return { width: Number(width), height: Number(height), format: format ?? '' };
}

beforeAll(async () => {
  dir = tempDir('docwasm-cli-');
  outside = tempDir('docwasm-cli-outside-');
  fs.writeFileSync(path.join(dir, 'a.pdf'), makePdf({ pages: ['Alpha one', 'Alpha two'] }));
  fs.writeFileSync(path.join(dir, 'b.pdf'), makePdf({ pages: ['Bravo one'] }));
  fs.writeFileSync(path.join(dir, 'c.pdf'), makePdf({ pages: ['Charlie one'] }));
  fs.writeFileSync(path.join(outside, 'secret.pdf'), makePdf({ pages: ['Secret'] }));
  fs.writeFileSync(
    path.join(dir, 'photo.png'),
    await sharp({ create: { width: 200, height: 100, channels: 3, background: '#3366cc' } })
      .png()
      .toBuffer(),
  );
  fs.writeFileSync(path.join(dir, 'line.png'), await renderText('Hello from the command line', { width: 1200 }));
  const docs = await documentFixtures();
  fs.copyFileSync(docs.text[0] as string, path.join(dir, 'letter.docx'));
  fs.copyFileSync(docs.text[3] as string, path.join(dir, 'notes.odt'));
  fs.writeFileSync(path.join(dir, 'broken.docx'), 'this is plain text, not a document');
}, SLOW);

afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

describe('one-shot PDF commands', () => {
  it(
    'merges with paths relative to the working directory and prints the message and output path',
    () => {
      const run = docwasm(['pdf', 'merge', 'a.pdf', 'b.pdf', '-o', 'out/merged.pdf']);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      const output = path.join(dir, 'out', 'merged.pdf');
      expect(run.stdout).toContain('Merged 2 PDF(s) into 3 page(s)');
      expect(run.stdout).toContain(output);
      expect(qpdfCheck(output)).toBe(true);
      expect(pageCount(output)).toBe(3);
      expect(pdfPageTexts(output)).toEqual(['Alpha one', 'Alpha two', 'Bravo one']);
    },
    SLOW,
  );

  it(
    'splits into one file per page item',
    () => {
      const run = docwasm(['pdf', 'split', 'a.pdf', '--pages', '1,2', '--output-dir', 'parts']);
      expect(run.status).toBe(0);
      expect(fs.readdirSync(path.join(dir, 'parts')).sort()).toEqual(['a_1.pdf', 'a_2.pdf']);
      expect(pdfPageTexts(path.join(dir, 'parts', 'a_2.pdf'))).toEqual(['Alpha two']);
    },
    SLOW,
  );

  it(
    'renders a 12-page PDF to images without a process warning on stderr',
    () => {
      fs.writeFileSync(path.join(dir, 'twelve.pdf'), makePdf({ pages: Array.from({ length: 12 }, (_, i) => `Page ${i + 1}`) }));
      const run = docwasm(['pdf', 'to-images', 'twelve.pdf', '--output-dir', 'twelve', '--dpi', '36']);
      expect(run.status, run.stderr).toBe(0);
      expect(fs.readdirSync(path.join(dir, 'twelve'))).toHaveLength(12);
      expect(run.stderr).not.toMatch(/Warning/);
    },
    SLOW,
  );

  it(
    '--json prints the API envelope as one line',
    () => {
      const run = docwasm(['pdf', 'merge', 'a.pdf', 'c.pdf', '-o', 'json.pdf', '--json']);
      expect(run.status).toBe(0);
      const lines = run.stdout.split('\n').filter((line) => line !== '');
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0] as string)).toEqual({
        success: true,
        message: 'Merged 2 PDF(s) into 3 page(s)',
        outputPath: path.join(dir, 'json.pdf'),
        data: { pages: 3, files: 2 },
      });
    },
    SLOW,
  );

  it(
    'takes the password from DOCWASM_PASSWORD or stdin, keeping it off the command line',
    () => {
      const fromEnv = docwasm(['pdf', 'encrypt', 'a.pdf', '-o', 'env.pdf'], { env: { DOCWASM_PASSWORD: 'from-env' } });
      expect(fromEnv.status).toBe(0);
      expect(requiresPassword(path.join(dir, 'env.pdf'))).toBe(true);
      expect(pageCount(path.join(dir, 'env.pdf'), 'from-env')).toBe(2);

      const fromStdin = docwasm(['pdf', 'encrypt', 'a.pdf', '-o', 'stdin.pdf', '--password-stdin'], { input: 'from-stdin\n' });
      expect(fromStdin.status).toBe(0);
      expect(qpdfCheck(path.join(dir, 'stdin.pdf'), 'from-stdin')).toBe(true);
      expect(qpdfCheck(path.join(dir, 'stdin.pdf'), 'from-env')).toBe(false);
    },
    SLOW,
  );

  it(
    'shows progress only on a terminal',
    () => {
      const piped = docwasm(['pdf', 'merge', 'a.pdf', 'b.pdf', 'c.pdf', '-o', 'piped.pdf']);
      expect(piped.status).toBe(0);
      expect(piped.stderr).toBe('');
      // util-linux `script` gives the command a pseudo-terminal.
      const command = [process.execPath, CLI, 'pdf', 'merge', 'a.pdf', 'b.pdf', 'c.pdf', '-o', 'tty.pdf'].map((arg) => `'${arg}'`).join(' ');
      const onTty = spawnSync('script', ['-qec', command, '/dev/null'], { cwd: dir, encoding: 'utf8', timeout: SLOW, env: withoutDocwasmEnv(process.env) });
      expect(onTty.status).toBe(0);
      expect(onTty.stdout).toContain('3/3');
    },
    SLOW,
  );
});

describe('one-shot image and OCR commands', () => {
  it(
    'resizes an image (checked with ImageMagick)',
    () => {
      const run = docwasm(['image', 'resize', 'photo.png', '-o', 'small.jpg', '--width', '50', '--quality', '90']);
      expect(run.status).toBe(0);
      expect(run.stdout).toContain('50×25');
      expect(identify(path.join(dir, 'small.jpg'))).toEqual({ width: 50, height: 25, format: 'JPEG' });
    },
    SLOW,
  );

  it(
    'prints the recognised text without -o, and writes it with -o',
    () => {
      // In the default languages (PP-OCR for Chinese loads too: 12 CPU-s here) once; -o reads in
      // English only (4 CPU-s), since where the text goes does not depend on the languages.
      const printed = docwasm(['ocr', 'line.png']);
      expect(printed.status).toBe(0);
      expect(printed.stdout).toContain('Hello from the command line');
      const written = docwasm(['ocr', 'line.png', '--language', 'eng', '-o', 'line.txt']);
      expect(written.status).toBe(0);
      expect(written.stdout).toContain(path.join(dir, 'line.txt'));
      expect(fs.readFileSync(path.join(dir, 'line.txt'), 'utf8')).toContain('Hello from the command line');
    },
    SLOW,
  );
});

describe('one-shot document conversion (LibreOffice)', () => {
  it(
    'converts with --format taken from the extension of -o',
    () => {
      const run = docwasm(['convert', 'letter.docx', '-o', 'letter.pdf']);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(pdfText(path.join(dir, 'letter.pdf'))).toContain(TEXT_LINE);
    },
    SLOW,
  );

  it(
    'exits 1 when a batch item fails, converts the others and names the failure on stderr, leaving no LibreOffice behind',
    async () => {
      const child = spawn(process.execPath, [CLI, 'convert', 'batch', 'letter.docx', 'broken.docx', 'notes.odt', '--format', 'pdf', '--output-dir', 'batch'], {
        cwd: dir,
        env: withoutDocwasmEnv(process.env),
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const status = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(status).toBe(1);
      expect(stdout).toContain('Converted 2 of 3 file(s) to pdf');
      // One line naming the file once (its error names it already).
      expect(stderr).toMatch(/^docwasm: INVALID_INPUT: broken\.docx has a \.docx name/m);
      expect(stderr).not.toContain('broken.docx: broken.docx');
      expect(stderr).not.toContain('\r');
      expect(fs.readdirSync(path.join(dir, 'batch')).sort()).toEqual(['letter.pdf', 'notes.pdf']);
      expect(pdfText(path.join(dir, 'batch', 'notes.pdf'))).toContain(TEXT_LINE);
      expect(officeProcessesOf(child.pid as number)).toEqual([]);
      expect(leftoverTempFiles(dir)).toEqual([]);
    },
    SLOW,
  );
});

describe('errors and exit statuses', () => {
  it(
    'exits 1 with "docwasm: CODE: message" when the operation fails',
    () => {
      const missing = docwasm(['pdf', 'merge', 'a.pdf', 'missing.pdf', '-o', 'never.pdf']);
      expect(missing.status).toBe(1);
      expect(missing.stderr).toMatch(/^docwasm: FILE_NOT_FOUND: .*missing\.pdf/);
      expect(missing.stdout).toBe('');
      expect(fs.existsSync(path.join(dir, 'never.pdf'))).toBe(false);
    },
    SLOW,
  );

  it(
    'honours --allow-dir',
    () => {
      const run = docwasm(['pdf', 'merge', path.join(outside, 'secret.pdf'), '-o', 'stolen.pdf', '--allow-dir', dir]);
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/^docwasm: PATH_NOT_ALLOWED: /);
      expect(fs.existsSync(path.join(dir, 'stolen.pdf'))).toBe(false);
    },
    SLOW,
  );

  it(
    'exits 2 on VALIDATION_ERROR, and --json still prints the envelope',
    () => {
      const both = docwasm(['image', 'resize', 'photo.png', '-o', 'x.png', '--width', '10', '--scale', '2', '--json']);
      expect(both.status).toBe(2);
      expect(both.stderr).toMatch(/^docwasm: VALIDATION_ERROR: /);
      expect(JSON.parse(both.stdout)).toMatchObject({ success: false, code: 'VALIDATION_ERROR' });
      const notANumber = docwasm(['image', 'resize', 'photo.png', '-o', 'x.png', '--width', 'wide']);
      expect(notANumber.status).toBe(2);
      expect(notANumber.stderr).toContain('width');
    },
    SLOW,
  );

  it(
    'exits 2 on usage errors: unknown option, unknown command, missing input',
    () => {
      for (const args of [
        ['pdf', 'merge', 'a.pdf', '-o', 'x.pdf', '--colour', 'red'],
        ['pdf', 'fold', 'a.pdf'],
        ['frobnicate'],
        ['pdf', 'merge', '-o', 'x.pdf'],
        ['ocr', 'a.png', 'b.png'],
      ]) {
        const run = docwasm(args);
        expect(run.status, args.join(' ')).toBe(2);
        expect(run.stderr).toMatch(/^docwasm: /);
        expect(run.stderr).toContain('--help');
      }
    },
    SLOW,
  );
});

describe('help', () => {
  it(
    'docwasm --help lists the commands and groups',
    () => {
      const run = docwasm(['--help']);
      expect(run.status).toBe(0);
      for (const word of ['serve', 'mcp', 'convert batch', 'pdf', 'image', 'ocr']) expect(run.stdout).toContain(word);
    },
    SLOW,
  );

  it(
    'docwasm pdf --help lists the operations',
    () => {
      const run = docwasm(['pdf', '--help']);
      expect(run.status).toBe(0);
      for (const command of ['pdf merge', 'pdf split', 'pdf encrypt']) expect(run.stdout).toContain(command);
    },
    SLOW,
  );

  it(
    'docwasm <operation> --help describes the fields from the schema, the engine flags and the password env var',
    () => {
      const resize = docwasm(['image', 'resize', '--help']).stdout;
      expect(resize).toContain('Usage: docwasm image resize INPUT');
      expect(resize).toMatch(/-o, --output FILE\s+target file; its extension/);
      expect(resize).toMatch(/--fit fill\|inside\|cover\s+with both width and height/);
      expect(resize).toContain('--max-pixels');
      const encrypt = docwasm(['pdf', 'encrypt', '--help']).stdout;
      expect(encrypt).toContain('DOCWASM_PASSWORD');
      expect(encrypt).toContain('--password-stdin');
    },
    SLOW,
  );

  it(
    'keeps serve as the default command',
    () => {
      expect(docwasm(['serve', '--help']).stdout).toContain('--port');
      const bad = docwasm(['--pdf-engine', 'qpdf']);
      expect(bad.status).toBe(2);
      expect(bad.stderr).toContain('--pdf-engine');
    },
    SLOW,
  );
});

describe('messages a user meets', () => {
  it(
    "names a missing required option instead of the schema's type error",
    () => {
      const noOutput = docwasm(['pdf', 'merge', 'a.pdf', 'b.pdf']);
      expect(noOutput.status).toBe(2);
      expect(noOutput.stderr).toBe('docwasm: missing required option -o/--output\nRun `docwasm pdf merge --help` for the usage.\n');
      const noPassword = docwasm(['pdf', 'encrypt', 'a.pdf', '-o', 'never.pdf']);
      expect(noPassword.status).toBe(2);
      expect(noPassword.stderr).toContain('docwasm: missing required option --password\n');
      expect(fs.existsSync(path.join(dir, 'never.pdf'))).toBe(false);
    },
    SLOW,
  );

  it(
    "lists in an operation's --help only the options of its engines; server options only in serve --help",
    () => {
      const serverOnly = [
        '--host',
        '--port',
        '--token',
        '--allow-origin',
        '--headers-timeout',
        '--request-timeout',
        '--job-retention',
        '--idle-timeout',
        '--queue-limit',
      ];
      const merge = docwasm(['pdf', 'merge', '--help']).stdout;
      for (const option of ['--pdf-engine mupdf|cpdf', '--max-pixels', '--allow-dir DIR', '--timeout']) expect(merge).toContain(option);
      for (const option of [...serverOnly, '--soffice', '--document-sandbox', '--tessdata']) expect(merge).not.toContain(option);
      const convert = docwasm(['convert', '--help']).stdout;
      for (const option of ['--soffice PATH', '--document-sandbox MODE', '--soffice-recycle-after']) expect(convert).toContain(option);
      for (const option of serverOnly) expect(convert).not.toContain(option);
      // convert … --format md reads PDFs and their scans: the PDF and OCR options apply too.
      for (const option of ['--pdf-engine', '--tessdata']) expect(convert).toContain(option);
      expect(docwasm(['ocr', '--help']).stdout).toContain('--tessdata DIR');
      const mcp = docwasm(['mcp', '--help']).stdout;
      for (const option of ['--idle-timeout', '--soffice', '--tessdata']) expect(mcp).toContain(option);
      for (const option of ['--port', '--token', '--job-retention', '--headers-timeout']) expect(mcp).not.toContain(option);
      const serve = docwasm(['serve', '--help']).stdout;
      for (const option of [...serverOnly, '--document-sandbox MODE']) expect(serve).toContain(option);
      const refused = docwasm(['pdf', 'merge', 'a.pdf', '-o', 'x.pdf', '--port', '1']);
      expect(refused.status).toBe(2);
      expect(refused.stderr).toContain('unknown option --port');
    },
    SLOW,
  );

  it(
    'points a usage error at the help of the command it is about',
    () => {
      for (const [args, command] of [
        [['serve', '--bogus'], 'serve'],
        [['--port', 'x'], 'serve'],
        [['mcp', '--bogus'], 'mcp'],
        [['pdf', 'merge', 'a.pdf', '-o', 'x.pdf', '--workers', '0'], 'pdf merge'],
      ] as const) {
        const run = docwasm([...args]);
        expect(run.status, args.join(' ')).toBe(2);
        expect(run.stderr, args.join(' ')).toContain(`Run \`docwasm ${command} --help\` for the usage.`);
      }
    },
    SLOW,
  );

  it(
    'removes an output folder it created when the operation fails',
    () => {
      fs.writeFileSync(path.join(dir, 'locked.pdf'), makePdf({ pages: ['Locked'] }));
      expect(spawnSync('qpdf', ['--encrypt', 'right', 'right', '256', '--', 'locked.pdf', '--replace-input'], { cwd: dir }).status).toBe(0);
      const run = docwasm(['pdf', 'split', 'locked.pdf', '--pages', '1', '--output-dir', 'fresh/parts', '--password', 'wrong']);
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/^docwasm: PASSWORD_REQUIRED: /);
      expect(fs.existsSync(path.join(dir, 'fresh'))).toBe(false);
      expect(leftoverTempFiles(dir)).toEqual([]);
    },
    SLOW,
  );
});
