/**
 * Where the client and the mock server read the time and set timers. The default is the system
 * clock; tests pass a virtual one, so retries, time limits and token lifetimes run on a schedule the
 * test controls and can assert exactly, without waiting.
 */
export interface Clock {
  /** Milliseconds since the epoch, like `Date.now()`. */
  now(): number;
  /** Calls `callback` once, `ms` milliseconds from now; the handle goes to `clearTimeout`. */
  setTimeout(callback: () => void, ms: number): unknown;
  /** Cancels a callback `setTimeout` scheduled. */
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = Object.freeze({
  now: () => Date.now(),
  setTimeout: (callback: () => void, ms: number): unknown => setTimeout(callback, ms),
  clearTimeout: (handle: unknown): void => clearTimeout(handle as ReturnType<typeof setTimeout>),
});

/** A clock option: an object with the three functions (checked where options are read). */
export function isClock(value: unknown): value is Clock {
  if (typeof value !== "object" || value === null) return false;
  const clock = value as Record<string, unknown>;
  return typeof clock["now"] === "function" && typeof clock["setTimeout"] === "function" && typeof clock["clearTimeout"] === "function";
}
