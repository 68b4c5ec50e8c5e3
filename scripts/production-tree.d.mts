/** Install paths (`node_modules/…`) of the production tree of a lock's `packages`. */
export function productionTree(packages: Record<string, { dependencies?: Record<string, string>; optionalDependencies?: Record<string, string> }>): string[];
