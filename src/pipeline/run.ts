// Runs a checked pipeline plan through the operations core: each step is the operation itself
// (same validation, engines, limits and error codes), given its input(s) and an output in the
// run's private work dir. A step that takes many files gets all the items at once; a step that
// takes one runs once per item, and a step that makes many feeds each of them on. Only at the
// end are results written to `output`/`outputDir`: by the last step itself when it runs once
// (staged by the operation, as always), else all staged beside their targets and renamed
// together; the work dir goes whatever happens.

import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ApiError } from '../../core/errors.js';
import { mapBounded } from '../jobs/bounded.js';
import { extensionOf, fileStem, resolveInputPath, resolveOutputPath, type PathPolicy } from '../files/paths.js';
import { copyToStaged, withStagedOutputs } from '../files/staging.js';
import { CancelledError } from '../../core/job-errors.js';
import type { OperationContext, OperationResult } from '../operations/operation.js';
import { validateInput } from '../operations/validate.js';
import type { FileRef } from '../../core/file-ref.js';
import { ChainProgress } from './progress.js';
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

export async function runPipeline(plan: PipelinePlan, context: OperationContext): Promise<OperationResult> {
  const { paths } = context;
  // The user's paths go through the caller's policy before any work.
  const inputs = await mapBounded(plan.inputs, async (raw) => (await resolveInputPath(paths, raw)).path);
  const final: FinalPlace =
    plan.output === undefined
      ? { outputDir: await resolveOutputPath(paths, plan.outputDir as string) }
      : { output: await resolveOutputPath(paths, plan.output) };
  const work = lazyWorkspace(paths);
  try {
    const progress = new ChainProgress(plan.steps, inputs.length, context.progress);
    let items: Item[] = inputs.map((input) => ({ path: input, stem: fileStem(input) }));
    let publishedByStep = false;
    const reports: Record<string, unknown>[] = [];
    for (const step of plan.steps) {
      throwIfCancelled(context);
      // A last step that runs once writes the user's output itself (staged by the operation);
      // one that runs per item writes to the work dir, and its files are published together.
      publishedByStep = step === plan.steps.at(-1) && (step.takesMany || items.length === 1);
      const run = await runStep(step, items, { work, context, progress, final: publishedByStep ? final : undefined });
      progress.stepDone(step.number, run.items.length);
      items = run.items;
      reports.push(run.report);
    }
    throwIfCancelled(context);
    const published = publishedByStep ? items.map((item) => item.path) : await publishMany(items, final.outputDir as string, context);
    const shown = new Map(items.map((item, i) => [item.path, published[i] as string]));
    const dir = work.current()?.dir;
    return {
      message: `Ran ${plan.steps.length} step(s): ${plan.steps.map((s) => s.operation.id).join(' → ')}`,
      outputPath: final.output ?? final.outputDir,
      data: {
        steps: reports.map((report) => (dir === undefined ? report : withPathsShown(report, dir, shown))),
        ...(final.outputDir !== undefined && { files: published }),
      },
    };
  } finally {
    await work.current()?.remove();
  }
}

/** Where the pipeline's results go: the user's paths, checked against the caller's policy. */
interface FinalPlace {
  output?: string;
  outputDir?: string;
}

/** The work dir, made when a step first needs one (a one-step pipeline needs none). */
function lazyWorkspace(paths: PathPolicy): { get(): Promise<Workspace>; current(): Workspace | undefined } {
  let opened: Promise<Workspace> | undefined;
  let workspace: Workspace | undefined;
  return {
    get: () => (opened ??= openWorkspace(paths).then((w) => (workspace = w))),
    current: () => workspace,
  };
}

interface StepSetting {
  work: ReturnType<typeof lazyWorkspace>;
  context: OperationContext;
  progress: ChainProgress;
  /** Set for a last step that writes the results itself. */
  final: FinalPlace | undefined;
}

