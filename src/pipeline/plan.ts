// The whole chain of a pipeline, checked before any work: each step an operation that reads
// and writes files (src/operations/file-kinds.ts), each step reading the kind the one before
// writes, its fields valid for that operation's own schema (with the paths the pipeline will
// give it), and the last step's outputs fitting `output` or `outputDir`. Any problem is a
// VALIDATION_ERROR naming the step, counted from 1.

import { z } from 'zod';
import { ApiError, toApiError } from '../../core/errors.js';
import { fileStem } from '../files/paths.js';
import { formatOfOutput } from '../operations/fields.js';
import { FILE_FLOWS, kindOfExtension, readsOf, type FileFlow } from '../operations/file-kinds.js';
import { extensionOfKind, type FileKind } from '../../core/input-formats.js';
import type { Operation } from '../operations/operation.js';
import { unknownFields, unknownFieldWarning } from '../operations/unknown-fields.js';
import { validateInput } from '../operations/validate.js';

export interface StepBody {
  operation: string;
  format?: string | undefined;
  [field: string]: unknown;
}

export interface PipelineBody {
  input?: string | undefined;
  files?: string[] | undefined;
  steps: StepBody[];
  output?: string | undefined;
  outputDir?: string | undefined;
}

export interface PlannedStep {
  /** Counted from 1, as messages show it. */
  number: number;
  operation: Operation;
  /** Takes `files` (all items at once) rather than `input` (one run per item). */
  takesMany: boolean;
  /** Writes `outputDir` (several files) rather than `output`. */
  makesMany: boolean;
  /** The step's own fields, as its operation's schema takes them (paths left out). */
  fields: Record<string, unknown>;
  /** The extension of its one output; undefined when it keeps its input's (image/compress) or makes many. */
  extension: string | undefined;
  /** The kinds of file it reads, with its format chosen (convert to md reads PDFs, HTML, images). */
  reads: readonly FileKind[];
  kind: FileKind;
  /** Its fields its operation does not know, as warnings naming the step. */
  warnings: string[];
}

export interface PipelinePlan {
  steps: PlannedStep[];
  /** The steps' warnings, in step order: a success answer carries them. */
  warnings: string[];
  /** The user's inputs, as named. */
  inputs: string[];
  output: string | undefined;
  outputDir: string | undefined;
}

/** Paths a step is given by the pipeline, never by its own fields. */
const PATH_FIELDS = ['input', 'files', 'output', 'outputDir'] as const;

export function planPipeline(body: PipelineBody, operations: readonly Operation[]): PipelinePlan {
  if ((body.input === undefined) === (body.files === undefined)) throw invalid('give either input or files (not both)');
  if ((body.output === undefined) === (body.outputDir === undefined)) throw invalid('give either output or outputDir (not both)');
  const inputs = body.files ?? [body.input as string];
  const steps: PlannedStep[] = [];
  let several = inputs.length > 1;
  for (const [index, stepBody] of body.steps.entries()) {
    const isLast = index === body.steps.length - 1;
    const step = planStep(stepBody, index + 1, operations, { previous: steps.at(-1), finalOutput: isLast ? body.output : undefined });
    if (isLast) checkLastStep(step, body, several && !step.takesMany);
    steps.push(step);
    several = step.makesMany || (several && !step.takesMany);
  }
  if (!steps.some((s) => s.takesMany) && body.outputDir !== undefined) rejectSameStems(inputs);
  return { steps, warnings: steps.flatMap((s) => s.warnings), inputs, output: body.output, outputDir: body.outputDir };
}

/** What the step's operation reads and writes, or why it cannot be a step. */
function flowOf(name: string, number: number, operations: readonly Operation[]): { operation: Operation; flow: FileFlow; shape: Record<string, unknown> } {
  const stepNames = Object.keys(FILE_FLOWS).join(', ');
  const operation = operations.find((op) => op.id === name);
  if (!operation) throw invalid(`step ${number}: unknown operation "${name}"; a step is one of ${stepNames}`);
  const flow = Object.hasOwn(FILE_FLOWS, name) ? FILE_FLOWS[name] : undefined;
  if (!flow || !(operation.input instanceof z.ZodObject)) throw invalid(`step ${number}: "${name}" cannot be a pipeline step; a step is one of ${stepNames}`);
  return { operation, flow, shape: operation.input.shape as Record<string, unknown> };
}

interface StepSetting {
  previous: PlannedStep | undefined;
  /** The pipeline's `output`, for the last step. */
  finalOutput: string | undefined;
}

