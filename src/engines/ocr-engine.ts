// The OCR capability: what docwasm needs from a text recogniser. An engine says what it is (name,
// version), which languages it has, and recognises one image file or one PDF page rendered in
// grey per call, each call one job under the job policy (its queue's BUSY, its deadline's
// TIMEOUT, the caller's cancel). The engine prepares its own language data and keeps its own
// margin before the deadline. tesseract-engine.ts implements it for the one OCR pool, whose
// workers read with PP-OCR (onnxruntime-web) or tesseract.js as the request's `engine` says.

import type { JobControl } from '../jobs/policy.js';
import type { FileRef } from '../../core/file-ref.js';
import type { OcrPageLayout } from '../../core/ocr-layout.js';
import type { GreyImage } from '../../wasm/ocr/pnm.js';
import type { OcrEngineChoice, OcrEngineName } from '../../wasm/ocr/worker.js';

/** What is read: an image file (decoded by the engine, within `maxPixels`) or a rendered page. */
export type OcrSource = { image: FileRef; maxPixels: number } | { page: GreyImage };

export interface OcrOptions {
  /** Installed language codes (from `parseLanguages`), in priority order. */
  codes: readonly string[];
  /** Also say where the words are (a searchable PDF needs it). */
  layout: boolean;
  /** Which recogniser reads (`auto` when absent): see `resolveEngine`. */
  engine?: OcrEngineChoice | undefined;
}

export interface OcrReading {
  text: string;
  /** 0–100. */
  confidence: number;
  /** Where the words are, when `layout` was asked for. */
  layout?: OcrPageLayout | undefined;
  /** The recogniser that produced the text. */
  engine: OcrEngineName;
}

export interface OcrEngine {
  readonly name: string;
  readonly version: string;
  /** Installed language codes. */
  readonly languages: readonly string[];
  /** `chi_sim+eng` → its installed codes in priority order; UNSUPPORTED_LANGUAGE names any other. */
  parseLanguages(language: string): string[];
  recognize(source: OcrSource, options: OcrOptions, control: JobControl): Promise<OcrReading>;
  close(): Promise<void>;
}

/**
 * `auto` reads with PP-OCR (tesseract for pages it finds mostly Latin) only when the languages
 * include Chinese, where tesseract is weak; otherwise with tesseract.
 */
export function resolveEngine(engine: OcrEngineChoice | undefined, codes: readonly string[]): OcrEngineChoice {
  const choice = engine ?? 'auto';
  return choice === 'auto' && !codes.some((code) => code.startsWith('chi_')) ? 'tesseract' : choice;
}
