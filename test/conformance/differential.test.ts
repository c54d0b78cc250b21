/**
 * The semantics engine against the independent oracle: random datasets × queries made through
 * the builder (every column × operator × value shape of the vocabulary), and raw JSON bodies
 * through the wire parser. Ids and order must be an answer the spec allows.
 */
import fc from "fast-check";
import { describe, test } from "vitest";
import type { Dataset } from "../../src/semantics/records.js";
import type { QueryNode } from "../../src/query/nodes.js";
import { engineAnswer, engineBodyAnswer } from "./engine.js";
import { arbSelectionSpec, buildSelection as buildSharedSelection } from "../property/arbitraries.js";
import { datasetSnippet, querySnippet, specSnippet } from "./format.js";
import { rawBodyArb, type RawBody } from "./generators/bodies.js";
import { datasetArb } from "./generators/datasets.js";
import { allCombinations, buildQuery, conditionArb, conditionFor, querySpecArb, type QuerySpec } from "./generators/queries.js";
import { judge, oracle, oracleBody, type Answer, type Outcome } from "./oracle/index.js";
import { check, DEFAULT_SEED, timeLimit } from "./settings.js";

function verdict(outcome: Outcome, answer: Answer): void {
  const problems = judge(outcome, answer);
  if (problems.length) throw new Error(problems.join("\n"));
}

function describeAnswer(outcome: Outcome, answer: Answer): string {
  const got =
    answer.status === 200 && "ids" in answer
      ? `engine: [${answer.ids.join(", ")}]`
      : `engine: status ${answer.status} (${"detail" in answer ? answer.detail : ""})`;
  const notes = outcome.result?.notes.length ? `\noracle notes: ${outcome.result.notes.join("; ")}` : "";
  const errors = outcome.errors.length ? `\noracle allows errors: ${outcome.errors.map((e) => `${e.status} ${e.reason}`).join("; ")}` : "";
  return `${got}${errors}${notes}`;
}

function describeQueryCase(dataset: Dataset, spec: QuerySpec): string {
  const query = buildQuery(spec);
  const outcome = oracle(dataset, query);
  return [
    `builder:\n${specSnippet(spec)}`,
    describeAnswer(outcome, engineAnswer(dataset, query)),
    `dataset: ${datasetSnippet(dataset)}`,
  ].join("\n");
}

function describeRawCase(dataset: Dataset, raw: RawBody): string {
  return [
    `mutations: ${raw.applied.join(", ") || "none"}`,
    `body: ${JSON.stringify(raw.body)}`,
    `built from:\n${specSnippet(raw.spec)}`,
    describeAnswer(oracleBody(dataset, raw.body), engineBodyAnswer(dataset, raw.body)),
    `dataset: ${datasetSnippet(dataset)}`,
  ].join("\n");
}

describe("engine vs oracle", () => {
  test(
    "queries made through the builder",
    async () => {
      await check(
        fc.property(datasetArb(), querySpecArb(), (dataset, spec) => {
          const query: QueryNode = buildQuery(spec);
          verdict(oracle(dataset, query), engineAnswer(dataset, query));
        }),
        { runs: 1500 },
        describeQueryCase,
      );
    },
    timeLimit(60_000),
  );

  test(
    "selections from the shared round-trip arbitraries (test/property), any builder input",
    async () => {
      await check(
        fc.property(datasetArb({ maxTasks: 8 }), arbSelectionSpec(), (dataset, spec) => {
          const query = buildSharedSelection(spec).toQuery();
          verdict(oracle(dataset, query), engineAnswer(dataset, query));
        }),
        { runs: 500 },
        (dataset, spec) => {
          const query = buildSharedSelection(spec).toQuery();
          return [
            `selection spec: ${JSON.stringify(spec)}`,
            `as a chain:\n${querySnippet(query)}`,
            describeAnswer(oracle(dataset, query), engineAnswer(dataset, query)),
            `dataset: ${datasetSnippet(dataset)}`,
          ].join("\n");
        },
      );
    },
    timeLimit(60_000),
  );

  test(
    "every column × operator × value shape of the vocabulary",
    async () => {
      // Each combination of the tables gets its own runs, so none is left to chance.
      const only = process.env.FC_COMBO === undefined ? undefined : Number(process.env.FC_COMBO);
      for (const [i, { target, operator, shape }] of allCombinations().entries()) {
        if (only !== undefined && only !== i) continue;
        const arb = conditionFor(target, operator, shape).map(
          (root): QuerySpec => ({ conjunction: "and", lines: [{ root, children: [] }] }),
        );
        await check(
          fc.property(datasetArb({ maxTasks: 8 }), arb, (dataset, spec) => {
            const query = buildQuery(spec);
            verdict(oracle(dataset, query), engineAnswer(dataset, query));
          }),
          { runs: 6, share: 0.01, seed: DEFAULT_SEED + i },
          (dataset, spec) =>
            `combination #${i} (replay with FC_COMBO=${i}): ${target.column}${target.type ? ` (${target.type})` : ""} ${operator} ${shape}\n${describeQueryCase(dataset, spec)}`,
        );
      }
    },
    timeLimit(60_000),
  );

  test(
    "raw bodies with empty and blank lists (in_list, user ids, model versions)",
    async () => {
      const listShapes = new Set(["numberList", "integerList", "scalarList", "idList", "userIds", "stringList"]);
      const condition = conditionArb.filter((c) => listShapes.has(c.shape));
      const spec = querySpecArb({ condition, maxLines: 2 });
      await check(
        fc.property(datasetArb({ maxTasks: 8 }), rawBodyArb({ always: ["emptyList"], maxMutations: 1, spec }), (dataset, raw) =>
          verdict(oracleBody(dataset, raw.body), engineBodyAnswer(dataset, raw.body)),
        ),
        { runs: 300 },
        describeRawCase,
      );
    },
    timeLimit(60_000),
  );

  test(
    "raw JSON bodies through the wire parser",
    async () => {
      await check(
        fc.property(datasetArb({ maxTasks: 8 }), rawBodyArb(), (dataset, raw) =>
          verdict(oracleBody(dataset, raw.body), engineBodyAnswer(dataset, raw.body)),
        ),
        { runs: 1000 },
        describeRawCase,
      );
    },
    timeLimit(60_000),
  );
});
