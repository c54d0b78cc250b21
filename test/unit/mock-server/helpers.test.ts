import { describe, expect, test } from "vitest";
import { HttpProblem, problemBody, SERVER_VERSION, validationError } from "../../../mock-server/errors.js";
import { intFromData, intFromQuery, pageLink, pageSize, paginate, type MockRequest } from "../../../mock-server/http.js";
import { ServerException } from "../../../src/emulation/exceptions.js";
import { pyUnquote } from "../../../src/emulation/query-dict.js";
import { redactBody, redactHeaders, REDACTED } from "../../../mock-server/journal.js";
import { serverTimestamp } from "../../../src/vocabulary/timestamps.js";
import { timeSince } from "../../../mock-server/time.js";
import { thrown } from "../../helpers/thrown.js";

const problemOf = (run: () => unknown): ServerException => thrown(ServerException, run);

describe("error bodies", () => {
  test("the handler body and the raw body", () => {
    const body = problemBody(validationError({ project: ["This field is required."] }));
    expect(body).toMatchObject({ status_code: 400, version: SERVER_VERSION, detail: "Validation error", exc_info: null });
    expect(body).toHaveProperty("validation_errors", { project: ["This field is required."] });
    expect((body as { id: string }).id).toMatch(/^[0-9a-f-]{36}$/);
    expect(problemBody(new HttpProblem(422, "No action", { raw: true }))).toEqual({ detail: "No action" });
  });
});

describe("request parameters", () => {
  test("int_from_request: Python's int() for strings, ints and bools pass, str() of anything else", () => {
    expect(intFromQuery({ project: "12" }, "project", 0)).toBe(12);
    expect(intFromQuery({}, "project", 0)).toBe(0);
    expect(intFromQuery({ project: ["1", "7"] }, "project", 0)).toBe(7);
    for (const [text, n] of [
      [" 12 ", 12],
      ["+3", 3],
      ["1_000", 1000],
      ["٣", 3],
      ["\u20037", 7],
    ] as const) {
      expect(intFromQuery({ project: text }, "project", 0), text).toBe(n);
    }
    expect(intFromData({ view: 3 }, "view", 0)).toBe(3);
    expect(intFromData({ view: true }, "view", 0)).toBe(1);
    const message = (run: () => unknown) => problemOf(run).error.validationErrors;
    expect(message(() => intFromQuery({ project: "abc" }, "project", 0))).toEqual({
      project: 'Incorrect value in key "project" = "abc". It should be digit string.',
    });
    for (const bad of ["1__0", "_1", "1.0", "0x1", ""])
      expect(() => intFromQuery({ project: bad }, "project", 0), bad).toThrow(ServerException);
    expect(message(() => intFromData({ view: null }, "view", 0))).toEqual({
      view: 'Incorrect value type in key "view" = "None". It should be digit string or integer.',
    });
    expect(message(() => intFromData({ view: [1, 2] }, "view", 0))).toEqual({
      view: 'Incorrect value type in key "view" = "[1, 2]". It should be digit string or integer.',
    });
    expect(message(() => intFromData({ view: 1.5 }, "view", 0))).toEqual({
      view: 'Incorrect value type in key "view" = "1.5". It should be digit string or integer.',
    });
  });

  test("page_size falls back on junk and is capped", () => {
    expect(pageSize({}, 30, 100)).toBe(30);
    expect(pageSize({ page_size: "7" }, 30, 100)).toBe(7);
    expect(pageSize({ page_size: "500" }, 30, 100)).toBe(100);
    expect(pageSize({ page_size: "500" }, 100, undefined)).toBe(500);
    expect(pageSize({ page_size: "0" }, 30, 100)).toBe(30);
    expect(pageSize({ page_size: "-3" }, 30, 100)).toBe(30);
    expect(pageSize({ page_size: "x" }, 30, 100)).toBe(30);
    // _positive_int reads with Python's int().
    expect(pageSize({ page_size: " 1_0 " }, 30, 100)).toBe(10);
    expect(pageSize({ page_size: "٥" }, 30, 100)).toBe(5);
  });

  test("pages: 404 Invalid page. past the end, an empty first page, `last`", () => {
    const rows = [1, 2, 3, 4, 5];
    expect(paginate(rows, {}, 2)).toEqual({ items: [1, 2], number: 1, pages: 3 });
    expect(paginate(rows, { page: "3" }, 2).items).toEqual([5]);
    expect(paginate(rows, { page: "last" }, 2).items).toEqual([5]);
    expect(paginate([], {}, 2)).toEqual({ items: [], number: 1, pages: 1 });
    // `query_params.get('page') or 1`, then int(): an empty page is page 1, spaces and underscores are fine.
    expect(paginate(rows, { page: "" }, 2).number).toBe(1);
    expect(paginate(rows, { page: " 2 " }, 2).number).toBe(2);
    for (const page of ["4", "0", "-1", "two", "1.0"]) {
      const p = problemOf(() => paginate(rows, { page }, 2));
      expect([p.error.status, p.error.detail]).toEqual([404, "Invalid page."]);
    }
    expect(problemOf(() => paginate([], { page: "2" }, 2)).error.status).toBe(404);
  });

  test("page links keep the other parameters", () => {
    const req = { url: "/api/projects/?page=2&title=a", origin: "http://127.0.0.1:9" } as MockRequest;
    expect(pageLink(req, 3)).toBe("http://127.0.0.1:9/api/projects/?page=3&title=a");
    expect(pageLink(req, 1)).toBe("http://127.0.0.1:9/api/projects/?title=a");
  });

  test("Python's unquote", () => {
    expect(pyUnquote("%7B%22a%22%3A1%7D")).toBe('{"a":1}');
    expect(pyUnquote("a+b%zz%")).toBe("a+b%zz%");
  });
});

describe("journal redaction", () => {
  test("credentials are replaced, the scheme is kept", () => {
    const headers = redactHeaders({ authorization: "Token abc123", "x-api-key": "k", "user-agent": "ua", cookie: "s=1" });
    expect(headers).toEqual({ authorization: `Token ${REDACTED}`, "x-api-key": REDACTED, "user-agent": "ua", cookie: REDACTED });
    expect(JSON.stringify(headers)).not.toContain("abc123");
    expect(redactBody({ refresh: "jwt", other: 1 })).toEqual({ refresh: REDACTED, other: 1 });
    expect(redactBody([1])).toEqual([1]);
  });
});

describe("time", () => {
  test("server timestamps and created_ago", () => {
    expect(serverTimestamp("2024-01-01T00:00:00Z")).toBe("2024-01-01T00:00:00.000000Z");
    expect(serverTimestamp("nope")).toBeUndefined();
    const now = Date.parse("2024-01-03T03:00:00Z");
    expect(timeSince("2024-01-01T00:00:00.000000Z", now)).toBe("2\u00a0days, 3\u00a0hours");
    expect(timeSince("2024-01-03T03:00:00.000000Z", now)).toBe("0\u00a0minutes");
  });
});
