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
for (const p of packages) moduleNameMapper[`^@pty-ws/${p}$`] = `<rootDir>/packages/${p}/src`;
for (const s of services) moduleNameMapper[`^@pty-ws/${s}$`] = `<rootDir>/services/${s}/src`;

module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/services', '<rootDir>/tests'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  moduleNameMapper,
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json' }],
  },
  testTimeout: 30000,
  // Real PTYs, sockets and servers: two workers on the two cores keep timing honest.
  maxWorkers: 2,
};
