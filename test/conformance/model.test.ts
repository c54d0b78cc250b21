/**
 * Model-based test (issue #6, point 3): random sequences of client operations against the mock over
 * HTTP and against the in-memory model; after every command the observable state must agree.
 * The server is reset in the setup function, which fast-check calls once per run and per shrink.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, test } from "vitest";
import type { Dataset } from "../../src/semantics/records.js";
import { datasetArb } from "./generators/datasets.js";
import { commandArbs, executed } from "./model/commands.js";
import { seedOf, startReal, type Real } from "./model/fixture.js";
import { modelOf, verifyState } from "./model/model.js";
import { datasetSnippet } from "./format.js";
import { check, timeLimit } from "./settings.js";

let real: Real;
beforeAll(async () => {
  real = await startReal();
});
afterAll(async () => {
  await real?.server.close();
  if (process.env.CONFORMANCE_STATS) console.log([...executed].sort());
});

describe("model-based: client operations against the mock and a model", () => {
  test(
    "observable state agrees after every command",
    async () => {
      await check(
        fc.asyncProperty(
          datasetArb({ minTasks: 2, maxTasks: 6 }),
          fc.commands(commandArbs(), { maxCommands: 15 }),
          async (dataset: Dataset, cmds) => {
            await fc.asyncModelRun(async () => {
              await real.server.reset(seedOf(dataset));
              const model = modelOf(dataset);
              await verifyState(model, real);
              return { model, real };
            }, cmds);
          },
        ),
        { runs: 100, share: 0.02 },
        (dataset, cmds) => `seed dataset: ${datasetSnippet(dataset)}\ncommands: ${String(cmds)}`,
      );
    },
    timeLimit(120_000),
  );
});
