/**
 * Raw JSON bodies: the wire parser (parseQueryBody) against the oracle's own reading of the body.
 * Both sides are evaluated by the oracle here, so a difference is the parser's reading; the engine
 * then takes the parsed query in differential.test.ts.
 */
import fc from "fast-check";
import { describe, test } from "vitest";
import { parseQueryBody } from "../../src/wire/parse.js";
import type { Dataset } from "../../src/semantics/records.js";
import { datasetArb } from "./generators/datasets.js";
import { rawBodyArb, type RawBody } from "./generators/bodies.js";
import { oracle, oracleBody } from "./oracle/index.js";
import { conflicts, type Outcome } from "./oracle/outcome.js";
import { datasetSnippet, querySnippet, specSnippet } from "./format.js";
import { check, timeLimit } from "./settings.js";

function viaParser(dataset: Dataset, body: unknown): { outcome: Outcome; described: string } {
  const parsed = parseQueryBody(body);
  if (parsed.answer) {
    return {
      outcome: { errors: [{ status: parsed.answer.status as 400 | 500, reason: parsed.answer.detail }], result: null },
      described: `parser answers ${parsed.answer.status}: ${parsed.answer.detail}`,
    };
  }
  if (!parsed.query) throw new Error("parseQueryBody returned neither a query nor an answer");
  return { outcome: oracle(dataset, parsed.query), described: `parser reads:\n${querySnippet(parsed.query)}` };
}

function describeCase(dataset: Dataset, raw: RawBody): string {
  const { described } = viaParser(dataset, raw.body);
  return [
    `mutations: ${raw.applied.join(", ") || "none"}`,
    `body: ${JSON.stringify(raw.body)}`,
    `built from:\n${specSnippet(raw.spec)}`,
    described,
    `oracle errors: ${JSON.stringify(oracleBody(dataset, raw.body).errors)}`,
    `dataset: ${datasetSnippet(dataset)}`,
  ].join("\n");
}

describe("wire parser vs the oracle's reading of raw bodies", () => {
  test(
    "every raw body is read as the server reads it (status, membership, order)",
    async () => {
      await check(
        fc.property(datasetArb({ maxTasks: 6 }), rawBodyArb(), (dataset, raw) => {
          const problems = conflicts(oracleBody(dataset, raw.body), viaParser(dataset, raw.body).outcome);
          if (problems.length) throw new Error(problems.join("\n"));
        }),
        { runs: 1000 },
        describeCase,
      );
    },
    timeLimit(60_000),
  );
});
