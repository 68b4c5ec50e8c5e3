// Turns request paths into absolute, policy-checked paths. The allowed-dirs check runs on the
// real path (symlinks and `..` resolved) and before any existence check, so a refused path
// reveals nothing about what exists outside the allowed dirs.

import fs from 'node:fs/promises';
import path from 'node:path';
import { ApiError } from '../errors.js';

export interface PathPolicy {
  baseDir: string;
  /** Real paths of the allowed directories; empty = everything allowed. */
  allowedDirs: readonly string[];
  maxInputBytes: number;
}

export async function createPathPolicy(baseDir: string, allowDirs: readonly string[], maxInputBytes: number): Promise<PathPolicy> {
  const allowedDirs = await Promise.all(allowDirs.map((dir) => realPathOfPossiblyMissing(dir)));
  return { baseDir, allowedDirs, maxInputBytes };
}

/** An existing regular file that may be read. */
export async function resolveInputPath(policy: PathPolicy, raw: string): Promise<string> {
  const absolute = await resolveAllowed(policy, raw);
  const stat = await fs.stat(absolute).catch(() => undefined);
  if (!stat?.isFile()) throw new ApiError('FILE_NOT_FOUND', `Input file not found: ${raw}`);
  if (stat.size > policy.maxInputBytes) {
    throw new ApiError('TOO_LARGE', `Input file ${raw} is ${stat.size} bytes; the limit is ${policy.maxInputBytes}`);
  }
  return absolute;
}

/** A path that may be written; it need not exist yet. */
export async function resolveOutputPath(policy: PathPolicy, raw: string): Promise<string> {
  return resolveAllowed(policy, raw);
}

async function resolveAllowed(policy: PathPolicy, raw: string): Promise<string> {
  const absolute = path.resolve(policy.baseDir, raw);
  if (policy.allowedDirs.length > 0) {
    const real = await realPathOfPossiblyMissing(absolute);
    if (!policy.allowedDirs.some((dir) => isInside(real, dir))) {
      throw new ApiError('PATH_NOT_ALLOWED', `Path is outside the allowed directories: ${raw}`);
    }
  }
  return absolute;
}

/** realpath of the deepest existing ancestor, with the missing rest appended. */
async function realPathOfPossiblyMissing(absolute: string): Promise<string> {
  const missing: string[] = [];
  let current = path.resolve(absolute);
  for (;;) {
    try {
      return path.join(await fs.realpath(current), ...missing.reverse());
    } catch {
      const parent = path.dirname(current);
      if (parent === current) return path.resolve(absolute);
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

function isInside(candidate: string, dir: string): boolean {
  const relative = path.relative(dir, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** `report.final.pdf` → `report.final`. */
export function fileStem(filePath: string): string {
  const base = path.basename(filePath);
  const ext = path.extname(base);
  return ext ? base.slice(0, -ext.length) : base;
}

/** Lower-case extension without the dot (`.PDF` → `pdf`). */
export function extensionOf(filePath: string): string {
  return path.extname(filePath).slice(1).toLowerCase();
}
