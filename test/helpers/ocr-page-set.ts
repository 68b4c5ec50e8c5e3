// Chinese and English A4 test pages for OCR quality: real prose (Lu Xun's 故乡 and Zhu
// Ziqing's 背影, both public domain; Tao Yuanming's 桃花源记; a statistics paragraph; Dickens
// and Austen for English), laid out by Pango (through sharp, a dev dependency) in Debian's CJK
// fonts (fonts-arphic-uming, fonts-arphic-ukai, fonts-wqy-zenhei, fonts-noto-cjk), then
// optionally degraded like a poor scan or a phone photo. Vertical text comes from pango-view.

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import type { Raster } from '../../wasm/ocr/paddle/raster.js';

export const CHINESE_PARAGRAPHS = [
  '我冒了严寒，回到相隔二千余里，别了二十余年的故乡去。时候既然是深冬；渐近故乡时，天气又阴晦了，冷风吹进船舱中，呜呜的响，从篷隙向外一望，苍黄的天底下，远近横着几个萧索的荒村，没有一些活气。我的心禁不住悲凉起来了。',
  '我与父亲不相见已二年余了，我最不能忘记的是他的背影。那年冬天，祖母死了，父亲的差使也交卸了，正是祸不单行的日子。我从北京到徐州，打算跟着父亲奔丧回家。到徐州见着父亲，看见满院狼藉的东西，又想起祖母，不禁簌簌地流下眼泪。',
  '晋太元中，武陵人捕鱼为业。缘溪行，忘路之远近。忽逢桃花林，夹岸数百步，中无杂树，芳草鲜美，落英缤纷。渔人甚异之，复前行，欲穷其林。林尽水源，便得一山，山有小口，仿佛若有光。',
  '根据国家统计局发布的数据，2023年全国居民人均可支配收入为39218元，比上年名义增长6.3%。其中，城镇居民人均可支配收入51821元，农村居民人均可支配收入21691元。本地文件处理服务不需要网络，所有文件都留在这台电脑上。',
];

export const ENGLISH_PARAGRAPHS = [
  'It was the best of times, it was the worst of times, it was the age of wisdom, it was the age of foolishness, it was the epoch of belief, it was the epoch of incredulity, it was the season of Light, it was the season of Darkness.',
  'It is a truth universally acknowledged, that a single man in possession of a good fortune, must be in want of a wife. However little known the feelings or views of such a man may be on his first entering a neighbourhood, this truth is so well fixed in the minds of the surrounding families.',
  'Invoice 4471: total amount due $1,234.56 by 2024-03-15; contact billing@example.com for questions. Order #A-1017 shipped on 12 March (3 boxes, 14.2 kg), tracking number 1Z999AA10123456784.',
];

/**
 * Chinese with English in it, as technical and bilingual Chinese writing has: English words
 * and names inside Chinese sentences (spaced from the Han characters as the source text is),
 * and whole English sentences between Chinese ones.
 */
export const MIXED_PARAGRAPHS = [
  '本服务使用 Node.js 的 worker threads 处理文件，每个引擎都运行在 WebAssembly 中，不需要安装任何 native addon。如果要识别扫描件，请把 engine 参数设为 auto 或者 paddle。',
  '鲁迅在《故乡》的结尾写道：其实地上本没有路，走的人多了，也便成了路。In English the sentence says: there were no roads on the earth at first, but when many people walk the same way, a road comes into being.',
  '在机器学习领域，深度神经网络已经广泛用于图像识别和自然语言处理。常见的框架包括 PyTorch 和 TensorFlow，研究人员通常在 GitHub 上公开代码，并用 Docker 打包运行环境。',
  'The meeting will take place in Shanghai next spring, and every speaker should send the slides two weeks before the opening day. 会议的主题是 Open Source Software in Education，报名请写信给 office@example.org 联系组委会。',
  '我们的团队每周五开一次 code review 会议，讨论 pull request 中的问题。新同事第一天要读完 README 文件，再按照 Getting Started 一节配置自己的电脑。',
];

/** Each text twice: a page about as full as a printed one. */
const FULL_CHINESE = [...CHINESE_PARAGRAPHS, ...CHINESE_PARAGRAPHS];
const FULL_ENGLISH = [...ENGLISH_PARAGRAPHS, ...ENGLISH_PARAGRAPHS];

export type Variant = 'clean' | 'degraded' | 'photo';

export interface PageSpec {
  name: string;
  font: string;
  points: number;
  dpi: number;
  variant: Variant;
  paragraphs: readonly string[];
  /** Page margin in inches (default 0.8; 0.3 on a page with a size of its own). */
  margin?: number;
  /** Space between lines, in ems of the font (default 0.5). */
  lineSpacing?: number;
}

