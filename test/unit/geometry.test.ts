import { describe, expect, it } from 'vitest';
import { planResize } from '../../wasm/image/geometry.js';

const src = { width: 400, height: 200 };
const whole = { x: 0, y: 0, width: 400, height: 200 };

describe('planResize', () => {
  it('scales both sides by scale, at least 1 px', () => {
    expect(planResize(src, { scale: 0.5, fit: 'fill' })).toEqual({ width: 200, height: 100, source: whole });
    expect(planResize(src, { scale: 0.001, fit: 'fill' })).toMatchObject({ width: 1, height: 1 });
  });

  it('keeps the aspect ratio when only width or only height is given', () => {
    expect(planResize(src, { width: 100, fit: 'fill' })).toEqual({ width: 100, height: 50, source: whole });
    expect(planResize(src, { height: 50, fit: 'fill' })).toEqual({ width: 100, height: 50, source: whole });
  });

  it('fill: stretches to both sides', () => {
    expect(planResize(src, { width: 100, height: 100, fit: 'fill' })).toEqual({ width: 100, height: 100, source: whole });
  });

  it('inside: fits within both sides, keeping the aspect ratio', () => {
    expect(planResize(src, { width: 100, height: 100, fit: 'inside' })).toEqual({ width: 100, height: 50, source: whole });
  });

  it('cover: fills both sides and keeps the centred part of the source', () => {
    expect(planResize(src, { width: 100, height: 100, fit: 'cover' })).toEqual({ width: 100, height: 100, source: { x: 100, y: 0, width: 200, height: 200 } });
  });

  it('refuses a request with no size with VALIDATION_ERROR', () => {
    expect(() => planResize(src, { fit: 'fill' })).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
  });
});
