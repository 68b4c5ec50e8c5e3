// OOXML relationship parts (`_rels/<part>.rels`): id → target, for links, slides, sheets, notes.

import path from 'node:path';
import type { OfficePackage } from './package.js';
import { childElements } from './xml.js';

export interface Relationship {
  type: string;
  /** As written: a URL for external targets, a part path relative to the source part otherwise. */
  target: string;
  external: boolean;
  /** The target part's name inside the package (internal targets only). */
  part?: string;
}

export type Relationships = ReadonlyMap<string, Relationship>;

export function relationships(pkg: OfficePackage, sourcePart: string): Relationships {
  const relsName = path.posix.join(path.posix.dirname(sourcePart), '_rels', `${path.posix.basename(sourcePart)}.rels`);
  const root = pkg.xml(relsName);
  const map = new Map<string, Relationship>();
  if (!root) return map;
  for (const rel of childElements(root, 'Relationship')) {
    const target = rel.attrs.Target ?? '';
    const external = rel.attrs.TargetMode === 'External';
    const part = external
      ? undefined
      : target.startsWith('/')
        ? target.slice(1)
        : path.posix.normalize(path.posix.join(path.posix.dirname(sourcePart), target));
    map.set(rel.attrs.Id ?? '', { type: rel.attrs.Type ?? '', target, external, ...(part !== undefined && { part }) });
  }
  return map;
}
