import { describe, expect, test } from "vitest";
import { catalogue } from "../../../../src/cli/verify/catalogue.js";
import { workersFor } from "../../../../src/cli/verify/run.js";
import { formatReport } from "../../../../src/cli/verify/report.js";

describe("workersFor", () => {
  const inArea = (area: string) => catalogue().filter((s) => s.area === area);

  test("on SQLite an area that writes runs one scenario at a time; reads keep the concurrency", () => {
    expect(workersFor({ database: "sqlite", concurrency: 6 }, inArea("actions"))).toBe(1);
    expect(workersFor({ database: "sqlite", concurrency: 6 }, inArea("responses"))).toBe(1);
    expect(workersFor({ database: "sqlite", concurrency: 6 }, inArea("filters"))).toBe(6);
  });

  test("on Postgres every area takes the concurrency (default 4)", () => {
    expect(workersFor({ database: "postgres" }, inArea("actions"))).toBe(4);
    expect(workersFor({ database: "postgres", concurrency: 2 }, inArea("filters"))).toBe(2);
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
