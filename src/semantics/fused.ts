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

/** What an inline condition reads of task `i` (record `t`): the value its closures read (null: SQL NULL). */
export type InlineRead =
  /** The id. */
  | { readonly r: "id" }
  /** inner_id, numbered by place (i + 1) when the task has none, as a float (NaN: null). */
  | { readonly r: "inner" }
  /** A timestamp field, in microseconds (`parse`; null when it does not parse). */
  | { readonly r: "micros"; readonly field: "created_at" | "updated_at"; readonly parse: (text: string) => number | null }
  /** `data -> key` as JSON: one own key (undefined: missing, or data is a list). */
  | { readonly r: "data"; readonly key: string }
  /**
   * `CAST(data ->> key AS float)`: a JSON number as it is, anything else through `cast` (which notes a
   * text that does not cast). `all` is told when the scan read every task.
   */
  | { readonly r: "number"; readonly key: string; readonly cast: (i: number) => number | null; readonly all: () => void };

/** The test on what was read: as the closures of the same condition test it (generic.ts). */
export type InlineTest =
  /** Equal to one of the keys (SameValueZero, as the Lookup's set). */
  | { readonly t: "in"; readonly keys: ReadonlySet<unknown> }
  /** A float8 comparison of a number read (NULL fails; NaN is a value, above every number). */
  | { readonly t: "lt" | "lte" | "gt" | "gte"; readonly rhs: number }
  | { readonly t: "between"; readonly lo: number; readonly hi: number }
  /** The condition's own three-valued test of the value read: it holds when that is true (a call). */
  | { readonly t: "is"; readonly test: (v: unknown) => boolean | null };

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

/**
 * Fewer tasks than this are scanned by the closures. Measured (`evaluate(records, query)` on the
 * benchmark's seven queries, alternating rounds): up to 64 tasks the closures take the time of a
 * repeated shape's generated scan (0.85–1.04×) and half of it when the shape is new (its compile
 * costs more than the scan); from about 100 tasks the generated scan wins (up to 1.6× at 1,000).
 */
export const FUSED_MIN_TASKS = 64;

let minTasks = FUSED_MIN_TASKS;

/**
 * Generated scans "never", "always" (whatever the number of tasks: for tests that compare them with
 * the closures), or "sized" (the default: from FUSED_MIN_TASKS tasks).
 */
export function useFusedScans(mode: "never" | "always" | "sized"): void {
  minTasks = mode === "never" ? Number.POSITIVE_INFINITY : mode === "always" ? 0 : FUSED_MIN_TASKS;
}

/** Does the filter have an inline condition (else the closures scan as fast)? */
function hasInline(f: Fused): boolean {
  return f.k === "inline" || (f.k !== "call" && f.items.some(hasInline));
}

/**
 * The scan for a filter over `tasks` tasks, or undefined (too few tasks, nothing inline, generated
 * scans off, or code cannot be generated).
 */
export function fusedScan(filter: Fused, tasks: number): FusedScan | undefined {
  if (tasks < minTasks || !hasInline(filter)) return undefined;
  const consts: unknown[] = [];
  const reads: string[] = [];
  let data = false;
  const constant = (v: unknown) => `c${consts.push(v) - 1}`;

  /**
   * `d[key]`, undefined when data is a list (`data -> 'key'` of a jsonb array is NULL). A list
   * parsed from JSON has no own key but its indexes and `length` (an index is a step of its own,
   * inherited methods are functions, which the reads check): only `length` needs the check.
   */
  const keyOf = (key: string) => (key === "length" ? `(Array.isArray(d) ? undefined : d.length)` : `d[${JSON.stringify(key)}]`);

  /** A statement that reads `r` into a new variable for every task (a number read must see them all); its name. */
  function read(r: InlineRead): string {
    const v = `v${reads.length}`;
    const key = "key" in r ? JSON.stringify(r.key) : "";
    // plain switch: a small closed union, compiled once per query.
    switch (r.r) {
      case "id":
        reads.push(`const ${v} = t.id;`);
        break;
      case "inner":
        reads.push(`let ${v} = +(t.inner_id ?? i + 1); if (${v} !== ${v}) ${v} = null;`);
        break;
      case "micros":
        reads.push(`const ${v} = ${constant(r.parse)}(t[${JSON.stringify(r.field)}]);`);
        break;
      case "data":
        data = true;
        // An object found may be inherited (`constructor`): only own keys count.
        reads.push(
          `let ${v} = ${keyOf(r.key)}; if (typeof ${v} === "object" && ${v} !== null || typeof ${v} === "function") ${v} = Object.hasOwn(d, ${key}) ? ${v} : undefined;`,
        );
        break;
      case "number":
        data = true;
        reads.push(`let ${v} = ${keyOf(r.key)}; if (typeof ${v} !== "number") ${v} = ${constant(r.cast)}(i);`);
        break;
    }
    return v;
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
      case "is":
        return `(${constant(test.test)}(${v}) === true)`;
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
    ...(data ? ["    const d = t.data;"] : []),
    ...reads.map((h) => `    ${h}`),
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
    // Every task was read (reads are not short-circuited): a number read's cast has seen them all.
    if (out !== undefined) for (const all of numbers) all();
    return out;
  };
}

/** The `all` of every number read. */
function collect(f: Fused): (() => void)[] {
  if (f.k === "call") return [];
  if (f.k === "inline") return f.inline.read.r === "number" ? [f.inline.read.all] : [];
  return f.items.flatMap(collect);
}
