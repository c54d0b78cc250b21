import { systemClock, type Clock } from "../src/vocabulary/clock.js";

/** How often the parent is looked at: a leaked mock holds its port for at most this long after its parent died. */
export const PARENT_CHECK_MS = 500;

export interface ParentWatchOptions {
  /** The parent's process id now (default: `process.ppid`, which Node reads anew on each access). */
  readonly ppid?: () => number;
  readonly every?: number;
  readonly clock?: Clock;
}

/**
 * Calls `gone` once, when the process that started this one has exited. A shell that runs the
 * mock (`npm start` runs `sh -c …`, `npx` too) dies of the SIGTERM npm forwards to it without
 * passing it on; the mock is then re-parented (to init or a subreaper), which shows as a new parent
 * id. Polled, since Node has no parent-death signal. Returns the function that stops watching.
 */
export function watchParent(gone: () => void, options: ParentWatchOptions = {}): () => void {
  const ppid = options.ppid ?? (() => process.ppid);
  const clock = options.clock ?? systemClock;
  const every = options.every ?? PARENT_CHECK_MS;
  const parent = ppid();
  let handle: unknown;
  let stopped = false;
  const check = () => {
    if (stopped) return;
    if (ppid() !== parent) {
      stopped = true;
      gone();
      return;
    }
    schedule();
  };
  const schedule = () => {
    handle = clock.setTimeout(check, every);
    // The watch alone must not keep the process alive (the server does, while it listens).
    (handle as { unref?: () => void } | undefined)?.unref?.();
  };
  schedule();
  return () => {
    stopped = true;
    clock.clearTimeout(handle);
  };
}
