// The module arrows `npm run lint` holds (dependency-cruiser): no import cycle, type-only
// imports included (a cycle of types still ties two modules into one), and no door importing
// another door — HTTP, CLI and MCP each build on the operations and the runtime, not on each other.

const DOORS = '^src/(http|cli|mcp)/';

export default {
  forbidden: [
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
        'A door (src/http, src/cli, src/mcp) imports only what every door shares (src/config.ts, src/operations, ...). ' +
        'src/cli/main.ts is the program itself, not a door: it loads the door its command names.',
      from: { path: DOORS, pathNot: '^src/cli/main[.]ts$' },
      to: { path: DOORS, pathNot: '^src/$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
