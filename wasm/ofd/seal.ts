// The picture of an electronic seal (GB/T 38540 SES_Signature, in a signature's SignedValue.dat):
// DER holding the seal (SESeal), whose picture is an OCTET STRING of PNG, JPEG, GIF, BMP or an
// OFD. The DER is walked, not verified: the first OCTET STRING whose bytes are an image the
// PDF side can draw is the seal's picture. Verifying the SM2 signature is not done.

const MAX_DEPTH = 32;

/** The seal image's bytes, or undefined when none of a drawable kind is inside. */
export function sealImage(der: Uint8Array): Uint8Array | undefined {
  return findImage(der, 0, der.length, 0);
}

function findImage(der: Uint8Array, start: number, end: number, depth: number): Uint8Array | undefined {
  let offset = start;
  while (offset < end && depth < MAX_DEPTH) {
    const tag = der[offset] as number;
    const header = lengthAt(der, offset + 1, end);
    if (!header) return undefined;
    const contentStart = header.next;
    const contentEnd = contentStart + header.length;
    if (contentEnd > end) return undefined;
    const constructed = (tag & 0x20) !== 0;
    if (tag === 0x04 && isImage(der.subarray(contentStart, contentEnd))) return der.subarray(contentStart, contentEnd);
    if (constructed) {
      const found = findImage(der, contentStart, contentEnd, depth + 1);
      if (found) return found;
    }
    offset = contentEnd;
  }
  return undefined;
}

function lengthAt(der: Uint8Array, offset: number, end: number): { length: number; next: number } | undefined {
  if (offset >= end) return undefined;
  const first = der[offset] as number;
  if (first < 0x80) return { length: first, next: offset + 1 };
  const count = first & 0x7f;
  if (count === 0 || count > 4 || offset + count >= end) return undefined;
  let length = 0;
  for (let i = 1; i <= count; i++) length = length * 256 + (der[offset + i] as number);
  return { length, next: offset + 1 + count };
}

const startsWith = (bytes: Uint8Array, magic: readonly number[]) => magic.every((b, i) => bytes[i] === b);

function isImage(bytes: Uint8Array): boolean {
  return (
    startsWith(bytes, [0x89, 0x50, 0x4e, 0x47]) ||
    startsWith(bytes, [0xff, 0xd8, 0xff]) ||
    startsWith(bytes, [0x47, 0x49, 0x46, 0x38]) ||
    startsWith(bytes, [0x42, 0x4d])
  );
}
