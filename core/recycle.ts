// When an engine is replaced by a fresh one: the one table of recycle rules, and the meter that
// applies them. A WASM heap never shrinks, so after a job this large only a new worker (or
// office) gives the memory back. Workers read the thresholds and ask for replacement in their
// task outcome; the job policy acts on it. Kept free of Node-only imports beyond `process`: the
// meter runs inside worker threads (the OCR engine's warm tesseract.js workers) and on the main
// side (LibreOffice's offices) alike.

export const RECYCLE_AFTER = {
  /** PDF jobs whose inputs add up to more than this. */
  pdfInputBytes: 64 * 1024 * 1024,
  /** Image jobs decoding more pixels than this (~100 MB of RGBA). */
  imagePixels: 24_000_000,
  /** OCR of an image this large (tesseract's and the decoder's heaps). */
  ocrImagePixels: 20_000_000,
  /** Jobs one warm tesseract.js worker serves before it is replaced. */
  ocrJobs: 40,
  /** OCR threads whose process grew past this resident size. */
  ocrRssBytes: 3 * 1024 ** 3,
  /** Files one LibreOffice process converts before it is replaced (default of --soffice-recycle-after). */
  officeFiles: 200,
} as const;

/** The limits one engine instance is replaced at; each is optional. */
export interface RecycleLimits {
  /** Jobs (or files) served. */
  jobs?: number | undefined;
  /** One job at least this large (bytes read, pixels decoded). */
  jobSize?: number | undefined;
  /** The process's resident memory above this after a job. */
  rssBytes?: number | undefined;
}

/** What one finished job tells the meter. */
export interface JobRecord {
  /** Jobs (or files) it counts for; default 1. */
  count?: number;
  /** Its size in the unit of `jobSize`. */
  size?: number;
  /** It failed in a way that leaves the instance in doubt (a stall, a crash): replace it. */
  failed?: boolean;
}

/** Counts one engine instance's jobs and says when it is due for replacement. */
export class RecycleMeter {
  private served = 0;

  constructor(
    private readonly limits: RecycleLimits,
    private readonly residentBytes: () => number = () => process.memoryUsage.rss(),
  ) {}

  /** Records a finished job; true once the instance should be replaced (the count then starts again). */
  record({ count = 1, size = 0, failed = false }: JobRecord = {}): boolean {
    this.served += count;
    const { jobs, jobSize, rssBytes } = this.limits;
    const due = failed || reached(this.served, jobs) || reached(size, jobSize) || (rssBytes !== undefined && this.residentBytes() > rssBytes);
    if (due) this.served = 0;
    return due;
  }
}

const reached = (value: number, limit: number | undefined) => limit !== undefined && value >= limit;
