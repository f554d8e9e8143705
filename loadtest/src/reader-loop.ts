/**
 * How busy the benchmark's own event loop was while it read a measurement's sockets, and how long
 * V8 collected garbage meanwhile. Its CPU% alone does not say whether the readers were the bound:
 * V8's collector threads count in it too (above 100 in the big fan-out). A loop busy near 100 %
 * means the readers, not the server, set the pace of that round.
 */
// Node's own performance: the global one is DOM's when a dependency's typings pull in lib.dom (xterm's do).
import { performance, PerformanceObserver } from 'node:perf_hooks';

let gcTotalMs = 0;
let observing = false;

/** One observer for the process: a meter only reads the running total. */
function observeGc(): void {
  if (observing) return;
  observing = true;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcTotalMs += entry.duration;
  }).observe({ entryTypes: ['gc'] });
}

export class ReaderLoopMeter {
  private readonly loopStart = performance.eventLoopUtilization();
  private readonly gcStart: number;

  constructor() {
    observeGc();
    this.gcStart = gcTotalMs;
  }

  /** The share of the interval the event loop was busy, in % (100: it never waited for I/O). */
  busyPercent(): number {
    return performance.eventLoopUtilization(this.loopStart).utilization * 100;
  }

  /**
   * Milliseconds of garbage collection in the interval. GC entries are delivered after the fact,
   * so one that ended within the last turn of the loop may be counted in the next interval.
   */
  gcMs(): number {
    return gcTotalMs - this.gcStart;
  }
}
