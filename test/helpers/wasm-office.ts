// The WebAssembly office in tests: which document backends a suite runs against (the installed
// LibreOffice where there is one, LibreOffice in WebAssembly always), and waiting for a service's
// office to be up. Its start takes 10–60 s on 2 cores (minutes on a loaded machine), so a suite
// starts it once, in beforeAll, and its tests get a bound far above a warm conversion.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { expect } from 'vitest';
import { bundledCjkFonts, wasmOfficeProfile } from '../../src/documents/profile.js';
import { WasmOffice } from '../../src/wasm-office/wasm-office.js';
import { OFFICE_V8_FLAGS, officeV8Flags } from '../../src/wasm-office/wasm-office-engine.js';
import { findWasmOffice } from '../../core/wasm-office-package.js';
import { startOffice } from '../../src/wasm-office/wasm-office-start.js';
import { DOCUMENT_FIXTURES, isAlive, officeProcessesOf, pdfText, TEXT_LINE } from './documents.js';
import type { RunningService } from './service.js';
import { SOFFICE } from './soffice.js';

/** Bound of a test or hook that may wait for a WebAssembly office's start (a hang detector only). */
export const WASM_TEST_TIMEOUT_MS = 900_000;

export type BackendUnderTest = 'libreoffice' | 'wasm';

export function backendsUnderTest(): BackendUnderTest[] {
  return fs.existsSync(SOFFICE) ? ['libreoffice', 'wasm'] : ['wasm'];
}

interface DocumentHealth {
  backend?: string;
  state?: string;
}

export async function documentHealth(service: RunningService): Promise<DocumentHealth> {
  return (await service.get('/api/health')).body.data?.document as DocumentHealth;
}

