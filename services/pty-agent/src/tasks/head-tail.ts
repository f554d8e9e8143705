/** The start of the UTF-8 character that ends `b` when that character is incomplete, else b.length. */
function completeEnd(b: Buffer): number {
  let i = b.length - 1;
  while (i > 0 && (b[i]! & 0xc0) === 0x80) i--;
  if (i < 0) return 0;
  const lead = b[i]!;
  const size = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  return b.length - i < size ? i : b.length;
}

/** Where the first whole UTF-8 character of `b` starts (continuation bytes of a cut one skipped). */
function firstCharStart(b: Buffer): number {
  let i = 0;
  while (i < b.length && (b[i]! & 0xc0) === 0x80) i++;
  return i;
}

/**
 * A command's output bounded to `limit` bytes: its first `head` bytes (how it started: the
 * command, its first error) and its last bytes (how it ended), with what fell between counted.
 */
export class HeadTail {
  private readonly headMax: number;
  private readonly tailMax: number;
  private readonly head: Buffer[] = [];
  private headLen = 0;
  private readonly tail: Buffer[] = [];
  private tailLen = 0;
  private omitted = 0;

  constructor(limit: number, head: number) {
    this.headMax = Math.max(0, Math.min(head, limit));
    this.tailMax = limit - this.headMax;
  }

  push(data: Buffer): void {
    let rest = data;
    if (this.headLen < this.headMax) {
      const take = rest.subarray(0, this.headMax - this.headLen);
      this.head.push(take);
      this.headLen += take.length;
      rest = rest.subarray(take.length);
    }
    if (rest.length === 0) return;
    this.tail.push(rest);
    this.tailLen += rest.length;
    while (this.tailLen > this.tailMax && this.tail.length > 0) {
      const first = this.tail[0]!;
      const excess = this.tailLen - this.tailMax;
      const cut = Math.min(excess, first.length);
      if (cut === first.length) this.tail.shift();
      else this.tail[0] = first.subarray(cut);
      this.tailLen -= cut;
      this.omitted += cut;
    }
  }

  /** The kept text; when bytes were left out, a line between head and tail says how many. */
  result(): { text: string; omittedBytes: number } {
    const head = Buffer.concat(this.head);
    const tail = Buffer.concat(this.tail);
    if (this.omitted === 0) return { text: Buffer.concat([head, tail]).toString('utf8'), omittedBytes: 0 };
    // Cut at character boundaries: a character split by the cut is left out whole.
    const headEnd = completeEnd(head);
    const tailStart = firstCharStart(tail);
    const omittedBytes = this.omitted + (head.length - headEnd) + tailStart;
    const keptHead = head.subarray(0, headEnd).toString('utf8');
    const gap = `${keptHead === '' || keptHead.endsWith('\n') ? '' : '\n'}[… ${omittedBytes} bytes left out …]\n`;
    return { text: keptHead + gap + tail.subarray(tailStart).toString('utf8'), omittedBytes };
  }
}
