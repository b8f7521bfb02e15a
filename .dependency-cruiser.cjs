/**
 * The floor plan as rules (docs/architecture.md): a folder imports only from the layers below its own, never from a
 * peer of its layer and never in a loop. commands/, the product, stands above src/: only the entry points and the
 * playground reach it, and no command module imports another.
 */
/** The layers, from the top down; the rooms of one layer do not import each other. */
const LAYERS = [
  ['src/[^/]+[.]ts$'],
  ['src/playground/'],
  ['commands/'],
  ['src/web/'],
  ['src/app/'],
  ['src/discord/'],
  ['src/ladder/'],
  ['src/feeds/', 'src/jobs/'],
  ['src/catalog/'],
  ['src/render/'],
  ['src/store/', 'src/replica/'],
  ['src/game/', 'src/charts/'],
  ['src/api/'],
  ['src/cache/'],
  ['src/core/'],
  ['src/i18n/'],
];

const escape = (room) => room.replace(/\//g, '\\/');
const layerRules = LAYERS.slice(1).flatMap((rooms, below) =>
  rooms.map((room) => ({
    name: 'layers',
    comment: `${room} imports only from the layers below it (docs/architecture.md)`,
    severity: 'error',
    from: { path: `^${escape(room)}` },
    to: {
      path: LAYERS.slice(0, below + 2)
        .flat()
        .filter((other) => other !== room)
        .map((other) => `^${escape(other)}`),
    },
  })),
);

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...layerRules,
    {
      name: 'commands-apart',
      comment:
        'a command reaches another through custom-ID routes and the loaders of src/catalog/, never by import; a command of many files (commands/config/) imports only its own',
      severity: 'error',
      from: { path: '^commands/([^/]+)', pathNot: '^commands/index[.]ts$' },
      to: { path: '^commands/', pathNot: '^commands/$1/' },
    },
    {
      name: 'no-circular',
      comment: 'no loop of imports',
      severity: 'error',
      from: { path: '^(src|commands)/' },
      to: { circular: true },
    },
    {
      name: 'src-not-to-tests',
      comment: 'the bot never imports its tests, benchmarks or build scripts',
      severity: 'error',
      from: { path: '^(src|commands)/' },
      to: { path: '^(test|scripts)/' },
    },
    {
      name: 'no-unresolvable',
      comment: 'every import resolves',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^src/playground/web/|^src/replica/data/samples/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