const A4_INCHES = { width: 8.27, height: 11.69 };

export const CHINESE_PAGES: PageSpec[] = [
  { name: 'zh Ming 12pt 300dpi', font: 'AR PL UMing CN', points: 12, dpi: 300, variant: 'clean', paragraphs: FULL_CHINESE },
  { name: 'zh Hei 10pt 300dpi', font: 'WenQuanYi Zen Hei', points: 10, dpi: 300, variant: 'clean', paragraphs: FULL_CHINESE },
  { name: 'zh Kai 11pt 200dpi', font: 'AR PL UKai CN', points: 11, dpi: 200, variant: 'clean', paragraphs: FULL_CHINESE },
  { name: 'zh Noto Serif 11pt 300dpi', font: 'Noto Serif CJK SC', points: 11, dpi: 300, variant: 'clean', paragraphs: FULL_CHINESE },
  { name: 'zh Ming 11pt 300dpi degraded', font: 'AR PL UMing CN', points: 11, dpi: 300, variant: 'degraded', paragraphs: FULL_CHINESE },
  { name: 'zh Hei 12pt 250dpi photo', font: 'WenQuanYi Zen Hei', points: 12, dpi: 250, variant: 'photo', paragraphs: FULL_CHINESE },
];

export const ENGLISH_PAGES: PageSpec[] = [
  { name: 'en Serif 11pt 300dpi', font: 'DejaVu Serif', points: 11, dpi: 300, variant: 'clean', paragraphs: FULL_ENGLISH },
  { name: 'en Sans 10pt 300dpi', font: 'DejaVu Sans', points: 10, dpi: 300, variant: 'clean', paragraphs: FULL_ENGLISH },
  { name: 'en Serif 11pt 300dpi degraded', font: 'DejaVu Serif', points: 11, dpi: 300, variant: 'degraded', paragraphs: FULL_ENGLISH },
];

/** Mixed pages: Hei, Ming and Noto Sans, whose own Latin letters set the English words. */
export const MIXED_PAGES: PageSpec[] = [
  { name: 'mixed Hei 11pt 300dpi', font: 'WenQuanYi Zen Hei', points: 11, dpi: 300, variant: 'clean', paragraphs: MIXED_PARAGRAPHS },
  { name: 'mixed Ming 12pt 300dpi', font: 'AR PL UMing CN', points: 12, dpi: 300, variant: 'clean', paragraphs: MIXED_PARAGRAPHS },
  { name: 'mixed Noto Sans 10pt 300dpi', font: 'Noto Sans CJK SC', points: 10, dpi: 300, variant: 'clean', paragraphs: MIXED_PARAGRAPHS },
];

/**
 * A screenshot-sized paragraph block (issue 46): the first paragraph of 故乡, 桃花源记's and two
 * sentences more, 213 characters of Ming 12 pt at 300 dpi on a 2556 × 954 image — what people
 * send most: a screenshot or a photographed paragraph, not an A4 page.
 */
export const CHINESE_BLOCK: PageSpec & { size: { width: number; height: number } } = {
  name: 'zh Ming 12pt block 2556x954',
  font: 'AR PL UMing CN',
  points: 12,
  dpi: 300,
  variant: 'clean',
  paragraphs: [`${CHINESE_PARAGRAPHS[0] as string}${CHINESE_PARAGRAPHS[2] as string}我所记得的故乡全不如此。我的故乡好得多了。`],
  size: { width: 2556, height: 954 },
};

/**
 * Issue 46's dense page: about 2,400 characters at 10.5 pt (五号) on one A4 sheet — six long
 * paragraphs (2,496 characters) with 0.6 in margins and lines 0.2 em apart, as a packed office
 * document sets them. (The earlier row, 2,080 characters in 20 short paragraphs at the page
 * set's 0.8 in and 0.5 em, ran to 2481 × 5320: one and a half A4 pages.)
 */
export const CHINESE_DENSE: PageSpec = {
  name: 'zh Ming 10.5pt 300dpi dense',
  font: 'AR PL UMing CN',
  points: 10.5,
  dpi: 300,
  variant: 'clean',
  paragraphs: Array.from({ length: 6 }, () => CHINESE_PARAGRAPHS.join('')),
  margin: 0.6,
  lineSpacing: 0.2,
};
export function expectedText(page: Pick<PageSpec, 'paragraphs'>): string {
  return page.paragraphs.join('\n');
}

