// Runs a checked pipeline plan through the operations core: each step is the operation itself
// (same validation, engines, limits and error codes), given its input(s) and an output in the
// run's private work dir. A step that takes many files gets all the items at once; a step that
// takes one runs once per item, and a step that makes many feeds each of them on. Only at the
// end are the last step's files published to `output`/`outputDir`, all staged beside their
// targets and renamed together; the work dir goes whatever happens.

import { createReadStream } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pipeline as pipeStreams } from 'node:stream/promises';
import { ApiError } from '../errors.js';
import { mapBounded } from '../files/bounded.js';
import { extensionOf, fileStem, resolveInputPath, resolveOutputPath } from '../files/paths.js';
import { openStaged, outputError, stageOutput, withStagedOutputs, type StagedOutput } from '../files/staging.js';
import { CancelledError } from '../jobs/policy.js';
import type { OperationContext, OperationResult } from '../operations/operation.js';
import { validateInput } from '../operations/validate.js';
import type { FileRef } from '../shared/file-ref.js';
import { inStep, stepPaths, type PipelinePlan, type PlannedStep } from './plan.js';
import { openWorkspace, type Workspace } from './workspace.js';

/** A file between two steps. */
interface Item {
  path: string;
  /** The name its results are given (the user's input's stem, or a part's: report_1). */
  stem: string;
}

interface StepRun {
  items: Item[];
  report: Record<string, unknown>;
}

/** Counts steps × items done; the total grows when a step makes several files of one. */
class ChainProgress {
  private done = 0;
  private total: number;

  constructor(
    private readonly steps: number,
    items: number,
    private readonly report: OperationContext['progress'],
  ) {
    this.total = steps * items;
  }

  /** After step `number` (from 1) made `items` for the steps after it. */
  replan(number: number, items: number): void {
    this.total = Math.max(this.total, this.done + (this.steps - number) * items);
  }

  itemDone(): void {
    this.done += 1;
    this.report?.(this.done, Math.max(this.total, this.done));
  }
}

export async function runPipeline(plan: PipelinePlan, context: OperationContext): Promise<OperationResult> {
  const { paths } = context;
  // The user's paths go through the caller's policy before any work.
  const inputs = await mapBounded(plan.inputs, async (raw) => (await resolveInputPath(paths, raw)).path);
  const outputDir = plan.outputDir === undefined ? undefined : await resolveOutputPath(paths, plan.outputDir);
  const staged = plan.output === undefined ? undefined : await stageOutput(paths, await resolveOutputPath(paths, plan.output));
  let workspace: Workspace | undefined;
  try {
    workspace = await openWorkspace(paths);
    const progress = new ChainProgress(plan.steps.length, inputs.length, context.progress);
    let items: Item[] = inputs.map((input) => ({ path: input, stem: fileStem(input) }));
    const reports: Record<string, unknown>[] = [];
    for (const step of plan.steps) {
      throwIfCancelled(context);
      const run = await runStep(step, items, workspace, context, progress);
      progress.replan(step.number, run.items.length);
      items = run.items;
      reports.push(run.report);
    }
    throwIfCancelled(context);
    const published = staged ? await publishOne(items, staged) : await publishMany(items, outputDir as string, context);
    const mapped = new Map(items.map((item, i) => [item.path, published[i] as string]));
    return {
      message: `Ran ${plan.steps.length} step(s): ${plan.steps.map((s) => s.operation.id).join(' → ')}`,
      outputPath: staged ? staged.target : outputDir,
      data: { steps: reports.map((report) => withPathsShown(report, workspace as Workspace, mapped)), ...(outputDir !== undefined && { files: published }) },
    };
  } finally {
    await staged?.discard();
    await workspace?.remove();
  }
}

