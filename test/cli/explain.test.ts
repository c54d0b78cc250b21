import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { faults, type MockServer } from "../../mock-server/index.js";
import { parseLink } from "../../src/wire/playground-link.js";
import { dmq, dmqIn, json, mockWithEnv } from "./dmq.js";
import { needsDist } from "../helpers/dist.js";

// Each test spawns the built CLI, several at once: on a busy machine that takes a while.
vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });
// The built CLI runs as a process here: wait for dist/ before the first test, not inside one.
needsDist();

/*
 * `dmq explain` on real bodies: what the official SDK, its legacy client and its data-manager
 * helpers send, what the Data Manager saves, and hand-written ones with the server's surprises.
 * Then `explain --code`: the printed chain is type-checked and run, and gives back the body.
 */
const item = (column: string, operator: string, type: string, value: unknown) => ({
  filter: `filter:tasks:${column}`,
  operator,
  type,
  value,
});

interface Case {
  readonly name: string;
  readonly body: unknown;
  /** Lines the explanation must hold, in order. */
  readonly says: readonly (string | RegExp)[];
  /** What the chain's toJSON() must equal: "same" (the body itself), an object, or absent (no round trip). */
  readonly chain?: "same" | object;
}

const cases: readonly Case[] = [
  {
    name: "SDK actions.create with selected ids",
    body: { selectedItems: { all: false, included: [5, 6] } },
    says: [
      "The server selects:",
      "  every task of the project",
      "  only tasks 5, 6 among them",
      "Nothing hidden: the server reads this body as written.",
    ],
    chain: "same",
  },
  {
    name: "SDK actions.create with filters, ordering and excluded ids",
    body: {
      filters: { conjunction: "or", items: [item("completed_at", "greater", "Datetime", "2026-11-22T01:25:54.840559Z")] },
      ordering: ["-tasks:created_at"],
      selectedItems: { all: true, excluded: [3] },
    },
    says: [
      '  tasks of the project where completed_at > "2026-11-22T01:25:54.840559Z"',
      "  all of them except tasks 3",
      "  ordered by created_at, descending (empty values last)",
    ],
    chain: {
      filters: { conjunction: "and", items: [item("completed_at", "greater", "Datetime", "2026-11-22T01:25:54.840559Z")] },
      ordering: ["-tasks:created_at"],
      selectedItems: { all: true, excluded: [3] },
    },
  },
  {
    name: "data_manager.py Filters.create(OR, [id > 42, completed_at in range])",
    body: {
      filters: {
        conjunction: "or",
        items: [
          item("id", "greater", "Number", 42),
          item("completed_at", "in", "Datetime", { min: "2021-11-01T00:00:00.000000Z", max: "2021-11-05T00:00:00.000000Z" }),
        ],
      },
    },
    says: [
      "  tasks of the project where id > 42",
      '    or completed_at is between (inclusive) "2021-11-01T00:00:00.000000Z" and "2021-11-05T00:00:00.000000Z"',
    ],
    chain: "same",
  },
  {
    name: "legacy client predictions_to_annotations (empty filters, empty ordering, extra keys)",
    body: {
      filters: { conjunction: "and", items: [] },
      model_version: ["v1"],
      ordering: [],
      project: 1,
      selectedItems: { all: true, excluded: [] },
    },
    says: [
      "  every task of the project",
      "  all of them",
      "  in the server's default order",
      "What the server does that the body does not say (2):",
      /\[ignored\] model_version: found an unknown key "model_version"; expected a key the server reads here/,
      /\[ignored\] project: found "project", which the server reads from the URL \(\?project=\) only/,
    ],
    chain: { selectedItems: { all: true, excluded: [] } },
  },
  {
    name: "a saved Data Manager view (as views get prints it)",
    body: {
      id: 4,
      project: 2,
      data: {
        title: "Unlabeled",
        filters: { conjunction: "and", items: [{ ...item("total_annotations", "equal", "Number", 0), child_filters: [] }] },
        ordering: ["-tasks:predictions_score"],
      },
    },
    says: ["  tasks of project 2 where total_annotations = 0", "  ordered by predictions_score, descending (empty values last)"],
    chain: {
      filters: { conjunction: "and", items: [item("total_annotations", "equal", "Number", 0)] },
      ordering: ["-tasks:predictions_score"],
    },
  },
  {
    name: "a filter without the filter:tasks: prefix",
    body: {
      filters: {
        conjunction: "and",
        items: [{ filter: "tasks:id", operator: "equal", type: "Number", value: 1 }, item("id", "less", "Number", 9)],
      },
    },
    says: [
      "  tasks of the project where id < 9",
      /\[ignored\] filters\.items\[0\]\.filter: found string "tasks:id"; expected "filter:tasks:<column>": the server skips this filter; Label Studio 1\.22 answers 500 \("reduce\(\) of empty iterable"\) instead$/,
    ],
    chain: { filters: { conjunction: "and", items: [item("id", "less", "Number", 9)] } },
  },
  {
    name: "{all: false, included: []}",
    body: { selectedItems: { all: false, included: [] } },
    says: [
      "  ALL of them: an empty included list is no restriction",
      "  [read differently] selectedItems: {all: false, included: []} selects EVERY task, not none",
    ],
  },
  {
    name: "a conjunction per line (mixed conjunctions)",
    body: {
      filters: {
        conjunction: "and",
        items: [item("id", "greater", "Number", 1), { ...item("id", "less", "Number", 5), conjunction: "or" }],
      },
    },
    says: [
      "    and id < 5",
      '  [ignored] filters.items[1].conjunction: a line asks for string "or", but a filter set has one conjunction: the server joins every line with filters.conjunction ("and") and ignores this key',
    ],
    chain: { filters: { conjunction: "and", items: [item("id", "greater", "Number", 1), item("id", "less", "Number", 5)] } },
  },
  {
    name: "an operator the column's type does not have",
    body: { filters: { conjunction: "and", items: [item("completed_at", "contains", "Datetime", "2024")] } },
    says: [
      /\[read differently\] filters\.items\[0\]\.operator: found string "contains"; expected an operator of tasks:completed_at \(equal, not_equal/,
    ],
  },
  {
    name: "a regex that selects nothing",
    body: {
      filters: { conjunction: "or", items: [item("data.text", "regex", "String", "(unclosed"), item("id", "greater", "Number", 0)] },
    },
    says: [
      /\[selects nothing\] filters\.items\[0\]\.value: "\(unclosed" is no regex Python compiles \(.*\): the server returns no task at all/,
    ],
  },
  {
    name: "a view in the body",
    body: { view: 3, filters: { conjunction: "and", items: [item("id", "greater", "Number", 0)] } },
    says: [
      `  [overridden] view: the body's "view" makes the server use saved view 3's filters, ordering and selection; it ignores those of this body`,
    ],
  },
  {
    name: "an action request with ?view= (dmq body --request)",
    body: {
      method: "POST",
      path: "/api/dm/actions/",
      query: { id: "delete_tasks", project: 2, view: 7 },
      body: { selectedItems: { all: false, included: [1] } },
    },
    says: [
      `  [overridden] view: the request's ?view=7 makes the server use saved view 7's filters, ordering and selection; it ignores those of this body`,
    ],
  },
  {
    name: "two ordering keys and an unknown operator",
    body: {
      filters: { conjunction: "and", items: [item("data.text", "starts_with", "String", "The")] },
      ordering: ["tasks:id", "-tasks:inner_id"],
    },
    says: [
      /\[ignored\] ordering\[1\]: found string "-tasks:inner_id"; expected a single ordering key \(the server orders by the first key only\)/,
      /\[read differently\] filters\.items\[0\]\.operator: found string "starts_with"/,
    ],
  },
  {
    name: "filters without a conjunction: the server answers 500",
    body: { filters: { items: [] } },
    says: [
      /\[server error \(500\)\] filters\.conjunction: found nothing \(undefined\); expected "and" or "or"/,
      /^The server refuses this body: 500 1 validation error for PrepareParams/,
    ],
  },
  {
    name: "several children of a line go as child_filters, which servers before 1.23 drop",
    body: {
      filters: {
        conjunction: "and",
        items: [
          {
            ...item("id", "greater", "Number", 1),
            child_filters: [item("inner_id", "less", "Number", 5), item("id", "less", "Number", 9)],
          },
          { ...item("inner_id", "greater", "Number", 0), child_filter: item("id", "less", "Number", 9) },
        ],
      },
    },
    says: [
      "  tasks of the project where (id > 1 and inner_id < 5 and id < 9)",
      "What the server does that the body does not say (1):",
      "  [dropped before 1.23] filters.items[0].child_filters: servers before 1.23 (1.22 included) do not read child_filters and " +
        "drop its conditions without a word, so the line selects more tasks there; one child sent as child_filter is read by every server",
    ],
  },
  {
    name: "__ traversal in an ordering key: the server answers 400",
    body: { ordering: ["tasks:annotations__result"] },
    says: [/\[refused \(400\)\] ordering\[0\]/, /^The server refuses this body: 400 Validation error/],
  },
];

describe.concurrent("explain, in plain words", () => {
  test.each(cases.map((c) => [c.name, c] as const))("%s", async (_name, c) => {
    const r = await dmqIn(["explain", "-"], { input: JSON.stringify(c.body) });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe("stdin:");
    let at = 0;
    for (const line of c.says) {
      const found = lines.findIndex((l, i) => i >= at && (typeof line === "string" ? l === line : line.test(l)));
      expect(found, `${String(line)}\nin:\n${r.stdout}`).toBeGreaterThanOrEqual(0);
      at = found + 1;
    }
  });

  test("--format json gives the record; --query and a file give the same explanation", async () => {
    const body = JSON.stringify(cases[5]?.body);
    const [asJson, viaQuery] = await Promise.all([
      dmqIn(["explain", "--query", body, "--format", "json"]),
      dmqIn(["explain", "--query", body]),
    ]);
    const record = json<{ source: string; selects: string[]; notes: string[]; issues: { path: string; effect: string }[]; answer: null }>(
      asJson,
    );
    expect(record.selects).toEqual(["tasks of the project where id < 9", "in the server's default order"]);
    expect(record.issues.map((i) => [i.path, i.effect])).toEqual([["filters.items[0].filter", "ignored"]]);
    expect(viaQuery.stdout.split("\n").slice(1)).toEqual((await dmqIn(["explain", "-"], { input: body })).stdout.split("\n").slice(1));
  });

  test("usage errors: no body on a terminal-less empty stdin is not JSON; two bodies; --against without a project", async () => {
    const [empty, two, noProject] = await Promise.all([
      dmqIn(["explain"]),
      dmqIn(["explain", "-", "--query", "{}"]),
      dmqIn(["explain", "--query", "{}", "--against", "http://127.0.0.1:9"]),
    ]);
    expect(empty).toMatchObject({ code: 2, stderr: expect.stringMatching(/^dmq explain: stdin: not JSON/) });
    expect(two).toMatchObject({ code: 2, stderr: "dmq explain: give one body: a file (or - for stdin), --query <json> or --view <id>\n" });
    expect(noProject).toMatchObject({ code: 2, stderr: "dmq explain: --against needs the project: pass --project <id>\n" });
  });
});

describe("explain against the mock: --view and --against", () => {
  let mock: MockServer;
  let env: Record<string, string>;
  beforeAll(async () => {
    ({ mock, env } = await mockWithEnv());
  });
  afterAll(() => mock.close());

  test("--view fetches the saved view; --against asks the server for the count", async () => {
    const view = await dmqIn(["explain", "--view", "1"], { env });
    expect(view.stdout.split("\n").slice(0, 4)).toEqual([
      "view 1:",
      "The server selects:",
      "  tasks of project 1 where total_annotations = 0",
      "  ordered by predictions_score, descending (empty values last)",
    ]);
    const body = JSON.stringify({ filters: { conjunction: "and", items: [item("total_annotations", "equal", "Number", 0)] } });
    const counted = await dmqIn(["explain", "--query", body, "--against", mock.url, "--project", "1"], {
      env: { LABEL_STUDIO_API_KEY: mock.legacyToken },
    });
    const expected = (await dmqIn(["tasks", "list", "--project", "1", "-w", "total_annotations = 0"], { env })).stdout;
    const n = json<unknown[]>({ code: 0, stdout: expected, stderr: "" }).length;
    expect(counted.stdout.trimEnd().split("\n").at(-1)).toBe(`The server at ${mock.url} selects ${n} tasks of project 1.`);
  });

  test("a server that fails to count keeps the explanation: printed, then its error on stderr, exit 1", async () => {
    // What Label Studio 1.22 answers for a filter line without the filter:tasks: prefix (the newest skip the line).
    mock.use("GET /api/tasks/", faults.status(500, { detail: "reduce() of empty iterable with no initial value" }));
    try {
      const body = JSON.stringify({
        filters: { conjunction: "and", items: [{ ...item("id", "greater", "Number", 0), filter: "tasks:id" }] },
      });
      const args = ["explain", "--query", body, "--against", mock.url, "--project", "1", "--max-retries", "0"];
      const [text, record] = await Promise.all([dmqIn(args, { env }), dmqIn(["--format", "json", ...args], { env })]);
      const error = "GET /api/tasks/ → 500: reduce() of empty iterable with no initial value";
      expect(text).toMatchObject({ code: 1, stderr: `dmq explain: ${error}\n` });
      expect(text.stdout).toContain('[ignored] filters.items[0].filter: found string "tasks:id"');
      expect(text.stdout.trimEnd().split("\n").at(-1)).toBe(`The server at ${mock.url} did not count the tasks: its error is on stderr.`);
      expect(record.code).toBe(1);
      expect(json<{ issues: { path: string }[]; countError: string }>(record)).toMatchObject({
        issues: [{ path: "filters.items[0].filter" }],
        countError: error,
      });
    } finally {
      await mock.reset();
    }
  });
});

describe("explain --open: a playground link with the body loaded", () => {
  const body = {
    filters: {
      conjunction: "or",
      items: [item("data.text", "contains", "String", "a&b=c#d"), item("id", "in", "Number", { min: 1, max: 9 })],
    },
  };
  const decoded = (link: string | undefined) => {
    const url = new URL(link ?? "");
    return { page: `${url.origin}${url.pathname}`, ...parseLink(url.hash) };
  };

  test("the printed link decodes back to the same body and project, on the server's playground; nothing opened from a pipe", async () => {
    const r = await dmq(["explain", "-", "--open", "--project", "3"], {
      input: JSON.stringify(body),
      env: { LABEL_STUDIO_URL: "http://127.0.0.1:9999/" },
    });
    expect(r).toMatchObject({ code: 0, stderr: "" });
    const last = r.stdout.trimEnd().split("\n").at(-1) ?? "";
    expect(last).toMatch(/^The playground: http:\/\/127\.0\.0\.1:9999\/playground\/#project=3&q=/);
    expect(decoded(last.slice("The playground: ".length))).toEqual({
      page: "http://127.0.0.1:9999/playground/",
      project: 3,
      body,
      problems: [],
    });
  });

  test("the server: LABEL_STUDIO_URL, else npm start's; --code ends with the link as a comment; --format json has it", async () => {
    const [against, code, record] = await Promise.all([
      dmqIn(["explain", "--query", JSON.stringify(body), "--open", "--code"], { env: { LABEL_STUDIO_URL: "http://elsewhere:1" } }),
      dmqIn(["explain", "--query", JSON.stringify(body), "--open", "--code"]),
      dmqIn(["--format", "json", "explain", "--query", JSON.stringify(body), "--open"]),
    ]);
    expect(decoded(/^\/\/ the playground: (.*)$/m.exec(against.stdout)?.[1]).page).toBe("http://elsewhere:1/playground/");
    expect(decoded(/^\/\/ the playground: (.*)$/m.exec(code.stdout)?.[1])).toEqual({
      page: "http://127.0.0.1:8080/playground/",
      body,
      problems: [],
    });
    expect(decoded(json<{ playground: string }>(record).playground)).toMatchObject({ body });
  });

  test("a saved view's filters go in as the body the server reads from them", async () => {
    const view = {
      id: 4,
      project: 2,
      data: { filters: { conjunction: "and", items: [item("id", "greater", "Number", 3)] }, ordering: ["-tasks:id"] },
    };
    const r = await dmqIn(["explain", "-", "--open"], { input: JSON.stringify(view) });
    expect(decoded(r.stdout.trimEnd().split("\n").at(-1)?.replace("The playground: ", ""))).toMatchObject({
      project: 2,
      body: { filters: { conjunction: "and", items: [item("id", "greater", "Number", 3)] }, ordering: ["-tasks:id"] },
    });
  });

  test("the opener gets the printed link; why it did not open is said only on a terminal", async () => {
    const opened: string[] = [];
    const r = await dmqIn(["explain", "--query", "{}", "--open"], { openUrl: async (url) => void opened.push(url) });
    expect(opened).toEqual([r.stdout.trimEnd().split("\n").at(-1)?.replace("The playground: ", "")]);
    expect(r.stderr).toBe("");
    const refused = async () => "BROWSER=none";
    expect((await dmqIn(["explain", "--query", "{}", "--open"], { openUrl: refused })).stderr).toBe("");
    expect((await dmqIn(["explain", "--query", "{}", "--open"], { openUrl: refused, stderrIsTTY: true })).stderr).toBe(
      "(the browser was not opened: BROWSER=none)\n",
    );
    expect((await dmqIn(["explain", "--query", "{}"], { openUrl: async (url) => void opened.push(url) })).code).toBe(0);
    expect(opened).toHaveLength(1);
  });
});

describe("explain --code: the chain, compiled and run, gives back the body", () => {
  const outDir = join(import.meta.dirname, ".generated");
  const chained = cases.filter((c) => c.chain !== undefined);
  const files: string[] = [];
  beforeAll(async () => {
    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(outDir, { recursive: true });
    const runs = await Promise.all(chained.map((c) => dmqIn(["explain", "--code", "-"], { input: JSON.stringify(c.body) })));
    const index = relative(outDir, join(import.meta.dirname, "..", "..", "src", "index.js"));
    runs.forEach((r, i) => {
      expect(r.code, r.stderr).toBe(0);
      const file = join(outDir, `chain-${i}.ts`);
      writeFileSync(file, r.stdout.replace('from "dmq"', `from "${index.startsWith(".") ? index : `./${index}`}"`));
      files.push(file);
    });
  });

  test("the printed chains type-check", () => {
    const config = ts.readConfigFile(join(import.meta.dirname, "..", "..", "tsconfig.json"), ts.sys.readFile).config;
    const { options } = ts.parseJsonConfigFileContent(config, ts.sys, join(import.meta.dirname, "..", ".."));
    const program = ts.createProgram(files, { ...options, noEmit: true });
    // The chains' own diagnostics (what getPreEmitDiagnostics reports for them), without checking every
    // file of src/ they import (the unit project's typecheck does): that was nine tenths of this file's time.
    const problems = files
      .map((f) => program.getSourceFile(f)!)
      .flatMap((file) => [
        ...program.getSyntacticDiagnostics(file),
        ...program.getSemanticDiagnostics(file),
        ...program.getDeclarationDiagnostics(file),
      ])
      .map((d) => `${d.file?.fileName}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
    expect(problems).toEqual([]);
  }, 120_000);

  test.each(chained.map((c, i) => [c.name, c, i] as const))("%s", async (_name, c, i) => {
    const module = (await import(/* @vite-ignore */ files[i] as string)) as { query: { toJSON(): unknown } };
    expect(module.query.toJSON()).toEqual(c.chain === "same" ? c.body : c.chain);
  });

  test("a single OR line: the chain says it writes AND", async () => {
    const r = await dmqIn(["explain", "--code", "-"], { input: JSON.stringify(cases[1]?.body) });
    expect(r.stdout).toMatch(
      /^\/\/ written differently: filters\.conjunction "or" with one line; the builder writes "and", which selects the same tasks$/m,
    );
  });

  test("each item the server ignores and each the builder cannot write is named once, at its index in the body", async () => {
    const body = {
      filters: {
        conjunction: "and",
        items: [
          { filter: "tasks:id", operator: "equal", type: "Number", value: 1 },
          item("id", "greater", "Number", 2),
          item("nope", "equal", "Number", 1),
          { ...item("inner_id", "greater", "Number", 2), child_filters: [{ filter: "bad", operator: "equal", type: "Number", value: 3 }] },
        ],
      },
    };
    const r = await dmqIn(["explain", "--code", "--query", JSON.stringify(body)]);
    const comments = r.stdout.split("\n").filter((l) => l.startsWith("//"));
    // 1.22 fails on a line without the prefix, and only skips a child without it (measured).
    const notes = (await dmqIn(["explain", "--query", JSON.stringify(body)])).stdout.split("\n");
    expect(
      notes.filter((l) => l.endsWith('answers 500 ("reduce() of empty iterable") instead')).map((l) => l.split(":")[0]?.trim()),
    ).toEqual(["[ignored] filters.items[0].filter"]);
    expect(comments).toEqual([
      '// ignored by the server: filters.items[0].filter (found string "tasks:id"; expected "filter:tasks:<column>": the server skips this filter)',
      '// ignored by the server: filters.items[3].child_filters[0].filter (found string "bad"; expected "filter:tasks:<column>": the server skips this child filter)',
      '// left out (the builder cannot write it): filters.items[2].filter: expected a known column "tasks:<column>" or "tasks:data.<key>", found string "tasks:nope" (a key of the task data is "tasks:data.nope")',
    ]);
    expect(r.stdout).toContain('.where("tasks:id").greater(2)\n  .and("tasks:inner_id").greater(2);');
  });

  test("a chain of a view names fromView and says what it leaves out", async () => {
    const r = await dmqIn(["explain", "--code", "-"], { input: JSON.stringify(cases[11]?.body) });
    expect(r.stdout).toBe(
      [
        'import { selection } from "dmq";',
        "",
        "// left out (the builder cannot write it): selectedItems.included: a selection taken from a saved view cannot add filters, ordering or task ids: the server ignores them when ?view= is given",
        "export const query = selection(2)",
        "  .fromView(7);",
        "",
      ].join("\n"),
    );
  });
});

afterAll(() => rmSync(join(import.meta.dirname, ".generated"), { recursive: true, force: true }));
