import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { MockServer } from "../../mock-server/index.js";
import type { MLBackend } from "../helpers/ml-backend.js";
import { dmqIn, json, mockAndModelWithEnv, type Run } from "./dmq.js";

/*
 * Commands whose server answer has no body (a 204 after a delete, the 200 of a train request): nothing on
 * stdout and exit 0 by default; `--format json` given on the command line prints `null` (a document for a
 * script that asked for JSON); JSON lines, CSV and tables print nothing. Against the mock, in this process.
 */
let mock: MockServer;
let env: Record<string, string>;
let model: MLBackend;

beforeAll(async () => {
  ({ mock, env, model } = await mockAndModelWithEnv());
});
afterAll(async () => {
  await mock.close();
  await model.close();
});

const id = async (args: string[]): Promise<string> => {
  const run = await dmqIn(args, { env });
  expect(run, args.join(" ")).toMatchObject({ code: 0, stderr: "" });
  return String(json<{ id: number }>(run).id);
};

/** How to make one record of each kind that has a `delete` command, and the flags its delete needs. */
const makers: Record<string, { make: () => Promise<string>; flags?: string[] }> = {
  projects: { make: () => id(["projects", "create", "-p", "title=Doomed"]) },
  tasks: { make: () => id(["tasks", "create", "--project", "1", "-p", 'data={"text": "doomed"}']) },
  annotations: { make: () => id(["annotations", "create", "2", "-p", "result=[]"]) },
  predictions: { make: () => id(["predictions", "create", "-p", "task=2", "-p", "result=[]"]) },
  views: { make: () => id(["views", "create", "--project", "1", "--title", "Doomed"]) },
  users: {
    make: async () => {
      const name = `doomed${Math.floor(Math.random() * 1e9)}`;
      return id(["users", "create", "-p", `username=${name}`, "-p", `email=${name}@example.com`]);
    },
  },
  drafts: { make: () => id(["drafts", "create", "2", "-p", "result=[]"]) },
  ml: { make: () => id(["ml", "create", "-p", `url=${model.url}`, "-p", "project=1"]) },
  exports: { make: () => id(["exports", "create", "--project", "1", "--include", "5"]), flags: ["--project", "1", "--yes"] },
};

const deleted = async (resource: string, format: string[]): Promise<Run> => {
  const maker = makers[resource]!;
  const made = await maker.make();
  const run = await dmqIn([resource, "delete", made, ...(maker.flags ?? []), ...format], { env });
  // The record is really gone: the exit code said so, and a read now fails.
  const read = await dmqIn([resource, "get", made, ...(maker.flags ?? []).filter((f) => f !== "--yes")], { env });
  expect(read.code, `${resource} get ${made} after delete`).toBe(1);
  return run;
};

describe("an answer with no body", () => {
  test.each(Object.keys(makers))("%s delete: nothing by default, null with --format json", async (resource) => {
    expect(await deleted(resource, [])).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(await deleted(resource, ["--format", "json"])).toEqual({ code: 0, stdout: "null\n", stderr: "" });
  });

  test.each(["jsonl", "csv", "table"])("--format %s: no record, nothing printed", async (format) => {
    expect(await deleted("projects", ["--format", format])).toEqual({ code: 0, stdout: "", stderr: "" });
  });

  test("ml train (the server's 200 has no body): nothing, or null when JSON is asked for", async () => {
    const backend = await makers["ml"]!.make();
    expect(await dmqIn(["ml", "train", backend], { env })).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(await dmqIn(["ml", "train", backend, "--format", "json"], { env })).toEqual({ code: 0, stdout: "null\n", stderr: "" });
    expect(model.seen.filter((r) => r.path === "/webhook").length).toBeGreaterThanOrEqual(2);
  });

  test("views reset (the SDK's views.delete_all): every view of the project gone, nothing printed", async () => {
    for (const title of ["One", "Two"]) await id(["views", "create", "--project", "1", "--title", title]);
    expect(await dmqIn(["views", "reset", "--project", "1"], { env })).toEqual({ code: 0, stdout: "", stderr: "" });
    expect(mock.data().views.filter((v) => v.project === 1)).toEqual([]);
    await id(["views", "create", "--project", "1", "--title", "Three"]);
    expect(await dmqIn(["views", "delete-all", "--project", "1", "--format", "json"], { env })).toEqual({
      code: 0,
      stdout: "null\n",
      stderr: "",
    });
    expect(mock.data().views.filter((v) => v.project === 1)).toEqual([]);
    const without = await dmqIn(["views", "reset"], { env });
    expect([without.code, without.stderr]).toEqual([2, expect.stringMatching(/required option '--project <id>' not specified/)]);
  });

  test("a failed delete still says why on stderr, exit 1, nothing on stdout", async () => {
    const run = await dmqIn(["tasks", "delete", "999999"], { env });
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^dmq tasks delete: DELETE \/api\/tasks\/999999\/ → 404/);
  });
});
