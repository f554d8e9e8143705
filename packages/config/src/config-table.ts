import { CONFIG_VARIABLES } from './variables';

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The configuration table of docs/configuration.md, generated from CONFIG_VARIABLES so the two never drift. */
export function configTableMarkdown(): string {
  const rows = CONFIG_VARIABLES.map((v) => `| \`${v.name}\` | \`${cell(v.default)}\` | ${cell(v.description)} |`);
  return ['| Variable | Default | Description |', '|---|---|---|', ...rows].join('\n') + '\n';
}
