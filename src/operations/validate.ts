// Validation at the edge, for every door: the operation's zod schema decides, and its issues
// become one VALIDATION_ERROR (a field's own transform may answer a more precise code). Fields
// the schema does not know are tolerated and answered as warnings (./unknown-fields.ts); a
// missing field that one of them may have meant says so.

import type { z } from 'zod';
import { ApiError } from '../../core/errors.js';
import type { Operation } from './operation.js';
import { unknownFields, unknownFieldWarning, type UnknownField } from './unknown-fields.js';

export interface ValidRequest<T> {
  input: T;
  /** One per unknown field (and, for a pipeline, per unknown field of a step). */
  warnings: string[];
}

/** The operation's input from a raw request, with the warnings its success answer carries. */
export function validateRequest(operation: Operation, raw: unknown): ValidRequest<unknown> {
  const input = validateInput(operation.input, raw);
  const warnings = [...unknownFields(operation.input, raw).map(unknownFieldWarning), ...(operation.warnings?.(input) ?? [])];
  return { input, warnings };
}

export function validateInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  // reportInput: an issue keeps the value it is about, to tell a missing field from a wrong one.
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const unknown = unknownFields(schema, input);
  const details = result.error.issues.map((issue) => describeIssue(issue, unknown));
  throw new ApiError('VALIDATION_ERROR', `Invalid request: ${details.join('; ')}`);
}

function describeIssue(issue: z.core.$ZodIssue, unknown: readonly UnknownField[]): string {
  const where = issue.path.length > 0 ? pathText(issue.path) : 'body';
  if (isMissing(issue)) {
    // `{"file": [...]}` for `files`: the field given under another name is the likely cause.
    const meant = unknown.filter((field) => field.suggestion !== undefined && joinPath(field.path, field.suggestion) === where);
    return `${where} is required${meant.map((field) => `; unknown field "${field.path}" — did you mean "${field.suggestion}"?`).join('')}`;
  }
  // A schema's own "is required: why" (convert's format, named by neither it nor the output).
  if (issue.code === 'custom' && issue.message.startsWith('is required')) return `${where} ${issue.message}`;
  if (issue.code === 'invalid_type' && (issue.expected === 'object' || issue.expected === 'record'))
    return `${where}: must be a JSON object, not ${jsonTypeOf(issue.input)}`;
  if (issue.code === 'invalid_type' && issue.expected === 'array') return `${where}: must be a JSON array, not ${jsonTypeOf(issue.input)}`;
  return `${where}: ${issue.message}`;
}

/** zod reports no input for a field that was not given (JSON has no undefined). */
const isMissing = (issue: z.core.$ZodIssue): boolean =>
  (issue.code === 'invalid_type' || issue.code === 'invalid_value' || issue.code === 'invalid_union') && issue.input === undefined;

/** `areas.0.page` as `areas[0].page`, the way unknown fields are named. */
function pathText(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text === '' ? String(key) : `${text}.${String(key)}`), '');
}

/** The path of `field` beside the unknown field at `unknownPath` (same parent object). */
function joinPath(unknownPath: string, field: string): string {
  const parent = unknownPath.replace(/(?:^|\.)[^.[\]]*$/, '');
  return parent === '' ? field : `${parent}.${field}`;
}

function jsonTypeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'number') return 'a number';
  if (typeof value === 'boolean') return 'a boolean';
  return 'an object';
}
