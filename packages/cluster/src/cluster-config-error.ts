/** Cluster mode was asked for without the configuration it needs (exit 2, like any config error). */
export class ClusterConfigError extends Error {}
