// Plane geometry for text boxes: convex hull, minimum-area rotated rectangle (what OpenCV's
// minAreaRect + boxPoints give PaddleOCR) and the corner order PaddleOCR's get_mini_boxes uses.

export interface Point {
  x: number;
  y: number;
}

/** Four corners: top-left, top-right, bottom-right, bottom-left (as read, before any rotation). */
export type Quad = [Point, Point, Point, Point];

/** Andrew's monotone chain; returns the hull counter-clockwise (y down: clockwise on screen), no repeats. */
export function convexHull(points: readonly Point[]): Point[] {
  const sorted = [...points].sort((a, b) => a.x - b.x || a.y - b.y);
  if (sorted.length < 3) return sorted;
  const cross = (o: Point, a: Point, b: Point) => (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
  const half = (list: readonly Point[]) => {
    const chain: Point[] = [];
    for (const p of list) {
      while (chain.length >= 2 && cross(chain[chain.length - 2] as Point, chain[chain.length - 1] as Point, p) <= 0) chain.pop();
      chain.push(p);
    }
    chain.pop();
    return chain;
  };
  return [...half(sorted), ...half([...sorted].reverse())];
}

/**
 * The smallest rectangle around the points, by rotating calipers: one side of it lies on an
 * edge of the hull. Returns its four corners (in no particular order) and its short side.
 */
export function minAreaRect(points: readonly Point[]): { corners: Point[]; shortSide: number } {
  const hull = convexHull(points);
  if (hull.length === 0) return { corners: [], shortSide: 0 };
  if (hull.length === 1) {
    const p = hull[0] as Point;
    return { corners: [p, p, p, p], shortSide: 0 };
  }
  let best = { area: Infinity, corners: [] as Point[], shortSide: 0 };
  for (let i = 0; i < hull.length; i++) {
    const a = hull[i] as Point;
    const b = hull[(i + 1) % hull.length] as Point;
    const length = Math.hypot(b.x - a.x, b.y - a.y);
    if (length === 0) continue;
    const ux = (b.x - a.x) / length;
    const uy = (b.y - a.y) / length;
    let minU = Infinity;
    let maxU = -Infinity;
    let minV = Infinity;
    let maxV = -Infinity;
    for (const p of hull) {
      const u = (p.x - a.x) * ux + (p.y - a.y) * uy;
      const v = -(p.x - a.x) * uy + (p.y - a.y) * ux;
      minU = Math.min(minU, u);
      maxU = Math.max(maxU, u);
      minV = Math.min(minV, v);
      maxV = Math.max(maxV, v);
    }
    const area = (maxU - minU) * (maxV - minV);
    if (area < best.area) {
      const at = (u: number, v: number): Point => ({ x: a.x + u * ux - v * uy, y: a.y + u * uy + v * ux });
      best = { area, corners: [at(minU, minV), at(maxU, minV), at(maxU, maxV), at(minU, maxV)], shortSide: Math.min(maxU - minU, maxV - minV) };
    }
  }
  return { corners: best.corners, shortSide: best.shortSide };
}

/**
 * PaddleOCR's corner order (get_mini_boxes): sorted by x, the left pair and the right pair
 * each split by y into top and bottom.
 */
export function orderCorners(corners: readonly Point[]): Quad {
  const [a, b, c, d] = [...corners].sort((p, q) => p.x - q.x) as [Point, Point, Point, Point];
  const [topLeft, bottomLeft] = a.y <= b.y ? [a, b] : [b, a];
  const [topRight, bottomRight] = c.y <= d.y ? [c, d] : [d, c];
  return [topLeft, topRight, bottomRight, bottomLeft];
}

export function distance(a: Point, b: Point): number {
  return Math.hypot(a.x - b.x, a.y - b.y);
}

/** Shoelace area and perimeter of a closed polygon. */
export function areaAndPerimeter(polygon: readonly Point[]): { area: number; perimeter: number } {
  let twiceArea = 0;
  let perimeter = 0;
  for (let i = 0; i < polygon.length; i++) {
    const a = polygon[i] as Point;
    const b = polygon[(i + 1) % polygon.length] as Point;
    twiceArea += a.x * b.y - b.x * a.y;
    perimeter += distance(a, b);
  }
  return { area: Math.abs(twiceArea) / 2, perimeter };
}

/** Whether p lies inside (or on) a convex polygon given in either winding. */
export function insideConvex(polygon: readonly Point[], p: Point): boolean {
  let sign = 0;
  for (let i = 0; i < polygon.length; i++) {
    const a = polygon[i] as Point;
    const b = polygon[(i + 1) % polygon.length] as Point;
    const cross = (b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x);
    if (cross === 0) continue;
    if (sign === 0) sign = Math.sign(cross);
    else if (Math.sign(cross) !== sign) return false;
  }
  return true;
}
