/**
 * Attach-to-keyframe: from the WebSocket's 'open' to the join flush's Keyframe, on a session with
 * a history of log frames. Without replay_from the flush is RoleAssigned, MembershipChanged,
 * Keyframe; with replay_from 0 the whole retained history comes first.
 */
import type { Cleanup } from '../phase';
import { HISTORY_END, historyArgv } from '../programs';
import { attachUrl, createSession, deleteSession } from '../rest';
import type { Service } from '../service';
import { mean, round, summarize } from '../stats';
import type { AttachMetric } from '../types';
import { BenchSocket, member } from '../ws-client';

interface Sample {
  openToKeyframe: number;
  connect: number;
  frames: number;
  bytes: number;
  head: number;
}

const VARIANTS = [
  { key: 'keyframe_json', binary: false, replay: false },
  { key: 'keyframe_binary', binary: true, replay: false },
  { key: 'replay_json', binary: false, replay: true },
  { key: 'replay_binary', binary: true, replay: true },
] as const;

/**
 * Creates the session and lets its program print until the log holds `frames` frames (the
 * sequence in the PW1O header is the log position), then stops it. Timer jitter merges some
 * lines into one frame, so counting lines would fall short.
 */
async function sessionWithHistory(svc: Service, frames: number, cleanup: Cleanup): Promise<string> {
  const id = await createSession(svc, historyArgv());
  cleanup.add(() => deleteSession(svc, id));
  const ctl = await member(attachUrl(svc, id), svc.token, 'controller');
  try {
    await new Promise<void>((resolve, reject) => {
      const marker = Buffer.from(HISTORY_END);
      const timer = setTimeout(() => reject(new Error('history generation timed out')), 15 * frames + 15_000);
      let stopped = false;
      ctl.setListener((chunk, sequence) => {
        if (!stopped && sequence >= frames) {
          stopped = true;
          ctl.write(Buffer.from('\r'));
        }
        if (chunk.includes(marker)) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
  } finally {
    ctl.terminate();
  }
  return id;
}

async function attachOnce(url: string, token: string, binary: boolean, replay: boolean): Promise<Sample> {
  const s = await BenchSocket.open(url, token, binary);
  try {
    await s.hello();
    const j = await s.join('observer', replay ? 0 : undefined);
    return {
      openToKeyframe: j.keyframeAt - s.openedAt,
      connect: s.openedAt - s.createdAt,
      frames: j.frames,
      bytes: j.bytes,
      head: s.helloSequence,
    };
  } finally {
    s.terminate();
  }
}

export async function serviceAttach(
  svc: Service,
  historyFrames: number,
  attaches: number,
  cleanup: Cleanup,
): Promise<Record<string, AttachMetric>> {
  const id = await sessionWithHistory(svc, historyFrames, cleanup);
  const url = attachUrl(svc, id);
  const samples = new Map<string, Sample[]>(VARIANTS.map((v) => [v.key, []]));
  // Variants interleaved so drift (GC, a growing log) does not favour whichever ran first.
  for (let i = 0; i < attaches; i++) {
    for (const v of VARIANTS) samples.get(v.key)?.push(await attachOnce(url, svc.token, v.binary, v.replay));
  }
  const out: Record<string, AttachMetric> = {};
  for (const v of VARIANTS) {
    const list = samples.get(v.key) ?? [];
    out[v.key] = {
      format: v.binary ? 'binary' : 'json',
      replay: v.replay,
      history_frames: Math.min(...list.map((s) => s.head)),
      ...summarize(list.map((s) => s.openToKeyframe)),
      connect_ms_p50: summarize(list.map((s) => s.connect)).p50_ms,
      flush_frames: round(mean(list.map((s) => s.frames)), 1),
      flush_bytes: Math.round(mean(list.map((s) => s.bytes))),
    };
  }
  return out;
}
