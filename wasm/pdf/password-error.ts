// The one answer both engines give for an encrypted input they cannot open.

import { ApiError } from '../../core/errors.js';

export function passwordRequired(password: string | undefined): ApiError {
  return new ApiError('PASSWORD_REQUIRED', password === undefined ? 'The PDF is encrypted: give its password' : 'The password does not open this PDF');
}
