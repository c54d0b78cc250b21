import { existsSync, readFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { beforeAll, inject } from "vitest";

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

/**
 * How long a file may wait for dist/: the background build (tsc and vite, seconds on an idle machine)
 * can take minutes on a loaded one, and no test should spend its own timeout on it.
 */
export const DIST_WAIT_MS = 600_000;

/**
 * For a file whose tests run dist/ (the CLI as a process, `node dist/…`): waits for the build in a
 * `beforeAll` with a hook timeout of its own, so the tests' timeouts measure only the tests.
 */
export function needsDist(): void {
  beforeAll(() => distReady(), DIST_WAIT_MS);
}
