// Fields a request names that its operation does not know. They are tolerated — zod leaves them
// out — but a success answer warns about each, with the known field it may mean, so that a
// typo ("qualty") does not pass silently as the default. Objects inside the body (redact's
// `areas`, sign's `visible`) are looked into the same way.

import { z } from 'zod';
import { closestName } from '../../core/closest-name.js';

export interface UnknownField {
  /** Where it is, as a message shows it: `qualty`, `areas[0].colour`. */
  path: string;
  /** The known field of that object it may mean. */
  suggestion: string | undefined;
}

/** The unknown fields of `value` against `schema`, in the order they were written. */
export function unknownFields(schema: z.ZodType, value: unknown, prefix = ''): UnknownField[] {
  const inner = unwrapped(schema);
  if (inner instanceof z.ZodArray && Array.isArray(value)) {
    return value.flatMap((item, i) => unknownFields(inner.element as z.ZodType, item, `${prefix}[${i}]`));
  }
  if (!(inner instanceof z.ZodObject) || !isPlainObject(value)) return [];
  const shape = inner.shape as Record<string, z.ZodType>;
  const known = Object.keys(shape);
  // An object with a catchall (a pipeline step) takes any field: none of them is unknown here.
  const takesAny = inner._zod.def.catchall !== undefined;
  return Object.entries(value).flatMap(([field, fieldValue]) => {
    const where = prefix === '' ? field : `${prefix}.${field}`;
    if (Object.hasOwn(shape, field)) return unknownFields(shape[field] as z.ZodType, fieldValue, where);
    return takesAny ? [] : [{ path: where, suggestion: closestName(field, known) }];
  });
}

/** The warning a success answer carries for an unknown field. */
export function unknownFieldWarning({ path, suggestion }: UnknownField): string {
  return `unknown field "${path}" ignored${suggestion === undefined ? '' : `; did you mean "${suggestion}"?`}`;
}

/** The schema under the wrappers that only say whether and how a value is given. */
function unwrapped(schema: z.ZodType): z.ZodType {
  let inner = schema;
  for (;;) {
    if (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable || inner instanceof z.ZodDefault) inner = inner.unwrap() as z.ZodType;
    else if (inner instanceof z.ZodPipe) inner = inner.in as z.ZodType;
    else return inner;
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
