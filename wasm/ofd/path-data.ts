// OFD's AbbreviatedData (GB/T 33190 §9.3.2): S/M x y start a subpath, L x y a line, Q x1 y1 x y a
// quadratic and B x1 y1 x2 y2 x y a cubic Bézier, A rx ry angle large sweep x y an elliptical arc,
// C closes. Everything becomes M/L/C/Z, the drawing vocabulary of a PDF content stream.

import type { PathSegment } from './model.js';

const ARITY: Readonly<Record<string, number>> = { S: 2, M: 2, L: 2, Q: 4, B: 6, A: 7, C: 0 };

/** The path's segments; an unknown command or missing numbers end the path where it went wrong. */
export function parsePathData(data: string): PathSegment[] {
  const tokens = data
    .trim()
    .split(/[\s,]+/)
    .filter(Boolean);
  const segments: PathSegment[] = [];
  let x = 0;
  let y = 0;
  let startX = 0;
  let startY = 0;
  for (let i = 0; i < tokens.length;) {
    const command = tokens[i++] as string;
    const arity = ARITY[command];
    if (arity === undefined) break;
    const n = tokens.slice(i, i + arity).map(Number);
    if (n.length < arity || n.some((v) => !Number.isFinite(v))) break;
    i += arity;
    const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0, g = 0] = n;
    if (command === 'S' || command === 'M') {
      segments.push({ op: 'M', x: a, y: b });
      [x, y, startX, startY] = [a, b, a, b];
    } else if (command === 'L') {
      segments.push({ op: 'L', x: a, y: b });
      [x, y] = [a, b];
    } else if (command === 'Q') {
      // The cubic with the same curve: control points 2/3 of the way to the quadratic's one.
      segments.push({ op: 'C', points: [x + (2 / 3) * (a - x), y + (2 / 3) * (b - y), c + (2 / 3) * (a - c), d + (2 / 3) * (b - d), c, d] });
      [x, y] = [c, d];
    } else if (command === 'B') {
      segments.push({ op: 'C', points: [a, b, c, d, e, f] });
      [x, y] = [e, f];
    } else if (command === 'A') {
      segments.push(...arcToBeziers(x, y, a, b, c, d !== 0, e !== 0, f, g));
      [x, y] = [f, g];
    } else {
      segments.push({ op: 'Z' });
      [x, y] = [startX, startY];
    }
  }
  return segments;
}

/** An SVG-style endpoint arc as cubic Béziers of at most 90° each (SVG 1.1 appendix F.6). */
function arcToBeziers(
  x1: number,
  y1: number,
  rxIn: number,
  ryIn: number,
  angleDegrees: number,
  large: boolean,
  sweep: boolean,
  x2: number,
  y2: number,
): PathSegment[] {
  let rx = Math.abs(rxIn);
  let ry = Math.abs(ryIn);
  if (rx === 0 || ry === 0 || (x1 === x2 && y1 === y2)) return [{ op: 'L', x: x2, y: y2 }];
  const phi = (angleDegrees * Math.PI) / 180;
  const cos = Math.cos(phi);
  const sin = Math.sin(phi);
  const dx = (x1 - x2) / 2;
  const dy = (y1 - y2) / 2;
  const x1p = cos * dx + sin * dy;
  const y1p = -sin * dx + cos * dy;
  const scale = (x1p * x1p) / (rx * rx) + (y1p * y1p) / (ry * ry);
  if (scale > 1) {
    rx *= Math.sqrt(scale);
    ry *= Math.sqrt(scale);
  }
  const numerator = rx * rx * ry * ry - rx * rx * y1p * y1p - ry * ry * x1p * x1p;
  const denominator = rx * rx * y1p * y1p + ry * ry * x1p * x1p;
  const root = (large === sweep ? -1 : 1) * Math.sqrt(Math.max(0, numerator / denominator));
  const cxp = (root * rx * y1p) / ry;
  const cyp = (-root * ry * x1p) / rx;
  const cx = cos * cxp - sin * cyp + (x1 + x2) / 2;
  const cy = sin * cxp + cos * cyp + (y1 + y2) / 2;
  const angle = (ux: number, uy: number, vx: number, vy: number) => Math.atan2(ux * vy - uy * vx, ux * vx + uy * vy);
  const start = angle(1, 0, (x1p - cxp) / rx, (y1p - cyp) / ry);
  let delta = angle((x1p - cxp) / rx, (y1p - cyp) / ry, (-x1p - cxp) / rx, (-y1p - cyp) / ry);
  if (!sweep && delta > 0) delta -= 2 * Math.PI;
  if (sweep && delta < 0) delta += 2 * Math.PI;
  const pieces = Math.max(1, Math.ceil(Math.abs(delta) / (Math.PI / 2) - 1e-9));
  const step = delta / pieces;
  const k = (4 / 3) * Math.tan(step / 4);
  const point = (t: number): [number, number] => [cx + rx * Math.cos(t) * cos - ry * Math.sin(t) * sin, cy + rx * Math.cos(t) * sin + ry * Math.sin(t) * cos];
  const tangent = (t: number): [number, number] => [-rx * Math.sin(t) * cos - ry * Math.cos(t) * sin, -rx * Math.sin(t) * sin + ry * Math.cos(t) * cos];
  const segments: PathSegment[] = [];
  for (let i = 0; i < pieces; i++) {
    const t1 = start + i * step;
    const t2 = t1 + step;
    const [p1x, p1y] = point(t1);
    const [p2x, p2y] = point(t2);
    const [d1x, d1y] = tangent(t1);
    const [d2x, d2y] = tangent(t2);
    segments.push({ op: 'C', points: [p1x + k * d1x, p1y + k * d1y, p2x - k * d2x, p2y - k * d2y, p2x, p2y] });
  }
  return segments;
}
