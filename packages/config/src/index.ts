export type { Config } from './config';
export { loadConfig } from './load-config';
export { ConfigError } from './config-error';
export { CONFIG_VARIABLES, LOG_LEVELS, type ConfigVariable } from './variables';
export { configTableMarkdown } from './config-table';
