// Writes docs/configuration.md from the variable registry (packages/config/src/variables-*.ts),
// formatted as prettier formats the repository. Run through `npm run docs:config` (builds first);
// packages/config/test/configuration-doc.test.ts fails while the file is out of date.
import { createRequire } from 'node:module';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';

const require = createRequire(import.meta.url);
const { configurationMarkdown } = require('../dist/index.js');
const target = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'docs', 'configuration.md');
const options = (await prettier.resolveConfig(target)) ?? {};
writeFileSync(target, await prettier.format(configurationMarkdown(), { ...options, filepath: target }));
console.log(`wrote ${path.relative(process.cwd(), target)}`);
