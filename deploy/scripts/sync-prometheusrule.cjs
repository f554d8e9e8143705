#!/usr/bin/env node
'use strict';
/**
 * Regenerates deploy/kubernetes/base/prometheusrule.yaml (a Prometheus Operator PrometheusRule)
 * from deploy/prometheus/rules/ptyws.rules.yml, the single source of the rules.
 *   node deploy/scripts/sync-prometheusrule.cjs          write the file
 *   node deploy/scripts/sync-prometheusrule.cjs --check  exit 1 if it is out of date
 * tests/deploy fails when the two disagree.
 */
const fs = require('node:fs');
const path = require('node:path');
const YAML = require('yaml');

const root = path.resolve(__dirname, '..', '..');
const rulesFile = path.join(root, 'deploy/prometheus/rules/ptyws.rules.yml');
const target = path.join(root, 'deploy/kubernetes/base/prometheusrule.yaml');

function render() {
  const rules = YAML.parse(fs.readFileSync(rulesFile, 'utf8'));
  const doc = {
    apiVersion: 'monitoring.coreos.com/v1',
    kind: 'PrometheusRule',
    metadata: {
      name: 'ptyws',
      labels: { 'app.kubernetes.io/name': 'pty-ws', 'app.kubernetes.io/part-of': 'pty-ws' },
    },
    spec: { groups: rules.groups },
  };
  return (
    '# GENERATED from deploy/prometheus/rules/ptyws.rules.yml by deploy/scripts/sync-prometheusrule.cjs.\n' +
    '# Edit the rules file and re-run the script; tests/deploy checks the two are identical.\n' +
    YAML.stringify(doc, { lineWidth: 0 })
  );
}

const text = render();
if (process.argv.includes('--check')) {
  const current = fs.existsSync(target) ? fs.readFileSync(target, 'utf8') : '';
  if (current !== text) {
    process.stderr.write(
      `${path.relative(root, target)} is out of date: run node deploy/scripts/sync-prometheusrule.cjs\n`,
    );
    process.exit(1);
  }
} else {
  fs.writeFileSync(target, text);
}