/** The page as a PNG (clean, degraded) or JPEG (photo), A4 at the page's dpi unless it has a size of its own. */
export async function renderTestPage(page: PageSpec & { size?: { width: number; height: number } }): Promise<Buffer> {
  const width = page.size?.width ?? Math.round(A4_INCHES.width * page.dpi);
  const height = page.size?.height ?? Math.round(A4_INCHES.height * page.dpi);
  const margin = Math.round(page.dpi * (page.margin ?? (page.size ? 0.3 : 0.8)));
  const markup = page.paragraphs.map(escapeMarkup).join('\n\n');
  const { data, info } = await sharp({
    text: {
      text: markup,
      font: `${page.font} ${page.points}`,
      dpi: page.dpi,
      width: width - 2 * margin,
      wrap: 'word-char',
      spacing: Math.round(((page.points * page.dpi) / 72) * (page.lineSpacing ?? 0.5)),
    },
  })
    .flatten({ background: '#000000' })
    .png()
    .toBuffer({ resolveWithObject: true });
  const text = await sharp(data)
    .extend({
      top: margin,
      left: margin,
      right: Math.max(0, width - margin - info.width),
      bottom: Math.max(0, height - margin - info.height),
      background: '#000000',
    })
    .negate({ alpha: false })
    .greyscale()
    .png()
    .toBuffer();
  return degrade(text, page.variant);
}

async function degrade(png: Buffer, variant: Variant): Promise<Buffer> {
  if (variant === 'clean') return png;
  const { data, info } = await sharp(png).greyscale().raw().toBuffer({ resolveWithObject: true });
  const pixels = new Uint8Array(data);
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  if (variant === 'degraded') {
    // A worn scan: grey paper, Gaussian-ish noise, blurred strokes, saved as a low-quality JPEG.
    for (let i = 0; i < pixels.length; i++) pixels[i] = clampByte((pixels[i] as number) * 0.85 + 25 + (random() + random() + random() - 1.5) * 40);
    const blurred = await sharp(pixels, { raw: { width: info.width, height: info.height, channels: 1 } })
      .blur(1.2)
      .jpeg({ quality: 35 })
      .toBuffer();
    return sharp(blurred).png().toBuffer();
  }
  // A phone photo: uneven light across the sheet, slightly turned, soft focus, JPEG.
  for (let y = 0; y < info.height; y++) {
    for (let x = 0; x < info.width; x++) {
      const i = y * info.width + x;
      const light = 0.72 + 0.25 * (x / info.width) * (1 - 0.4 * (y / info.height));
      pixels[i] = clampByte((pixels[i] as number) * light + 10 + (random() - 0.5) * 16);
    }
  }
  return sharp(pixels, { raw: { width: info.width, height: info.height, channels: 1 } })
    .rotate(2.5, { background: '#8a8a8a' })
    .blur(0.8)
    .jpeg({ quality: 70 })
    .toBuffer();
}

/**
 * Chinese set vertically as books and signs print it: columns of `perColumn` characters read
 * top to bottom, the first column on the right. Each column is laid out by pango-view (glyphs
 * upright, line turned), then ImageMagick puts them side by side, right to left; a PNG.
 */
export function renderVerticalPage(text: string, { font = 'AR PL UMing CN', points = 14, dpi = 300, perColumn = 16 } = {}): Buffer {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docwasm-vertical-'));
  try {
    const chars = [...text];
    const columns: string[] = [];
    for (let start = 0; start < chars.length; start += perColumn) {
      const file = path.join(dir, `column-${columns.length}.png`);
      const chunk = chars.slice(start, start + perColumn).join('');
      execFileSync('pango-view', [
        '-q',
        `--font=${font} ${points}`,
        `--dpi=${dpi}`,
        '--gravity=east',
        '--gravity-hint=strong',
        '--rotate=-90',
        '--margin=20',
        `--output=${file}`,
        `--text=${chunk}`,
      ]);
      columns.push(file);
    }
    const out = path.join(dir, 'page.png');
    execFileSync('convert', [
      '-background',
      'white',
      '-gravity',
      'north',
      ...columns.reverse(),
      '+append',
      '-bordercolor',
      'white',
      '-border',
      '150',
      '-colorspace',
      'Gray',
      '+repage',
      out,
    ]);
    return fs.readFileSync(out);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function clampByte(value: number): number {
  return value < 0 ? 0 : value > 255 ? 255 : Math.round(value);
}

function escapeMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** An image (a file or its bytes) as PP-OCR's grey raster, decoded by sharp: how the benches and tests hand pages to the engine in-process. */
export async function greyRaster(image: string | Buffer): Promise<Raster> {
  const { data, info } = await sharp(image).greyscale().raw().toBuffer({ resolveWithObject: true });
  return { width: info.width, height: info.height, channels: 1, data };
}
