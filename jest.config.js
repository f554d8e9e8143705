/** One jest run over every workspace; TypeScript is transpiled per file (tsc -b does the type check). */
const packages = [
  'protocol',
  'ports',
  'a2a',
  'a2a-proto',
  'config',
  'terminal-state',
  'adapters-memory',
  'adapters-nats',
  'adapters-postgres',
  'client',
  'control-nats',
  'testkit',
  'telemetry',
  'ptyctl',
];
const services = ['edge', 'pty-agent', 'standalone'];
const moduleNameMapper = {};
// A subpath of a package's `exports` map (`@pty-ws/edge/internal`, `@pty-ws/testkit/contracts`)
// names the source module it is built from.
for (const p of packages) {
  moduleNameMapper[`^@pty-ws/${p}$`] = `<rootDir>/packages/${p}/src`;
  moduleNameMapper[`^@pty-ws/${p}/(.+)$`] = `<rootDir>/packages/${p}/src/$1`;
}
for (const s of services) {
  moduleNameMapper[`^@pty-ws/${s}$`] = `<rootDir>/services/${s}/src`;
  moduleNameMapper[`^@pty-ws/${s}/(.+)$`] = `<rootDir>/services/${s}/src/$1`;
}

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/services', '<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  moduleNameMapper,
  // Every TestClient checks that `sequence` never decreases on its connection; this fails the test.
  setupFilesAfterEnv: ['<rootDir>/tests/setup/sequence-guard.ts'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json' }],
  },
  testTimeout: 30000,
  // Real PTYs, sockets and servers: two workers on the two cores keep timing honest.
  maxWorkers: 2,
};
