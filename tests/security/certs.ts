/** Certificates made at test time with the openssl CLI: CAs and leaves signed by them (P-256, one day). */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const openssl = (args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });

export interface Pem {
  cert: string;
  key: string;
}

export function makeCa(dir: string, name: string): Pem {
  const cert = join(dir, `${name}.pem`);
  const key = join(dir, `${name}.key`);
  openssl(
    ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-days', '1'].concat([
      '-subj',
      `/CN=${name}`,
      '-keyout',
      key,
      '-out',
      cert,
    ]),
  );
  return { cert, key };
}

/** A leaf certificate signed by `ca`; `san` e.g. `IP:127.0.0.1,DNS:localhost`. */
export function makeLeaf(dir: string, name: string, ca: Pem, subject: string, san: string, client: boolean): Pem {
  const key = join(dir, `${name}.key`);
  const csr = join(dir, `${name}.csr`);
  const cert = join(dir, `${name}.pem`);
  const ext = join(dir, `${name}.ext`);
  writeFileSync(ext, `subjectAltName=${san}\nextendedKeyUsage=${client ? 'clientAuth' : 'serverAuth'}\n`);
  openssl([
    'req',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-subj',
    subject,
    '-keyout',
    key,
    '-out',
    csr,
  ]);
  openssl([
    'x509',
    '-req',
    '-in',
    csr,
    '-CA',
    ca.cert,
    '-CAkey',
    ca.key,
    '-CAcreateserial',
    '-days',
    '1',
    '-out',
    cert,
    '-extfile',
    ext,
  ]);
  return { cert, key };
}
