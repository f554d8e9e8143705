import type { PeerCertificate } from 'node:tls';

/**
 * The identity a verified client certificate claims (binding §7.1.2): the subject's common name,
 * else its first subjectAltName entry (DNS, URI or email). Undefined when it names nobody.
 */
export function certificateIdentity(cert: PeerCertificate | Record<string, never>): string | undefined {
  const subject = (cert as PeerCertificate).subject as Record<string, string | string[]> | undefined;
  const cn = subject?.['CN'];
  const common = Array.isArray(cn) ? cn[0] : cn;
  if (common) return common;
  const san = (cert as PeerCertificate).subjectaltname;
  const first = san
    ?.split(',')
    .map((s) => s.trim())
    .find((s) => /^(DNS|URI|email):/.test(s));
  return first?.replace(/^(DNS|URI|email):/, '');
}
