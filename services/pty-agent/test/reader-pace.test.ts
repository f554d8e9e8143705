import { ManualClock } from '@pty-ws/testkit';
import { PACE_REPORT_TTL_MS } from '@pty-ws/ports';
import { ReaderPace } from '../src/session/reader-pace';

/** The owner's half of "output goes at the pace of most of its readers", on a manual clock. */
function pace(edges: string[]) {
  const clock = new ManualClock();
  const changes: boolean[] = [];
  const members = { edges };
  const p = new ReaderPace({ clock, memberEdges: () => members.edges, onChange: (hold) => changes.push(hold) });
  return { p, clock, changes, members };
}

describe('ReaderPace', () => {
  it('holds output once every edge with members says its readers are behind, and lets go when one says otherwise', () => {
    const { p, changes } = pace(['a', 'b']);
    p.report('a', true);
    expect(p.held).toBe(false); // b's readers keep up, as far as anyone knows
    p.report('b', true);
    expect(p.held).toBe(true);
    p.report('a', false);
    expect(p.held).toBe(false);
    expect(changes).toEqual([true, false]);
  });

  it('counts an edge once however many members it holds, and ignores edges without members', () => {
    const { p } = pace(['a', 'a', 'a']);
    p.report('z', true);
    expect(p.held).toBe(false);
    p.report('a', true);
    expect(p.held).toBe(true);
  });

  it('never holds a session without members', () => {
    const { p } = pace([]);
    p.report('a', true);
    expect(p.held).toBe(false);
  });

  it('a report that is not repeated lapses: an edge that died cannot hold output', () => {
    const { p, clock, changes } = pace(['a']);
    p.report('a', true);
    clock.advance(PACE_REPORT_TTL_MS - 100);
    p.report('a', true); // repeated in time: still held
    clock.advance(PACE_REPORT_TTL_MS - 1);
    expect(p.held).toBe(true);
    clock.advance(1);
    expect(p.held).toBe(false);
    expect(changes).toEqual([true, false]);
  });

  it('a member joining on an edge that has not reported lets output flow: that reader starts caught up', () => {
    const { p, members } = pace(['a']);
    p.report('a', true);
    expect(p.held).toBe(true);
    members.edges = ['a', 'b'];
    p.membersChanged();
    expect(p.held).toBe(false);
    members.edges = ['a'];
    p.membersChanged(); // b's member left again: a's report still stands
    expect(p.held).toBe(true);
  });

  it('dispose lets output flow and stops the lapse timer', () => {
    const { p, clock, changes } = pace(['a']);
    p.report('a', true);
    p.dispose();
    expect(p.held).toBe(false);
    clock.advance(PACE_REPORT_TTL_MS * 2);
    expect(changes).toEqual([true, false]);
  });
});

describe('ReaderPace after dispose', () => {
  it('ignores later reports and member changes: a session that is ending is held by nobody', () => {
    const clock = new ManualClock();
    const changes: boolean[] = [];
    const p = new ReaderPace({ clock, memberEdges: () => ['a'], onChange: (hold) => changes.push(hold) });
    p.dispose();
    p.report('a', true);
    p.membersChanged();
    expect(p.held).toBe(false);
    expect(changes).toEqual([]);
  });
});
