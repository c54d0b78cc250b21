import type { Clock } from "../../src/vocabulary/clock.js";

interface Timer {
  readonly at: number;
  readonly order: number;
  readonly callback: () => void;
}

/**
 * A clock that only moves when the test says so. Every timer set on it is logged (`scheduled`, the
 * delays in the order they were asked for), so a test can assert the exact schedule of time limits
 * and retry waits; `advance` fires due timers in time order, each at its own time.
 */
export class VirtualClock implements Clock {
  #now: number;
  #order = 0;
  readonly #timers = new Map<number, Timer>();
  /** Delays of every timer set so far, in milliseconds, in the order they were set. */
  readonly scheduled: number[] = [];
  #waiters: { count: number; resolve: () => void }[] = [];
  /**
   * Called for each timer as it is set (index in `scheduled`, delay); returning true advances the
   * clock by that delay right away (after the caller's current step), e.g. to skip retry waits.
   */
  autoAdvance: ((index: number, ms: number) => boolean) | undefined;

  constructor(start = Date.UTC(2030, 0, 1)) {
    this.#now = start;
  }

  now(): number {
    return this.#now;
  }

  setTimeout(callback: () => void, ms: number): unknown {
    const id = ++this.#order;
    this.#timers.set(id, { at: this.#now + Math.max(0, ms), order: id, callback });
    this.scheduled.push(ms);
    if (this.autoAdvance?.(this.scheduled.length - 1, ms)) queueMicrotask(() => this.advance(ms));
    this.#waiters = this.#waiters.filter((w) => (this.scheduled.length >= w.count ? (w.resolve(), false) : true));
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.#timers.delete(handle as number);
  }

  /** Delays still to run of the pending timers, soonest first. */
  pending(): number[] {
    return [...this.#timers.values()].map((t) => t.at - this.#now).sort((a, b) => a - b);
  }

  /** Resolves once `count` timers have been set in all (code under test sets them after real I/O). */
  whenScheduled(count: number): Promise<void> {
    if (this.scheduled.length >= count) return Promise.resolve();
    return new Promise((resolve) => this.#waiters.push({ count, resolve }));
  }

  /** Moves the time `ms` forward, firing every timer that falls due, in order. */
  advance(ms: number): void {
    const end = this.#now + ms;
    for (;;) {
      const due = [...this.#timers.entries()].filter(([, t]) => t.at <= end).sort(([, a], [, b]) => a.at - b.at || a.order - b.order)[0];
      if (!due) break;
      this.#timers.delete(due[0]);
      this.#now = due[1].at;
      due[1].callback();
    }
    this.#now = end;
  }

  /** Sets the time (tests of lifetimes); fires nothing. */
  set(ms: number): void {
    this.#now = ms;
  }
}
