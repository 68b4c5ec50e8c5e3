// poppler's pdfsig, read: one entry per signature it lists.

import { spawnSync } from 'node:child_process';

export interface PdfsigEntry {
  ranges: string;
  /** "Total document signed" (not "Not total document signed"). */
  total: boolean;
  /** "Signature is Valid." */
  valid: boolean;
  hash: string;
  type: string;
  /** pdfsig's "Certificate Validation:" line, e.g. "Certificate is Trusted." or "Certificate issuer is unknown.". */
  certificate: string;
}

/** `nssdir`: the NSS database whose trusted roots judge the certificates (pdfsig's default when absent). */
export function pdfsig(file: string, nssdir?: string): PdfsigEntry[] {
  const result = spawnSync('pdfsig', [...(nssdir ? ['-nssdir', `sql:${nssdir}`] : []), file], { encoding: 'utf8' });
  return result.stdout
    .split(/^Signature #\d+:$/m)
    .slice(1)
    .map((block) => ({
      ranges: /Signed Ranges: (.*)/.exec(block)?.[1] ?? '',
      total: /- Total document signed/.test(block),
      valid: /Signature Validation: Signature is Valid\./.test(block),
      hash: /Signing Hash Algorithm: (.*)/.exec(block)?.[1] ?? '',
      type: /Signature Type: (.*)/.exec(block)?.[1] ?? '',
      certificate: /Certificate Validation: (.*)/.exec(block)?.[1] ?? '',
    }));
}
