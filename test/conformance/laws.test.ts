/**
 * Laws the engine must obey that need no oracle (issue #6): OR and AND of lines are union and
 * intersection; not_equal is the complement of equal minus NULL/missing; selections narrow the
 * filtered list; `-x` reverses `x` apart from NULLs-last and ties.
 */
import fc from "fast-check";
import { describe, test } from "vitest";
import type { Dataset } from "../../src/semantics/records.js";
import type { JsonValue } from "../../src/vocabulary/json.js";
import { columnKinds, type ColumnKindName, type OperatorName } from "../../src/vocabulary/index.js";
import { engineAnswer, idsOf } from "./engine.js";
import { datasetSnippet, specSnippet } from "./format.js";
import { datasetArb, projectTaskIds } from "./generators/datasets.js";
import { badRegexes } from "./generators/pools.js";
import { conditionArb, idsArb, querySpecArb, buildQuery, type ConditionSpec, type QuerySpec } from "./generators/queries.js";
import { check, timeLimit } from "./settings.js";

const run = (dataset: Dataset, spec: QuerySpec) => idsOf(engineAnswer(dataset, buildQuery(spec)));
const one = (root: ConditionSpec): QuerySpec => ({ conjunction: "and", lines: [{ root, children: [] }] });
const sorted = (ids: Iterable<number>) => [...ids].sort((a, b) => a - b);
const same = (a: Iterable<number>, b: Iterable<number>, what: string) => {
  const x = sorted(a),
    y = sorted(b);
  if (x.join() !== y.join()) throw new Error(`${what}: [${x.join(", ")}] vs [${y.join(", ")}]`);
};

/** Lines whose meaning is local to the line: no query-wide effect (an invalid regex empties everything), not skipped (agreement). */
const localCondition = conditionArb.filter(
  (c) => !(c.operator === "regex" && (badRegexes as readonly unknown[]).includes(c.value)) && c.target.column !== "tasks:agreement",
);
const lineArb = fc.record({ root: localCondition, children: fc.array(localCondition, { maxLength: 1 }) });

const describeSpecs = (dataset: Dataset, ...specs: QuerySpec[]) =>
  [...specs.map((s) => specSnippet(s)), `dataset: ${datasetSnippet(dataset)}`].join("\n");

