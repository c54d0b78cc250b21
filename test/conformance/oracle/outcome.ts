/**
 * What the oracle predicts. The spec leaves some things open (tie order, collation details, which
 * row Django reads first, whether Postgres reaches a bad cast), so a prediction is a set of
 * acceptable answers rather than one answer: per task in / out / either, a partial order, and the
 * error statuses the server may answer instead.
 */

/** Three-valued membership: `"either"` = the spec allows both. */
export type Tri = true | false | "either";

export const and3 = (a: Tri, b: Tri): Tri => (a === false || b === false ? false : a === true && b === true ? true : "either");
export const or3 = (a: Tri, b: Tri): Tri => (a === true || b === true ? true : a === false && b === false ? false : "either");
export const not3 = (a: Tri): Tri => (a === "either" ? "either" : !a);
/** One verdict from several equally possible worlds. */
export const agree = (values: readonly Tri[]): Tri =>
  values.length === 0 ? false : values.every((v) => v === values[0]) ? (values[0] as Tri) : "either";

export interface PossibleError {
  readonly status: 400 | 500;
  readonly reason: string;
}

export interface ResultSpec {
  /** Every task of the project: in the answer, not in it, or either. */
  readonly members: ReadonlyMap<number, Tri>;
  /** Order of two task ids: <0 a first, >0 b first, 0 either order. */
  readonly compare: (a: number, b: number) => number;
  /** Why some verdicts or orders are open (printed on failure). */
  readonly notes: readonly string[];
}

export interface Outcome {
  /** Errors the server may answer (all of them, when `result` is null). */
  readonly errors: readonly PossibleError[];
  /** The answer when no error is raised; null when an error is certain. */
  readonly result: ResultSpec | null;
}

/** What a system under test answered. */
export type Answer = { readonly status: 200; readonly ids: readonly number[] } | { readonly status: number; readonly detail: string };

/** Problems with an answer (empty = acceptable). */
export function judge(outcome: Outcome, answer: Answer): string[] {
  if (answer.status !== 200) {
    const ok = outcome.errors.some((e) => e.status === answer.status);
    if (ok) return [];
    const expected = outcome.result
      ? `a result${outcome.errors.length ? ` or ${describeErrors(outcome.errors)}` : ""}`
      : describeErrors(outcome.errors);
    return [`expected ${expected}, got status ${answer.status}: ${"detail" in answer ? answer.detail : ""}`];
  }
  const result = outcome.result;
  if (!result) return [`expected ${describeErrors(outcome.errors)}, got 200 with ids [${"ids" in answer ? answer.ids.join(", ") : ""}]`];
  const ids = (answer as { ids: readonly number[] }).ids;
  const problems: string[] = [];
  const seen = new Set<number>();
  for (const id of ids) {
    if (seen.has(id)) problems.push(`task ${id} appears twice`);
    seen.add(id);
    const verdict = result.members.get(id);
    if (verdict === undefined) problems.push(`task ${id} is not a task of the project`);
    else if (verdict === false) problems.push(`task ${id} must not be in the answer`);
  }
  for (const [id, verdict] of result.members) if (verdict === true && !seen.has(id)) problems.push(`task ${id} is missing`);
  for (let i = 0; i < ids.length; i++) {
    for (let j = i + 1; j < ids.length; j++) {
      const a = ids[i] as number,
        b = ids[j] as number;
      if (result.compare(a, b) > 0) problems.push(`task ${b} must come before task ${a}`);
    }
  }
  return problems;
}

function describeErrors(errors: readonly PossibleError[]): string {
  return errors.length ? errors.map((e) => `${e.status} (${e.reason})`).join(" or ") : "nothing";
}

/** The ids the oracle is sure about, in an order it accepts (for messages and for the model). */
export function certainIds(result: ResultSpec): number[] {
  return [...result.members]
    .filter(([, v]) => v === true)
    .map(([id]) => id)
    .sort((a, b) => result.compare(a, b) || a - b);
}

/** True when nothing in the result is open: the answer is one set (order may still have ties). */
export function isDefinite(result: ResultSpec): boolean {
  return [...result.members.values()].every((v) => v !== "either");
}

/** Ways two predictions contradict each other (empty = some answer satisfies both). */
export function conflicts(a: Outcome, b: Outcome): string[] {
  const shared = a.errors.some((e) => b.errors.some((f) => f.status === e.status));
  if (!a.result || !b.result) {
    if (shared) return [];
    if (!a.result && !b.result) return [`errors differ: ${describeErrors(a.errors)} vs ${describeErrors(b.errors)}`];
    return !a.result
      ? [`expected ${describeErrors(a.errors)}, the other side evaluates`]
      : [`expected a result, the other side answers ${describeErrors(b.errors)}`];
  }
  const problems: string[] = [];
  const ra = a.result,
    rb = b.result;
  for (const [id, va] of ra.members) {
    const vb = rb.members.get(id);
    if (vb === undefined) problems.push(`task ${id} unknown to the other side`);
    else if (va !== "either" && vb !== "either" && va !== vb) problems.push(`task ${id}: ${va ? "in" : "out"} vs ${vb ? "in" : "out"}`);
  }
  const ids = [...ra.members.keys()].filter((id) => ra.members.get(id) !== false && rb.members.get(id) !== false);
  for (const x of ids)
    for (const y of ids) if (x < y && ra.compare(x, y) * rb.compare(x, y) < 0) problems.push(`order of tasks ${x} and ${y} differs`);
  return problems;
}
