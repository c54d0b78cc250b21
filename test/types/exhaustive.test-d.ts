import { match, P } from "ts-pattern";
import { describe, expectTypeOf, test } from "vitest";
import type { PyVal } from "../../src/emulation/python.js";
import { assertNever } from "../../src/vocabulary/never.js";
import type { IssueEffect } from "../../src/wire/issues.js";

/*
 * The code matches its closed unions with `match(…).exhaustive()` (or, in a measured hot loop, a
 * `switch` ending in `assertNever`), so that a new variant is a compile error wherever it is not
 * handled. These tests add a variant to a real union and check that both forms refuse it.
 */

/** A filter value with one kind more than the server's pydantic union has. */
type PyValPlusBytes = PyVal | { readonly t: "bytes"; readonly v: Uint8Array };

describe("match(…).exhaustive() over a union", () => {
  test("covers every kind of PyVal", () => {
    const name = (v: PyVal) =>
      match(v)
        .with({ t: P.union("str", "int", "float", "bool", "list") }, (x) => x.t)
        .with({ t: "range" }, () => "FilterIn")
        .with({ t: "datetime" }, () => "datetime")
        .with({ t: "none" }, () => "NoneType")
        .exhaustive();
    expectTypeOf(name).returns.toEqualTypeOf<string>();
  });

  test("refuses a union with a kind no branch handles", () => {
    const name = (v: PyValPlusBytes) =>
      match(v)
        .with({ t: P.union("str", "int", "float", "bool", "list") }, (x) => x.t)
        .with({ t: "range" }, () => "FilterIn")
        .with({ t: "datetime" }, () => "datetime")
        .with({ t: "none" }, () => "NoneType")
        // @ts-expect-error `bytes` has no branch: .exhaustive() is not callable until it has one
        .exhaustive();
    expectTypeOf(name).toBeFunction();
  });

  test("accepts the union again once the new kind has a branch", () => {
    const name = (v: PyValPlusBytes) =>
      match(v)
        .with({ t: P.union("str", "int", "float", "bool", "list", "bytes") }, (x) => x.t)
        .with({ t: "range" }, () => "FilterIn")
        .with({ t: "datetime" }, () => "datetime")
        .with({ t: "none" }, () => "NoneType")
        .exhaustive();
    expectTypeOf(name).returns.toEqualTypeOf<string>();
  });
});

describe("a hot-loop switch ending in assertNever", () => {
  test("compiles when every case is handled", () => {
    const refuses = (effect: IssueEffect): boolean => {
      switch (effect) {
        case "ignored":
        case "evaluated":
          return false;
        case "rejected":
        case "server-error":
          return true;
        default:
          return assertNever(effect, "issue effect");
      }
    };
    expectTypeOf(refuses).returns.toEqualTypeOf<boolean>();
  });

  test("refuses a switch that misses a case", () => {
    const refuses = (effect: IssueEffect | "deprecated"): boolean => {
      switch (effect) {
        case "ignored":
        case "evaluated":
          return false;
        case "rejected":
        case "server-error":
          return true;
        default:
          // @ts-expect-error "deprecated" reaches the default: the value is not `never`
          return assertNever(effect, "issue effect");
      }
    };
    expectTypeOf(refuses).returns.toEqualTypeOf<boolean>();
  });
});
