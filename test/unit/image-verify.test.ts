import { describe, expect, it } from 'vitest';
import type { OutputFormat } from '../../core/image-formats.js';
import { verifyEncoded } from '../../wasm/image/verify.js';
import { fromRaw, photoPixels } from '../helpers/images.js';

const W = 40;
const H = 30;

async function encoded(format: OutputFormat): Promise<Uint8Array> {
  const image = fromRaw(photoPixels(W, H));
  const formatted = format === 'jpeg' ? image.jpeg() : format === 'png' ? image.png() : format === 'webp' ? image.webp() : image.avif();
  return new Uint8Array(await formatted.toBuffer());
}

const unusable = /unusable file/;

describe('verifyEncoded', () => {
  it.each<OutputFormat>(['jpeg', 'png', 'webp', 'avif'])('accepts a whole %s file of the intended size', async (format) => {
    const bytes = await encoded(format);
    expect(() => verifyEncoded(bytes, format, W, H)).not.toThrow();
  });

  it("refuses MozJPEG's 22-byte error message, an empty file and another format", async () => {
    expect(() => verifyEncoded(new TextEncoder().encode('Bogus input colorspace'), 'jpeg', W, H)).toThrow(unusable);
    expect(() => verifyEncoded(new Uint8Array(0), 'jpeg', W, H)).toThrow(unusable);
    const png = await encoded('png');
    expect(() => verifyEncoded(png, 'jpeg', W, H)).toThrow(unusable);
  });

  it('refuses a file of another size', async () => {
    const webp = await encoded('webp');
    expect(() => verifyEncoded(webp, 'webp', W + 1, H)).toThrow(unusable);
  });

  it.each<OutputFormat>(['jpeg', 'png', 'webp', 'avif'])('refuses a truncated %s file', async (format) => {
    const bytes = await encoded(format);
    expect(() => verifyEncoded(bytes.subarray(0, bytes.length - 3), format, W, H)).toThrow(unusable);
  });

  it('refuses a JPEG that stops after its headers', async () => {
    const bytes = await encoded('jpeg');
    const scan = bytes.findIndex((byte, i) => byte === 0xff && bytes[i + 1] === 0xda);
    const headersOnly = new Uint8Array([...bytes.subarray(0, scan), 0xff, 0xd9]);
    expect(() => verifyEncoded(headersOnly, 'jpeg', W, H)).toThrow(unusable);
  });
});
