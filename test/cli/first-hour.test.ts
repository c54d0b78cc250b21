import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, test } from "vitest";
import { DMQ } from "./dmq.js";

/** The first minutes of a new user: what fails there must say how to get past it. */
describe("the first hour", () => {
  test("the build keeps the CLI executable: its file runs by itself, as npx and bin shims run it", async () => {
    const { stdout } = await promisify(execFile)(DMQ, ["--version"]);
    expect(stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