/** Waits until the service's WebAssembly office is ready (at once for the installed one, which starts with its first file). */
export async function waitForOfficeReady(service: RunningService, timeoutMs = WASM_TEST_TIMEOUT_MS - 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const health = await documentHealth(service);
    if (health.backend !== 'libreoffice-wasm' || health.state === 'ready') return;
    // The service's own log says why (its start attempts and their errors).
    expect(Date.now(), `the WebAssembly office did not become ready; the service said:\n${service.stderr().slice(-4000)}`).toBeLessThan(deadline);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** What one start → convert → stop round of a bare WebAssembly office took. */
export interface OfficeRound {
  startMs: number;
  convertMs: number;
  /** Starts found deadlocked by the office's start watch and replaced, as the service does. */
  stalledStarts: number;
}

/** Generous: 10–60 s here on 2 cores; the bound only tells a hang from a slow start. */
const START_BOUND_MS = 240_000;

/**
 * Round `run` of the start test (docs/documents-backend.md, "never deadlocks"): starts a bare
 * office as the service does (startOffice: bounded, a failed start stopped and tried again, at
 * most START_ATTEMPTS), every office pushed on `started` for the caller's cleanup; only starts
 * the office's own watch found deadlocked may fail. Converts the docx fixture to PDF (checked
 * with pdftotext) and a font sample; stops the office and checks that its process is gone.
 */
export async function startConvertStop(run: number, dir: string, started: WasmOffice[]): Promise<OfficeRound> {
  const found = findWasmOffice();
  if (!found.found) throw new Error(`the WebAssembly office must be installed for these tests: ${found.reason}`);
  const { files } = found;
  const docx = fs.readFileSync(path.join(DOCUMENT_FIXTURES, 'text-docx.docx'));
  const begun = performance.now();
  const settings = {
    entry: files.entry,
    wasmDir: files.wasmDir,
    glue: files.glue,
    fonts: bundledCjkFonts(),
    cjkFaces: bundledCjkFonts(),
    profile: wasmOfficeProfile(),
  };
  const failures: string[] = [];
  // The flags the service starts its office with, so that this test starts the office it runs.
  const start = await startOffice(settings, await officeV8Flags(), {
    timeoutMs: START_BOUND_MS,
    launched: (office) => started.push(office),
    failed: (_, message) => failures.push(message),
  });
  expect(
    failures.filter((message) => !/deadlocked/.test(message)),
    `start ${run}: failures other than a deadlock`,
  ).toEqual([]);
  expect(start, `start ${run}: every attempt failed: ${failures.join('; ')}`).toBeDefined();
  const office = start?.office as WasmOffice;
  const ready = performance.now();
  // It runs with the engine flags the service gives its office (wasm-office-engine.ts).
  const args = officeProcessesOf(process.pid).find((running) => running.pid === office.pid)?.args ?? '';
  for (const flag of OFFICE_V8_FLAGS) expect(args).toContain(` ${flag} `);
  const reply = await office.convert({ bytes: docx, extension: 'docx', name: 'report', format: 'pdf' });
  const convertMs = Math.round(performance.now() - ready);
  expect(reply.kind, JSON.stringify(reply.kind === 'converted' ? '' : reply)).toBe('converted');
  if (reply.kind !== 'converted') throw new Error('unreachable');
  const pdf = path.join(dir, `run-${run}.pdf`);
  fs.writeFileSync(pdf, reply.bytes);
  expect(pdfText(pdf)).toContain(TEXT_LINE);
  await expectFontAliases(office, path.join(dir, `fonts-${run}.pdf`));
  const pid = office.pid as number;
  await office.stop();
  expect(isAlive(pid)).toBe(false);
  return { startMs: Math.round(ready - begun), convertMs, stalledStarts: failures.length };
}

/**
 * Each pair: a family the office lacks, and the face its fontconfig aliases should set it in
 * (profile.ts, WASM_FONT_ALIASES) named directly — the same word in both must come out the same
 * width (pdftotext's boxes). Without the aliases every family of the first column fell back to
 * Noto Serif.
 */
const ALIASED_FAMILIES = [
  ['Times', 'Liberation Serif'],
  ['Helvetica', 'Liberation Sans'],
  ['Courier', 'Liberation Mono'],
  ['Consolas', 'DejaVu Sans Mono'],
  ['Verdana', 'Noto Sans'],
] as const;
const SAMPLE_WORD = 'Hamburgefonstiv';

/** Converts one line a family (each lacking family, then its face) and compares the widths. */
async function expectFontAliases(office: WasmOffice, pdf: string): Promise<void> {
  const families: readonly string[] = ALIASED_FAMILIES.flat();
  const table = families.map((family, i) => `{\\f${i}\\fnil ${family};}`).join('');
  const lines = families.map((_, i) => `{\\f${i} ${SAMPLE_WORD}\\par}`).join('\n');
  const rtf = `{\\rtf1\\ansi{\\fonttbl${table}}\n${lines}}\n`;
  const reply = await office.convert({ bytes: Buffer.from(rtf), extension: 'rtf', name: 'fonts', format: 'pdf' });
  if (reply.kind !== 'converted') throw new Error(`the font sample did not convert: ${JSON.stringify(reply)}`);
  fs.writeFileSync(pdf, reply.bytes);
  // One line a family, top to bottom in pdftotext's order.
  const boxes = execFileSync('pdftotext', ['-bbox', pdf, '-'])
    .toString()
    .matchAll(/xMin="([\d.]+)"[^>]*xMax="([\d.]+)"[^>]*>([^<]+)</g);
  const widths = [...boxes].filter((m) => m[3] === SAMPLE_WORD).map((m) => Number(m[2]) - Number(m[1]));
  expect(widths).toHaveLength(families.length);
  const widthOf = (family: string) => widths[families.indexOf(family)] ?? Number.NaN;
  for (const [missing, face] of ALIASED_FAMILIES) expect(widthOf(missing), `${missing} is set in ${face}`).toBeCloseTo(widthOf(face), 1);
  // The faces differ from one another, so equal widths above mean the aliases, not one fallback.
  expect(new Set(ALIASED_FAMILIES.map(([, face]) => widthOf(face).toFixed(1))).size).toBe(ALIASED_FAMILIES.length);
}
