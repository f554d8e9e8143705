/** PromQL inspection with the Prometheus project's own grammar (@prometheus-io/lezer-promql). */
// The package is ESM with a CommonJS build ("require" export); jest runs this file as CommonJS.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { parser } = require('@prometheus-io/lezer-promql') as {
  parser: typeof import('@prometheus-io/lezer-promql', { with: { 'resolution-mode': 'import' } }).parser;
};

export interface Selector {
  metric: string;
  /** Label names used in the selector's matchers. */
  labels: string[];
}

export interface ParsedPromQL {
  /** Positions of syntax errors (empty when the expression parses). */
  errors: string[];
  selectors: Selector[];
  /** Label names in by(...)/without(...)/on(...)/ignoring(...)/group_left(...) clauses. */
  groupingLabels: string[];
}

export function parsePromQL(expr: string): ParsedPromQL {
  const tree = parser.parse(expr);
  const errors: string[] = [];
  const selectors: Selector[] = [];
  const groupingLabels: string[] = [];
  const text = (from: number, to: number) => expr.slice(from, to);
  tree.iterate({
    enter(node) {
      if (node.type.isError) errors.push(`${node.from}`);
      if (node.name === 'VectorSelector') {
        let metric = '';
        const labels: string[] = [];
        const n = node.node;
        const ident = n.getChild('Identifier');
        if (ident) metric = text(ident.from, ident.to);
        const matchers = n.getChild('LabelMatchers');
        if (matchers) {
          const c = matchers.cursor();
          c.iterate((m) => {
            if (m.name === 'LabelName') {
              const name = text(m.from, m.to);
              if (name === '__name__') {
                const value = m.node.parent?.getChild('StringLiteral');
                if (value) metric = text(value.from + 1, value.to - 1);
              } else {
                labels.push(name);
              }
            }
          });
        }
        selectors.push({ metric, labels });
      }
      if (node.name === 'GroupingLabels') {
        const c = node.node.cursor();
        c.iterate((m) => {
          if (m.name === 'LabelName') groupingLabels.push(text(m.from, m.to));
        });
      }
    },
  });
  return { errors, selectors, groupingLabels };
}
