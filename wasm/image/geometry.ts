// Turns a resize request into exact pixel geometry: the output size, and for `cover` the part of
// the source to keep. Pure arithmetic, so every rule of the contract is testable here.

import { ApiError } from '../../core/errors.js';
import type { Dimensions } from './probe.js';
import type { Rect } from './pixels.js';

export type Fit = 'fill' | 'inside' | 'cover';

export interface ResizeRequest {
  width?: number;
  height?: number;
  scale?: number;
  fit: Fit;
}

export interface ResizePlan {
  width: number;
  height: number;
  /** Source region to resample (all of it unless `cover` crops). */
  source: Rect;
}

const atLeastOne = (value: number) => Math.max(1, Math.round(value));

export function planResize(src: Dimensions, { width, height, scale, fit }: ResizeRequest): ResizePlan {
  const whole: Rect = { x: 0, y: 0, width: src.width, height: src.height };
  if (scale !== undefined) return { width: atLeastOne(src.width * scale), height: atLeastOne(src.height * scale), source: whole };
  if (width !== undefined && height === undefined) return { width, height: atLeastOne((src.height * width) / src.width), source: whole };
  if (height !== undefined && width === undefined) return { width: atLeastOne((src.width * height) / src.height), height, source: whole };
  if (width === undefined || height === undefined) throw new ApiError('VALIDATION_ERROR', 'Give width, height or scale');
  if (fit === 'fill') return { width, height, source: whole };
  if (fit === 'inside') {
    const factor = Math.min(width / src.width, height / src.height);
    return { width: atLeastOne(src.width * factor), height: atLeastOne(src.height * factor), source: whole };
  }
  // cover: keep the centred part of the source with the target's aspect ratio.
  const factor = Math.max(width / src.width, height / src.height);
  const keepWidth = Math.min(src.width, Math.max(1, Math.round(width / factor)));
  const keepHeight = Math.min(src.height, Math.max(1, Math.round(height / factor)));
  const source = { x: Math.floor((src.width - keepWidth) / 2), y: Math.floor((src.height - keepHeight) / 2), width: keepWidth, height: keepHeight };
  return { width, height, source };
}

/**
 * The same plan for the image as decoded when that is not the size the plan was made for (a
 * JPEG shrunk on load): the source rectangle scaled, kept within the image.
 */
export function planFor(plan: ResizePlan, planned: Dimensions, decoded: Dimensions): ResizePlan {
  if (planned.width === decoded.width && planned.height === decoded.height) return plan;
  const scaleX = decoded.width / planned.width;
  const scaleY = decoded.height / planned.height;
  const x = Math.min(decoded.width - 1, Math.round(plan.source.x * scaleX));
  const y = Math.min(decoded.height - 1, Math.round(plan.source.y * scaleY));
  const width = Math.max(1, Math.min(decoded.width - x, Math.round((plan.source.x + plan.source.width) * scaleX) - x));
  const height = Math.max(1, Math.min(decoded.height - y, Math.round((plan.source.y + plan.source.height) * scaleY) - y));
  return { ...plan, source: { x, y, width, height } };
}
