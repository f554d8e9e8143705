/**
 * Runs one measurement phase: a failure or a timeout is recorded in the target's errors and the
 * run goes on, so one broken scenario never costs the others their numbers.
 */
import type { TargetResult } from './types';

export class Budget {
  constructor(readonly deadline: number) {}
  get left(): number {
    return this.deadline - Date.now();
  }
  /** A share of what is left, for one of several consumers (`weight` of `total`). */
  share(weight: number, total: number): Budget {
    return new Budget(Date.now() + (Math.max(0, this.left) * weight) / Math.max(weight, total));
  }
}

/** How far a phase may run past its budget before it is abandoned (the run must stay bounded). */
export const PHASE_OVERRUN_MS = 10_000;

export async function phase(
  result: TargetResult,
  name: string,
  budget: Budget,
  fn: (cleanup: Cleanup) => Promise<void>,
): Promise<void> {
  if (budget.left <= 0) {
    result.errors[name] = 'skipped: time budget exhausted';
    return;
  }
  const cleanup = new Cleanup();
  let timer: NodeJS.Timeout | undefined;
  const started = Date.now();
  try {
    // A phase may overrun the soft budget a little, but never hang the run.
    const limit = Math.max(budget.left, 0) + PHASE_OVERRUN_MS;
    await Promise.race([
      fn(cleanup),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`timed out after ${limit} ms`)), limit);
      }),
    ]);
    log(`  ${result.name} ${name}: ${Date.now() - started} ms`);
  } catch (err) {
    result.errors[name] = (err as Error).message;
    log(`  ${result.name} ${name}: FAILED ${(err as Error).message}`);
  } finally {
    clearTimeout(timer);
    const t = Date.now();
    await cleanup.run();
    if (Date.now() - t > 1000) log(`  ${result.name} ${name} cleanup: ${Date.now() - t} ms`);
  }
}

/** Teardown steps collected while a phase sets things up; run in reverse, errors ignored. */
export class Cleanup {
  private steps: Array<() => unknown> = [];
  add(step: () => unknown): void {
    this.steps.push(step);
  }
  async run(): Promise<void> {
    for (const step of this.steps.reverse()) {
      try {
        await step();
      } catch {
        // Teardown is best effort: the process or socket may already be gone.
      }
    }
    this.steps = [];
  }
}

/** Progress goes to stderr so stdout carries only the table. */
export function log(msg: string): void {
  process.stderr.write(msg + '\n');
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
