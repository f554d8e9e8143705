// The protocol package builds without DOM or Node types (it is bundled for the browser too);
// these are the few web-platform globals it uses, present in both runtimes.
declare function btoa(data: string): string;
declare function atob(data: string): string;
declare class TextEncoder {
  encode(input?: string): Uint8Array;
}
declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean });
  decode(input?: Uint8Array, options?: { stream?: boolean }): string;
}
/** CommonJS require, used only to load ajv lazily (validate.ts); bundlers resolve it statically. */
declare function require(id: string): unknown;
