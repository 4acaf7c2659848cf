/**
 * The import graph's rules (npm run lint:graph; docs/architecture.md): no cycle, no arrow from a package
 * to an app (tests included), and a browser bundle that takes nothing from Node or the server.
 * Type-only imports count: a cycle of types is still two places to read for one thing.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      comment: 'Modules import each other in a loop: move what both need into a third module.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-package-to-app',
      comment: 'A package imports an app (tests included): packages are what apps are built from, never the reverse.',
      severity: 'error',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    {
      name: 'no-app-to-sibling-app',
      comment:
        'Only apps/platform (all services in one process) composes other apps; the rest share code through ' +
        'packages. A warning: reported, not failing, while test scaffolding still starts a sibling app.',
      severity: 'warn',
      from: { path: '^apps/([^/]+)/', pathNot: '^apps/platform/' },
      to: { path: '^apps/([^/]+)/', pathNot: '^apps/$1/' },
    },
    {
      name: 'client-bundle-is-browser-only',
      comment: 'apps/landing/src/client ships to visitors: no Node built-ins, no npm packages, no server code.',
      severity: 'error',
      from: { path: '^apps/landing/src/client/', pathNot: '\\.test\\.ts$' },
      to: {
        pathNot: [
          '^apps/landing/src/client/',
          '^packages/attribution/src/form-source\\.vocabulary\\.ts$',
          '^packages/contracts/src/attribution-fields\\.ts$',
          '^packages/web/src/',
        ],
      },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import that resolves to no file.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|data|dist|coverage)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    combinedDependencies: false,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.js', '.json'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
