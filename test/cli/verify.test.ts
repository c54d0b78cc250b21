import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { startMockServer, type MockServer } from "../../mock-server/index.js";
import { dmqIn } from "./dmq.js";

vi.setConfig({ testTimeout: 120_000, hookTimeout: 120_000 });

/*
 * `dmq verify --against <url>` run as the CLI, against mocks standing in for a server: the table and
 * JSON reports, the exit status (1 for an unexplained difference), usage errors.
 */
const KEY = "verify-cli-key-0123456789abcdef";
const seed = { users: [{ id: 1, username: "admin", email: "admin@example.com", token: KEY }] };
let server: MockServer, strict: MockServer;

beforeAll(async () => {
  [server, strict] = await Promise.all([startMockServer({ data: seed }), startMockServer({ data: seed, strict: true })]);
});
afterAll(() => Promise.all([server.close(), strict.close()]));

describe.concurrent("dmq verify", () => {
  test("a server that behaves like the mock: the table by area, exit 0, nothing left on the server", async () => {
    const run = await dmqIn(["verify", "--against", server.url, "--api-key", KEY, "--only", "^(ordering|selections)/"]);
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^area\s+comparisons\s+agree\s+differ\s+environment$/m);
    expect(run.stdout).toMatch(/^ordering\s+\d+\s+\d+\s+0\s+0$/m);
    expect(run.stdout).toContain("No unexplained difference.");
    expect(server.data().projects).toEqual([]);
  });

  test("a server that differs: every difference listed by area, exit 1", async () => {
    const run = await dmqIn(["verify", "--against", strict.url, "--api-key", KEY, "--only", "^errors/list/filters"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/^Unexplained differences \(\d+\), by area:$/m);
    expect(run.stdout).toMatch(/^ {4}status: target 400 /m);
    expect(run.stderr).toMatch(/^dmq verify: \d+ unexplained differences between the mock and http/m);
  });

  test("--format json: the whole report", async () => {
    const run = await dmqIn(["verify", "--against", server.url, "--api-key", KEY, "--only", "^views/", "--format", "json"]);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      unexplained: number;
      summary: Record<string, { comparisons: number }>;
      target: { database: string };
    };
    expect(report.unexplained).toBe(0);
    expect(report.summary["views"]?.comparisons).toBeGreaterThan(10);
    expect(report.target.database).toBe("postgres");
  });

  test("usage errors: no server, a bad --only, an unknown database", async () => {
    const [noServer, badOnly, badDb] = await Promise.all([
      dmqIn(["verify", "--api-key", KEY]),
      dmqIn(["verify", "--against", server.url, "--api-key", KEY, "--only", "("]),
      dmqIn(["verify", "--against", server.url, "--api-key", KEY, "--database", "mysql"]),
    ]);
    expect([noServer.code, badOnly.code, badDb.code]).toEqual([2, 2, 2]);
    expect(noServer.stderr).toContain("no server: pass --against <url>");
    expect(badOnly.stderr).toContain("--only: expected a regular expression");
    expect(badDb.stderr).toContain("Allowed choices are postgres, sqlite");
  });
});
