/** FollowGrep: the search of `--follow --grep` over pages of frames, as the polls bring them. */
import type { TranscriptPage } from '../src/api';
import { FollowGrep } from '../src/follow-grep';

let seq = 0;
/** One page of Output frames, one per string. */
function page(...outputs: string[]): TranscriptPage {
  const frames = outputs.map((o) => ({
    sequence: ++seq,
    ts: '',
    kind: 'Output',
    data: Buffer.from(o).toString('base64'),
  }));
  return {
    session_id: 's',
    state: 'running',
    first_seq: 1,
    last_seq: seq,
    from_seq: frames[0]?.sequence ?? seq,
    to_seq: seq,
    frames,
    truncated: false,
    next_from_seq: null,
  };
}

beforeEach(() => (seq = 0));

describe('FollowGrep', () => {
  it('finds a match split across polls once, with the frames it spans', () => {
    const g = new FollowGrep('needle');
    expect(g.page(page('hay ne'))).toEqual([]);
    expect(g.page(page('e', 'dle hay'))).toEqual([
      { start_seq: 1, end_seq: 3, text: 'needle', before: 'hay ', after: ' hay' },
    ]);
    expect(g.page(page(' more hay'))).toEqual([]);
  });

  it('splits a character across polls and strips escape sequences, like the server', () => {
    const g = new FollowGrep('héllo');
    const bytes = Buffer.from('h\x1b[31mé');
    const cut = bytes.length - 1; // inside the two bytes of é
    const first = page('');
    first.frames = [{ sequence: ++seq, ts: '', kind: 'Output', data: bytes.subarray(0, cut).toString('base64') }];
    expect(g.page(first)).toEqual([]);
    const second = page('');
    second.frames = [
      {
        sequence: ++seq,
        ts: '',
        kind: 'Output',
        data: Buffer.concat([bytes.subarray(cut), Buffer.from('llo')]).toString('base64'),
      },
    ];
    expect(g.page(second).map((m) => m.text)).toEqual(['héllo']);
  });

  it('never reports an overlapping match again (non-overlapping, as one search would)', () => {
    const g = new FollowGrep('aa');
    expect(g.page(page('aa')).length).toBe(1);
    expect(g.page(page('a')).length).toBe(0); // "aaa" holds one non-overlapping "aa"
    expect(g.page(page('a')).length).toBe(1); // "aaaa" holds two
  });

  it('ignores frames other than Output', () => {
    const g = new FollowGrep('x');
    const p = page('');
    p.frames = [{ sequence: 1, ts: '', kind: 'Resize', payload: { cols: 80 } }];
    expect(g.page(p)).toEqual([]);
  });
});
