import { EscapeKeys } from '../src/attach/escape-keys';

function run(chunks: (string | number[])[]): string[] {
  const events: string[] = [];
  const keys = new EscapeKeys({
    input: (b) => events.push(`input:${JSON.stringify(Buffer.from(b).toString('latin1'))}`),
    detach: () => events.push('detach'),
    resync: () => events.push('resync'),
  });
  for (const c of chunks) keys.feed(typeof c === 'string' ? Buffer.from(c, 'latin1') : Uint8Array.from(c));
  return events;
}

describe('attach escape keys (Ctrl-] prefix)', () => {
  it('passes ordinary input through unchanged', () => {
    expect(run(['echo hi\r'])).toEqual(['input:"echo hi\\r"']);
  });

  it('detaches on Ctrl-] d and ignores what follows', () => {
    expect(run(['ls\x1dd', 'more'])).toEqual(['input:"ls"', 'detach']);
  });

  it('recognises the sequence split across reads', () => {
    expect(run(['a\x1d', 'd'])).toEqual(['input:"a"', 'detach']);
  });

  it('sends one Ctrl-] for Ctrl-] Ctrl-], and the prefix plus the key for any other key', () => {
    expect(run(['\x1d\x1d', '\x1dx'])).toEqual(['input:"\\u001d"', 'input:"\\u001dx"']);
  });

  it('asks for a repaint on Ctrl-] r without sending anything', () => {
    expect(run(['a\x1drb'])).toEqual(['input:"a"', 'resync', 'input:"b"']);
  });

  it('holds a trailing prefix until the next read', () => {
    expect(run(['\x1d'])).toEqual([]);
  });
});
