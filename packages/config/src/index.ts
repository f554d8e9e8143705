export type { Config } from './config';
export { loadConfig, variableIsSet } from './load-config';
export { AGENT_METRICS_SPARE_PORTS } from './defaults';
export { ConfigError } from './config-error';
export { CONFIG_VARIABLES, LOG_LEVELS, type ConfigVariable } from './variables';
export { configTableMarkdown } from './config-table';
export { isLoopbackHost } from './loopback';
export { SERVICE_NODE_FLAGS, missingServiceNodeFlags, nodeFlagsWarning } from './node-flags';
