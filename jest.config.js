// One jest run, three projects named for the kind of test (see design.md section 6):
// unit (*.spec.ts), int (*.int.spec.ts: real adapters and servers), e2e (*.e2e.spec.ts: whole service).
const { pathsToModuleNameMapper } = require('./infra/paths');

const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

const common = {
  transform: { '^.+\\.ts$': swc },
  moduleNameMapper: pathsToModuleNameMapper(),
  testEnvironment: 'node',
  rootDir: __dirname,
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/test'],
  modulePathIgnorePatterns: ['<rootDir>/dist'],
};

module.exports = {
  globalSetup: '<rootDir>/test/support/build-once.js',
  testSequencer: '<rootDir>/test/support/longest-first.js',
  rootDir: __dirname,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['**/*.spec.ts'], testPathIgnorePatterns: ['\\.int\\.spec\\.ts$', '\\.e2e\\.spec\\.ts$', '/node_modules/'] },
    { ...common, displayName: 'int', testMatch: ['**/*.int.spec.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['**/*.e2e.spec.ts'] },
  ],
};
