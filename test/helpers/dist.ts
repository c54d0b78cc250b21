import { existsSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { inject } from "vitest";

let ready: Promise<void> | undefined;

/**
 * Resolves once dist/ is the build of the current sources (the `integration` project's globalSetup,
 * test/helpers/build-dist.ts, builds it in the background while the tests that do not need it run);
 * rejects with the build's error when it failed.
 */
export function distReady(): Promise<void> {
  ready ??= (async () => {
    const marker = inject("distReady");
    if (marker === undefined) throw new Error("dist/ is built by the integration project's globalSetup: run this file in that project");
    while (!existsSync(marker)) await sleep(100);
    const { error } = JSON.parse(readFileSync(marker, "utf8")) as { error: string | null };
    if (error !== null) throw new Error(`building dist/ failed:\n${error}`);
  })();
  return ready;
}
