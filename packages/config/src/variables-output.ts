import { integer, MAX_TIMER_S, oneOf } from './rules';
import { MIB, type SpecPart } from './variable-spec';

/** The output path of a session: framing, the mirror, the stream relay, slow readers and frame-log outages. */
export const OUTPUT_VARIABLES = {
  outputCoalesceMs: {
    name: 'PTYWS_OUTPUT_COALESCE_MS',
    reader: 'agent',
    tier: 'test',
    default: '5',
    description:
      'Upper bound on how long streaming PTY output may wait to be merged into one Output frame (output after a quiet period is sent at once).',
    rule: integer(0, 1_000),
  },
  outputFrameBytes: {
    name: 'PTYWS_OUTPUT_FRAME_BYTES',
    reader: 'agent',
    tier: 'tuning',
    why: 'Smaller frames for links that must never carry a large message; larger ones cost latency.',
    // 256 KiB: a frame's fixed costs (log entry, keyframe cadence, hub, publish, in cluster mode
    // a JetStream append and its delivery) are paid per frame, and 5 ms of a `cat` at today's
    // ~50 MB/s fills about this much (128 KiB cut most frames in two; ARCHITECTURE has the figures).
    default: '262144',
    description:
      'An Output frame is flushed once it reaches this size. Unset: 262144, or PTYWS_SLOW_CONSUMER_BYTES when that is smaller.',
    rule: integer(64, 16 * MIB),
  },
  mirrorThread: {
    name: 'PTYWS_MIRROR_THREAD',
    reader: 'agent',
    tier: 'tuning',
    why: '`worker` moves keyframe parsing off the event loop: agents with many streaming sessions and spare cores.',
    default: 'main',
    description:
      'Where sessions parse output for keyframes: main (the event loop) or worker (one thread per agent: faster streams, more memory under a flood).',
    rule: oneOf(['main', 'worker'] as const),
  },
  mirrorSleepS: {
    name: 'PTYWS_MIRROR_SLEEP_S',
    reader: 'agent',
    tier: 'tuning',
    why: 'Memory against CPU for idle sessions: 0 keeps every mirror awake (no rebuild on the next output or read).',
    // An idle session's headless terminal is most of what it costs its agent (~200 KB of the
    // ~230 measured per idle session); a keyframe of its screen is a few KB.
    default: '10',
    description:
      "Seconds without output or screen reads after which a session's terminal mirror keeps only a keyframe of its screen and lets go of the emulator (rebuilt on the next output or read); 0: never.",
    rule: integer(0, 86_400),
  },
  streamRelay: {
    name: 'PTYWS_STREAM_RELAY',
    reader: 'agent',
    tier: 'tuning',
    why: '`off` is the escape hatch should the relay process misbehave on a host; `ptyws_pty_read_path` shows which path reads.',
    default: 'on',
    description:
      'on: while a session streams to at most one reader (256 KiB within 50 ms), a small process (`stream-relay`, built when a C compiler is present) reads its pty so the tty drains while the agent sends; off: the event loop reads every pty.',
    rule: oneOf(['on', 'off'] as const),
  },
  slowConsumerBytes: {
    name: 'PTYWS_SLOW_CONSUMER_BYTES',
    reader: 'edge',
    tier: 'tuning',
    why: 'How far a reader may fall behind before it is skipped: raise it for slow links that must see every byte.',
    default: '1048576',
    description:
      'Socket backlog past which an observer is skipped forward (`PTY_OUTPUT_LAGGED`); while most readers of a session have half of it waiting, the PTY is not read (output waits for them).',
    rule: integer(1024, 1024 * MIB),
  },
  logOutageBufferBytes: {
    name: 'PTYWS_LOG_OUTAGE_BUFFER_BYTES',
    reader: 'agent',
    tier: 'operations',
    default: '67108864',
    description:
      "While a session's frame log cannot be written, the agent keeps up to this much of its output and appends it once the log is back; past it the PTY is not read (the program waits, as on a slow terminal).",
    rule: integer(64 * 1024, 4096 * MIB),
  },
  logOutageGiveUpS: {
    name: 'PTYWS_LOG_OUTAGE_GIVE_UP_S',
    reader: 'agent',
    tier: 'operations',
    default: '120',
    description:
      'How long appends to an unreachable frame log are retried before the agent ends the session: it closes with reason `error`, and its clients get `Closed` and an Error.',
    rule: integer(1, MAX_TIMER_S),
  },
} satisfies SpecPart;
