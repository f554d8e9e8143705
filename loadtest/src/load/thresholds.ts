/**
 * The thresholds of the k6 scripts (loadtest/k6/*.ts), scenario by scenario, with k6's meaning:
 * Trend `p(N)<x` (ms), Rate `rate>x` (fraction true), Counter `count<x` and `rate>x` (per second
 * over the run). tests/bench/loadtest.test.ts checks this table against the scripts' text, so the
 * two drivers cannot drift apart.
 */
export const SCENARIOS = ['attach-storm', 'typing-latency', 'observer-fanout', 'reconnect-storm', 'token-mix'] as const;
export type ScenarioName = (typeof SCENARIOS)[number];

/** The count guard of metric `of` (k6 passes a threshold on an empty Trend or Rate; see k6/lib.ts). */
export const guard = (of: string): string => `ptyws_samples{of:${of}}`;

export const THRESHOLDS: Record<ScenarioName, Record<string, string[]>> = {
  'attach-storm': {
    ptyws_attach_keyframe_ms: ['p(95)<500', 'p(99)<1000'],
    ws_connecting: ['p(95)<300'],
    checks: ['rate>0.99'],
    [guard('ptyws_attach_keyframe_ms')]: ['count>0'],
    [guard('ws_connecting')]: ['count>0'],
    [guard('checks')]: ['count>0'],
  },
  'typing-latency': {
    ptyws_echo_ms: ['p(50)<20', 'p(99)<150'],
    checks: ['rate>0.99'],
    [guard('ptyws_echo_ms')]: ['count>0'],
    [guard('checks')]: ['count>0'],
  },
  'observer-fanout': {
    ptyws_fanout_bytes: ['rate>2000000', 'count>0'],
    ptyws_lagged: ['count<1'],
    checks: ['rate>0.99'],
    [guard('ptyws_lagged')]: ['count>0'],
    [guard('checks')]: ['count>0'],
  },
  'reconnect-storm': {
    ptyws_replay_ok: ['rate>0.99'],
    ptyws_rejoin_keyframe_ms: ['p(95)<500'],
    checks: ['rate>0.99'],
    [guard('ptyws_replay_ok')]: ['count>0'],
    [guard('ptyws_rejoin_keyframe_ms')]: ['count>0'],
    [guard('checks')]: ['count>0'],
  },
  'token-mix': {
    ptyws_auth_as_expected: ['rate>0.999'],
    ws_connecting: ['p(95)<250'],
    [guard('ptyws_auth_as_expected')]: ['count>0'],
    [guard('ws_connecting')]: ['count>0'],
  },
};

/** What a threshold expression compares: `p(95)`, `rate`, `count`, `avg`, `max`, `min`, `med`. */
export interface ParsedThreshold {
  stat: string;
  op: '<' | '<=' | '>' | '>=' | '==';
  value: number;
}

export function parseThreshold(expr: string): ParsedThreshold {
  const m = /^\s*(p\(\d+(?:\.\d+)?\)|rate|count|avg|min|max|med)\s*(<=|>=|==|<|>)\s*(-?\d+(?:\.\d+)?)\s*$/.exec(expr);
  if (!m) throw new Error(`unsupported threshold expression '${expr}'`);
  return { stat: m[1] as string, op: m[2] as ParsedThreshold['op'], value: Number(m[3]) };
}

export function holds(actual: number, t: ParsedThreshold): boolean {
  if (!Number.isFinite(actual)) return false;
  switch (t.op) {
    case '<':
      return actual < t.value;
    case '<=':
      return actual <= t.value;
    case '>':
      return actual > t.value;
    case '>=':
      return actual >= t.value;
    case '==':
      return actual === t.value;
  }
}
