// What a new user of the command line reads when something is off (docs/cli-and-mcp.md,
// "Messages"): an unknown option names the one meant, `-o out.mp3` says .mp3 is no format,
// sign names the ways to give the certificate password, watch points at its own help, a taken
// port says which and how to choose another, a missing input shows the path it was looked for
// at, a directory is called a directory, batch errors say the path once, and the watcher's stop
// line does not run into its progress line. Real processes, real files.

import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stopAtEnd } from '../helpers/cleanup.js';
import { DOCUMENT_FIXTURES, TEXT_LINE } from '../helpers/documents.js';
import { makePdf } from '../helpers/make-pdf.js';
import { CLI, freePort, tempDir } from '../helpers/service.js';

const SLOW = 180_000;
const ESC = '\u001b';

let dir: string;

interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

function docwasm(args: string[], env: NodeJS.ProcessEnv = {}): Run {
  const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('DOCWASM_')));
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd: dir, env: { ...clean, ...env }, input: '', encoding: 'utf8', timeout: SLOW });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  dir = tempDir('docwasm-newcomer-');
  fs.writeFileSync(path.join(dir, 'a.pdf'), makePdf({ pages: ['Alpha one', 'Alpha two'] }));
  fs.copyFileSync(path.join(DOCUMENT_FIXTURES, 'text-docx.docx'), path.join(dir, 'letter.docx'));
  fs.mkdirSync(path.join(dir, 'folder.pdf'));
});

describe('unknown options', () => {
  it('names the option meant and the help to read, for an operation', () => {
    const run = docwasm(['pdf', 'compress', 'a.pdf', '-o', 'small.pdf', '--qualty', '10']);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('docwasm: unknown option --qualty; did you mean --quality?\nRun `docwasm pdf compress --help` for the usage.\n');
    expect(fs.existsSync(path.join(dir, 'small.pdf'))).toBe(false);
  });

  it('does the same for serve, mcp and watch, each pointing at its own help', () => {
    for (const [args, expected] of [
      [['serve', '--prot', '1'], 'docwasm: unknown option --prot; did you mean --port?\nRun `docwasm serve --help` for the usage.\n'],
      [['mcp', '--allow-dri', dir], 'docwasm: unknown option --allow-dri; did you mean --allow-dir?\nRun `docwasm mcp --help` for the usage.\n'],
      [['watch', 'in', '--step', 'steps.json'], 'docwasm: unknown option --step; did you mean --steps?\nRun `docwasm watch --help` for the usage.\n'],
      [['pdf', 'info', 'a.pdf', '--bogus'], 'docwasm: unknown option --bogus\nRun `docwasm pdf info --help` for the usage.\n'],
    ] as const) {
      const run = docwasm([...args]);
      expect(run.status, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toBe(expected);
    }
  });

  it("points watch's own errors at docwasm watch --help", () => {
    const run = docwasm(['watch']);
    expect(run.status).toBe(2);
    expect(run.stderr).toBe('docwasm: watch takes one folder to watch, got none\nRun `docwasm watch --help` for the usage.\n');
  });
});

describe('convert and its format', () => {
  it("says an output's unknown extension is not a format, and lists convert's formats", () => {
    const run = docwasm(['convert', 'letter.docx', '-o', 'song.mp3']);
    expect(run.status).toBe(2);
    expect(run.stderr).toContain(
      "the output's extension .mp3 is not a known format; the formats of convert are pdf, docx, odt, txt, xlsx, ods, csv, pptx, odp, md",
    );
    expect(run.stderr).not.toContain('missing required option');
    expect(fs.existsSync(path.join(dir, 'song.mp3'))).toBe(false);
  });

  it(
    "still takes the format from -o's extension",
    () => {
      const run = docwasm(['convert', 'letter.docx', '-o', 'letter.md']);
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(fs.readFileSync(path.join(dir, 'letter.md'), 'utf8')).toContain(TEXT_LINE);
    },
    SLOW,
  );
});

describe('files', () => {
  it('shows the absolute path a missing input was looked for at', () => {
    const run = docwasm(['pdf', 'info', 'nowhere/missing.pdf']);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(`docwasm: FILE_NOT_FOUND: Input file not found: ${path.join(dir, 'nowhere', 'missing.pdf')}\n`);
  });

  it('calls a directory given as input a directory', () => {
    const run = docwasm(['pdf', 'info', 'folder.pdf']);
    expect(run.status).toBe(1);
    expect(run.stderr).toBe(`docwasm: FILE_NOT_FOUND: Input ${path.join(dir, 'folder.pdf')} is a directory, not a file\n`);
  });

  it(
    "says a batch item's path once",
    () => {
      const run = docwasm(['convert', 'batch', 'gone.docx', '--format', 'md']);
      expect(run.status).toBe(1);
      expect(run.stderr).toBe(`docwasm: FILE_NOT_FOUND: Input file not found: ${path.join(dir, 'gone.docx')}\n`);
    },
    SLOW,
  );
});

describe('sign without the certificate password', () => {
  it(
    'names the field and the ways to give it on the command line',
    () => {
      const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      openssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'key.pem', '-out', 'cert.pem', '-days', '2', '-subj', '/CN=Newcomer');
      openssl('pkcs12', '-export', '-inkey', 'key.pem', '-in', 'cert.pem', '-out', 'me.p12', '-passout', 'pass:secret-p12');
      const run = docwasm(['pdf', 'sign', 'a.pdf', '-o', 'signed.pdf', '--certificate', 'me.p12']);
      expect(run.status).toBe(1);
      expect(run.stderr).toMatch(/^docwasm: PASSWORD_REQUIRED: .*certificatePassword.*DOCWASM_CERTIFICATE_PASSWORD.*--certificate-password-stdin/);
      expect(fs.existsSync(path.join(dir, 'signed.pdf'))).toBe(false);
    },
    SLOW,
  );
});