describe("laws without an oracle", () => {
  test(
    "or(A, B) = A ∪ B and and(A, B) = A ∩ B, line by line",
    async () => {
      await check(
        fc.property(datasetArb(), lineArb, lineArb, (dataset, a, b) => {
          const A = run(dataset, { conjunction: "and", lines: [a] });
          const B = run(dataset, { conjunction: "and", lines: [b] });
          const or = run(dataset, { conjunction: "or", lines: [a, b] });
          const and = run(dataset, { conjunction: "and", lines: [a, b] });
          fc.pre(A !== undefined && B !== undefined && or !== undefined && and !== undefined);
          same(or!, new Set([...A!, ...B!]), "or(A, B) vs A ∪ B");
          same(
            and!,
            A!.filter((id) => B!.includes(id)),
            "and(A, B) vs A ∩ B",
          );
        }),
        { runs: 800 },
        (dataset, a, b) => describeSpecs(dataset, { conjunction: "or", lines: [a, b] }, { conjunction: "and", lines: [a, b] }),
      );
    },
    timeLimit(60_000),
  );

  test(
    "not_equal = complement of equal minus NULL/missing",
    async () => {
      const withBoth = localCondition.filter((c) => c.operator === "equal" && "not_equal" in columnKinds[c.target.kind].operators);
      await check(
        fc.property(datasetArb(), withBoth, (dataset, eq) => {
          const ne: ConditionSpec = { ...eq, operator: "not_equal" as OperatorName };
          const equal = run(dataset, one(eq));
          const notEqual = run(dataset, one(ne));
          fc.pre(equal !== undefined && notEqual !== undefined);
          const all = projectTaskIds(dataset);
          const nullish = new Set<number>();
          const kind = columnKinds[eq.target.kind as ColumnKindName];
          if ("empty" in kind.operators)
            for (const id of run(dataset, one({ ...eq, operator: "empty", shape: "boolean", value: true })) ?? []) nullish.add(id);
          const column = eq.target.column.slice("tasks:".length);
          if (column.startsWith("data.")) {
            const key = column.slice("data.".length);
            for (const t of dataset.tasks)
              if (t.project === dataset.project.id && (t.data[key] === undefined || t.data[key] === null)) nullish.add(t.id);
          }
          for (const id of notEqual!) if (equal!.includes(id)) throw new Error(`task ${id} is both equal and not_equal`);
          for (const id of all) {
            if (!equal!.includes(id) && !nullish.has(id) && !notEqual!.includes(id))
              throw new Error(`task ${id} is neither equal, not_equal nor NULL/missing`);
          }
        }),
        { runs: 800 },
        (dataset, eq) => describeSpecs(dataset, one(eq), one({ ...eq, operator: "not_equal" })),
      );
    },
    timeLimit(60_000),
  );

  test(
    "{all: true, excluded: E} = filtered − E and {all: false, included: I} = filtered ∩ I, order kept",
    async () => {
      await check(
        fc.property(datasetArb(), querySpecArb(), idsArb, (dataset, spec, ids) => {
          const { ids: _, ...bare } = spec;
          const filtered = run(dataset, bare);
          const chosen = run(dataset, { ...bare, ids });
          fc.pre(filtered !== undefined && chosen !== undefined);
          const expected =
            ids.kind === "including" ? filtered!.filter((id) => ids.ids.includes(id)) : filtered!.filter((id) => !ids.ids.includes(id));
          if (chosen!.join() !== expected.join())
            throw new Error(`selection gives [${chosen!.join(", ")}], filtered then narrowed gives [${expected.join(", ")}]`);
        }),
        { runs: 800 },
        (dataset, spec, ids) => describeSpecs(dataset, { ...spec, ids }),
      );
    },
    timeLimit(60_000),
  );

  test(
    "-x reverses x apart from NULLs-last and ties",
    async () => {
      // Columns whose value (for NULL-ness and ties only) is a plain record field or count.
      const keyOf: Record<string, (d: Dataset, id: number) => JsonValue | undefined> = {
        id: (_, id) => id,
        inner_id: (d, id) => d.tasks.find((t) => t.id === id)?.inner_id,
        created_at: (d, id) => d.tasks.find((t) => t.id === id)?.created_at,
        updated_at: (d, id) => d.tasks.find((t) => t.id === id)?.updated_at,
        updated_by: (d, id) => d.tasks.find((t) => t.id === id)?.updated_by ?? null,
        total_predictions: (d, id) => d.predictions.filter((p) => p.task === id).length,
        cancelled_annotations: (d, id) => d.annotations.filter((a) => a.task === id && a.was_cancelled).length,
        unresolved_comment_count: (d, id) => d.tasks.find((t) => t.id === id)?.unresolved_comment_count ?? 0,
        "data.num": (d, id) => d.tasks.find((t) => t.id === id)?.data["num"] ?? null,
        "data.text": (d, id) => d.tasks.find((t) => t.id === id)?.data["text"] ?? null,
      };
      // Ties: equal values; for data keys equal `->>` text (1 and "1" tie, numbers by value when cast).
      const tieKey = (v: JsonValue | undefined) => (v === null || v === undefined ? null : typeof v === "string" ? v : JSON.stringify(v));
      await check(
        fc.property(datasetArb(), fc.constantFrom(...Object.keys(keyOf)), querySpecArb({ maxLines: 1 }), (dataset, column, spec) => {
          const { orderBy: _o, ids: _i, columnsDisplayType: _c, ...rest } = spec;
          const asc = run(dataset, { ...rest, orderBy: `tasks:${column}` });
          const desc = run(dataset, { ...rest, orderBy: `-tasks:${column}` });
          fc.pre(asc !== undefined && desc !== undefined);
          same(asc!, desc!, "asc and desc hold different tasks");
          const key = (id: number) => tieKey(keyOf[column]!(dataset, id));
          for (const order of [asc!, desc!]) {
            const firstNull = order.findIndex((id) => key(id) === null);
            if (firstNull >= 0 && order.slice(firstNull).some((id) => key(id) !== null))
              throw new Error(`NULLs are not last in [${order.join(", ")}]`);
          }
          const pos = (order: readonly number[], id: number) => order.indexOf(id);
          const nonNull = asc!.filter((id) => key(id) !== null);
          for (const a of nonNull) {
            for (const b of nonNull) {
              if (a === b || key(a) === key(b)) continue;
              if (pos(asc!, a) < pos(asc!, b) && pos(desc!, a) < pos(desc!, b))
                throw new Error(`tasks ${a} and ${b} (different values) keep their order under -${column}`);
            }
          }
        }),
        { runs: 800 },
        (dataset, column, spec) =>
          describeSpecs(dataset, { ...spec, orderBy: `tasks:${column}` }, { ...spec, orderBy: `-tasks:${column}` }),
      );
    },
    timeLimit(60_000),
  );
});
