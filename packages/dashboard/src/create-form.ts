/** The "New session" form: turns its fields into a POST /api/v1/sessions body. */
import type { Api, CreateSessionRequest, SessionView } from './api';

export type CreateKind = 'shell' | 'command' | 'argv';

/** Parses the form's fields; returns an error message for the operator instead of throwing. */
export function buildCreateRequest(
  kind: CreateKind,
  text: string,
  colsText: string,
  rowsText: string,
): CreateSessionRequest | string {
  const req: CreateSessionRequest = {};
  const t = text.trim();
  if (kind === 'command') {
    if (!t) return 'Enter a command.';
    req.command = t;
  } else if (kind === 'argv') {
    const argv = parseArgv(t);
    if (typeof argv === 'string') return argv;
    req.argv = argv;
  }
  const cols = colsText.trim();
  const rows = rowsText.trim();
  if ((cols === '') !== (rows === '')) return 'Give both columns and rows, or neither.';
  if (cols !== '') {
    const c = Number(cols);
    const r = Number(rows);
    // The same floor the server applies to resizes: a smaller terminal is unusable.
    if (!Number.isInteger(c) || c < 20 || c > 1024) return 'Columns must be a whole number from 20 to 1024.';
    if (!Number.isInteger(r) || r < 5 || r > 1024) return 'Rows must be a whole number from 5 to 1024.';
    req.cols = c;
    req.rows = r;
  }
  return req;
}

function parseArgv(t: string): string[] | string {
  if (!t) return 'Enter the program and its arguments.';
  if (!t.startsWith('[')) return t.split(/\s+/);
  let v: unknown;
  try {
    v = JSON.parse(t);
  } catch {
    return 'The arguments are not valid JSON.';
  }
  if (!Array.isArray(v) || v.length === 0 || !v.every((a): a is string => typeof a === 'string')) {
    return 'The arguments must be a non-empty JSON array of strings.';
  }
  return v;
}

export function wireCreateForm(
  form: HTMLFormElement,
  api: Api,
  onCreated: (s: SessionView, open: boolean) => void,
): void {
  const field = (name: string): string => {
    const v = new FormData(form).get(name);
    return typeof v === 'string' ? v : '';
  };
  const status = form.querySelector<HTMLElement>('[role=status]');
  const say = (text: string): void => {
    if (status) status.textContent = text;
  };
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const kind = field('kind');
    const req = buildCreateRequest(
      kind === 'command' || kind === 'argv' ? kind : 'shell',
      field('text'),
      field('cols'),
      field('rows'),
    );
    if (typeof req === 'string') return say(req);
    say('Creating…');
    api.createSession(req).then(
      (s) => {
        say(`Created ${s.session_id}.`);
        onCreated(s, field('open') === 'on');
      },
      (err: unknown) => say(`Could not create the session: ${err instanceof Error ? err.message : String(err)}`),
    );
  });
}