describe('a taken port', () => {
  let holder: net.Server;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => holder.close(() => resolve())));

  it(
    'says which port is taken and how to choose another',
    () => {
      const run = docwasm(['serve', '--port', String(port), '--base-dir', dir]);
      expect(run.status).toBe(2);
      expect(run.stderr).toContain(`docwasm: port ${port} on 127.0.0.1 is taken`);
      expect(run.stderr).toContain('choose another with --port N or DOCWASM_PORT=N');
      expect(run.stderr).not.toContain('EADDRINUSE');
    },
    SLOW,
  );
});

describe('watch on a terminal', () => {
  it(
    'clears its progress line before it says it is stopping',
    async () => {
      const root = tempDir('docwasm-newcomer-watch-');
      const inDir = path.join(root, 'in');
      fs.mkdirSync(inDir);
      for (const name of ['one.pdf', 'two.pdf']) fs.writeFileSync(path.join(inDir, name), makePdf({ pages: [name] }));
      fs.writeFileSync(path.join(root, 'steps.json'), JSON.stringify([{ operation: 'pdf/rotate', degrees: 90 }]));
      const command = [
        process.execPath,
        CLI,
        'watch',
        inDir,
        '--steps',
        path.join(root, 'steps.json'),
        '--out',
        path.join(root, 'out'),
        '--settle',
        '0.2',
        '--workers',
        '1',
      ];
      // script(1) gives the watcher a terminal: its progress line is drawn only on one.
      const child = stopAtEnd(
        spawn('script', ['-qfec', command.map((part) => `'${part}'`).join(' '), '/dev/null'], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] }),
      );
      let screen = '';
      child.stdout?.on('data', (chunk: Buffer) => (screen += chunk.toString()));
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      for (const deadline = Date.now() + 120_000; !/] 2\/2/.test(screen) && Date.now() < deadline;) await new Promise((resolve) => setTimeout(resolve, 100));
      expect(screen).toMatch(/] 2\/2/);
      // Ctrl-C on the terminal: SIGINT to the watcher.
      child.stdin?.write('\x03');
      for (const deadline = Date.now() + 60_000; !screen.includes('docwasm watch: stopping') && Date.now() < deadline;)
        await new Promise((resolve) => setTimeout(resolve, 100));
      await exited;
      expect(screen).toContain('docwasm watch: stopping');
      expect(screen).not.toMatch(/\d+\/\d+docwasm watch: stopping/);
      // The line is cleared (erase line, cursor to column 1) right before the message.
      const shown = screen.replaceAll(`${ESC}[2K`, '<erase line>').replaceAll(`${ESC}[1G`, '<column 1>');
      expect(shown).toContain('<erase line><column 1>docwasm watch: stopping');
    },
    SLOW,
  );
});
