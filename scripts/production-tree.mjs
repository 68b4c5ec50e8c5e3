// The packages an install of docwasm brings, read from a package-lock.json: those reachable from
// its dependencies and optional dependencies through theirs — not through peer dependencies,
// which npm does not install for a user of docwasm. The WebAssembly office names sharp (a native
// image library, docwasm's dev tool) and jszip optional peers, so the lock marks them devOptional
// and sharp's platform packages plain optional; `npm ci --omit=dev` keeps them, a user's install
// does not. The portable bundle (scripts/bundle.mjs) removes what this leaves out, and
// test/packaging/install-scripts.test.ts checks this tree holds no install script or native code.

/** Install paths (`node_modules/…`) of the production tree of `packages` (the lock's `packages`). */
export function productionTree(packages) {
  const found = new Set();
  const visit = (from, entry) => {
    for (const name of Object.keys({ ...entry?.dependencies, ...entry?.optionalDependencies })) {
      const where = resolveInLock(packages, from, name);
      if (where === undefined || found.has(where)) continue;
      found.add(where);
      visit(where, packages[where]);
    }
  };
  visit('', packages['']);
  return [...found];
}

/** Where Node would find `name` from the package at `from`: its own node_modules, then each parent's. */
function resolveInLock(packages, from, name) {
  for (let dir = from; ; dir = dir.slice(0, Math.max(0, dir.lastIndexOf('/node_modules/')))) {
    const where = `${dir === '' ? '' : `${dir}/`}node_modules/${name}`;
    if (Object.hasOwn(packages, where)) return where;
    if (dir === '') return undefined;
  }
}
