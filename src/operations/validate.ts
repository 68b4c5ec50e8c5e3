// Validation at the edge, for every door: the operation's zod schema decides, and its issues
// become one VALIDATION_ERROR (a field's own transform may answer a more precise code).

import type { z } from 'zod';
import { ApiError } from '../errors.js';

export function validateInput<S extends z.ZodType>(schema: S, input: unknown): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join('.') : 'body';
    return `${where}: ${issue.message}`;
  });
  throw new ApiError('VALIDATION_ERROR', `Invalid request: ${details.join('; ')}`);
}
