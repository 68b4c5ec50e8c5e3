// When an engine is replaced by a fresh one: the one table of recycle rules. A WASM heap never
// shrinks, so after a job this large only a new worker (or office) gives the memory back. Workers
// read the thresholds and ask for replacement in their task outcome; the job policy acts on it.

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
  /** Files one LibreOffice process converts before it is replaced (default of --office-recycle-after). */
  officeFiles: 200,
} as const;
