import { SERVICE_NODE_FLAGS } from './node-flags';
import { FILE_VARIABLES } from './secret-files';
import { SERVICE_ENV_PREFIX } from './service-env';
import type { ConfigVariable, Reader, Tier } from './variable-spec';
import { CONFIG_VARIABLES } from './variables';

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

const READER_TITLES: Readonly<Record<Reader, string>> = {
  edge: 'Read by the edge',
  agent: 'Read by the agent',
  both: 'Read by both',
};

const TIER_SECTIONS: readonly { tier: Exclude<Tier, 'test'>; title: string; intro: string }[] = [
  {
    tier: 'essential',
    title: 'Essential',
    intro: 'What a deployment sets: where it listens, its backends, its admin token, TLS and who sessions run as.',
  },
  {
    tier: 'operations',
    title: 'Operations',
    intro: 'Limits, retention and security policy an operator sizes for a deployment; the defaults suit a small one.',
  },
  {
    tier: 'tuning',
    title: 'Tuning',
    intro:
      'Trades the defaults already make well for most hosts. Each row says when one would change it; leave them unset otherwise.',
  },
];

/** One table of `rows`; tuning tables add the reason to change each variable. */
function table(rows: readonly ConfigVariable[], withWhy: boolean): string[] {
  const head = withWhy
    ? '| Variable | Default | When to change it | Description |'
    : '| Variable | Default | Description |';
  const rule = withWhy ? '|---|---|---|---|' : '|---|---|---|';
  const row = (v: ConfigVariable): string =>
    withWhy
      ? `| \`${v.name}\` | \`${cell(v.default)}\` | ${cell(v.why ?? '')} | ${cell(v.description)} |`
      : `| \`${v.name}\` | \`${cell(v.default)}\` | ${cell(v.description)} |`;
  return [head, rule, ...rows.map(row)];
}

/**
 * docs/configuration.md: every variable, by tier and then by the process that reads it, generated
 * from CONFIG_VARIABLES (`npm run docs:config`; packages/config/test/configuration-doc.test.ts
 * fails while the file is out of date). Unformatted: the script and the test run it through prettier.
 */
export function configurationMarkdown(variables: readonly ConfigVariable[] = CONFIG_VARIABLES): string {
  const out: string[] = [
    '# Configuration',
    '',
    '<!-- Generated from packages/config/src/variables-*.ts by `npm run docs:config`; do not edit by hand. -->',
    '',
    'pty-ws is configured by environment variables. Every variable is validated at start; bad values are all',
    'reported at once and the process exits 2. An unknown `PTYWS_*` name is reported with the closest known one.',
    '',
    'In single-node mode (`npm start`) one process reads them all. In cluster mode each variable is read by the',
    'edge (HTTP, WebSocket and gRPC front), the agent (owns sessions and their terminals) or both; the tables',
    'say which.',
    '',
    `Secrets may come from files: ${FILE_VARIABLES.map((n) => `\`${n}\``).join(', ')} name a file holding`,
    'the value, which then never sits in the process environment.',
    '',
    `Every service process is started with \`node ${SERVICE_NODE_FLAGS.join(' ')}\` and \`${SERVICE_ENV_PREFIX}\``,
    'in its environment, as `npm start`, `npm run edge`, `npm run agent` and the Dockerfiles do; without them it',
    'warns at start (output streams cost more CPU).',
  ];
  for (const section of TIER_SECTIONS) {
    const inTier = variables.filter((v) => v.tier === section.tier);
    out.push('', `## ${section.title}`, '', section.intro);
    for (const reader of ['edge', 'agent', 'both'] as const) {
      const rows = inTier.filter((v) => v.reader === reader);
      if (rows.length > 0)
        out.push(
          '',
          `### ${section.title}: ${READER_TITLES[reader].toLowerCase()}`,
          '',
          ...table(rows, section.tier === 'tuning'),
        );
    }
  }
  const testOnly = variables.filter((v) => v.tier === 'test');
  if (testOnly.length > 0) {
    out.push(
      '',
      '## For tests',
      '',
      'Read, so that tests and experiments can set them, but not meant for operators:',
      '',
    );
    for (const v of testOnly) out.push(`- \`${v.name}\` (default \`${v.default}\`): ${v.description}`);
  }
  return out.join('\n') + '\n';
}
