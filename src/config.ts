// Service configuration: every CLI flag has an env twin; flags win over env, env over defaults.
// Each door (serve, mcp, one-shot commands) takes the flags that apply to it (flagsFor) and
// builds its Config from their parsed values (configFromFlags).

import { X509Certificate } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RECYCLE_AFTER } from '../core/recycle.js';
import { localePaper, PAPERS, type Paper } from './documents/paper.js';
import { SANDBOX_CHOICES, type SandboxChoice } from './sandbox/sandbox.js';

export type PdfEngineName = 'mupdf' | 'cpdf';

/** `libreoffice`: an installed LibreOffice; `wasm`: LibreOffice in WebAssembly; `auto`: the first, else the second. */
export const DOCUMENT_BACKENDS = ['auto', 'libreoffice', 'wasm'] as const;
export type DocumentBackendChoice = (typeof DOCUMENT_BACKENDS)[number];

export interface Config {
  host: string;
  port: number;
  token: string | undefined;
  allowDirs: string[];
  allowOrigins: string[];
  baseDir: string;
  soffice: string | undefined;
  tessdata: string | undefined;
  workers: number;
  pdfEngine: PdfEngineName;
  maxPixels: number;
  maxInputBytes: number;
  /** Per document: what its streams (images aside) may decompress to before rendering or rewriting it. */
  maxDecompressedBytes: number;
  /** Pages one job may render or read (to-images, OCR): the time limit is per page. */
  maxPages: number;
  timeoutMs: number;
  queueLimit: number;
  idleTimeoutMs: number;
  /** Caps every worker's V8 heap (MB) below its engine's own cap; for small machines. */
  workerHeapMb: number | undefined;
  sofficeRecycleAfter: number;
  /** Memory ceiling (address space, MB) of each LibreOffice process; a document that needs more → TOO_LARGE. */
  officeMemoryMb: number;
  /** MB the engines' instances together may hold (src/jobs/memory-budget.ts). */
  memoryBudgetMb: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** How long finished async jobs stay readable; the contract promises at least 10 minutes. */
  jobRetentionMs: number;
  documentSandbox: SandboxChoice;
  documentBackend: DocumentBackendChoice;
  /** Directories whose font files every office gets besides the shipped ones. */
  fontDirs: string[];
  /** Longest a WebAssembly office may take to start before it is killed and tried again. */
  officeStartTimeoutMs: number;
  /** PEM files of the roots a signature must chain to for pdf/signatures to call it trusted. */
  trustCerts: string[];
  /** The certificates those files hold (PEM, one a certificate), read and checked at start. */
  trustRoots: string[];
  /** The paper of documents that set none (paper.ts); by default the locale's. */
  paper: Paper;
  /** `redis://…` of a shared job queue (src/queue/); none: jobs live in the service. */
  queue: string | undefined;
  /** With a queue: the service accepts jobs but runs none. */
  noLocalWorker: boolean;
  /** With a queue: times a job may start (a worker that died mid-job counts one). */
  jobAttempts: number;
  /** Key of the callbacks' HMAC-SHA256 signature (src/webhooks/). */
  webhookSecret: string | undefined;
  /** Hosts (`host[:port]`) a callbackUrl may name; none: loopback only. */
  webhookAllow: string[];
}

/** The engines of docwasm; an operation names those it runs on, a flag those it tunes. */
export type EngineName = 'pdf' | 'image' | 'ocr' | 'documents';

const WASM_ENGINES: readonly EngineName[] = ['pdf', 'image', 'ocr'];

export interface FlagSpec {
  flag: string;
  env: string;
  key: keyof Config;
  /** `switch`: a flag without a value (its env twin: 1 or true). */
  kind: 'string' | 'int' | 'seconds' | 'list' | 'engine' | 'sandbox' | 'backend' | 'paper' | 'switch';
  repeatable?: boolean;
  /** The value's placeholder in --help when the kind's own (N, VALUE) says too little. */
  metavar?: string;
  description: string;
  /**
   * Which commands take it: `http` the HTTP service alone, `server` the long-running ones (serve,
   * mcp, worker), `jobs` those that keep async jobs (serve, worker), a list of engines the
   * commands running on one of them; every command when absent.
   */
  appliesTo?: 'http' | 'server' | 'jobs' | readonly EngineName[];
}

