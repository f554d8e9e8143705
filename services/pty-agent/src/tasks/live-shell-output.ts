import { terminalText, withoutEolMark } from './terminal-text';

/** What the terminal showed of one typed command, split where the shell's marks came. */
export interface TypedOutput {
  /** The typed line's first line, as its echo shows it. */
  line: string;
  /** Output from typing the line up to the D mark. */
  chunks: Buffer[];
  /** Index into chunks where the C mark came; undefined when the shell reports none. */
  startAt: number | undefined;
  /** Output after the D mark (through a multiplexer, the command's last redraw may come there). */
  tail: Buffer[];
}

/** Output kept while no task runs, to learn the prompt a multiplexer drew (only its last line counts). */
const IDLE_KEEP = 4096;
/** Lines searched for the typed line's echo: it is drawn before the output. */
const ECHO_SEARCH_LINES = 50;

/**
 * Straight from the shell, the output is exactly what came between the C mark (else the typed
 * line's echo) and the D mark, whether or not it ends with a newline.
 */
export function directOutput(typed: TypedOutput): string {
  // zsh draws its end-of-line mark before it runs the hook that sends D.
  const { raw } = withoutEolMark(Buffer.concat(typed.chunks.slice(typed.startAt ?? 0)).toString('utf8'));
  const text = terminalText(raw);
  return echoEnded(typed) ? text : afterFirstLine(text);
}

/**
 * The prompt line a multiplexer draws after the shell's A mark: learned between tasks, and from
 * a command's output when it runs on into a prompt not seen before (one showing the directory).
 */
export class MultiplexedPrompt {
  /** The prompt line as last drawn, to tell it from an unterminated last output line. */
  line: string | undefined;
  /** Output since the last A mark while no task ran (the prompt being drawn). */
  private idle = '';

  /** The A mark: a prompt starts being drawn. */
  reset(): void {
    this.idle = '';
  }

  /** Between tasks, after an A mark: the last line drawn is the prompt. */
  learn(text: Buffer): void {
    this.idle = (this.idle + text.toString('utf8')).slice(-IDLE_KEEP);
    const shown = terminalText(withoutEolMark(this.idle).raw, true);
    const line = shown.slice(shown.lastIndexOf('\n') + 1);
    if (line.trim()) this.line = line;
  }

  /**
   * Through a multiplexer the marks come at once and the text at its next redraw, so the output
   * runs on into the next prompt: the last line is the prompt, after any unterminated output.
   */
  output(typed: TypedOutput): string {
    const { raw, unterminated } = withoutEolMark(Buffer.concat([...typed.chunks, ...typed.tail]).toString('utf8'));
    let text = multiplexedText(typed, raw);
    const cut = text.lastIndexOf('\n') + 1;
    const lastLine = text.slice(cut);
    if (this.line && lastLine.endsWith(this.line)) {
      text = text.slice(0, text.length - this.line.length);
    } else {
      // A prompt not seen before (it shows the directory, say): all of the last line is taken for it.
      if (lastLine.trim()) this.line = lastLine;
      text = text.slice(0, cut);
    }
    // zsh's PROMPT_SP pads a line with spaces before the prompt; a multiplexer redraws it as a line.
    text = text.replace(/(?:^|(?<=\n)) +\n$/, '');
    // Redrawn, the padding may leave more than one line end: none of them is output.
    return unterminated ? text.replace(/(?: *\n)+$/, '') : text;
  }
}

/**
 * What a command showed so far through a multiplexer, without its typed line: the text of a
 * prompt it waits at (the last line is the command's own, the shell's prompt is not drawn yet).
 */
export function multiplexedSoFar(typed: TypedOutput): string {
  return multiplexedText(typed, withoutEolMark(Buffer.concat(typed.chunks).toString('utf8')).raw);
}

/** The text of a multiplexer's redraws after the line that shows the typed command. */
function multiplexedText(typed: TypedOutput, raw: string): string {
  const text = terminalText(raw, true);
  // The marks do not tell where the typed line's echo ends (its newline may be drawn after C, or
  // as a cursor move): the output starts after the first line that shows the typed line.
  const lines = text.split('\n');
  const echo = echoEnd(lines, typed.line);
  if (echo >= 0) return lines.slice(echo + 1).join('\n');
  // Drawn in pieces: fall back on the marks. Without a C mark the echo comes first; with one,
  // it has ended before C when a newline came before C.
  const fromC = withoutEolMark(
    Buffer.concat([...typed.chunks.slice(typed.startAt ?? 0), ...typed.tail]).toString('utf8'),
  );
  const shown = terminalText(fromC.raw, true);
  return echoEnded(typed) ? shown : afterFirstLine(shown);
}

/** Whether the typed line's echo had ended (a newline came) before the C mark. */
function echoEnded(typed: TypedOutput): boolean {
  return typed.startAt !== undefined && typed.chunks.slice(0, typed.startAt).some((c) => c.includes(0x0a));
}

/** The text after its first line (the typed line's echo); empty when it has only that line. */
function afterFirstLine(text: string): string {
  const nl = text.indexOf('\n');
  return nl < 0 ? '' : text.slice(nl + 1);
}

/**
 * The index of the line where the typed line's echo ends, or -1: the first run of lines that
 * shows the typed line, wrapped over as many rows as it takes.
 */
function echoEnd(lines: string[], typed: string): number {
  for (let i = 0; i < Math.min(lines.length, ECHO_SEARCH_LINES); i++) {
    let joined = '';
    for (let k = i; k < lines.length && joined.length < typed.length + 256; k++) {
      joined += lines[k];
      if (joined.includes(typed)) return k;
    }
  }
  return -1;
}

/** The last `n` non-empty lines of a text. */
export function lastLines(text: string, n: number): string {
  return text
    .split('\n')
    .filter((l) => l.trim() !== '')
    .slice(-n)
    .join('\n');
}
