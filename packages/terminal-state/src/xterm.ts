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

export { Terminal, SerializeAddon };

export interface HeadlessTerminal {
  readonly term: Terminal;
  readonly serializer: SerializeAddon;
}

export function createHeadlessTerminal(
  cols: number,
  rows: number,
  scrollback: number,
  onParseError: (error: Error) => void,
): HeadlessTerminal {
  // In @xterm/headless `term.buffer` and `term.parser` are still "proposed" API; the serializer
  // reads the buffer and eraseAboveFix hooks the parser.
  const term = new Terminal({ cols, rows, scrollback, allowProposedApi: true });
  guardParser(term, onParseError);
  installEraseAboveFix(term);
  const serializer = new SerializeAddon();
  term.loadAddon(serializer);
  return { term, serializer };
}
