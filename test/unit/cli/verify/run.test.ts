import { describe, expect, test } from "vitest";
import { catalogue } from "../../../../src/cli/verify/catalogue.js";
import { oneAtATimeBy, projectDeletesAlone, workersFor } from "../../../../src/cli/verify/run.js";
import type { Answer, Request } from "../../../../src/cli/verify/target.js";
import { formatReport } from "../../../../src/cli/verify/report.js";

describe("workersFor", () => {
  const inArea = (area: string) => catalogue().filter((s) => s.area === area);

  test("on SQLite an area that writes runs one scenario at a time; reads keep the concurrency", () => {
    expect(workersFor({ database: "sqlite", concurrency: 6 }, inArea("actions"))).toBe(1);
    expect(workersFor({ database: "sqlite", concurrency: 6 }, inArea("responses"))).toBe(1);
    expect(workersFor({ database: "sqlite", concurrency: 6 }, inArea("filters"))).toBe(6);
  });

  test("on Postgres every area takes the concurrency (default 4); one-at-a-time areas go by their key", () => {
    expect(workersFor({ database: "postgres" }, inArea("actions"))).toBe(4);
    expect(workersFor({ database: "postgres" }, inArea("ml"))).toBe(4);
    expect(workersFor({ database: "postgres", concurrency: 2 }, inArea("filters"))).toBe(2);
  });
});

describe("scenarios with a serial key", () => {
  /** A run that starts when called and ends when `end` is called; `started` says whether it was called. */
  function gate() {
    const g = { started: false, end: () => {}, fail: (_: Error) => {} };
    const run = () =>
      new Promise<string>((resolve, reject) => {
        g.started = true;
        g.end = () => resolve("done");
        g.fail = reject;
      });
    return { g, run };
  }
  const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

  test("the same key waits for the earlier run to settle, even a failed one; another key or none runs at once", async () => {
    const chains = new Map<string, Promise<unknown>>();
    const [a, b, c, d] = [gate(), gate(), gate(), gate()];
    const ra = oneAtATimeBy(chains, "k", a.run);
    const rb = oneAtATimeBy(chains, "k", b.run);
    const rc = oneAtATimeBy(chains, "other", c.run);
    const rd = oneAtATimeBy(chains, undefined, d.run);
    await tick();
    expect([a.g.started, b.g.started, c.g.started, d.g.started]).toEqual([true, false, true, true]);
    a.g.fail(new Error("first failed"));
    await expect(ra).rejects.toThrow("first failed");
    await tick();
    expect(b.g.started).toBe(true);
    b.g.end();
    c.g.end();
    d.g.end();
    expect(await Promise.all([rb, rc, rd])).toEqual(["done", "done", "done"]);
  });

  test("an area that runs one at a time is one key: every accounts and ml scenario holds its area's, no other scenario does", () => {
    const keyed = catalogue().filter((s) => s.serial === "accounts" || s.serial === "ml");
    expect(new Set(keyed.map((s) => `${s.area}:${s.serial}`))).toEqual(new Set(["accounts:accounts", "ml:ml"]));
    for (const area of ["accounts", "ml"]) {
      expect(keyed.filter((s) => s.area === area).length).toBe(catalogue().filter((s) => s.area === area).length);
    }
  });

  test("an area's key runs its scenarios one at a time, in queue order, though several workers take them", async () => {
    const chains = new Map<string, Promise<unknown>>();
    const gates = [gate(), gate(), gate()];
    const queue = [...gates];
    const order: number[] = [];
    // Four workers, as on PostgreSQL: each takes the next scenario and waits on the area's key.
    const workers = Array.from({ length: 4 }, async () => {
      for (let next = queue.shift(); next; next = queue.shift()) {
        const mine = next;
        await oneAtATimeBy(chains, "ml", () => {
          order.push(gates.indexOf(mine));
          return mine.run();
        });
      }
    });
    await tick();
    expect(gates.map((g) => g.g.started)).toEqual([true, false, false]);
    gates[0]!.g.end();
    await tick();
    expect(gates.map((g) => g.g.started)).toEqual([true, true, false]);
    gates[1]!.g.end();
    await tick();
    gates[2]!.g.end();
    await Promise.all(workers);
    expect(order).toEqual([0, 1, 2]);
  });

  test("every one-step export the server runs shares one key (the server's export file is shared)", () => {
    // Without credentials the server refuses before exporting.
    const oneStep = catalogue().filter(
      (s) =>
        s.probe.kind === "request" && s.probe.request.auth === undefined && /^\/api\/projects\/[^/]+\/export$/.test(s.probe.request.path),
    );
    expect(oneStep.map((s) => s.id)).toEqual(["routes/export/one-step", "routes/export/unknown-type"]);
    expect(new Set(oneStep.map((s) => s.serial))).toEqual(new Set(["one-step-export"]));
  });
});

