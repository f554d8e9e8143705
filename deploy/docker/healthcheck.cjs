#!/usr/bin/env node
'use strict';
/**
 * Container HEALTHCHECK probe for the pty-ws images (the runtime images have no curl/wget).
 *
 *   node healthcheck.cjs edge    -> GET /healthz on PTYWS_PORT (default 8080)
 *   node healthcheck.cjs agent   -> GET /healthz on PTYWS_AGENT_METRICS_PORT (default 9464)
 *
 * The edge serves HTTPS when PTYWS_TLS_CERT is set; the probe then speaks TLS without verifying
 * the certificate (it is talking to itself over loopback). Exit 0 = healthy, 1 = unhealthy.
 */
const role = process.argv[2] || 'edge';
const path = process.argv[3] || '/healthz';
const env = process.env;
const nonEmpty = (v) => (typeof v === 'string' && v !== '' ? v : undefined);

const port = Number(
  role === 'agent' ? nonEmpty(env.PTYWS_AGENT_METRICS_PORT) || '9464' : nonEmpty(env.PTYWS_PORT) || '8080',
);
// Where the server listens: a wildcard bind is reached over loopback.
const bind = nonEmpty(env.PTYWS_HOST);
const host = !bind || bind === '0.0.0.0' || bind === '::' || bind === '[::]' ? '127.0.0.1' : bind;
const tls = role === 'edge' && nonEmpty(env.PTYWS_TLS_CERT) !== undefined;
const client = tls ? require('node:https') : require('node:http');

const req = client.get({ host, port, path, timeout: 4000, rejectUnauthorized: false }, (res) => {
  res.resume();
  process.exit(res.statusCode === 200 ? 0 : 1);
});
req.on('timeout', () => req.destroy(new Error('timeout')));
req.on('error', (err) => {
  process.stderr.write(`healthcheck ${role} ${host}:${port}${path}: ${err.message}\n`);
  process.exit(1);
});
