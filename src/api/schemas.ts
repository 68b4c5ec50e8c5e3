// Field schemas shared by the API modules.

import { z } from 'zod';

export const filePath = z
  .string()
  .min(1, 'must not be empty')
  .refine((value) => !value.includes('\0'), 'must not contain NUL characters')
  .describe('absolute path, or relative to the base dir');

export const quality = z.number().int().min(1).max(100);