export const FLAGS: readonly FlagSpec[] = [
  { flag: 'host', env: 'DOCWASM_HOST', key: 'host', kind: 'string', metavar: 'ADDRESS', description: 'address to bind (default 127.0.0.1)', appliesTo: 'http' },
  { flag: 'port', env: 'DOCWASM_PORT', key: 'port', kind: 'int', description: 'port to listen on (default 19873)', appliesTo: 'http' },
  {
    flag: 'token',
    env: 'DOCWASM_TOKEN',
    key: 'token',
    kind: 'string',
    metavar: 'TOKEN',
    description: 'require "Authorization: Bearer <token>" on every request',
    appliesTo: 'http',
  },
  {
    flag: 'allow-dir',
    env: 'DOCWASM_ALLOW_DIRS',
    key: 'allowDirs',
    kind: 'list',
    repeatable: true,
    metavar: 'DIR',
    description: 'only read and write below this directory (repeatable)',
  },
  {
    flag: 'allow-origin',
    env: 'DOCWASM_ALLOW_ORIGINS',
    key: 'allowOrigins',
    kind: 'list',
    repeatable: true,
    metavar: 'ORIGIN',
    description: 'accept requests carrying this Origin (repeatable)',
    appliesTo: 'http',
  },
  {
    flag: 'base-dir',
    env: 'DOCWASM_BASE_DIR',
    key: 'baseDir',
    kind: 'string',
    metavar: 'DIR',
    description: 'relative paths resolve against it (default: working directory)',
  },
  {
    flag: 'soffice',
    env: 'DOCWASM_SOFFICE',
    key: 'soffice',
    kind: 'string',
    metavar: 'PATH',
    description: 'path of the LibreOffice soffice program',
    appliesTo: ['documents'],
  },
  {
    flag: 'tessdata',
    env: 'DOCWASM_TESSDATA',
    key: 'tessdata',
    kind: 'string',
    metavar: 'DIR',
    description: 'extra folder of <lang>.traineddata[.gz] files',
    appliesTo: ['ocr'],
  },
  { flag: 'workers', env: 'DOCWASM_WORKERS', key: 'workers', kind: 'int', description: 'worker threads per engine (default: number of cores)' },
  { flag: 'pdf-engine', env: 'DOCWASM_PDF_ENGINE', key: 'pdfEngine', kind: 'engine', description: 'mupdf (default) or cpdf', appliesTo: ['pdf'] },
  {
    flag: 'max-pixels',
    env: 'DOCWASM_MAX_PIXELS',
    key: 'maxPixels',
    kind: 'int',
    description: 'largest image accepted, in pixels (default 100000000)',
    appliesTo: WASM_ENGINES,
  },
  {
    flag: 'max-input-bytes',
    env: 'DOCWASM_MAX_INPUT_BYTES',
    key: 'maxInputBytes',
    kind: 'int',
    description: 'largest input file accepted, in bytes (default 1073741824)',
  },
  {
    flag: 'max-decompressed-bytes',
    env: 'DOCWASM_MAX_DECOMPRESSED_BYTES',
    key: 'maxDecompressedBytes',
    kind: 'int',
    description: "a PDF's streams (images aside) may decompress to this many bytes before it is rendered, compressed or converted (default 134217728)",
    appliesTo: ['pdf'],
  },
  {
    flag: 'max-pages',
    env: 'DOCWASM_MAX_PAGES',
    key: 'maxPages',
    kind: 'int',
    description: 'pages of one PDF a job may render or read with OCR (default 10000)',
    appliesTo: ['pdf', 'ocr'],
  },
  { flag: 'timeout', env: 'DOCWASM_TIMEOUT', key: 'timeoutMs', kind: 'seconds', description: 'per-job time limit in seconds (default 120)' },
  {
    flag: 'queue-limit',
    env: 'DOCWASM_QUEUE_LIMIT',
    key: 'queueLimit',
    kind: 'int',
    description: 'jobs waiting per engine before BUSY (default 64)',
    appliesTo: 'server',
  },
  {
    flag: 'idle-timeout',
    env: 'DOCWASM_IDLE_TIMEOUT',
    key: 'idleTimeoutMs',
    kind: 'seconds',
    description: 'stop engines idle this many seconds; the next job starts them (default 300)',
    appliesTo: 'server',
  },
  {
    flag: 'worker-heap-mb',
    env: 'DOCWASM_WORKER_HEAP_MB',
    key: 'workerHeapMb',
    kind: 'int',
    description: "cap each engine worker's JS heap in MB (default: the engine's own cap)",
    appliesTo: WASM_ENGINES,
  },
  {
    flag: 'soffice-recycle-after',
    env: 'DOCWASM_SOFFICE_RECYCLE_AFTER',
    key: 'sofficeRecycleAfter',
    kind: 'int',
    description: `files a LibreOffice process converts before it is replaced (default ${RECYCLE_AFTER.officeFiles})`,
    appliesTo: ['documents'],
  },
  {
    flag: 'office-memory-mb',
    env: 'DOCWASM_OFFICE_MEMORY_MB',
    key: 'officeMemoryMb',
    kind: 'int',
    description: 'memory ceiling of each LibreOffice process in MB; a document needing more is TOO_LARGE (default 2048)',
    appliesTo: ['documents'],
  },
  {
    flag: 'memory-budget',
    env: 'DOCWASM_MEMORY_BUDGET',
    key: 'memoryBudgetMb',
    kind: 'int',
    description:
      "MB the engines together may hold: idle ones retire to make room, a job waits for room, one engine needing more is TOO_LARGE (default: half the machine's memory, at most 4096)",
  },
  {
    flag: 'headers-timeout',
    env: 'DOCWASM_HEADERS_TIMEOUT',
    key: 'headersTimeoutMs',
    kind: 'seconds',
    description: 'seconds a client has to send the request headers (default 10)',
    appliesTo: 'http',
  },
  {
    flag: 'request-timeout',
    env: 'DOCWASM_REQUEST_TIMEOUT',
    key: 'requestTimeoutMs',
    kind: 'seconds',
    description: 'seconds a client has to send the whole request (default 30)',
    appliesTo: 'http',
  },
  {
    flag: 'job-retention',
    env: 'DOCWASM_JOB_RETENTION',
    key: 'jobRetentionMs',
    kind: 'seconds',
    description: 'keep finished async jobs this many seconds (default 600)',
    appliesTo: 'http',
  },
  {
    flag: 'document-backend',
    env: 'DOCWASM_DOCUMENT_BACKEND',
    key: 'documentBackend',
    kind: 'backend',
    description: 'office documents are converted by: auto (default: an installed LibreOffice, else LibreOffice in WebAssembly), libreoffice or wasm',
    appliesTo: ['documents'],
  },
  {
    flag: 'font-dir',
    env: 'DOCWASM_FONT_DIRS',
    key: 'fontDirs',
    kind: 'list',
    repeatable: true,
    metavar: 'DIR',
    description: 'font files in this directory are given to LibreOffice besides the shipped ones (repeatable)',
    appliesTo: ['documents'],
  },
  {
    flag: 'office-start-timeout',
    env: 'DOCWASM_OFFICE_START_TIMEOUT',
    key: 'officeStartTimeoutMs',
    kind: 'seconds',
    description: 'seconds LibreOffice in WebAssembly may take to start before it is stopped and tried again (default 240)',
    appliesTo: ['documents'],
  },
  {
    flag: 'trust-cert',
    env: 'DOCWASM_TRUST_CERTS',
    key: 'trustCerts',
    kind: 'list',
    repeatable: true,
    metavar: 'FILE',
    description: 'pdf/signatures trusts signatures chaining to the root certificate(s) in this PEM file (repeatable)',
    appliesTo: ['pdf'],
  },
  {
    flag: 'paper',
    env: 'DOCWASM_PAPER',
    key: 'paper',
    kind: 'paper',
    description:
      "paper of office documents that set none (a CSV, a sheet without page setup): a4 or letter (default: the locale's, from LC_ALL, LC_PAPER or LANG: letter in the US, Canada, Mexico and the other Letter countries, else a4)",
    appliesTo: ['documents'],
  },
  {
    flag: 'queue',
    env: 'DOCWASM_QUEUE',
    key: 'queue',
    kind: 'string',
    metavar: 'redis://HOST:PORT',
    description:
      'keep async jobs in a shared, durable queue on this Redis server (redis://[:password@]host:port[/db]), run by `docwasm worker` processes here or on other machines that see the same paths (default: jobs live in the service)',
    appliesTo: 'jobs',
  },
  {
    flag: 'no-local-worker',
    env: 'DOCWASM_NO_LOCAL_WORKER',
    key: 'noLocalWorker',
    kind: 'switch',
    description: "with --queue: accept jobs but leave them to the queue's workers",
    appliesTo: 'http',
  },
  {
    flag: 'job-attempts',
    env: 'DOCWASM_JOB_ATTEMPTS',
    key: 'jobAttempts',
    kind: 'int',
    description: 'with --queue: times a job may start; a worker that dies mid-job gives it to another, then it fails (default 3)',
    appliesTo: 'jobs',
  },
  {
    flag: 'webhook-secret',
    env: 'DOCWASM_WEBHOOK_SECRET',
    key: 'webhookSecret',
    kind: 'string',
    metavar: 'SECRET',
    description: "sign each job's callback: X-Docwasm-Signature: sha256=<HMAC-SHA256 of the body>",
    appliesTo: 'jobs',
  },
  {
    flag: 'webhook-allow',
    env: 'DOCWASM_WEBHOOK_ALLOW',
    key: 'webhookAllow',
    kind: 'list',
    repeatable: true,
    metavar: 'HOST[:PORT]',
    description: 'a callbackUrl may name this host (repeatable; default: loopback addresses only)',
    appliesTo: 'jobs',
  },
  {
    flag: 'document-sandbox',
    env: 'DOCWASM_DOCUMENT_SANDBOX',
    key: 'documentSandbox',
    kind: 'sandbox',
    description: 'how LibreOffice is confined: auto (default: bwrap, else namespace, else profile), bwrap, namespace or profile',
    appliesTo: ['documents'],
  },
];

