/**
 * The one place that loads xterm.js. @xterm/headless 6 ships a webpack bundle whose CommonJS entry
 * (`main: lib-headless/xterm-headless.js`) copies its exports onto `exports`, so a named import
 * compiles (module Node16, "type": "commonjs") to `require('@xterm/headless').Terminal` and works;
 * the `module` field (.mjs) is never used by Node's CommonJS loader. The serialize addon's typings
 * import `@xterm/xterm` (the browser package, not installed here); skipLibCheck lets them degrade
 * to `any` for that parameter, and headless' `loadAddon` accepts the addon structurally. The addon
 * supplies the terminal modes of a keyframe (addonModes.ts); cells are painted by screenPainter.ts.
 */
import { Terminal } from '@xterm/headless';
import { SerializeAddon } from '@xterm/addon-serialize';
import { guardParser } from './parserGuard';
import { installEraseAboveFix } from './eraseAboveFix';
import { trackTitle, type TitleTracker } from './title';

export { Terminal, SerializeAddon };

export interface HeadlessTerminal {
  readonly term: Terminal;
  readonly serializer: SerializeAddon;
  readonly title: TitleTracker;
  /** Drops the error handlers (dispose): xterm.js keeps the newest terminal's logger in module state. */
  release(): void;
}

export interface EmulatorErrorHandlers {
  /** xterm.js threw while parsing (parserGuard.ts). */
  onParseError?: (error: Error) => void;
  /** xterm.js met a byte it cannot parse where it was (a DEL, a binary dump) and skipped it. */
  onMalformedInput?: () => void;
}

const ignore = (): void => undefined;

export function createHeadlessTerminal(
  cols: number,
  rows: number,
  scrollback: number,
  handlers: EmulatorErrorHandlers = {},
): HeadlessTerminal {
  // Reached through a box that release() empties: xterm.js's trace logger, module state, holds the
  // options of the newest terminal it made, this logger included, and a handler that closed over
  // its session kept that whole session (mirror, log writer, timers) after it closed.
  const box = { onMalformedInput: handlers.onMalformedInput ?? ignore };
  // In @xterm/headless `term.buffer` and `term.parser` are still "proposed" API; the serializer
  // reads the buffer and eraseAboveFix hooks the parser.
  const term = new Terminal({
    cols,
    rows,
    scrollback,
    allowProposedApi: true,
    // xterm.js logs to the console by default: a 34-line dump per byte it cannot parse (any
    // program can print DEL), which would break the service's one-JSON-object-per-line log. Its
    // only error-level message is that parse error: it is counted instead, and nothing is printed.
    logLevel: 'error',
    logger: { trace: ignore, debug: ignore, info: ignore, warn: ignore, error: () => box.onMalformedInput() },
  });
  guardParser(term, handlers.onParseError ?? ignore);
  installEraseAboveFix(term);
  const serializer = new SerializeAddon();
  term.loadAddon(serializer);
  const release = (): void => {
    box.onMalformedInput = ignore;
  };
  return { term, serializer, title: trackTitle(term), release };
}
