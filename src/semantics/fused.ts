/**
 * A filter compiled into one loop over the tasks (issue #25: a cold query costs one pass). The
 * engine's tests are closures over closures (a line, its conditions, their readers), shared by every
 * query: in a scan over every task each call is a call V8 cannot inline, and on records that do not
 * fit the cache it costs more than the read. A query's filter, when its conditions can say what they
 * read and test (`Inline`), is written as the source of one function (its data keys as literals,
 * every other value a constant it is given) that reads each task once and tests inline; the rest
 * stay calls. The same query shape gives the same source, which the JavaScript engine compiles once.
 * Where code cannot be generated (a Content-Security-Policy without 'unsafe-eval'), the closures run.
 */

/** What an inline condition reads of task `i` (record `t`). */
export type InlineRead =
  /** The id. */
  | { readonly r: "id" }
  /** inner_id, numbered by place (i + 1) when the task has none, as a float. */
  | { readonly r: "inner" }
  /** `data -> key` as JSON (one own key; undefined when data is a list): only tested against scalar keys. */
  | { readonly r: "data"; readonly key: string }
  /**
   * `CAST(data ->> key AS float)`: a JSON number as it is, anything else through `cast` (which notes a
   * text that does not cast). Read for every task, and `all` is told when the scan read every task.
   */
  | { readonly r: "number"; readonly key: string; readonly cast: (i: number) => number | null; readonly all: () => void };

/** The test on what was read: as the closures of the same condition test it (generic.ts). */
export type InlineTest =
  /** Equal to one of the keys (SameValueZero, as the Lookup's set). */
  | { readonly t: "in"; readonly keys: ReadonlySet<unknown> }
  /** A float8 comparison of a number read (NULL fails; NaN is a value, above every number). */
  | { readonly t: "lt" | "lte" | "gt" | "gte"; readonly rhs: number }
  | { readonly t: "between"; readonly lo: number; readonly hi: number };

export interface Inline {
  readonly read: InlineRead;
  readonly test: InlineTest;
}

/** A filter over task indexes as a fused scan compiles it: AND / OR of inline conditions and calls. */
export type Fused =
  | { readonly k: "and" | "or"; readonly items: readonly Fused[] }
  | { readonly k: "inline"; readonly inline: Inline }
  | { readonly k: "call"; readonly test: (i: number) => boolean };

/**
 * A compiled scan: the indexes of the tasks the filter selects, ascending; undefined when a task is
 * not the project's or ids do not ascend (the caller's unchecked dataset was wrong).
 */
export type FusedScan = (tasks: readonly unknown[], project: number) => number[] | undefined;

let enabled = true;

/** Turn generated scans off (true: on) — for tests that compare them with the closures. */
export function useFusedScans(on: boolean): void {
  enabled = on;
}

/** Does the filter have an inline condition (else the closures scan as fast)? */
function hasInline(f: Fused): boolean {
  return f.k === "inline" || (f.k !== "call" && f.items.some(hasInline));
}

/** The scan for a filter, or undefined (nothing inline, generated scans off, or code cannot be generated). */
export function fusedScan(filter: Fused): FusedScan | undefined {
  if (!enabled || !hasInline(filter)) return undefined;
  const consts: unknown[] = [];
  const hoisted: string[] = [];
  let data = false;
  const constant = (v: unknown) => `c${consts.push(v) - 1}`;

  function read(r: InlineRead): string {
    // plain switch: a small closed union, compiled once per query.
    switch (r.r) {
      case "id":
        return "t.id";
      case "inner":
        return "+(t.inner_id ?? i + 1)";
      case "data":
        data = true;
        return `(a ? undefined : d[${JSON.stringify(r.key)}])`;
      case "number": {
        data = true;
        const v = `v${hoisted.length}`;
        const cast = constant(r.cast);
        hoisted.push(`let ${v} = a ? undefined : d[${JSON.stringify(r.key)}]; if (typeof ${v} !== "number") ${v} = ${cast}(i);`);
        return v;
      }
    }
  }

  function leaf({ read: r, test }: Inline): string {
    const v = read(r);
    switch (test.t) {
      case "in": {
        if (test.keys.size !== 1) return `${constant(test.keys)}.has(${v})`;
        const [key] = test.keys;
        return key !== key ? `Number.isNaN(${v})` : `(${v} === ${constant(key)})`;
      }
      // The same forms as numberHolds / numberBetween: NULL fails, NaN is above every number.
      case "lt":
        return `((${v} ?? NaN) < ${constant(test.rhs)})`;
      case "lte":
        return `((${v} ?? NaN) <= ${constant(test.rhs)})`;
      case "gt":
        return `(${v} !== null && !(${v} <= ${constant(test.rhs)}))`;
      case "gte":
        return `(${v} !== null && !(${v} < ${constant(test.rhs)}))`;
      case "between":
        return `(${v} !== null && ${v} >= ${constant(test.lo)} && ${v} <= ${constant(test.hi)})`;
    }
  }

  function expr(f: Fused): string {
    if (f.k === "inline") return leaf(f.inline);
    if (f.k === "call") return `${constant(f.test)}(i)`;
    return `(${f.items.map(expr).join(f.k === "and" ? " && " : " || ")})`;
  }

  const test = expr(filter);
  const source = [
    '"use strict";',
    "return (tasks, project) => {",
    "  const out = [];",
    "  let last = -Infinity;",
    "  for (let i = 0; i < tasks.length; i++) {",
    "    const t = tasks[i];",
    "    if (t.project !== project || !(t.id > last)) return undefined;",
    "    last = t.id;",
    ...(data ? ["    const d = t.data, a = Array.isArray(d);"] : []),
    ...hoisted.map((h) => `    ${h}`),
    `    if (${test}) out.push(i);`,
    "  }",
    "  return out;",
    "};",
  ].join("\n");
  let make: (...c: unknown[]) => FusedScan;
  try {
    // The source holds no value of the query but its data keys, as JSON string literals.
    make = new Function(...consts.map((_, k) => `c${k}`), source) as typeof make;
  } catch {
    return undefined;
  }
  const scan = make(...consts);
  const numbers = collect(filter);
  return (tasks, project) => {
    const out = scan(tasks, project);
    // Every task was read: a number read's cast has seen them all.
    if (out !== undefined) for (const all of numbers) all();
    return out;
  };
}

/** The `all` of every number read (hoisted: read for every task). */
function collect(f: Fused): (() => void)[] {
  if (f.k === "call") return [];
  if (f.k === "inline") return f.inline.read.r === "number" ? [f.inline.read.all] : [];
  return f.items.flatMap(collect);
}
