// AES-256 (PDF security handler revision 6) with Node's own crypto: the file key recovered from
// the /U, /UE and /Perms entries mupdf wrote, and streams encrypted with it. mupdf's AES runs as
// WebAssembly without AES instructions (~45 MB/s); Node's runs at memory speed.
// ISO 32000-2, 7.6.4.3.3 (algorithm 2.A) and 7.6.4.3.4 (algorithm 2.B).

import crypto from 'node:crypto';

export interface Aes256Entries {
  /** 48 bytes: validation hash (32), validation salt (8), key salt (8). */
  u: Uint8Array;
  /** 32 bytes: the file key encrypted with the user password's key. */
  ue: Uint8Array;
  /** 16 bytes: the permissions, encrypted with the file key. */
  perms: Uint8Array;
}

/**
 * The file key the entries hide behind `password`, or undefined when they do not open with it
 * (a password prepared differently, entries not of revision 6): the caller then leaves the
 * encryption to mupdf.
 */
export function fileKeyFor(entries: Aes256Entries, password: string): Buffer | undefined {
  const { u, ue, perms } = entries;
  if (u.length !== 48 || ue.length !== 32 || perms.length !== 16) return undefined;
  const pw = Buffer.from(password, 'utf8').subarray(0, 127);
  if (!hardenedHash(pw, u.subarray(32, 40)).equals(u.subarray(0, 32))) return undefined;
  const key = aes('aes-256-cbc', hardenedHash(pw, u.subarray(40, 48)), Buffer.alloc(16), ue, 'decrypt');
  const permissions = aes('aes-256-ecb', key, null, perms, 'decrypt');
  return permissions.subarray(9, 12).toString('latin1') === 'adb' ? key : undefined;
}

/** A stream's bytes as an AESV3 crypt filter stores them: a random IV, then CBC with padding. */
export function encryptStream(key: Buffer, data: Uint8Array): Buffer[] {
  const iv = crypto.randomBytes(16);
  const cipher = crypto.createCipheriv('aes-256-cbc', key, iv);
  return [iv, cipher.update(data), cipher.final()];
}

/** Algorithm 2.B for the user password (no user-key data). */
function hardenedHash(password: Buffer, salt: Uint8Array): Buffer {
  let k = crypto.createHash('sha256').update(password).update(salt).digest();
  for (let round = 0; ; round++) {
    const block = Buffer.concat([password, k]);
    const e = aes('aes-128-cbc', k.subarray(0, 16), k.subarray(16, 32), Buffer.concat(Array.from({ length: 64 }, () => block)), 'encrypt');
    k = crypto
      .createHash(HASHES[sum16(e) % 3] as string)
      .update(e)
      .digest();
    if (round >= 63 && (e.at(-1) as number) <= round + 1 - 32) return k.subarray(0, 32);
  }
}

const HASHES = ['sha256', 'sha384', 'sha512'];

function sum16(bytes: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < 16; i++) sum += bytes[i] as number;
  return sum;
}

function aes(algorithm: string, key: Uint8Array, iv: Uint8Array | null, data: Uint8Array, direction: 'encrypt' | 'decrypt'): Buffer {
  const cipher = direction === 'encrypt' ? crypto.createCipheriv(algorithm, key, iv) : crypto.createDecipheriv(algorithm, key, iv);
  cipher.setAutoPadding(false);
  return Buffer.concat([cipher.update(data), cipher.final()]);
}