function planStep(body: StepBody, number: number, operations: readonly Operation[], { previous, finalOutput }: StepSetting): PlannedStep {
  const { operation: name, format, ...rest } = body;
  const { operation, flow, shape } = flowOf(name, number, operations);
  const where = `step ${number} (${name})`;
  const named = PATH_FIELDS.find((field) => Object.hasOwn(rest, field));
  if (named) throw invalid(`${where}: "${named}" is not a step field; the pipeline gives each step its input and output`);
  const hasOwnFormat = Object.hasOwn(shape, 'format');
  const output = outputOf(flow, { format, finalOutput, where, hasOwnFormat });
  const reads = readsOf(flow, output.format);
  if (previous && !reads.includes(previous.kind)) {
    throw invalid(`${where} reads ${reads.join(' or ')}, but step ${previous.number} (${previous.operation.id}) writes ${previous.kind}`);
  }
  const fields: Record<string, unknown> = {
    ...rest,
    ...(hasOwnFormat && format !== undefined && { format }),
    ...(hasOwnFormat && output.format !== undefined && { format: output.format }),
  };
  const step: PlannedStep = {
    number,
    operation,
    takesMany: Object.hasOwn(shape, 'files'),
    makesMany: !Object.hasOwn(shape, 'output') && Object.hasOwn(shape, 'outputDir'),
    fields,
    extension: output.extension,
    reads,
    kind: output.kind,
    warnings: unknownFields(operation.input, rest).map((field) => `${where}: ${unknownFieldWarning(field)}`),
  };
  checkFields(step, previous, where);
  return step;
}

interface OutputQuestion {
  format: string | undefined;
  finalOutput: string | undefined;
  where: string;
  /** The operation has a `format` field of its own (convert, pdf/to-images). */
  hasOwnFormat: boolean;
}

/** The kind and extension a step writes; `format` when the step's output follows it. */
function outputOf(
  flow: FileFlow,
  { format, finalOutput, where, hasOwnFormat }: OutputQuestion,
): { kind: FileKind; extension: string | undefined; format?: string } {
  const { writes } = flow;
  if (typeof writes === 'object') {
    const choices = Object.keys(writes.byFormat);
    const fromOutput = finalOutput === undefined ? undefined : formatOfOutput(finalOutput, choices);
    const chosen = (format ?? fromOutput ?? writes.defaultFormat)?.toLowerCase();
    if (chosen === undefined) throw invalid(`${where}: name its output with format (one of ${choices.join(', ')})`);
    const kind = Object.hasOwn(writes.byFormat, chosen) ? writes.byFormat[chosen] : undefined;
    if (kind === undefined) throw invalid(`${where}: format "${chosen}" is not one of ${choices.join(', ')}`);
    return { kind, extension: chosen, format: chosen };
  }
  if (format !== undefined && !hasOwnFormat)
    throw invalid(`${where}: takes no format (its output is ${writes === 'same-as-input' ? "of its input's type" : writes})`);
  if (writes === 'same-as-input') return { kind: 'image', extension: undefined };
  return { kind: writes, extension: extensionOfKind(writes) };
}

/** The last step's outputs must fit what the caller asked for. */
function checkLastStep(step: PlannedStep, body: PipelineBody, severalItems: boolean): void {
  const where = `step ${step.number} (${step.operation.id})`;
  if (body.output === undefined) return;
  if (step.makesMany) throw invalid(`${where} writes several files: give outputDir instead of output`);
  if (severalItems) throw invalid(`${where} runs once per file and writes one file each: give outputDir instead of output`);
  const named = kindOfExtension(body.output);
  if (named !== undefined && named !== step.kind) throw invalid(`output ${body.output} names a ${named} file, but ${where} writes ${step.kind}`);
}

/** The step's fields through its operation's own schema, with stand-ins for the paths the pipeline gives. */
function checkFields(step: PlannedStep, previous: PlannedStep | undefined, where: string): void {
  const inputExtension = previous?.extension ?? (previous ? extensionOfKind(previous.kind) : 'pdf');
  const raw = { ...step.fields, ...stepPaths(step, [`step-input.${inputExtension}`], `step-output.${step.extension ?? inputExtension}`, 'step-output') };
  try {
    validateInput(step.operation.input, raw);
  } catch (err) {
    throw inStep(err, where);
  }
}

/** The path fields of a step's request: its input(s) and its output file or directory. */
export function stepPaths(step: PlannedStep, inputs: readonly string[], output: string, outputDir: string): Record<string, unknown> {
  return {
    ...(step.takesMany ? { files: [...inputs] } : { input: inputs[0] }),
    ...(step.makesMany ? { outputDir } : { output }),
  };
}

/** Without a merging step, each input's results are named by its stem: two alike would collide. */
function rejectSameStems(inputs: readonly string[]): void {
  const seen = new Map<string, number>();
  for (const [i, input] of inputs.entries()) {
    const stem = fileStem(input);
    const earlier = seen.get(stem);
    if (earlier !== undefined)
      throw invalid(`files[${earlier}] (${inputs[earlier]}) and files[${i}] (${input}) have the same name; their results would collide in outputDir`);
    seen.set(stem, i);
  }
}

/** The error of a step, its message saying which step (counted from 1). */
export function inStep(err: unknown, where: string): ApiError {
  const { code, message } = toApiError(err);
  const own = message.replace(/^Invalid request: /, '');
  return new ApiError(code, code === 'VALIDATION_ERROR' ? `Invalid request: ${where}: ${own}` : `${where[0]?.toUpperCase()}${where.slice(1)}: ${own}`);
}

const invalid = (message: string) => new ApiError('VALIDATION_ERROR', `Invalid request: ${message}`);
