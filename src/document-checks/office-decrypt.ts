// Opens a password-protected .docx/.xlsx/.pptx (issue 42, item 11): Office's agile encryption
// (MS-OFFCRYPTO 2.3.4.10–2.3.4.15), an OLE container holding `EncryptionInfo` (an XML key
// description) and `EncryptedPackage` (the ZIP, AES-CBC in 4096-byte segments). Neither office
// takes a password from docwasm (soffice --convert-to has no option for it; the WebAssembly
// office's LibreOfficeKit exports no setDocumentPassword), so the package is decrypted here and
// the office converts the plain ZIP. Wrong password: PASSWORD_REQUIRED, by the key's verifier.

import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ApiError } from '../../core/errors.js';
import { openInput } from '../files/paths.js';
import type { FileRef } from '../../core/file-ref.js';
import { readOleContainer } from './containers.js';

/** A decrypted copy of an input in a private temp dir, and the one way to remove it. */
export interface DecryptedInput {
  ref: FileRef;
  remove: () => Promise<void>;
}

/**
 * The input decrypted with `password` into a private temp dir (same extension), when it is an
 * encrypted Office package; undefined for any other file (checked as usual after).
 */
export async function decryptedInput(input: FileRef, password: string, shownName: string): Promise<DecryptedInput | undefined> {
  const plain = await readAndDecrypt(input, password, shownName);
  if (!plain) return undefined;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'docwasm-decrypted-'));
  const remove = () => fs.rm(dir, { recursive: true, force: true });
  try {
    const file = path.join(dir, `plain${path.extname(input.path).toLowerCase()}`);
    await fs.writeFile(file, plain, { mode: 0o600, flag: 'wx' });
    return { ref: { path: file }, remove };
  } catch (err) {
    await remove();
    throw err;
  }
}

async function readAndDecrypt(input: FileRef, password: string, shownName: string): Promise<Buffer | undefined> {
  const handle = await openInput(input, shownName);
  try {
    const { size } = await handle.stat();
    const ole = await readOleContainer(handle, size);
    const stream = (name: string) => ole?.streams.find((s) => s.name === name);
    const info = stream('EncryptionInfo');
    const data = stream('EncryptedPackage');
    if (!ole || !info || !data) return undefined;
    const [infoBytes, dataBytes] = await Promise.all([ole.readStream(info), ole.readStream(data)]);
    if (!infoBytes || !dataBytes || infoBytes.length < 8) throw damaged(shownName);
    return decryptOfficePackage(infoBytes, dataBytes, password, shownName);
  } finally {
    await handle.close();
  }
}

/** The block keys of MS-OFFCRYPTO 2.3.4.13 for the password key encryptor. */
const VERIFIER_INPUT_BLOCK = Buffer.from('fea7d2763b4b9e79', 'hex');
const VERIFIER_VALUE_BLOCK = Buffer.from('d7aa0f6d3061344e', 'hex');
const KEY_VALUE_BLOCK = Buffer.from('146e0be7abacd0d6', 'hex');
const SEGMENT = 4096;
/** Office writes 100,000; the spin runs on the main thread (0.39 s per 100,000 SHA-512 measured on this busy 2-core machine), so a file asking for far more is refused. */
const MAX_SPIN_COUNT = 500_000;

const HASHES: Readonly<Record<string, string>> = { SHA1: 'sha1', SHA256: 'sha256', SHA384: 'sha384', SHA512: 'sha512' };

interface CipherParams {
  salt: Buffer;
  blockSize: number;
  keyBytes: number;
  hash: string;
}

/** The decrypted ZIP of an agile-encrypted Office package; PASSWORD_REQUIRED when `password` does not open it. */
export function decryptOfficePackage(encryptionInfo: Buffer, encryptedPackage: Buffer, password: string, shownName: string): Buffer {
  const major = encryptionInfo.readUInt16LE(0);
  const minor = encryptionInfo.readUInt16LE(2);
  if (major !== 4 || minor !== 4) {
    // 3.2/4.2 is Office 2007's "standard" encryption (AES-ECB with SHA-1): rare, not decrypted here.
    throw new ApiError(
      'PASSWORD_REQUIRED',
      `${shownName} uses an Office encryption docwasm cannot open (version ${major}.${minor}; only agile encryption, Office 2010 and later, is decrypted); remove the password to convert it`,
    );
  }
  const xml = encryptionInfo.subarray(8).toString('utf8');
  const keyData = cipherParams(attributes(xml, 'keyData'), shownName);
  const encryptedKey = attributes(xml, 'p:encryptedKey');
  const keyEncryptor = cipherParams(encryptedKey, shownName);
  const spinCount = Number(encryptedKey.spinCount);
  if (!Number.isInteger(spinCount) || spinCount < 0 || spinCount > MAX_SPIN_COUNT) throw invalid(shownName, 'its key spin count');

  const passwordHash = spunHash(keyEncryptor, password, spinCount);
  const open = (block: Buffer, value: string | undefined) =>
    aesCbc(derivedKey(keyEncryptor, passwordHash, block), keyEncryptor.salt, Buffer.from(value ?? '', 'base64'));
  const verifierInput = open(VERIFIER_INPUT_BLOCK, encryptedKey.encryptedVerifierHashInput).subarray(0, keyEncryptor.salt.length);
  const verifierHash = open(VERIFIER_VALUE_BLOCK, encryptedKey.encryptedVerifierHashValue);
  const expected = crypto.createHash(keyEncryptor.hash).update(verifierInput).digest();
  if (verifierHash.length < expected.length || !crypto.timingSafeEqual(verifierHash.subarray(0, expected.length), expected)) {
    throw new ApiError('PASSWORD_REQUIRED', `${shownName} is password-protected and the password given does not open it`);
  }
  const secretKey = open(KEY_VALUE_BLOCK, encryptedKey.encryptedKeyValue).subarray(0, keyData.keyBytes);
  return decryptSegments(encryptedPackage, keyData, secretKey, shownName);
}

