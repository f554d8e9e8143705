/**
 * The deploy contract (tests/deploy/lib/contract.ts) against the code: the metrics registry
 * exports every contract metric with its type and labels, and the configuration table knows the
 * operations variables with the contract's defaults.
 */
import { CONFIG_VARIABLES, loadConfig } from '@pty-ws/config';
import { Metrics } from '@pty-ws/telemetry';
import { DEFAULTS, defaultEdgeGrpcPort, KNOWN_ENV, METRIC_LABELS, METRICS } from '../deploy/lib/contract';

describe('metrics registry ↔ contract', () => {
  const metrics = new Metrics({ defaultMetrics: false });

  it.each(Object.entries(METRICS))('%s is a %s with the contract labels', async (name, type) => {
    const metric = metrics.registry.getSingleMetric(name);
    expect(metric).toBeDefined();
    const json = await metric!.get();
    expect(json.type).toBe(type);
    const labelNames = (metric as unknown as { labelNames: string[] }).labelNames;
    expect([...labelNames].sort()).toEqual([...(METRIC_LABELS[name] ?? labelNames)].sort());
  });

  it('every exported ptyws_* metric is bounded: no id-like label names', () => {
    for (const m of metrics.registry.getMetricsAsArray()) {
      const labelNames = (m as unknown as { labelNames: string[] }).labelNames;
      for (const l of labelNames)
        expect(`${m.name}: ${l}`).not.toMatch(/: .*(session|client|task|principal|token|id$)/);
    }
  });
});

describe('configuration table ↔ contract', () => {
  const byName = new Map(CONFIG_VARIABLES.map((v) => [v.name, v]));

  it('knows PTYWS_AGENT_METRICS_PORT and PTYWS_GRACE_PERIOD_S with the contract defaults', () => {
    expect(byName.get('PTYWS_AGENT_METRICS_PORT')?.default).toBe(String(DEFAULTS.agentMetricsPort));
    expect(byName.get('PTYWS_GRACE_PERIOD_S')?.default).toBe(String(DEFAULTS.gracePeriodS));
    expect(byName.get('PTYWS_PORT')?.default).toBe(String(DEFAULTS.edgePort));
    const config = loadConfig({});
    expect(config.agentMetricsPort).toBe(DEFAULTS.agentMetricsPort);
    expect(config.gracePeriodS).toBe(DEFAULTS.gracePeriodS);
  });

  it('derives the gRPC port from PTYWS_PORT as the contract does', () => {
    expect(loadConfig({}).grpcPort).toBe(DEFAULTS.edgeGrpcPort);
    for (const port of ['8080', '8081', '9000'])
      expect(loadConfig({ PTYWS_PORT: port }).grpcPort).toBe(defaultEdgeGrpcPort(port));
  });

  it('every operations variable of the config table is one the deploy artifacts may set', () => {
    for (const name of ['PTYWS_AGENT_METRICS_PORT', 'PTYWS_GRACE_PERIOD_S', 'PTYWS_LOG_LEVEL']) {
      expect(byName.has(name)).toBe(true);
      expect(KNOWN_ENV as readonly string[]).toContain(name);
    }
  });
});