async function runStep(step: PlannedStep, items: readonly Item[], workspace: Workspace, context: OperationContext, progress: ChainProgress): Promise<StepRun> {
  const started = performance.now();
  const stepContext: OperationContext = { ...context, paths: workspace.policy, progress: undefined };
  const invoke = async (inputs: readonly Item[], index: number): Promise<{ items: Item[]; data: Record<string, unknown> | undefined }> => {
    throwIfCancelled(context);
    const first = inputs[0] as Item;
    const dir = workspace.dirFor(step.number, index);
    const output = path.join(dir, `${first.stem}.${step.extension ?? extensionOf(first.path)}`);
    const request = { ...step.fields, ...stepPaths(step, inputs.map((i) => i.path), output, dir) };
    const result = await step.operation.run(validateInput(step.operation.input, request), stepContext).catch((err: unknown) => {
      // Unexpected errors go on as they are, to be reported with their stack where they end.
      throw err instanceof ApiError ? inStep(err, `step ${step.number} (${step.operation.id})`) : err;
    });
    progress.itemDone();
    return { items: step.makesMany ? filesOf(result).map((file) => ({ path: file, stem: fileStem(file) })) : [{ path: output, stem: first.stem }], data: result.data };
  };
  // Items run a few at a time: each holds engine workers, and the engines' queues are bounded.
  const runs = step.takesMany ? [await invoke(items, 0)] : await mapBounded(items, (item, i) => invoke([item], i), Math.max(1, context.config.workers));
  const durationMs = Math.round(performance.now() - started);
  const report = runs.length === 1 ? { ...runs[0]?.data } : { items: runs.map((run) => run.data ?? {}) };
  return { items: runs.flatMap((run) => run.items), report: { operation: step.operation.id, durationMs, ...report } };
}

/** The files a many-output step made (`data.files`, as split and to-images answer). */
function filesOf(result: OperationResult): string[] {
  const files = result.data?.files;
  if (!Array.isArray(files) || !files.every((f): f is string => typeof f === 'string')) throw new ApiError('INTERNAL_ERROR', 'A step that writes several files did not list them');
  return files;
}

function throwIfCancelled(context: OperationContext): void {
  if (context.signal?.aborted) throw new CancelledError();
}

/** The one result into the output staged at the start. */
async function publishOne(items: readonly Item[], staged: StagedOutput): Promise<string[]> {
  if (items.length !== 1) throw new ApiError('INTERNAL_ERROR', `The pipeline made ${items.length} files for one output`);
  await copyInto((items[0] as Item).path, staged.temp, staged.target);
  await staged.commit();
  return [staged.target];
}

/** Every result into `dir` under its own name, all staged first, then renamed together. */
async function publishMany(items: readonly Item[], dir: string, context: OperationContext): Promise<string[]> {
  const targets = items.map((item) => path.join(dir, path.basename(item.path)));
  const duplicate = targets.find((target, i) => targets.indexOf(target) !== i);
  if (duplicate !== undefined) throw new ApiError('VALIDATION_ERROR', `Two results of the pipeline would both be written to ${duplicate}`);
  await withStagedOutputs(context.paths, targets, (temps) => mapBounded(items, (item, i) => copyInto(item.path, temps[i] as FileRef, targets[i] as string)));
  return targets;
}

async function copyInto(source: string, temp: FileRef, target: string): Promise<void> {
  const handle = await openStaged(temp, target);
  await pipeStreams(createReadStream(source), handle.createWriteStream()).catch((err: unknown) => {
    throw outputError(err, target);
  });
}

/** A step's data names files of the work dir: the published ones by their final path, the others by their name alone. */
function withPathsShown(value: unknown, workspace: Workspace, published: ReadonlyMap<string, string>): Record<string, unknown> {
  const show = (v: unknown): unknown => {
    if (typeof v === 'string' && v.startsWith(workspace.dir + path.sep)) return published.get(v) ?? path.basename(v);
    if (Array.isArray(v)) return v.map(show);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, inner]) => [k, show(inner)]));
    return v;
  };
  return show(value) as Record<string, unknown>;
}