describe("formatReport as lines", () => {
  const report = {
    target: { url: "http://server", version: "1.22.0", database: "postgres" as const },
    mock: { version: "1.23.2" },
    comparisons: [
      {
        scenario: "filters/id/Number/equal/1",
        area: "filters" as const,
        aspect: "answer",
        verdict: "agree" as const,
        differences: [],
        explained: [],
      },
      {
        scenario: "responses/version",
        area: "responses" as const,
        aspect: "answer",
        verdict: "environment" as const,
        differences: [],
        explained: [{ difference: { path: "body.dmq_mock", target: "absent", mock: "boolean" }, row: "mock-marker" }],
      },
    ],
    rows: [],
    seconds: 1,
  };

  test("jsonl: one comparison per line, with the rows that explain it", () => {
    const lines = formatReport(report, "jsonl")
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.scenario, l.verdict, l.explained])).toEqual([
      ["filters/id/Number/equal/1", "agree", []],
      ["responses/version", "environment", ["mock-marker"]],
    ]);
  });

  test("csv: a header, then one row per comparison", () => {
    const rows = formatReport(report, "csv").split("\r\n");
    expect(rows[0]).toBe("scenario,area,aspect,verdict,differences,explained");
    expect(rows[2]).toBe('responses/version,responses,answer,environment,[],"[""mock-marker""]"');
  });
});

describe("project deletes", () => {
  const tick = () => new Promise<void>((resolve) => setImmediate(resolve));
  /** A send whose answers the test gives, by `METHOD path`; `started` lists the requests sent on, in order. */
  const held = () => {
    const open = new Map<string, () => void>();
    const started: string[] = [];
    const send = projectDeletesAlone(
      (request: Request) =>
        new Promise<Answer>((resolve) => {
          const name = `${request.method} ${request.path}`;
          started.push(name);
          open.set(name, () => resolve({ status: 204 } as Answer));
        }),
    );
    const answer = async (name: string) => {
      open.get(name)!();
      await tick();
    };
    return { send, started, answer };
  };

  test("a project delete waits for the requests in flight, and holds every request sent meanwhile (the server's signal receivers are off while it deletes)", async () => {
    const { send, started, answer } = held();
    const read = send({ method: "GET", path: "/api/tasks/1/" });
    await tick();
    const remove = send({ method: "DELETE", path: "/api/projects/7/" });
    await tick();
    const patch = send({ method: "PATCH", path: "/api/tasks/2/" });
    await tick();
    expect(started).toEqual(["GET /api/tasks/1/"]);
    await answer("GET /api/tasks/1/");
    expect(started).toEqual(["GET /api/tasks/1/", "DELETE /api/projects/7/"]);
    await answer("DELETE /api/projects/7/");
    expect(started.at(-1)).toBe("PATCH /api/tasks/2/");
    await answer("PATCH /api/tasks/2/");
    expect((await Promise.all([read, remove, patch])).map((a) => a.status)).toEqual([204, 204, 204]);
  });

  test("two project deletes go one after the other (at once they would leave the receivers empty for good); other requests go at once", async () => {
    const { send, started, answer } = held();
    const first = send({ method: "DELETE", path: "/api/projects/7/" });
    const second = send({ method: "DELETE", path: "/api/projects/8/" });
    await tick();
    expect(started).toEqual(["DELETE /api/projects/7/"]);
    await answer("DELETE /api/projects/7/");
    expect(started).toEqual(["DELETE /api/projects/7/", "DELETE /api/projects/8/"]);
    await answer("DELETE /api/projects/8/");
    const task = send({ method: "DELETE", path: "/api/tasks/3/" });
    const read = send({ method: "GET", path: "/api/projects/8/" });
    await tick();
    expect(started.slice(2)).toEqual(["DELETE /api/tasks/3/", "GET /api/projects/8/"]);
    await answer("DELETE /api/tasks/3/");
    await answer("GET /api/projects/8/");
    expect((await Promise.all([first, second, task, read])).map((a) => a.status)).toEqual([204, 204, 204, 204]);
  });
});
