// Validation at the edge: a zod schema decides, and its issues become one VALIDATION_ERROR.

import type { z } from 'zod';
import { ApiError } from '../errors.js';

export function validateBody<S extends z.ZodType>(schema: S, body: unknown): z.infer<S> {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const details = result.error.issues.map((issue) => {
    const where = issue.path.length > 0 ? issue.path.join('.') : 'body';
    return `${where}: ${issue.message}`;
  });
  throw new ApiError('VALIDATION_ERROR', `Invalid request: ${details.join('; ')}`);
}
