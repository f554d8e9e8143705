/**
 * The k6 scenarios (loadtest/k6) are not run in CI (no k6 binary there). This checks what can be
 * checked without it: they type-check against @types/k6, each exports `options` with thresholds
 * and a default function, and every threshold names a built-in k6 metric or one the file defines.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const DIR = join(__dirname, '..', '..', 'loadtest', 'k6');
const SCENARIOS = ['attach-storm', 'typing-latency', 'observer-fanout', 'reconnect-storm', 'token-mix'];
const BUILTIN_METRICS = new Set(['checks', 'ws_connecting', 'ws_session_duration', 'http_req_duration', 'iterations']);

function parse(file: string): ts.SourceFile {
  return ts.createSourceFile(file, readFileSync(join(DIR, file), 'utf8'), ts.ScriptTarget.ES2020, true);
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
      const names = (thresholds as ts.ObjectLiteralExpression).properties.map((p) => (p.name as ts.Identifier).text);
      expect(names.length).toBeGreaterThan(0);
      for (const m of names) expect(BUILTIN_METRICS.has(m) || defined.has(m) ? m : `${m} (undefined metric)`).toBe(m);
      // At least one threshold on the scenario's own metric: thresholds on built-ins alone test k6, not pty-ws.
      expect(names.some((m) => defined.has(m))).toBe(true);
    });
  });
});
