// Module boundaries of src/, checked by `npm run depcruise` (and .ci/run). Violations
// listed in .dependency-cruiser-known-violations.json are tolerated until they are worked
// off; that list must only shrink (rewrite it with `npm run depcruise:baseline` after
// breaking a cycle, never to admit a new violation).

// Folders of src/ still in an import cycle with each other, while it is worked off (none
// today). dependency-cruiser cannot baseline a folder violation, so these folders are left
// out of no-circular-folders and every import between them is a known-folder-cycles
// violation instead, which the baseline can list. Take a folder out once its cycles are
// broken, then run `npm run depcruise:baseline`; never add one to admit a new cycle.
const KNOWN_CYCLE_FOLDERS = [];
const known = `(${KNOWN_CYCLE_FOLDERS.join('|')})`;

// The shared kernel: folders of src/ any file may import directly, and that import no
// feature. Every other folder of src/ is a feature; the files at the top of src/ are the
// composition root (app.module.ts, app.ts, main.ts, entities.ts, data-source.ts) and the
// configuration, which is kernel too (KERNEL_FILES). docs/architecture.md: Modules.
const KERNEL_FOLDERS = ['commands', 'common', 'db', 'domain', 'openapi', 'outbox'];
const KERNEL_FILES = ['config\\.ts', 'config-fields\\.ts', 'config-files\\.ts', 'config\\.provider\\.ts', 'config\\.module\\.ts'];
const kernelFolder = `^src/(${KERNEL_FOLDERS.join('|')})/`;
const kernel = [kernelFolder, `^src/(${KERNEL_FILES.join('|')})$`];
const feature = { path: '^src/[^/]+/', pathNot: kernelFolder };

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      severity: 'error',
      comment: 'src/domain holds the rules as pure functions: it imports only src/domain (tests may use their dev tools).',
      from: { path: '^src/domain/', pathNot: '\\.spec\\.ts$' },
      to: { pathNot: '^src/domain/' },
    },
    {
      name: 'domain-specs-stay-in-domain',
      severity: 'error',
      comment: 'Domain tests use the domain and dev tools, nothing of the shell.',
      from: { path: '^src/domain/.+\\.spec\\.ts$' },
      to: { path: '^src/', pathNot: '^src/domain/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'No module may reach itself again through its imports.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-circular-folders',
      severity: 'error',
      comment: 'No folder of src/ may reach itself again through the imports of its modules (KNOWN_CYCLE_FOLDERS excepted).',
      scope: 'folder',
      from: KNOWN_CYCLE_FOLDERS.length ? { path: '^src/', pathNot: `^src/${known}$` } : { path: '^src/' },
      to: { circular: true },
    },
    ...(KNOWN_CYCLE_FOLDERS.length
      ? [
          {
            name: 'known-folder-cycles',
            severity: 'error',
            comment: 'Imports between the folders of KNOWN_CYCLE_FOLDERS: those listed in .dependency-cruiser-known-violations.json are tolerated, any other fails.',
            from: { path: `^src/${known}/` },
            to: { path: `^src/${known}/`, pathNot: '^src/$1/' },
          },
        ]
      : []),
    {
      name: 'features-through-index',
      severity: 'error',
      comment:
        'A feature folder is used from another folder only through its index.ts (its module class, the services, functions and types it exports), or its pure.ts where it has one (the part that needs no framework, for code that runs without Nest): not through its *.module.ts nor any other of its files. Within a folder, files import each other directly.',
      from: { path: '^src/([^/]+)/', pathNot: kernelFolder },
      to: { path: feature.path, pathNot: [kernelFolder, '^src/[^/]+/(index|pure)\\.ts$', '^src/$1/'] },
    },
    {
      name: 'composition-root-through-index',
      severity: 'error',
      comment:
        'The composition root at the top of src/ (app.module.ts, app.ts, main.ts) uses the features through their index.ts too; entities.ts excepted, as data-source.ts loads it without Nest (migrations, tests): see entities-list-takes-entities.',
      from: { path: '^src/[^/]+\\.ts$', pathNot: ['^src/entities\\.ts$', ...kernel] },
      to: { path: feature.path, pathNot: [kernelFolder, '^src/[^/]+/index\\.ts$'] },
    },
    {
      name: 'entities-list-takes-entities',
      severity: 'error',
      comment: 'src/entities.ts lists the TypeORM entities: it imports entity files only (*.entity.ts, *.entities.ts), no feature index that would load Nest.',
      from: { path: '^src/entities\\.ts$' },
      to: { path: feature.path, pathNot: [kernelFolder, '\\.entit(y|ies)\\.ts$'] },
    },
    {
      name: 'kernel-not-to-features',
      severity: 'error',
      comment: 'The kernel (KERNEL_FOLDERS, KERNEL_FILES) is what features share: it imports no feature folder.',
      from: { path: kernel },
      to: feature,
    },
    {
      name: 'kernel-not-to-composition-root',
      severity: 'error',
      comment: 'Nor the composition root at the top of src/ (app.module.ts, app.ts, entities.ts...).',
      from: { path: kernel },
      to: { path: '^src/[^/]+\\.ts$', pathNot: kernel },
    },
    {
      name: 'src-not-to-test-or-bench',
      severity: 'error',
      comment: 'The app never imports test or benchmark code.',
      from: { path: '^src/', pathNot: '\\.spec\\.ts$' },
      to: { path: '^(test|bench)/' },
    },
    {
      name: 'specs-use-test-support-only',
      severity: 'error',
      comment: 'The tests inside src/ (*.spec.ts) may use the test helpers of test/support/ (kept out of the build), nothing else of test/ or bench/.',
      from: { path: '^src/.+\\.spec\\.ts$' },
      to: { path: '^(test|bench)/', pathNot: '^test/support/' },
    },
    {
      name: 'src-not-to-dev-dependencies',
      severity: 'error',
      comment: 'What the app imports must be installed in production (dependencies, not devDependencies).',
      from: { path: '^src/', pathNot: ['\\.spec\\.ts$', '^src/domain/test-helpers\\.ts$'] },
      to: { dependencyTypes: ['npm-dev'] },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      comment: 'Every import resolves to a file or an installed package.',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'no-orphans',
      severity: 'warn',
      comment: 'A module nothing imports and that imports nothing is dead code (entry points excepted).',
      from: {
        orphan: true,
        // The board page's script runs in the browser, served as a file.
        pathNot: ['\\.d\\.ts$', '^src/main\\.ts$', '^src/openapi-write\\.ts$', '^src/boards/page/board\\.js$'],
      },
      to: {},
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['main', 'types', 'typings'],
    },
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
