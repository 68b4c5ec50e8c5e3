// The module arrows `npm run lint` holds (dependency-cruiser): no import cycle, type-only
// imports included (a cycle of types still ties two modules into one); three floors — core/ (the
// bottom layer: errors, the shared kernel, the worker and office protocols) imports neither
// wasm/ nor src/, and wasm/ (the code that runs inside engine workers) imports core/, never src/;
// and no door importing another door — HTTP, CLI, MCP and the watcher each build on the
// operations and the runtime, not on each other.

const DOORS = '^src/(http|cli|mcp|watch)/';

export default {
  forbidden: [
    {
      name: 'core-is-the-bottom',
      severity: 'error',
      comment: 'core/ is what the service and the engine workers both build on: it imports neither of them.',
      from: { path: '^core/' },
      to: { path: '^(src|wasm)/' },
    },
    {
      name: 'workers-below-the-service',
      severity: 'error',
      comment: 'wasm/ runs inside engine workers and the office host: it imports core/, never the service (src/).',
      from: { path: '^wasm/' },
      to: { path: '^src/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'Modules that import each other cannot be read, tested or loaded one at a time.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-door-to-door',
      severity: 'error',
      comment:
        'A door (src/http, src/cli, src/mcp, src/watch) imports only what every door shares (src/config.ts, src/operations, ...). ' +
        'src/cli/main.ts is the program itself, not a door: it loads the door its command names; src/cli/watch.ts is the ' +
        'command that starts the watcher door (alone, or beside the HTTP door with serve --watch).',
      from: { path: DOORS, pathNot: '^src/cli/(main|watch)[.]ts$' },
      to: { path: DOORS, pathNot: '^src/$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
