import { match } from "ts-pattern";
import { describe, expectTypeOf, test } from "vitest";
import { mockFlags } from "../../mock-server/flags.js";
import type { MockServerOptions } from "../../mock-server/index.js";
import type { Format } from "../../src/cli/output.js";
import type { BrowserPlan } from "../../src/cli/browser.js";

describe("the CLI's unions are matched exhaustively", () => {
  test("--format: the choices are the Format union; a new format is a compile error where outputs match on it", () => {
    expectTypeOf<Format>().toEqualTypeOf<"json" | "table" | "csv" | "jsonl">();
    const more = "yaml" as Format | "yaml";
    // One line, so that the @ts-expect-error sits on the line tsc reports the error on:
    // prettier-ignore
    // @ts-expect-error "yaml" has no branch: exhaustive() refuses the match (as in render, formatRequests, explain)
    match(more).with("json", () => 1).with("table", () => 2).with("csv", () => 3).with("jsonl", () => 4).exhaustive();
  });

  test("a browser plan is opened or says why not", () => {
    const plan = { open: false, why: "BROWSER=none" } as BrowserPlan | { open: "maybe" };
    // One line, so that the @ts-expect-error sits on the line tsc reports the error on:
    // prettier-ignore
    // @ts-expect-error a third kind of plan has no branch
    match(plan).with({ open: false }, () => 1).with({ open: true }, () => 2).exhaustive();
  });

  test("the mock's flag table is keyed by startMockServer's options: a new option needs a flag or a reason", () => {
    expectTypeOf<keyof typeof mockFlags>().toEqualTypeOf<keyof MockServerOptions>();
    const { clock: _clock, ...withoutClock } = mockFlags;
    // @ts-expect-error every option needs an entry (clock's is a reason not to be a flag)
    const partial: typeof mockFlags = withoutClock;
    void partial;
  });
});