export function defaultConfig(): Config {
  return {
    host: '127.0.0.1',
    port: 19873,
    token: undefined,
    allowDirs: [],
    allowOrigins: [],
    baseDir: process.cwd(),
    soffice: undefined,
    tessdata: undefined,
    workers: Math.max(1, os.availableParallelism()),
    pdfEngine: 'mupdf',
    maxPixels: 100_000_000,
    maxInputBytes: 1024 * 1024 * 1024,
    // 128 MiB: the non-image streams of real documents (content, fonts, forms) stay well below;
    // mupdf interprets the cheapest operators at ~2.6 MB/s here, so content under the budget
    // renders within the default time limit, and the check itself costs ~0.5 s.
    maxDecompressedBytes: 128 * 1024 * 1024,
    // Each page has the whole --timeout; 10,000 pages bound a job to minutes of rendering
    // (~20 ms a small page here) or hours of OCR, where 200,000 pages ran for 70 minutes.
    maxPages: 10_000,
    timeoutMs: 120_000,
    queueLimit: 64,
    idleTimeoutMs: 300_000,
    workerHeapMb: undefined,
    sofficeRecycleAfter: RECYCLE_AFTER.officeFiles,
    officeMemoryMb: 2048,
    // Half the machine's memory, at most 4 GB (the contract's default).
    memoryBudgetMb: Math.min(4096, Math.floor(os.totalmem() / (2 * 1024 * 1024))),
    headersTimeoutMs: 10_000,
    requestTimeoutMs: 30_000,
    jobRetentionMs: 600_000,
    documentSandbox: 'auto',
    documentBackend: 'auto',
    fontDirs: [],
    // Starts take 10–50 s on 2 busy cores and over 140 s on a machine loaded 20 deep.
    officeStartTimeoutMs: 240_000,
    trustCerts: [],
    trustRoots: [],
    paper: localePaper(process.env),
    queue: undefined,
    noLocalWorker: false,
    jobAttempts: 3,
    webhookSecret: undefined,
    webhookAllow: [],
  };
}

