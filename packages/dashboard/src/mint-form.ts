/** The admins' "Mint token" form: a token with chosen scopes, lifetime and session, shown once. */
import type { Api, MintRequest } from './api';
import { h, replaceChildren } from './dom';

export function wireMintForm(form: HTMLFormElement, api: Api): void {
  const result = form.querySelector<HTMLElement>('.mint-result');
  const say = (...children: (Node | string)[]): void => {
    if (result) replaceChildren(result, children);
  };
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const data = new FormData(form);
    const field = (name: string): string => String(data.get(name) ?? '').trim();
    const hours = Number(field('hours') || '24');
    if (!Number.isFinite(hours) || hours <= 0) return say('Give the lifetime in hours (more than 0).');
    const req: MintRequest = { scopes: [field('scope') || 'pty:observe'], ttl_seconds: Math.round(hours * 3600) };
    if (field('session')) req.session_id = field('session');
    if (field('label')) req.label = field('label');
    say('Minting…');
    api.mintToken(req).then(
      (t) =>
        say(
          h('input', {
            type: 'text',
            class: 'mono minted-token',
            readonly: true,
            value: t.token,
            'aria-label': 'New token',
          }),
          `Shown once: copy it now. Valid until ${t.expiresAt ?? 'revoked'}.`,
        ),
      (err: unknown) => say(`Could not mint the token: ${err instanceof Error ? err.message : String(err)}`),
    );
  });
}
