/**
 * The k6 scenarios (loadtest/k6) are not run in CI (no k6 binary there). This checks what can be
 * checked without it: they type-check against @types/k6, each exports `options` with thresholds
 * and a default function, every threshold names a built-in k6 metric or one the file defines and
 * has a sample-count guard, teardown() removes what setup() made, and the scripts' own checks are
 * built so they can fail (the replay verdict itself: tests/bench/replay-check.test.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const DIR = join(__dirname, '..', '..', 'loadtest', 'k6');
const SCENARIOS = ['attach-storm', 'typing-latency', 'observer-fanout', 'reconnect-storm', 'token-mix'];
const BUILTIN_METRICS = new Set(['checks', 'ws_connecting', 'ws_session_duration', 'http_req_duration', 'iterations']);
/** `ptyws_samples{of:M}`: the count guard of metric M (k6/lib.ts sampled()). */
const GUARD_RE = /^ptyws_samples\{of:([a-z_0-9]+)\}$/;

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(join(DIR, file), 'utf8'), ts.ScriptTarget.ES2020, true);
}

/** The script's text without comments (so a check cannot pass on a sentence). */
function code(file: string): string {
  return ts.createPrinter({ removeComments: true }).printFile(parse(file)).replace(/\s+/g, ' ');
}

/** The exported function `name` of a script (its body's code, comments removed). */
function exportedFunction(sf: ts.SourceFile, name: string): string | undefined {
  const fn = sf.statements.find(
    (s): s is ts.FunctionDeclaration => ts.isFunctionDeclaration(s) && isExported(s) && s.name?.text === name,
  );
  return fn && ts.createPrinter({ removeComments: true }).printNode(ts.EmitHint.Unspecified, fn, sf);
}

/** `thresholds: {…}` as metric → expressions. */
function thresholdsOf(sf: ts.SourceFile): Record<string, string[]> {
  const options = optionsLiteral(sf);
  const t = options && property(options, 'thresholds');
  if (!t || !ts.isObjectLiteralExpression(t)) throw new Error(`${sf.fileName}: no thresholds`);
  const out: Record<string, string[]> = {};
  for (const p of t.properties) {
    if (!ts.isPropertyAssignment(p) || !(ts.isIdentifier(p.name) || ts.isStringLiteral(p.name))) continue;
    const list = p.initializer as ts.ArrayLiteralExpression;
    out[p.name.text] = list.elements.map((e) => (e as ts.StringLiteral).text);
  }
  return out;
}

function isExported(node: ts.Node): boolean {
  return (ts.getCombinedModifierFlags(node as ts.Declaration) & ts.ModifierFlags.Export) !== 0;
}

/** The object literal of `export const options = {…}`. */
function optionsLiteral(sf: ts.SourceFile): ts.ObjectLiteralExpression | undefined {
  for (const st of sf.statements) {
    if (!ts.isVariableStatement(st) || !isExported(st)) continue;
    for (const d of st.declarationList.declarations) {
      if (
        ts.isIdentifier(d.name) &&
        d.name.text === 'options' &&
        d.initializer &&
        ts.isObjectLiteralExpression(d.initializer)
      )
        return d.initializer;
    }
  }
  return undefined;
}

function property(obj: ts.ObjectLiteralExpression, name: string): ts.Expression | undefined {
  for (const p of obj.properties) {
    if (ts.isPropertyAssignment(p) && (ts.isIdentifier(p.name) || ts.isStringLiteral(p.name)) && p.name.text === name)
      return p.initializer;
  }
  return undefined;
}