export class ConfigError extends Error {}

/** Builds a Config from parsed flag values (strings, or string arrays for repeatable flags) and env. */
export function resolveConfig(flags: Readonly<Record<string, string | string[] | boolean | undefined>>, env: NodeJS.ProcessEnv): Config {
  const config = { ...defaultConfig(), paper: localePaper(env) };
  const target = config as unknown as Record<string, unknown>;
  for (const spec of FLAGS) {
    const raw = flags[spec.flag] ?? env[spec.env];
    if (raw === undefined || raw === '') continue;
    target[spec.key] = parseValue(spec, raw);
  }
  config.baseDir = path.resolve(config.baseDir);
  config.allowDirs = config.allowDirs.map((dir) => path.resolve(config.baseDir, dir));
  config.fontDirs = config.fontDirs.map((dir) => path.resolve(config.baseDir, dir));
  for (const dir of config.fontDirs) if (!isDirectory(dir)) throw new ConfigError(`--font-dir ${dir} is not a directory`);
  config.trustCerts = config.trustCerts.map((file) => path.resolve(config.baseDir, file));
  config.trustRoots = config.trustCerts.flatMap(readTrustCertificates);
  return config;
}

function parseValue(spec: FlagSpec, raw: string | string[] | boolean): unknown {
  if (typeof raw === 'boolean') return raw;
  const values = Array.isArray(raw) ? raw : [raw];
  switch (spec.kind) {
    case 'list':
      return values.flatMap((v) => (Array.isArray(raw) ? [v] : v.split(path.delimiter))).filter((v) => v !== '');
    case 'int': {
      const value = Number(values.at(-1));
      if (!Number.isInteger(value) || value <= 0) throw new ConfigError(`--${spec.flag} must be a positive integer, got "${values.at(-1)}"`);
      if (spec.key === 'port' && value > 65535) throw new ConfigError('--port must be at most 65535');
      return value;
    }
    case 'seconds': {
      const value = Number(values.at(-1));
      if (!Number.isFinite(value) || value <= 0) throw new ConfigError(`--${spec.flag} must be a positive number of seconds, got "${values.at(-1)}"`);
      return Math.max(1, Math.round(value * 1000));
    }
    case 'engine': {
      const value = values.at(-1);
      if (value !== 'mupdf' && value !== 'cpdf') throw new ConfigError(`--pdf-engine must be mupdf or cpdf, got "${value}"`);
      return value;
    }
    case 'sandbox': {
      const value = values.at(-1);
      if (!SANDBOX_CHOICES.some((choice) => choice === value))
        throw new ConfigError(`--document-sandbox must be one of ${SANDBOX_CHOICES.join(', ')}, got "${value}"`);
      return value;
    }
    case 'backend': {
      const value = values.at(-1);
      if (!DOCUMENT_BACKENDS.some((choice) => choice === value))
        throw new ConfigError(`--document-backend must be one of ${DOCUMENT_BACKENDS.join(', ')}, got "${value}"`);
      return value;
    }
    case 'paper': {
      const value = values.at(-1);
      if (!PAPERS.some((choice) => choice === value)) throw new ConfigError(`--paper must be one of ${PAPERS.join(', ')}, got "${value}"`);
      return value;
    }
    case 'switch': {
      const value = String(values.at(-1)).toLowerCase();
      if (!['1', 'true', '0', 'false'].includes(value)) throw new ConfigError(`${spec.env} must be 1, true, 0 or false, got "${values.at(-1)}"`);
      return value === '1' || value === 'true';
    }
    case 'string':
      return values.at(-1);
  }
}

