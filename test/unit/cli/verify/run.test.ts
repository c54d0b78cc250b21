import { describe, expect, test } from "vitest";
import { catalogue } from "../../../../src/cli/verify/catalogue.js";
import { workersFor } from "../../../../src/cli/verify/run.js";

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
