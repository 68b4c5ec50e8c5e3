// One document through a warm office — the soffice output protocol and delivery. The document
// is staged alone (see office-staging.ts), a short-lived `soffice --convert-to` launcher forwards
// the command line to the warm office, the office's output lines say how far it got, and the
// product is moved to the job's output. One document per invocation: an office never has two
// documents in view, so no document can read another's parts or product.

import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { ApiError } from '../../core/errors.js';
import type { FileRef } from '../../core/file-ref.js';
import type { ShutdownGate } from '../jobs/shutdown-gate.js';
import { failedOutcome, type ConversionOutcome } from '../documents/backend.js';
import { ConversionWatch, deliverProduct, officeOutcomes, type StopReason } from '../documents/conversion-watch.js';
import type { MemoryCeiling } from './office-memory.js';
import { isCompleteProduct } from './office-product.js';
import { spawnOffice } from './office-spawn.js';
import { stageDocument, type StagedDocument } from './office-staging.js';
import { copyToStaged } from '../files/staging.js';
import { exited, killGroup } from './process-group.js';

export interface SlotJob {
  input: FileRef;
  extension: string;
  format: string;
  output: FileRef;
  outputShown: string;
  shownName: string;
}

/** `retry`: the file was not converted for a reason of the office's (cancelled request, office gone), not its own. */
export type SlotOutcome = ConversionOutcome | { retry: true };

export interface Invocation {
  convertTo: string;
  infilter?: string | undefined;
  job: SlotJob;
  /** Aborted when the request behind this file was cancelled: the office is stopped and replaced. */
  signal?: AbortSignal | undefined;
}

/** What the slot lends an invocation: its warm office and the means to hear and stop it. */
export interface WarmOffice {
  soffice: string;
  slotDir: string;
  profileUrl: string;
  env: NodeJS.ProcessEnv;
  instance: ChildProcess;
  memory: MemoryCeiling | undefined;
  /** Receives the warm office's output lines (undefined: stop listening). */
  listen: (listener: ((line: string) => void) | undefined) => void;
  /** Remembers the running launcher so that stopping the office stops it too. */
  launched: (launcher: ChildProcess | undefined) => void;
  /** Kills the warm office (and launcher); the slot starts a new one. */
  stop: () => void;
  /** The backend's: closed once the service shuts down; words the BUSY of a file it cut short. */
  gate: ShutdownGate;
}

type InvocationEnd = 'done' | 'crashed' | StopReason;

interface Progress {
  end: InvocationEnd;
  /** The office printed its "convert … using filter" line: the document loaded. */
  loaded: boolean;
  /** An Error line followed it: storing failed. */
  storeFailed: boolean;
  /** The office had reserved most of its memory ceiling. */
  memoryExhausted: boolean;
}

const CONVERT_LINE = /^convert .+ -> .+ using filter/;

/** Converts one document; `replace` when the office had to be stopped. */
export async function convertInOffice(office: WarmOffice, invocation: Invocation, timeoutMs: number): Promise<{ outcome: SlotOutcome; replace: boolean }> {
  let staged: StagedDocument;
  try {
    staged = await stageDocument(office.slotDir, invocation.job);
  } catch (err) {
    // The input itself was refused (gone, not a regular file, swapped): its outcome, not the office's fault.
    if (err instanceof ApiError) return { outcome: failedOutcome(err), replace: false };
    throw err;
  }
  try {
    const progress = await runLauncher(office, invocation, staged, timeoutMs);
    if (progress.end !== 'done') office.stop();
    return { outcome: await judge(progress, staged, invocation.job, timeoutMs, office), replace: progress.end !== 'done' };
  } finally {
    await fs.rm(staged.hostDir, { recursive: true, force: true }).catch(() => undefined);
  }
}