async function runStep(step: PlannedStep, items: readonly Item[], { work, context, progress, final }: StepSetting): Promise<StepRun> {
  const started = performance.now();
  const workspace = final ? work.current() : await work.get();
  // Steps read (and but for a last one, write) the work dir; a one-step pipeline has none.
  const stepContext: OperationContext = { ...context, paths: workspace?.policy ?? context.paths };
  const invoke = async (inputs: readonly Item[], index: number, stop?: AbortSignal): Promise<{ items: Item[]; data: Record<string, unknown> | undefined }> => {
    throwIfCancelled(context);
    // The step's own items (an OCR step's pages) move the pipeline's progress as they are done.
    const run = progress.startRun(step.number, index);
    const signal = stop ? (context.signal ? AbortSignal.any([context.signal, stop]) : stop) : context.signal;
    const runContext: OperationContext = { ...stepContext, signal, progress: run.update };
    const first = inputs[0] as Item;
    // With `output`, the step makes one file: its dir is not used.
    const dir = final ? (final.outputDir ?? path.dirname(final.output as string)) : (workspace as Workspace).dirFor(step.number, index);
    const output = final?.output ?? path.join(dir, `${first.stem}.${step.extension ?? extensionOf(first.path)}`);
    const request = {
      ...step.fields,
      ...stepPaths(
        step,
        inputs.map((i) => i.path),
        output,
        dir,
      ),
    };
    const result = await step.operation.run(validateInput(step.operation.input, request), runContext).catch((err: unknown) => {
      // Unexpected errors go on as they are, to be reported with their stack where they end.
      throw err instanceof ApiError ? inStep(err, `step ${step.number} (${step.operation.id})`) : err;
    });
    run.done();
    return {
      items: step.makesMany ? filesOf(result).map((file) => ({ path: file, stem: fileStem(file) })) : [{ path: output, stem: first.stem }],
      data: result.data,
    };
  };
  // Items run a few at a time: each holds engine workers, and the engines' queues are bounded.
  const runs = step.takesMany
    ? [await invoke(items, 0)]
    : await mapBounded(items, (item, i, stop) => invoke([item], i, stop), Math.max(1, context.config.workers), { signal: context.signal });
  const durationMs = Math.round(performance.now() - started);
  const report = runs.length === 1 ? { ...runs[0]?.data } : { items: runs.map((run) => run.data ?? {}) };
  return { items: runs.flatMap((run) => run.items), report: { operation: step.operation.id, durationMs, ...report } };
}

/** The files a many-output step made (`data.files`, as split and to-images answer). */
function filesOf(result: OperationResult): string[] {
  const files = result.data?.files;
  if (!Array.isArray(files) || !files.every((f): f is string => typeof f === 'string'))
    throw new ApiError('INTERNAL_ERROR', 'A step that writes several files did not list them');
  return files;
}

function throwIfCancelled(context: OperationContext): void {
  if (context.signal?.aborted) throw new CancelledError();
}

/** Every result into `dir` under its own name, all staged first, then renamed together. */
async function publishMany(items: readonly Item[], dir: string, context: OperationContext): Promise<string[]> {
  const targets = items.map((item) => path.join(dir, path.basename(item.path)));
  const duplicate = targets.find((target, i) => targets.indexOf(target) !== i);
  if (duplicate !== undefined) throw new ApiError('VALIDATION_ERROR', `Two results of the pipeline would both be written to ${duplicate}`);
  await withStagedOutputs(context.paths, targets, (temps) =>
    mapBounded(items, (item, i) => copyToStaged(item.path, temps[i] as FileRef, targets[i] as string)),
  );
  return targets;
}

/** A step's data names files of the work dir: the published ones by their final path, the others by their name alone. */
function withPathsShown(value: unknown, dir: string, published: ReadonlyMap<string, string>): Record<string, unknown> {
  const show = (v: unknown): unknown => {
    if (typeof v === 'string' && v.startsWith(dir + path.sep)) return published.get(v) ?? path.basename(v);
    if (Array.isArray(v)) return v.map(show);
    if (v !== null && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, inner]) => [k, show(inner)]));
    return v;
  };
  return show(value) as Record<string, unknown>;
}
