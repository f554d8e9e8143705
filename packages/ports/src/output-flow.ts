/**
 * Every constant of the output flow rule, on both sides of `SessionControl.pace`: the edge's
 * OutputFlow (services/edge/src/ws/output-flow, whose README draws the rule) and the owner's
 * ReaderPace and stream relay (services/pty-agent). One module, so a figure that depends on
 * another (a refresh inside a lifetime, a stall as long as a hold) is changed with it.
 * Byte thresholds that scale with PTYWS_SLOW_CONSUMER_BYTES are fractions of it here.
 */

// ── The edge: one session's readers ──────────────────────────────────────────────────────────

/** Backlog held above the slow-consumer threshold this long skips a live reader: a burst is not a slow reader. */
export const SLOW_GRACE_MS = 250;
/** A reader is behind past this share of the slow-consumer threshold (and direct sends keep a backlog under it). */
export const PACE_HIGH_SHARE = 1 / 2;
/** A reader keeps up again at or under this share; also the output between two pace probes of a reader. */
export const PACE_LOW_SHARE = 1 / 8;
/** A lagged reader resumes once its backlog is at or under this share: room for LAGGED, a Keyframe and a catch-up. */
export const LAG_DRAINED_SHARE = 1 / 4;

/** While output is held, the readers are looked at this often (nothing is delivered to trigger a look). */
export const PACE_POLL_MS = 20;
/** A held-back report is repeated this often: well inside the owner's PACE_REPORT_TTL_MS. */
export const PACE_REFRESH_MS = 200;
/** Readers that drain nothing below the low mark for this long are stuck: output is let go. */
export const PACE_MAX_HOLD_MS = 3000;
/** A pace probe (ping) unanswered this long: the reader is behind by what its kernel buffers. */
export const PACE_PROBE_LATE_MS = 100;
/** The least time between a reader's answered probe and its next: pings stay rare. */
export const PACE_PROBE_GAP_MS = 50;

/** Entries kept back while output is held: more than the sequencer's 4 MiB in flight, plus a frame. */
export const HELD_BYTES = 8 * 1024 * 1024;
/** The same once the owner said it holds: a cluster's log and links carried up to ~20 MiB on their way. */
export const HELD_BYTES_OWNER_HOLDING = 64 * 1024 * 1024;

/** Lagged readers are looked at this often for a drained socket: a lag never rests on uWS's drain event alone. */
export const LAG_WATCH_MS = 100;
/** A catch-up or replay whose reader drains nothing this long is skipped forward: as long as a hold lasts. */
export const REPLAY_STALL_MS = PACE_MAX_HOLD_MS;
/** A send waiting for room looks at the socket this often when uWS reports no drain. */
export const ROOM_POLL_MS = 20;
/** Log entries read at a time by a catch-up or replay: what one reader makes this edge hold beside its socket backlog. */
export const REPLAY_BATCH = 64;
/** A gap in the live feed waits this long for the log to store what the feed brought first. */
export const GAP_STORE_WAIT_MS = 5000;
/** How often a gap fill looks at the log again while it waits for the store. */
export const GAP_POLL_MS = 10;

/** Serialized frames kept per session for catch-ups: about replay_buffer_frames (three screenfuls and more). */
export const RECENT_FRAMES = 1024;
/** The same bounded in bytes, so a hub stays small. */
export const RECENT_BYTES = 4 * 1024 * 1024;
/** Frames from this size on go out uncorked, one at a time: they do not fit uWS's 16 KiB cork buffer. */
export const LARGE_FRAME_BYTES = 16 * 1024;
/** An input unanswered this long had no echo: the next Output is not its answer (echo latency metric). */
export const ECHO_WINDOW_MS = 5000;

// ── The owner: the PTY's reads ───────────────────────────────────────────────────────────────

/** An edge's "behind" report lapses unless repeated: an edge that died cannot hold output for long. */
export const PACE_REPORT_TTL_MS = 1000;
/** After output was held, a session's stream relay stays off this long: reading faster helps only readers that keep up. */
export const RELAY_BAR_AFTER_HOLD_MS = 10_000;
/** The relay reads only for sessions with at most this many readers: with more, they set the pace. */
export const RELAY_MAX_READERS = 1;