function runLauncher(office: WarmOffice, invocation: Invocation, staged: StagedDocument, timeoutMs: number): Promise<Progress> {
  const { instance, memory } = office;
  const progress: Progress = { end: 'done', loaded: false, storeFailed: false, memoryExhausted: false };
  let finish: (end: InvocationEnd) => void = () => {};
  const ending = new Promise<InvocationEnd>((resolve) => (finish = resolve));
  const args = [`-env:UserInstallation=${office.profileUrl}`, '--headless', '--norestore', '--nologo', '--convert-to', invocation.convertTo];
  if (invocation.infilter) args.push(`--infilter=${invocation.infilter}`);
  args.push('--outdir', staged.officeOutDir, staged.officeInput);
  office.listen((line) => {
    if (CONVERT_LINE.test(line)) progress.loaded = true;
    // A load failure prints "source file could not be loaded" and no convert line; an Error after the convert line is a failed store.
    else if (line.startsWith('Error:') && progress.loaded) progress.storeFailed = true;
  });
  let launcher: ChildProcess;
  try {
    launcher = spawnOffice({ soffice: office.soffice, args, slotDir: office.slotDir, stdio: 'ignore', extraEnv: office.env, memory });
  } catch (err) {
    office.listen(undefined);
    throw err;
  }
  // One document per invocation, so the invocation's deadline is the document's: --timeout from the launch, whatever the office prints meanwhile.
  const watch = new ConversionWatch({
    timeoutMs,
    signal: invocation.signal,
    memory: memory && instance.pid !== undefined ? { pgid: instance.pid, bytes: memory.bytes } : undefined,
    stop: finish,
  });
  office.launched(launcher);
  void exited(launcher).then(() => finish('done'));
  // A listener of our own, removed below: the office lives through many invocations.
  const onInstanceExit = () => finish('crashed');
  if (instance.exitCode !== null || instance.signalCode !== null) onInstanceExit();
  else instance.once('exit', onInstanceExit);

  return ending.then(async (end) => {
    instance.off('exit', onInstanceExit);
    const { memoryExhausted } = watch.end();
    killGroup(launcher);
    office.launched(undefined);
    // Let the office's last lines (an Error for the file) arrive before judging.
    await new Promise((resolve) => setTimeout(resolve, end === 'done' ? 5 : 0));
    office.listen(undefined);
    return { ...progress, end, memoryExhausted };
  });
}

async function judge(progress: Progress, staged: StagedDocument, job: SlotJob, timeoutMs: number, office: WarmOffice): Promise<SlotOutcome> {
  const { end } = progress;
  if (end === 'cancelled') return { retry: true };
  if (end === 'too-large') return officeOutcomes.tooLarge(job.shownName, office.memory?.bytes);
  const product = progress.storeFailed ? undefined : await producedFile(staged.hostOutDir);
  // A timeout or crash after the product was written (the launcher hung on exit) still delivers it,
  // but only a product whose bytes show it whole: the office writes in place, so a stop in the
  // middle of its export leaves the beginning of a file there.
  if (product !== undefined && (end === 'done' || (await isCompleteProduct(product)))) return deliver(product, job);
  if (office.gate.isClosed) return failedOutcome(office.gate.error(`converting ${job.shownName}`));
  if (end !== 'timeout' && progress.memoryExhausted) return officeOutcomes.tooLarge(job.shownName, office.memory?.bytes);
  if (end === 'timeout') return officeOutcomes.timedOut(job.shownName, timeoutMs);
  if (end === 'crashed') return officeOutcomes.crashed(job.shownName);
  return officeOutcomes.rejected(job.shownName);
}

/** The one non-empty file the office wrote into the document's output dir. */
async function producedFile(outDir: string): Promise<string | undefined> {
  const names = await fs.readdir(outDir).catch(() => [] as string[]);
  for (const name of names) {
    const file = path.join(outDir, name);
    if (((await fs.stat(file).catch(() => undefined))?.size ?? 0) > 0) return file;
  }
  return undefined;
}

/** Copies a produced file into the job's staged output, as the file that was staged. */
function deliver(produced: string, job: SlotJob): Promise<SlotOutcome> {
  return deliverProduct(job.outputShown, () => copyToStaged(produced, job.output, job.outputShown));
}
