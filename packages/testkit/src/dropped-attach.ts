/**
 * uWebSockets.js 20.30 sometimes drops a socket it has just upgraded asynchronously (ARCHITECTURE.md,
 * "Known defect: dropped attaches"): the client sees 1006 before `binding_hello`. A client reconnects
 * after such a drop, as it would after a network one; the suite's clients and the bench do so for
 * exactly this case, and say so on stderr. Anything else still fails.
 */

/** A socket closed without a close frame (1006) before the server said anything. */
export class DroppedBeforeHello extends Error {}

const MAX_ATTACH_ATTEMPTS = 3;

/** Runs `attach` again when it throws DroppedBeforeHello, at most MAX_ATTACH_ATTEMPTS times in all. */
export async function retryDroppedAttach<T>(who: string, attach: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await attach();
    } catch (err) {
      if (!(err instanceof DroppedBeforeHello) || attempt === MAX_ATTACH_ATTEMPTS) throw err;
      process.stderr.write(`${who}: ${err.message}; attaching again\n`);
    }
  }
}
