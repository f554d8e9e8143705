/**
 * Base64 (RFC 4648 §4) for JSON-mode PTY bytes. Uses Buffer where the runtime has it (Node: fast,
 * no intermediate strings) and atob/btoa in browsers, so this package needs no Node types.
 */
interface BufferLike {
  from(data: Uint8Array | string, encoding?: string): Uint8Array & { toString(encoding: string): string };
  from(
    buffer: ArrayBufferLike,
    byteOffset: number,
    length: number,
  ): Uint8Array & { toString(encoding: string): string };
}
const NodeBuffer = (globalThis as { Buffer?: BufferLike }).Buffer;

export function encodeBase64(bytes: Uint8Array): string {
  // A view, not a copy: Buffer.from(Uint8Array) would copy every byte first.
  if (NodeBuffer) return NodeBuffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

/** Decodes already-validated base64 (see BASE64_PATTERN). */
export function decodeBase64(text: string): Uint8Array {
  if (NodeBuffer) {
    const b = NodeBuffer.from(text, 'base64');
    return new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  }
  const binary = atob(text);
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

const encoder = new TextEncoder();
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}