/** Names given to `new Trend|Counter|Rate|Gauge('name')` in the file. */
function customMetrics(sf: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  const visit = (n: ts.Node): void => {
    if (
      ts.isNewExpression(n) &&
      ts.isIdentifier(n.expression) &&
      ['Trend', 'Counter', 'Rate', 'Gauge'].includes(n.expression.text)
    ) {
      const arg = n.arguments?.[0];
      if (arg && ts.isStringLiteral(arg)) names.add(arg.text);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return names;
}

describe('k6 scenarios (loadtest/k6)', () => {
  it('has the five scenarios and their shared lib', () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith('.ts'));
    expect(files.sort()).toEqual([...SCENARIOS.map((s) => `${s}.ts`), 'lib.ts'].sort());
  });

  it('type-checks against @types/k6 (tsconfig with noEmit)', () => {
    const configPath = join(DIR, 'tsconfig.json');
    const read = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
    const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, DIR);
    expect(parsed.options.noEmit).toBe(true);
    const program = ts.createProgram(parsed.fileNames, parsed.options);
    const diags = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diags).toEqual([]);
  }, 30_000);

  describe.each(SCENARIOS)('%s', (name) => {
    const sf = parse(`${name}.ts`);

    it('exports a default function', () => {
      const hasDefault = sf.statements.some(
        (s) =>
          ts.isFunctionDeclaration(s) &&
          isExported(s) &&
          (ts.getCombinedModifierFlags(s) & ts.ModifierFlags.Default) !== 0,
      );
      expect(hasDefault).toBe(true);
    });

    it('exports options with scenarios and thresholds on metrics that exist', () => {
      const options = optionsLiteral(sf);
      expect(options).toBeDefined();
      expect(property(options!, 'scenarios')).toBeDefined();
      const thresholds = property(options!, 'thresholds');
      expect(thresholds && ts.isObjectLiteralExpression(thresholds)).toBe(true);
      const defined = customMetrics(sf);
      const names = Object.keys(thresholdsOf(sf)).filter((m) => !GUARD_RE.test(m));
      expect(names.length).toBeGreaterThan(0);
      for (const m of names) expect(BUILTIN_METRICS.has(m) || defined.has(m) ? m : `${m} (undefined metric)`).toBe(m);
      // At least one threshold on the scenario's own metric: thresholds on built-ins alone test k6, not pty-ws.
      expect(names.some((m) => defined.has(m))).toBe(true);
    });

    it('guards every threshold with a sample count (k6 passes thresholds on empty Trends and Rates)', () => {
      const thresholds = thresholdsOf(sf);
      const text = code(`${name}.ts`);
      for (const [metric, exprs] of Object.entries(thresholds)) {
        const guarded = GUARD_RE.exec(metric)?.[1];
        if (guarded !== undefined) {
          expect([metric, exprs]).toEqual([metric, ['count>0']]);
          expect(thresholds[guarded] ? guarded : `${metric} guards no threshold`).toBe(guarded);
          // The guard counts: sampled('M') is called (for checks: through verify()).
          const counts = guarded === 'checks' ? /\bverify\(/ : new RegExp(`sampled\\('${guarded}'\\)`);
          expect(counts.test(text) ? metric : `${metric} is never counted`).toBe(metric);
          continue;
        }
        const own = customMetrics(sf).has(metric) && exprs.includes('count>0') && /new Counter\(/.test(text);
        expect(own || thresholds[`ptyws_samples{of:${metric}}`] ? metric : `${metric} has no count guard`).toBe(metric);
      }
      // k6's check() bypasses the guard: every check goes through verify().
      expect(/\bcheck\(/.test(text)).toBe(false);
    });

    it('teardown() deletes the sessions and revokes the tokens setup() made', () => {
      const setup = exportedFunction(sf, 'setup') ?? '';
      const teardown = exportedFunction(sf, 'teardown');
      expect(teardown).toBeDefined();
      expect(teardown).toMatch(/\bcleanUp\(/);
      const sessions = (setup.match(/\bcreateSession\(/g) ?? []).length;
      const tokens = (setup.match(/\bmintToken\(/g) ?? []).length;
      expect(sessions).toBeGreaterThan(0);
      // cleanUp([sessions…], [token ids…]): as many of each as setup() made, or the whole list.
      const args = /cleanUp\(\s*(\[[^\]]*\]|[\w.]+)\s*(?:,\s*\[([^\]]*)\])?\s*\)/.exec(teardown ?? '');
      expect(args).not.toBeNull();
      const sessionArg = args![1] as string;
      if (sessionArg.startsWith('[')) expect(sessionArg.split(',').length).toBe(sessions);
      else expect(setup).toMatch(/for \(/); // a list built in a loop, passed whole
      expect(args![2] ? args![2].split(',').filter((a) => /\.id\b/.test(a)).length : 0).toBe(tokens);
    });

    it('starts no program that prints forever', () => {
      const text = code(`${name}.ts`);
      expect(text).not.toMatch(/while\s*(:|true)/);
    });
  });

  it('reconnect-storm: the replay verdict compares sequences, pauses before the re-join, one sample each', () => {
    const text = code('reconnect-storm.ts');
    // The verdict is the shared replay check (tested in tests/bench/replay-check.test.ts) ...
    expect(text).toMatch(/import \{ replayResumed \} from '\.\.\/src\/load\/replay-check\.ts'/);
    const verdict = code('../src/load/replay-check.ts');
    expect(verdict).toMatch(/=== p\.lastSeen \+ 1/);
    // ... fed with every frame's sequence, JSON frames' too ...
    expect(text).toMatch(/typeof f\.sequence === 'number'\) seen\(f\.sequence\)/);
    expect(text).toMatch(/seen\(seq\)/);
    // ... closing only after the join's Keyframe, after a pause, counted once per re-join.
    expect(text).toMatch(/if \(w\.keyframe && \+\+live >= frames\) socket\.close\(\)/);
    expect(text).toMatch(/sleep\(GAP_S\); const second = watch\(/);
    expect((text.match(/replayOk\.add\(/g) ?? []).length).toBe(1);
    expect(text).not.toMatch(/REPLAY_OUT_OF_RANGE'\) replayOk/);
  });

  it('attach-storm paces its iterations; its ws_connecting threshold says where it comes from', () => {
    const sf = parse('attach-storm.ts');
    expect(exportedFunction(sf, 'default') ?? code('attach-storm.ts')).toMatch(/\bsleep\(/);
    const src = readFileSync(join(DIR, 'attach-storm.ts'), 'utf8');
    expect(src).toMatch(/\/\/ Calibrated:[^\n]*\n(\s*\/\/[^\n]*\n)*\s*ws_connecting: \['p\(95\)<\d+'\]/);
  });

  it('typing-latency times each key with a timeout, on now() (performance.now where k6 has it)', () => {
    const text = code('typing-latency.ts');
    expect(text).toMatch(/socket\.setTimeout\(\(\) => \{[^}]*verify\(`echo within \$\{KEY_TIMEOUT_MS\} ms`, false\)/);
    expect(text).not.toMatch(/Date\.now\(\)/);
    expect(code('lib.ts')).toMatch(/perf\.now\(\)/);
  });

  it('token-mix covers the controller case, at a rate set by RATE', () => {
    const text = code('token-mix.ts');
    expect(text).toMatch(/role: 'controller', expect: 'controller'/);
    expect(text).toMatch(/rate: RATE/);
    expect(text).toMatch(/__ENV\['RATE'\]/);
  });
});
