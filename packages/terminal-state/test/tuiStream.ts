/**
 * A recorded-looking PTY byte stream: a shell session on the normal screen, then a full-screen app
 * on the alternate screen, left mid-frame. Each piece exercises something a keyframe must carry.
 */
export const COLS = 60;
export const ROWS = 20;

const shell = [
  // prompt with colours
  '\x1b[1;32muser@host\x1b[0m:\x1b[34m~/src\x1b[0m$ ls --color\r\n',
  // 16-colour, bright, 256-colour and truecolor, foreground and background
  '\x1b[31mred\x1b[0m \x1b[91mbright\x1b[0m \x1b[38;5;208morange\x1b[0m \x1b[38;2;255;100;7mrgb\x1b[0m ',
  '\x1b[48;5;22mbg256\x1b[0m \x1b[48;2;1;2;3mbgrgb\x1b[0m \x1b[97;101mbrightbg\x1b[0m\r\n',
  // every SGR flag
  '\x1b[1mbold\x1b[22m \x1b[2mdim\x1b[22m \x1b[3mital\x1b[23m \x1b[4munder\x1b[24m \x1b[5mblink\x1b[25m ',
  '\x1b[7minv\x1b[27m \x1b[8mhid\x1b[28m \x1b[9mstrike\x1b[29m \x1b[53mover\x1b[55m \x1b[1;3;4;7;38;5;33mmix\x1b[0m\r\n',
  // wide characters: CJK, Hangul, emoji, plus 2- and 3-byte UTF-8
  'wide: 中文字符 한국어 😀👍 café €uro ✓\r\n',
  // a line longer than the screen: soft wrap
  'long:' + 'abcdefghij'.repeat(8) + '\r\n',
  // erase in line (EL 0 and EL 1), and background-colour erase
  'erase-me-please\x1b[6D\x1b[K\r\n',
  'keep-right-side\x1b[5D\x1b[1K\r\n',
  '\x1b[44mblue bce\x1b[K\x1b[0m\r\n',
  // absolute and relative cursor movement
  '\x1b[12;10Hat 12,10\x1b[2A\x1b[5Cup\x1b[3Bdown\x1b[G\x1b[1;31mcol1\x1b[0m',
  // a scroll region with scrolling inside it (top rows of the region scroll away)
  '\x1b[14;18r\x1b[14;1H',
  ...Array.from({ length: 8 }, (_, i) => `scroll ${i} \x1b[3${(i % 7) + 1}m${'#'.repeat(i + 1)}\x1b[0m\r\n`),
  '\x1b[r',
  // erase in display below a point
  '\x1b[19;1Hrow nineteen with a tail\x1b[19;10H\x1b[0J',
  '\x1b[19;1H\x1b[2K$ htop\r\n',
];

const app = [
  // enter the alternate screen with app modes on
  '\x1b[?1049h\x1b[?1h\x1b=\x1b[?2004h\x1b[?25l\x1b[?1002h\x1b[?1006h\x1b[4 q',
  '\x1b[H\x1b[2J',
  // inverse title bar over the full width
  '\x1b[1;1H\x1b[7m' + ' top - 12:00:00 up 1 day'.padEnd(COLS) + '\x1b[27m',
  // a box drawn with Unicode box characters
  '\x1b[3;2H┌' + '─'.repeat(20) + '┐',
  ...Array.from({ length: 4 }, (_, i) => `\x1b[${4 + i};2H│\x1b[38;5;${40 + i}m${`cpu${i}`.padEnd(20)}\x1b[0m│`),
  '\x1b[8;2H└' + '─'.repeat(20) + '┘',
  // a box drawn with the DEC Special Graphics charset
  '\x1b[3;30H\x1b(0lqqqqk\x1b[4;30Hx   x\x1b[5;30Hmqqqqj\x1b(B',
  // truecolor meter and a wide-char label
  '\x1b[6;30H\x1b[48;2;200;50;50m    \x1b[48;2;50;200;50m    \x1b[0m 温度',
  // a scroll region inside the app, scrolled twice
  '\x1b[10;16r\x1b[10;1H',
  ...Array.from({ length: 9 }, (_, i) => `proc ${i} \x1b[33m${(i * 7) % 100}%\x1b[0m\r\n`),
  // status bar with background-colour erase on the last row
  '\x1b[20;1H\x1b[42;30m F1 Help  F10 Quit\x1b[K',
  // leave the cursor mid-screen with a non-default pen (the app is half-way through a redraw)
  '\x1b[0m\x1b[12;31H\x1b[1;33;44m',
];

export const TUI_STREAM = [...shell, ...app].join('');

/**
 * Bytes a live session might send after the keyframe. They depend on the pen, the alt screen's
 * scroll region, the saved cursor (restored on leaving the alt screen) and the normal screen.
 */
export const TUI_CONTINUATION = [
  'typed',
  '\x1b[16;1H\n\nafter scroll',
  '\x1b[0m\x1b[?1049l',
  '\x1b[32mback in the shell\x1b[0m\r\n$ ',
].join('');

/** Cuts bytes into irregular chunks so that multibyte characters get split across writes. */
export function irregularChunks(bytes: Uint8Array): Uint8Array[] {
  const sizes = [1, 7, 3, 13, 2, 5, 11, 1, 4];
  const chunks: Uint8Array[] = [];
  for (let at = 0, i = 0; at < bytes.length; i++) {
    const size = sizes[i % sizes.length] ?? 1;
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return chunks;
}

/** True when a chunk boundary falls inside a UTF-8 sequence (the next byte is a continuation byte). */
export function splitsMultibyte(chunks: Uint8Array[]): boolean {
  return chunks.slice(1).some((chunk) => chunk.length > 0 && ((chunk[0] ?? 0) & 0xc0) === 0x80);
}
