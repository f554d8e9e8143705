/** The pty-ws.v1.binary hot path and the JSON fallback (binding §3.1, scenarios 9–11). */
import { SUBPROTOCOL_BINARY, SUBPROTOCOL_JSON, STREAM_IDS } from '@pty-ws/protocol';
import {
  delay,
  is,
  joinSession,
  outputBytes,
  pw1o,
  seqOf,
  sequenceViolations,
  sessionFrameOf,
  type Received,
  type TestClient,
} from '@pty-ws/testkit';
import { expectBindingError, jsonOf, marker, shell, useServer } from './support';

const isJsonOutput = (r: Received): boolean => sessionFrameOf(r, 'Output') !== undefined;

describe('binary subprotocol', () => {
  const ctx = useServer();
  let sessionId = '';
  let bin: TestClient;
  let json: TestClient;
  let observeToken = '';

  beforeAll(async () => {
    sessionId = (await ctx().createSession(shell())).session_id;
    observeToken = (await ctx().mintToken({ scopes: ['pty:observe'] })).token;
    bin = await ctx().attach(sessionId, { protocols: [SUBPROTOCOL_BINARY] });
    expect(bin.protocolHeader).toBe(SUBPROTOCOL_BINARY);
    await joinSession(bin, { role: 'controller', client_label: 'binary' });
    json = await ctx().attach(sessionId, { protocols: [SUBPROTOCOL_JSON] });
    await joinSession(json, { role: 'controller', client_label: 'json' });
  });

  it('binding scenario 9: under pty-ws.v1.binary, PTY output arrives as PW1O frames with raw bytes, not JSON Output', async () => {
    const m = marker('binout');
    const from = bin.mark();
    bin.input(m.cmd);
    await bin.collectOutput(m.re, 3000, from);
    const frames = bin.frames.slice(from);
    expect(frames.filter(isJsonOutput)).toHaveLength(0);
    const outs = frames.map(pw1o).filter((o) => o !== undefined);
    expect(outs.length).toBeGreaterThan(0);
    for (const o of outs) expect(o.streamId).toBe(STREAM_IDS.stdout);
    expect(Buffer.concat(outs.map((o) => o.data)).toString()).toMatch(m.re);
    // Control traffic stays JSON on the binary connection.
    expect(bin.frames.filter(is.kind('RoleAssigned')).length).toBeGreaterThan(0);
    expect(sequenceViolations(bin.frames)).toEqual([]);
  });

  it('binding scenario 9: PW1O sequences share the session counter — the JSON client sees the same bytes under the same numbers', async () => {
    const m = marker('samecounter');
    await Promise.all([bin.settle(200), json.settle(200)]);
    const bFrom = bin.mark();
    const jFrom = json.mark();
    json.input(m.cmd);
    await bin.collectOutput(m.re, 3000, bFrom);
    await json.collectOutput(m.re, 3000, jFrom);
    await delay(150);
    const binBySeq = new Map(
      bin.frames
        .slice(bFrom)
        .filter(is.binary())
        .map((r) => [seqOf(r), outputBytes(r)?.toString('base64')]),
    );
    const jsonBySeq = new Map(
      json.frames
        .slice(jFrom)
        .filter(isJsonOutput)
        .map((r) => [seqOf(r), outputBytes(r)?.toString('base64')]),
    );
    expect(binBySeq.size).toBeGreaterThan(0);
    expect([...binBySeq.keys()].sort()).toEqual([...jsonBySeq.keys()].sort());
    for (const [seq, data] of binBySeq) expect(jsonBySeq.get(seq)).toBe(data);
  });

  it('binding scenario 10: PW1I binary input is written to the PTY', async () => {
    const m = marker('pw1i');
    const jFrom = json.mark();
    bin.inputBinary(m.cmd);
    await json.collectOutput(m.re, 3000, jFrom);
  });

  it('binding scenario 10: PW1I input stays subject to pty:control — observers get PERMISSION_DENIED', async () => {
    const obs = await ctx().attach(sessionId, { protocols: [SUBPROTOCOL_BINARY], token: observeToken });
    await joinSession(obs, { role: 'observer' });
    const m = marker('pw1i_denied');
    const from = obs.mark();
    const jFrom = json.mark();
    obs.inputBinary(m.cmd);
    const err = await obs.waitFor(is.error(), 3000, from);
    expectBindingError(jsonOf(err), 'PERMISSION_DENIED');
    await delay(300);
    expect(json.outputSince(jFrom).toString()).not.toMatch(m.re);

    // Same for an observer ROLE held by a principal that could control.
    const roleObs = await ctx().attach(sessionId, { protocols: [SUBPROTOCOL_BINARY] });
    await joinSession(roleObs, { role: 'observer' });
    const m2 = marker('pw1i_role_denied');
    const from2 = roleObs.mark();
    roleObs.inputBinary(m2.cmd);
    expectBindingError(jsonOf(await roleObs.waitFor(is.error(), 3000, from2)), 'PERMISSION_DENIED');
    await delay(300);
    expect(json.outputSince(jFrom).toString()).not.toMatch(m2.re);
  });

  it('binding scenario 11: JSON fallback — a pty-ws.v1 client on the same session gets base64 Output and types with pty.session_input', async () => {
    const m = marker('jsonfallback');
    const from = json.mark();
    json.input(m.cmd);
    await json.collectOutput(m.re, 3000, from);
    const frames = json.frames.slice(from);
    expect(frames.filter(is.binary())).toHaveLength(0);
    expect(json.frames.filter(is.binary())).toHaveLength(0);
    const outs = frames.filter(isJsonOutput).map((r) => sessionFrameOf(r, 'Output'));
    for (const o of outs) {
      expect(o?.stream).toBe('stdout');
      expect(o?.data).toMatch(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/);
    }
    expect(sequenceViolations(json.frames)).toEqual([]);
  });

  it('raw bytes survive the binary path unchanged (non-UTF-8 output)', async () => {
    const from = bin.mark();
    const jFrom = json.mark();
    // printf emits the bytes 0xff 0xfe 0x80 between two markers.
    bin.inputBinary("printf 'RAW<\\377\\376\\200>RAW\\n'\n");
    await bin.waitFor((r) => pw1o(r)?.data.includes(Buffer.from([0xff, 0xfe, 0x80])) ?? false, 3000, from);
    await json.waitFor((r) => outputBytes(r)?.includes(Buffer.from([0xff, 0xfe, 0x80])) ?? false, 3000, jFrom);
    expect(bin.outputSince(from).includes(Buffer.from([0x3c, 0xff, 0xfe, 0x80, 0x3e]))).toBe(true);
    expect(json.outputSince(jFrom).includes(Buffer.from([0x3c, 0xff, 0xfe, 0x80, 0x3e]))).toBe(true);
  });

  it('replay on a binary connection delivers the missed output (JSON/base64 or PW1O) and JSON keyframes', async () => {
    await json.settle(150);
    const seqs = json.frames.map(seqOf).filter((s): s is number => s !== undefined);
    const n = Math.max(...seqs);
    const m = marker('binreplay');
    json.input(m.cmd);
    await json.collectOutput(m.re);
    const late = await ctx().attach(sessionId, { protocols: [SUBPROTOCOL_BINARY] });
    const flush = await joinSession(late, { role: 'observer' }, { replayFrom: n });
    expect(late.outputSince(flush.from).toString()).toMatch(m.re);
    expect(flush.keyframeFrame.type).toBe('json');
  });
});
