// What reading an OFD may cost, for drawing and for reading alike: every object, path operation
// and glyph it would draw is charged as the document is read — before anything is drawn —
// and a part used many times (a page part, a template, a composite graphic unit) is read once
// but charged at every use, so a few kilobytes that reuse one part 10,000 times are TOO_LARGE
// in the time it takes to reach the budget. Reuse also nests: a composite may use another one,
// up to 64 deep; deeper, or a part that ends up using itself, is INVALID_INPUT.

import { ApiError } from '../../core/errors.js';
import { Budget, MAX_NESTING, nestedTooDeep } from '../read/limits.js';
import type { OfdObject } from './model.js';

/**
 * Objects, path operations and glyphs one OFD may draw, reuse counted. A page of an e-invoice
 * costs a few thousand; each unit is a few dozen bytes of model and of PDF content stream, so the
 * budget holds a conversion to some hundreds of MB.
 */
const MAX_OFD_WORK = 5_000_000;

/** References (templates, composite graphic units) nested in one another. */
const MAX_REFERENCE_DEPTH = 64;

/** A reused part's objects and what each use of them costs. */
interface Built {
  objects: OfdObject[];
  cost: number;
  /** How much deeper its references and groups nest below it. */
  references: number;
  groups: number;
}

export class OfdBudget {
  private readonly work = new Budget(
    MAX_OFD_WORK,
    (limit) =>
      `The OFD would draw more than ${limit.toLocaleString('en-US')} objects, path operations and glyphs (a part used many times counted at each use); refused`,
  );
  private spent = 0;
  /** The references being read, outermost first (a cycle is one already in here). */
  private readonly references: string[] = [];
  /** Groups (page blocks, composites) being read inside one another. */
  private groups = 0;
  /** The deepest references and groups reached since the part being built began. */
  private deepest = { references: 0, groups: 0 };
  private readonly built = new Map<string, Built>();

  spend(count: number): void {
    this.work.spend(count);
    this.spent += count;
  }

  /**
   * The objects `reference` names, built once per `key` (a reference and what it inherits) and
   * charged at every use. A reference met again inside itself is a cycle: INVALID_INPUT.
   */
  reused(reference: string, key: string, build: () => OfdObject[]): OfdObject[] {
    const cached = this.built.get(key);
    if (cached) {
      this.reach(this.references.length + 1 + cached.references, this.groups + cached.groups);
      this.spend(cached.cost);
      return cached.objects;
    }
    if (this.references.includes(reference)) throw new ApiError('INVALID_INPUT', `The OFD's ${reference} uses itself (a reference cycle); refused`);
    const outer = { spent: this.spent, deepest: this.deepest };
    this.deepest = { references: 0, groups: 0 };
    this.references.push(reference);
    let objects: OfdObject[];
    try {
      this.reach(this.references.length, this.groups);
      objects = build();
    } finally {
      this.references.pop();
    }
    const entry = {
      objects,
      cost: this.spent - outer.spent,
      references: this.deepest.references - this.references.length - 1,
      groups: this.deepest.groups - this.groups,
    };
    this.built.set(key, entry);
    this.deepest = { references: Math.max(outer.deepest.references, this.deepest.references), groups: Math.max(outer.deepest.groups, this.deepest.groups) };
    return objects;
  }

  /** A page part's objects: built once, charged at every page that names it (nesting starts at a page). */
  page(key: string, build: () => OfdObject[]): OfdObject[] {
    const cached = this.built.get(key);
    if (cached) {
      this.spend(cached.cost);
      return cached.objects;
    }
    const before = this.spent;
    const objects = build();
    this.built.set(key, { objects, cost: this.spent - before, references: 0, groups: 0 });
    return objects;
  }

  /** What `build` makes inside one more group (a page block, a composite). */
  group<T>(build: () => T): T {
    this.groups++;
    try {
      this.reach(this.references.length, this.groups);
      return build();
    } finally {
      this.groups--;
    }
  }

  /** Records nesting this deep, or refuses it: references past 64, groups past the XML's own nesting bound. */
  private reach(references: number, groups: number): void {
    if (references > MAX_REFERENCE_DEPTH)
      throw new ApiError('INVALID_INPUT', `The OFD nests templates and composite graphics more than ${MAX_REFERENCE_DEPTH} deep; refused`);
    if (groups > MAX_NESTING) throw nestedTooDeep('The OFD');
    this.deepest = { references: Math.max(this.deepest.references, references), groups: Math.max(this.deepest.groups, groups) };
  }
}

/** Operations of a path's AbbreviatedData, counted without parsing it (one per command letter). */
export function pathOperations(data: string): number {
  let count = 0;
  for (let i = 0; i < data.length; i++) {
    const c = data.charCodeAt(i);
    // S M L Q B A C: the standard's commands (numbers hold no letters but e/E of exponents).
    if (c === 83 || c === 77 || c === 76 || c === 81 || c === 66 || c === 65 || c === 67) count++;
  }
  return count;
}
