import { describe, expect, it } from 'vitest';
import { checkEncodable, MAX_ENCODE_PIXELS, MAX_SIDE, outputFormatOf } from '../../core/image-formats.js';
import { errorCodeOf } from '../helpers/error-code.js';

describe('outputFormatOf', () => {
  it('picks the format from the extension, case-insensitively', () => {
    expect(['a.jpg', 'a.JPEG', 'dir.png/a.png', 'a.WebP', 'a.avif'].map(outputFormatOf)).toEqual(['jpeg', 'jpeg', 'png', 'webp', 'avif']);
  });

  it('refuses other extensions and none with UNSUPPORTED_FORMAT', () => {
    for (const file of ['a.gif', 'a.bmp', 'a.tiff', 'a', 'a.png.txt'])
      expect(
        errorCodeOf(() => outputFormatOf(file)),
        file,
      ).toBe('UNSUPPORTED_FORMAT');
  });
});

describe('checkEncodable', () => {
  it('accepts an image whose longest side the format can store', () => {
    expect(() => checkEncodable({ width: MAX_SIDE.webp, height: 1 }, 'webp')).not.toThrow();
  });

  it('refuses one side too many with UNSUPPORTED_CONVERSION', () => {
    expect(errorCodeOf(() => checkEncodable({ width: 1, height: MAX_SIDE.webp + 1 }, 'webp'))).toBe('UNSUPPORTED_CONVERSION');
    expect(errorCodeOf(() => checkEncodable({ width: MAX_SIDE.jpeg + 1, height: 1 }, 'jpeg'))).toBe('UNSUPPORTED_CONVERSION');
  });

  it('refuses more pixels than the encoder holds with TOO_LARGE, and only for that encoder', () => {
    const side = Math.sqrt(MAX_ENCODE_PIXELS.avif ?? 0);
    expect(() => checkEncodable({ width: side, height: side }, 'avif')).not.toThrow();
    expect(errorCodeOf(() => checkEncodable({ width: side + 1, height: side }, 'avif'))).toBe('TOO_LARGE');
    expect(() => checkEncodable({ width: side + 1, height: side }, 'webp')).not.toThrow();
  });
});
