// Renders images of known text for the OCR tests and benchmarks, offline: sharp (a dev
// dependency) lays the text out with Pango using the system fonts DejaVu Sans and
// WenQuanYi Zen Hei (apt: fonts-dejavu-core, fonts-wqy-zenhei).

import sharp from 'sharp';
import { bmp24 } from './images.js';

export const ENGLISH_TEXT =
  'It was the best of times, it was the worst of times, it was the age of wisdom, it was the age of foolishness. ' +
  'Invoice 4471: total amount due $1,234.56 by 2024-03-15; contact billing@example.com for questions.';

export const CHINESE_TEXT = '今天天气很好，我们在公园里散步。本地文件处理服务不需要网络，所有文件都留在这台电脑上。';

export const MIXED_TEXT = 'Hello 世界，这是一个 OCR 测试。Local files 不会上传到网络。';

const FONTS = { latin: 'DejaVu Sans', cjk: 'WenQuanYi Zen Hei' } as const;

export interface RenderOptions {
  font?: keyof typeof FONTS;
  /** Type size in points at 300 dpi. */
  points?: number;
  /** Line width in pixels before wrapping. */
  width?: number;
  format?: 'png' | 'jpeg' | 'webp' | 'tiff' | 'gif';
  /** Pad the result to at least this size (white), e.g. an A4 page. */
  page?: { width: number; height: number };
}

/** Black text on white, 300 dpi, wrapped at `width`. */
export async function renderText(text: string, { font = 'latin', points = 12, width = 2000, format = 'png', page }: RenderOptions = {}): Promise<Buffer> {
  const { data, info } = await sharp({ text: { text: escapeMarkup(text), font: `${FONTS[font]} ${points}`, dpi: 300, width, wrap: 'word-char' } })
    .flatten({ background: '#000000' })
    .png()
    .toBuffer({ resolveWithObject: true });
  const margin = 60;
  const padX = Math.max(margin, page ? Math.floor((page.width - info.width) / 2) : 0);
  const bottom = Math.max(margin, page ? page.height - info.height - margin : 0);
  // Pango draws white glyphs on transparent; flatten on black, then invert to black on white.
  const image = sharp(data).extend({ top: margin, bottom, left: padX, right: padX, background: '#000000' }).negate({ alpha: false }).greyscale();
  return image.toFormat(format).toBuffer();
}

/** An A4 page at 300 dpi filled with the given paragraphs. */
export function renderPage(paragraphs: readonly string[], font: RenderOptions['font']): Promise<Buffer> {
  return renderText(paragraphs.join('\n\n'), { font, width: 2000, page: { width: 2480, height: 3508 } });
}

/**
 * An A4 page at 300 dpi filled edge to edge with `text` repeated in small type. Tesseract scales
 * each line to a fixed height before recognising it, so its work per pixel grows as type gets
 * smaller: with the tesseract CLI (one thread, loaded 2-core machine) an A4 page took 47 s at 5 pt
 * against 7.3 s per 14 MP at 12 pt in English, and 84 s at 5 pt against 9.2 s at 12 pt in
 * Chinese (chi_sim+eng).
 */
async function renderDensePage(text: string, font: RenderOptions['font'], points: number): Promise<Buffer> {
  const a4 = { width: 2480, height: 3508 };
  // Enough characters to overflow the page at any type size down to 4 pt; the overflow is cut off.
  const filler = Array.from({ length: Math.ceil(40_000 / text.length) }, () => text).join(' ');
  const rendered = await renderText(filler, { font, points, width: a4.width - 120 });
  const { width = a4.width } = await sharp(rendered).metadata();
  const top = sharp(rendered).extract({ left: 0, top: 0, width: Math.min(width, a4.width), height: a4.height });
  return top
    .extend({ right: Math.max(0, a4.width - width), background: '#ffffff' })
    .png()
    .toBuffer();
}

/**
 * An OCR input slow by construction, for jobs that must pass a time limit on any machine: nine A4
 * pages of Chinese in 5 pt type stacked into one greyscale PNG of 2,480 × 31,572 (78 MP: under
 * the default --max-pixels and tesseract's 32,767 px side), to be read in the default languages
 * (chi_sim+eng). Its work grows only with the lines read, so memory stays that of a 78 MP page.
 */
export async function slowOcrImage(): Promise<Buffer> {
  const page = await renderDensePage(CHINESE_TEXT, 'cjk', 5);
  const pages = 9;
  const { width = 2480, height = 3508 } = await sharp(page).metadata();
  const canvas = sharp({ create: { width, height: height * pages, channels: 3, background: '#ffffff' } });
  return canvas
    .composite(Array.from({ length: pages }, (_, i) => ({ input: page, top: i * height, left: 0 })))
    .greyscale()
    .png()
    .toBuffer();
}

function escapeMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The same image as a 24-bit BMP (sharp writes no BMP). */
export async function toBmp(image: Buffer): Promise<Buffer> {
  const { data, info } = await sharp(image).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
  return bmp24({ data, width: info.width, height: info.height, channels: 3 });
}
