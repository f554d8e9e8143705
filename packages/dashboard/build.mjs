// Builds the dashboard into dist/public: index.html plus content-hashed assets under assets/.
//   node build.mjs                  type-check (tsc -b) then bundle
//   node build.mjs --no-typecheck   bundle only (the root build already ran tsc -b)
// The edge serves dist/public (services/edge/src/http/static.ts).
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);
const out = join(here, 'dist', 'public');
const assets = join(out, 'assets');

if (!process.argv.includes('--no-typecheck')) {
  // tsc -b also builds the referenced protocol and client packages, whose dist/ the bundle reads.
  const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-b', join(here, 'tsconfig.json')], {
    stdio: 'inherit',
  });
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
}

// The protocol package's root also exports ajv validation, which compiles schemas with
// `new Function` (the CSP has no 'unsafe-eval') and weighs ~150 kB: send every import of the root
// to a validation-free re-export of its modules.
const protocolWithoutValidation = {
  name: 'protocol-without-validation',
  setup(build) {
    build.onResolve({ filter: /^@pty-ws\/protocol$/ }, () => ({ path: join(here, 'src', 'protocol-browser.ts') }));
  },
};

rmSync(out, { recursive: true, force: true });
mkdirSync(assets, { recursive: true });

const result = await esbuild.build({
  absWorkingDir: here,
  entryPoints: { app: 'src/main.ts', style: 'static/dashboard.css' },
  outdir: assets,
  entryNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  bundle: true,
  format: 'esm',
  platform: 'browser',
  target: ['es2022'],
  minify: true,
  sourcemap: 'linked',
  legalComments: 'eof',
  metafile: true,
  logLevel: 'warning',
  plugins: [protocolWithoutValidation],
});

const inputs = Object.keys(result.metafile.inputs);
const leaked = inputs.filter((p) => /node_modules\/ajv|protocol\/(dist|src)\/(validate|schemas)/.test(p));
if (leaked.length > 0) {
  console.error(`dashboard bundle must not contain validation code: ${leaked.join(', ')}`);
  process.exit(1);
}

const outputs = Object.entries(result.metafile.outputs);
const entry = (ext) => {
  const found = outputs.find(([file, o]) => o.entryPoint && file.endsWith(ext));
  if (!found) throw new Error(`esbuild produced no ${ext} entry`);
  return `/assets/${basename(found[0])}`;
};
const html = readFileSync(join(here, 'static', 'index.html'), 'utf8')
  .replace('{{js}}', entry('.js'))
  .replace('{{css}}', entry('.css'));
writeFileSync(join(out, 'index.html'), html);

const size = (ext) => outputs.filter(([f]) => f.endsWith(ext)).reduce((n, [, o]) => n + o.bytes, 0);
console.log(
  `dashboard: ${relative(process.cwd(), out) || '.'} (js ${Math.round(size('.js') / 1024)} kB, css ${Math.round(size('.css') / 1024)} kB)`,
);