/** The certificates of a --trust-cert file: PEM, at least one, each one that parses. */
function readTrustCertificates(file: string): string[] {
  let text: string;
  try {
    text = readFileSync(file, 'latin1');
  } catch (err) {
    throw new ConfigError(`--trust-cert ${file} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'read error'})`);
  }
  const pems = text.match(/-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g) ?? [];
  if (pems.length === 0) throw new ConfigError(`--trust-cert ${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----)`);
  for (const pem of pems) {
    try {
      new X509Certificate(pem);
    } catch {
      throw new ConfigError(`--trust-cert ${file} holds a PEM block that is not a certificate`);
    }
  }
  return pems;
}

function isDirectory(dir: string): boolean {
  try {
    return statSync(dir).isDirectory();
  } catch {
    return false;
  }
}

/** A worker's V8 heap cap: the engine's own, lowered by --worker-heap-mb when set. */
export function workerHeapLimitMb(config: Config, engineCapMb: number | undefined): number | undefined {
  if (config.workerHeapMb === undefined || engineCapMb === undefined) return config.workerHeapMb ?? engineCapMb;
  return Math.min(config.workerHeapMb, engineCapMb);
}

/** The commands that take flags: the HTTP service, the MCP server, a one-shot operation on its engines. */
export type FlagDoor = { door: 'serve' | 'mcp' | 'worker' } | { door: 'one-shot'; engines: readonly EngineName[] };

