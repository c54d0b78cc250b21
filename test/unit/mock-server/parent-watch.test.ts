import { describe, expect, test } from "vitest";
import { PARENT_CHECK_MS, watchParent } from "../../../mock-server/parent-watch.js";
import { VirtualClock } from "../../helpers/virtual-clock.js";

describe("watchParent: the mock stops when the process that started it goes away", () => {
  test("looks every half second; the first look at a new parent id calls back once, and the looking stops", () => {
    const clock = new VirtualClock();
    let ppid = 100;
    let calls = 0;
    watchParent(() => calls++, { ppid: () => ppid, clock });
    clock.advance(PARENT_CHECK_MS * 3);
    expect(calls).toBe(0);
    expect(clock.scheduled).toEqual([500, 500, 500, 500]);
    ppid = 1; // re-parented to init
    clock.advance(PARENT_CHECK_MS - 1);
    expect(calls).toBe(0);
    clock.advance(1);
    expect(calls).toBe(1);
    expect(clock.pending()).toEqual([]);
    clock.advance(PARENT_CHECK_MS * 10);
    expect(calls).toBe(1);
  });

  test("the returned function stops the watch", () => {
    const clock = new VirtualClock();
    let ppid = 7;
    let calls = 0;
    const stop = watchParent(() => calls++, { ppid: () => ppid, clock, every: 1000 });
    clock.advance(1000);
    stop();
    ppid = 1;
    clock.advance(10_000);
    expect(calls).toBe(0);
    expect(clock.pending()).toEqual([]);
  });
});