/** EncryptedPackage: the ZIP's size (8 bytes), then 4096-byte segments, each with its own IV. */
function decryptSegments(encryptedPackage: Buffer, keyData: CipherParams, secretKey: Buffer, shownName: string): Buffer {
  if (encryptedPackage.length < 8) throw damaged(shownName);
  const size = Number(encryptedPackage.readBigUInt64LE(0));
  const body = encryptedPackage.subarray(8);
  if (size > body.length) throw damaged(shownName);
  const parts: Buffer[] = [];
  for (let offset = 0, index = 0; offset < size; offset += SEGMENT, index++) {
    const segment = body.subarray(offset, offset + SEGMENT);
    const index32 = Buffer.alloc(4);
    index32.writeUInt32LE(index);
    const iv = fitted(crypto.createHash(keyData.hash).update(keyData.salt).update(index32).digest(), keyData.blockSize);
    parts.push(aesCbc(secretKey, iv, segment.subarray(0, segment.length - (segment.length % keyData.blockSize))));
  }
  return Buffer.concat(parts).subarray(0, size);
}

/** H(salt + password), then H(iterator + H) spinCount times (2.3.4.11). */
function spunHash(params: CipherParams, password: string, spinCount: number): Buffer {
  let hash = crypto.createHash(params.hash).update(params.salt).update(Buffer.from(password, 'utf16le')).digest();
  const iterator = Buffer.alloc(4);
  for (let i = 0; i < spinCount; i++) {
    iterator.writeUInt32LE(i);
    hash = crypto.createHash(params.hash).update(iterator).update(hash).digest();
  }
  return hash;
}

const derivedKey = (params: CipherParams, hash: Buffer, block: Buffer) =>
  fitted(crypto.createHash(params.hash).update(hash).update(block).digest(), params.keyBytes);

/** Truncated, or padded with 0x36, to `length` bytes (2.3.4.11). */
function fitted(bytes: Buffer, length: number): Buffer {
  return bytes.length >= length ? bytes.subarray(0, length) : Buffer.concat([bytes, Buffer.alloc(length - bytes.length, 0x36)]);
}

function aesCbc(key: Buffer, iv: Buffer, data: Buffer): Buffer {
  const decipher = crypto.createDecipheriv(`aes-${key.length * 8}-cbc`, key, iv);
  decipher.setAutoPadding(false);
  return Buffer.concat([decipher.update(data), decipher.final()]);
}

function cipherParams(attrs: Record<string, string>, shownName: string): CipherParams {
  const hash = HASHES[attrs.hashAlgorithm ?? ''];
  const keyBytes = Number(attrs.keyBits) / 8;
  const blockSize = Number(attrs.blockSize);
  if (attrs.cipherAlgorithm !== 'AES' || attrs.cipherChaining !== 'ChainingModeCBC' || !hash || ![16, 24, 32].includes(keyBytes) || blockSize !== 16) {
    throw invalid(shownName, `its cipher (${attrs.cipherAlgorithm ?? '?'} ${attrs.cipherChaining ?? '?'} ${attrs.hashAlgorithm ?? '?'})`);
  }
  return { salt: Buffer.from(attrs.saltValue ?? '', 'base64'), blockSize, keyBytes, hash };
}

/** The attributes of the first `<tag …>` in `xml` (EncryptionInfo's XML is flat and machine-written). */
function attributes(xml: string, tag: string): Record<string, string> {
  const element = new RegExp(`<${tag}\\s([^>]*)>`).exec(xml)?.[1] ?? '';
  return Object.fromEntries([...element.matchAll(/([\w:]+)="([^"]*)"/g)].map((m) => [m[1] as string, m[2] as string]));
}

const damaged = (shownName: string) => new ApiError('INVALID_INPUT', `${shownName} is an encrypted Office document whose encrypted package is damaged`);
const invalid = (shownName: string, what: string) =>
  new ApiError('PASSWORD_REQUIRED', `${shownName} is password-protected, and docwasm cannot decrypt ${what}; remove the password to convert it`);
