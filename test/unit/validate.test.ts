import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { filePath, filePaths, MAX_PATH_BYTES, MAX_PATHS, pageRanges } from '../../src/operations/fields.js';
import { validateInput } from '../../src/operations/validate.js';
import { errorCodeOf } from '../helpers/error-code.js';

const schema = z.object({ input: filePath, files: filePaths('file').optional(), pages: pageRanges.optional() });
const codeOf = (body: unknown): string | undefined => errorCodeOf(() => validateInput(schema, body));

describe('validateInput with the shared fields', () => {
  it('returns the parsed input, pages as ranges', () => {
    expect(validateInput(schema, { input: 'a.pdf', pages: '1-2,4' })).toEqual({
      input: 'a.pdf',
      pages: [
        { label: '1-2', first: 1, last: 2 },
        { label: '4', first: 4, last: 4 },
      ],
    });
  });

  it('accepts a path of 4096 bytes and refuses one byte more', () => {
    expect(codeOf({ input: 'a'.repeat(MAX_PATH_BYTES) })).toBeUndefined();
    expect(codeOf({ input: 'a'.repeat(MAX_PATH_BYTES + 1) })).toBe('VALIDATION_ERROR');
  });

  it('counts path length in bytes, not characters', () => {
    expect(codeOf({ input: '你'.repeat(Math.floor(MAX_PATH_BYTES / 3) + 1) })).toBe('VALIDATION_ERROR');
  });

  it('refuses empty paths and paths with NUL', () => {
    expect(codeOf({ input: '' })).toBe('VALIDATION_ERROR');
    expect(codeOf({ input: 'a\0b' })).toBe('VALIDATION_ERROR');
  });

  it('accepts 10,000 paths and refuses 10,001 or none', () => {
    expect(codeOf({ input: 'a', files: Array(MAX_PATHS).fill('a.pdf') })).toBeUndefined();
    expect(codeOf({ input: 'a', files: Array(MAX_PATHS + 1).fill('a.pdf') })).toBe('VALIDATION_ERROR');
    expect(codeOf({ input: 'a', files: [] })).toBe('VALIDATION_ERROR');
  });

  it('answers INVALID_PAGE_RANGE, not VALIDATION_ERROR, for malformed pages', () => {
    expect(codeOf({ input: 'a', pages: '3-1' })).toBe('INVALID_PAGE_RANGE');
    expect(codeOf({ input: 'a', pages: 'x' })).toBe('INVALID_PAGE_RANGE');
  });

  it('names each failing field in one VALIDATION_ERROR', () => {
    expect(() => validateInput(schema, { input: 1, files: 'a' })).toThrow(
      expect.objectContaining({ code: 'VALIDATION_ERROR', message: expect.stringMatching(/input: .*; files: /) }),
    );
  });
});
