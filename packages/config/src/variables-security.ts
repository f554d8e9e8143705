import { absolutePath, cidrList, envNameList, integer, sessionUser, toggle } from './rules';
import { allowedHostList, auditTarget, hostList, originList, scopeList } from './security-rules';
import type { SpecPart } from './variable-spec';

/** TLS, origins and hosts, proxies, audit, and what sessions may run as and set. */
export const SECURITY_VARIABLES = {
  tlsCert: {
    name: 'PTYWS_TLS_CERT',
    reader: 'edge',
    tier: 'essential',
    default: '(unset: plain http/ws)',
    description: 'PEM certificate chain file; with PTYWS_TLS_KEY the port serves https and wss only.',
    rule: absolutePath(),
    defaultValue: () => undefined,
  },
  tlsKey: {
    name: 'PTYWS_TLS_KEY',
    reader: 'edge',
    tier: 'essential',
    default: '(unset)',
    description: 'PEM private key file of PTYWS_TLS_CERT.',
    rule: absolutePath(),
    defaultValue: () => undefined,
  },
  tlsCa: {
    name: 'PTYWS_TLS_CA',
    reader: 'edge',
    tier: 'operations',
    default: '(unset: no client certificates)',
    description:
      'PEM CA bundle (needs PTYWS_TLS_CERT/KEY): every client must present a certificate signed by it (mTLS); without a bearer token the certificate subject is the principal.',
    rule: absolutePath(),
    defaultValue: () => undefined,
  },
  allowInsecure: {
    name: 'PTYWS_ALLOW_INSECURE',
    reader: 'edge',
    tier: 'operations',
    default: '(unset: allowed on loopback only)',
    description:
      '`1` accepts plain http://, ws:// and plaintext gRPC, `0` refuses them (403 / gRPC UNAVAILABLE, unless a trusted proxy saw https). Unset: accepted when PTYWS_HOST (and PTYWS_GRPC_HOST) is loopback, refused otherwise.',
    rule: toggle('1', '0'),
    defaultValue: () => undefined,
  },
  allowedOrigins: {
    name: 'PTYWS_ALLOWED_ORIGINS',
    reader: 'edge',
    tier: 'essential',
    default: '(none: same origin only)',
    description:
      'Browser origins (`https://host[:port]`, comma-separated, or `*`) allowed to attach and call REST besides the same origin; a request with another `Origin` gets 403. Requests without `Origin` (non-browser clients) are not affected.',
    rule: originList(),
    defaultValue: () => [],
  },
  pushAllowedHosts: {
    name: 'PTYWS_PUSH_ALLOWED_HOSTS',
    reader: 'agent',
    tier: 'operations',
    default: '(none)',
    description:
      'Host names or CIDRs push-notification webhooks may reach although they resolve to loopback, link-local, private or unspecified addresses (refused otherwise).',
    rule: hostList(),
    defaultValue: () => [],
  },
  trustedProxies: {
    name: 'PTYWS_TRUSTED_PROXIES',
    reader: 'edge',
    tier: 'operations',
    default: '(none)',
    description:
      'CIDRs of reverse proxies (e.g. 10.0.0.0/8,::1/128): their `X-Forwarded-Proto: https` makes a plain request count as secure; the client address (rate limits, audit) is the rightmost `X-Forwarded-For` hop not in this list.',
    rule: cidrList(),
    defaultValue: () => [],
  },
  allowedHosts: {
    name: 'PTYWS_ALLOWED_HOSTS',
    reader: 'edge',
    tier: 'operations',
    default: '(none: IP literals and localhost)',
    description:
      "Host names (comma-separated, exact, or `*` for any) a request's `Host` header may name besides IP literals and `localhost`; others get 403 before routing (DNS-rebinding guard). Checked when set, and always with PTYWS_AUTH=disabled.",
    rule: allowedHostList(),
    defaultValue: () => [],
  },
  mtlsScopes: {
    name: 'PTYWS_MTLS_SCOPES',
    reader: 'edge',
    tier: 'operations',
    default: 'pty:observe',
    description:
      'Comma-separated scopes of a certificate principal (a client that sent a certificate but no bearer token).',
    rule: scopeList(),
  },
  auditLog: {
    name: 'PTYWS_AUDIT_LOG',
    reader: 'edge',
    tier: 'operations',
    default: '$PTYWS_STATE_DIR/audit.jsonl (single-node); Postgres (cluster)',
    description:
      'Audit events as JSON lines: an absolute file, `stdout` or `stderr` (not queryable), or `off`. Cluster mode always writes the Postgres `audit_log` table, and this too when set.',
    rule: auditTarget(),
    defaultValue: () => undefined,
  },
  allowEnvOverride: {
    name: 'PTYWS_ALLOW_ENV_OVERRIDE',
    reader: 'agent',
    tier: 'operations',
    default: '(none)',
    description:
      "Comma-separated protected variables (LD_PRELOAD, BASH_ENV, …) that a session's `env` may set anyway; empty: none.",
    rule: envNameList(),
    defaultValue: () => [],
  },
  sessionEnvAllow: {
    name: 'PTYWS_SESSION_ENV_ALLOW',
    reader: 'agent',
    tier: 'operations',
    default: '(unset: any name not protected)',
    description:
      "Allowlist mode: comma-separated variables a session's `env` may set (protected ones still need PTYWS_ALLOW_ENV_OVERRIDE); any other name is refused.",
    rule: envNameList(),
    defaultValue: () => undefined,
  },
  sessionUser: {
    name: 'PTYWS_SESSION_USER',
    reader: 'agent',
    tier: 'essential',
    default: "(unset: the service's own user)",
    description:
      "The unprivileged user (name or `uid[:gid]`) sessions' programs and tasks run as; needs an agent running as root or with CAP_SETUID/CAP_SETGID. Unset: a `pty:control` token acts as the service's own user (SECURITY.md).",
    rule: sessionUser(),
    defaultValue: () => undefined,
  },
  sessionMaxProcs: {
    name: 'PTYWS_SESSION_MAX_PROCS',
    reader: 'agent',
    tier: 'operations',
    default: '0',
    description:
      "RLIMIT_NPROC of session programs (via `prlimit`): processes and threads of the session's real uid on the whole host, so useful only when sessions run as their own user; 0: not set.",
    rule: integer(0, 4_194_304),
  },
  sessionMaxMemoryBytes: {
    name: 'PTYWS_SESSION_MAX_MEMORY_BYTES',
    reader: 'agent',
    tier: 'operations',
    default: '0',
    description: 'RLIMIT_AS (address space) of each session process, in bytes (via `prlimit`); 0: not set.',
    rule: integer(0, Number.MAX_SAFE_INTEGER),
  },
  sessionMaxFileBytes: {
    name: 'PTYWS_SESSION_MAX_FILE_BYTES',
    reader: 'agent',
    tier: 'operations',
    default: '0',
    description: 'RLIMIT_FSIZE (largest file written) of session processes, in bytes (via `prlimit`); 0: not set.',
    rule: integer(0, Number.MAX_SAFE_INTEGER),
  },
  sessionMaxOpenFiles: {
    name: 'PTYWS_SESSION_MAX_OPEN_FILES',
    reader: 'agent',
    tier: 'operations',
    default: '0',
    description: 'RLIMIT_NOFILE of session processes (via `prlimit`); 0: not set.',
    rule: integer(0, 1_048_576),
  },
} satisfies SpecPart;
