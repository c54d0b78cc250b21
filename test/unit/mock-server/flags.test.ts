import { describe, expect, test } from "vitest";
import { mockFlagList, mockOptionsOf, mockUsage } from "../../../mock-server/flags.js";
import { checkOptions, MockOptionError } from "../../../mock-server/options.js";

describe("the mock's command-line flags (npm start, dmq mock)", () => {
  // That every startMockServer option has a flag or a reason not to is a type test (test/types/cli.test-d.ts).
  test("the flags, in table order", () => {
    expect(mockFlagList.map((f) => f.flag)).toEqual([
      "port",
      "host",
      "data",
      "persist",
      "strict",
      "quiet",
      "max-body-size",
      "request-time-limit",
      "journal-capacity",
      "journal-body-limit",
      "access-token-lifetime",
      "token",
    ]);
  });

  test("each flag sets its option, checked; the rest get a terminal's defaults", () => {
    const argv = [
      "--port",
      "0",
      "--host",
      "::1",
      "--data",
      "seed.json",
      "--persist",
      "db.json",
      "--strict",
      "--quiet",
      "--max-body-size",
      "1024",
      "--request-time-limit",
      "2.5",
      "--journal-capacity",
      "0",
      "--journal-body-limit",
      "10",
      "--access-token-lifetime",
      "60",
      "--token",
      "pinned-key",
    ];
    const { options, help } = mockOptionsOf(argv, { PORT: "9999" });
    expect(help).toBe(false);
    expect(options).toEqual({
      port: 0,
      host: "::1",
      data: "seed.json",
      persist: "db.json",
      strict: true,
      logger: false,
      maxBodySize: 1024,
      requestTimeLimit: 2.5,
      journalCapacity: 0,
      journalBodyLimit: 10,
      accessTokenLifetime: 60,
      token: "pinned-key",
    });
    expect(() => checkOptions(options)).not.toThrow();
    expect(mockOptionsOf([], { PORT: "7000" }).options).toEqual({ port: 7000, host: "127.0.0.1" });
    expect(mockOptionsOf([], {}).options).toEqual({ port: 8080, host: "127.0.0.1" });
    expect(mockOptionsOf(["-h"], {}).help).toBe(true);
  });

  test.each([
    [["--journal-capacity=-1"], '--journal-capacity: expected a whole number of entries ≥ 0, found "-1"'],
    [["--journal-capacity", "1.5"], '--journal-capacity: expected a whole number of entries ≥ 0, found "1.5"'],
    [["--request-time-limit", "0"], '--request-time-limit: expected a positive number of seconds ≤ 2147483, found "0"'],
    [["--request-time-limit", "soon"], '--request-time-limit: expected a positive number of seconds ≤ 2147483, found "soon"'],
    [["--max-body-size", "1e6"], '--max-body-size: expected a number of bytes (a non-negative integer), found "1e6"'],
    [["--access-token-lifetime", ""], '--access-token-lifetime: expected a positive number of seconds, found ""'],
    [["--port", "70000"], '--port: expected an integer port from 0 to 65535, found "70000"'],
    [["--host", ""], '--host: expected a host name or address, found ""'],
  ])("%j: a usage error naming the flag, what its option expects and what was found", (argv, message) => {
    expect(() => mockOptionsOf(argv, {})).toThrow(expect.objectContaining({ message, code: "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" }));
  });

  test("--token pins the legacy key; else $LABEL_STUDIO_API_KEY when it holds one (named, not printed, by the banner)", () => {
    expect(mockOptionsOf(["--token", "k1"], { LABEL_STUDIO_API_KEY: "k2" })).toMatchObject({
      options: { token: "k1" },
      key: { from: "flag" },
    });
    expect(mockOptionsOf([], { LABEL_STUDIO_API_KEY: "k2" })).toMatchObject({ options: { token: "k2" }, key: { from: "env" } });
    expect(mockOptionsOf([], {})).toMatchObject({ key: { from: "server" } });
    expect(mockOptionsOf([], {}).options).not.toHaveProperty("token");
    // A personal access token (a JWT) in the environment cannot be a legacy key: a new key is made, and the banner says why.
    const jwt = `${"a".repeat(36)}.${"b".repeat(60)}.${"c".repeat(43)}`;
    const fromJwt = mockOptionsOf([], { LABEL_STUDIO_API_KEY: jwt });
    expect(fromJwt.options).not.toHaveProperty("token");
    expect(fromJwt.key).toEqual({ from: "server", envNotAKey: "141 characters, more than a legacy key's 40" });
    expect(() => mockOptionsOf(["--token", "Token abc"], {})).toThrow(
      '--token: expected a legacy API key: 1 to 40 visible ASCII characters, no spaces, found "Token abc"',
    );
  });

  test("$PORT is checked as --port is, under its own name", () => {
    expect(() => mockOptionsOf([], { PORT: "http" })).toThrow('$PORT: expected an integer port from 0 to 65535, found "http"');
  });

  test("the usage lists every flag with its help, aligned", () => {
    const lines = mockUsage("Usage: x").split("\n");
    expect(lines[0]).toBe("Usage: x");
    for (const f of mockFlagList) expect(lines.some((l) => l.startsWith(`  --${f.flag}`) && l.endsWith(f.help))).toBe(true);
    const columns = new Set(lines.slice(1).map((l) => l.length - l.trimStart().length + l.trim().search(/ {2}\S/)));
    expect(columns.size).toBe(1);
  });

  test("an unknown startMockServer option is refused, even one named like an Object member", () => {
    expect(() => checkOptions({ toString: 1 })).toThrow(MockOptionError);
  });
});

test("docs/cli.md names every flag of the mock", async () => {
  const { readFileSync } = await import("node:fs");
  const docs = readFileSync(new URL("../../../docs/cli.md", import.meta.url), "utf8");
  const section = docs.slice(docs.indexOf("## The mock from the CLI"));
  expect(mockFlagList.map((f) => f.flag).filter((flag) => !section.includes(`\`--${flag}`))).toEqual([]);
});