/** The flags that change what `command` does, in FLAGS order. */
export function flagsFor(command: FlagDoor): FlagSpec[] {
  return FLAGS.filter(({ appliesTo }) => {
    if (appliesTo === undefined) return true;
    switch (command.door) {
      case 'serve':
        return true;
      case 'mcp':
        return appliesTo !== 'http' && appliesTo !== 'jobs';
      case 'worker':
        return appliesTo !== 'http';
      case 'one-shot':
        return appliesTo !== 'http' && appliesTo !== 'server' && appliesTo !== 'jobs' && appliesTo.some((engine) => command.engines.includes(engine));
    }
  });
}

export type FlagOptions = Record<string, { type: 'string' | 'boolean'; multiple: boolean }>;

/** The flags as `node:util` parseArgs options. */
export function flagOptions(flags: readonly FlagSpec[]): FlagOptions {
  return Object.fromEntries(
    flags.map((f) => [f.flag, { type: f.kind === 'switch' ? ('boolean' as const) : ('string' as const), multiple: Boolean(f.repeatable) }]),
  );
}

/** Builds the Config from the parsed values of `flags` (flags win over env, env over defaults). */
export function configFromFlags(values: Readonly<Record<string, unknown>>, flags: readonly FlagSpec[]): Config {
  const given = Object.fromEntries(flags.map((f) => [f.flag, values[f.flag] as string | string[] | boolean | undefined]));
  return resolveConfig(given, process.env);
}

export function flagHelpLines(flags: readonly FlagSpec[]): string[] {
  return flags.map((f) => helpLine(f.kind === 'switch' ? `--${f.flag}` : `--${f.flag} ${metavar(f)}`, `${f.description} [${f.env}]`));
}

/** One aligned line of a help text. */
export function helpLine(left: string, right: string): string {
  return `  ${left.padEnd(24)} ${right}`;
}

function metavar(flag: FlagSpec): string {
  if (flag.metavar !== undefined) return flag.metavar;
  if (flag.kind === 'engine') return 'mupdf|cpdf';
  if (flag.kind === 'sandbox') return 'MODE';
  if (flag.kind === 'backend') return 'auto|libreoffice|wasm';
  if (flag.kind === 'paper') return 'a4|letter';
  if (flag.kind === 'string' || flag.kind === 'list') return 'VALUE';
  return 'N';
}
