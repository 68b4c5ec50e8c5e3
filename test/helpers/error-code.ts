// The contract code an action fails with: what tests of validation and engine errors compare.

import { ApiError } from '../../core/errors.js';

const codeOfError = (err: unknown): string => (err instanceof ApiError ? err.code : `not an ApiError: ${String(err)}`);

/** The code of the ApiError `action` throws, undefined when it does not throw. */
export function errorCodeOf(action: () => unknown): string | undefined {
  try {
    action();
  } catch (err) {
    return codeOfError(err);
  }
  return undefined;
}

/** As errorCodeOf, for an action that returns a promise. */
export async function asyncErrorCodeOf(action: () => Promise<unknown>): Promise<string | undefined> {
  try {
    await action();
  } catch (err) {
    return codeOfError(err);
  }
  return undefined;
}
