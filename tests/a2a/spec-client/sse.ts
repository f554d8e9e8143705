/**
 * A Server-Sent Events reader after the WHATWG HTML "event stream" interpretation: lines end in
 * CRLF, LF or CR; `data:` lines accumulate (joined by LF); `event:` names the event; lines that
 * start with `:` are comments; a blank line dispatches; one leading space after the colon is
 * dropped. Independent of the server's writer on purpose.
 */
export interface SseMessage {
  event: string;
  data: string;
}

export async function* readEventStream(body: ReadableStream<Uint8Array>): AsyncGenerator<SseMessage> {
  const decoder = new TextDecoder();
  const reader = body.getReader();
  let buffer = '';
  let data: string[] = [];
  let event = '';
  const line = (raw: string): SseMessage | undefined => {
    if (raw === '') {
      const out = data.length > 0 ? { event: event || 'message', data: data.join('\n') } : undefined;
      data = [];
      event = '';
      return out;
    }
    if (raw.startsWith(':')) return undefined;
    const colon = raw.indexOf(':');
    const field = colon < 0 ? raw : raw.slice(0, colon);
    let value = colon < 0 ? '' : raw.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    return undefined;
  };
  try {
    for (;;) {
      const { done, value } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      let m: RegExpExecArray | null;
      // A lone CR at the end may be the first half of a CRLF: wait for more unless the stream ended.
      while ((m = /\r\n|\n|\r(?!$)/.exec(buffer)) || (done && (m = /\r/.exec(buffer)))) {
        const out = line(buffer.slice(0, m.index));
        buffer = buffer.slice(m.index + m[0].length);
        if (out) yield out;
      }
      if (done) return; // an unterminated last event is discarded, as the spec says
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
