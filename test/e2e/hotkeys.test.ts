import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import type { MockServer } from "../../mock-server/index.js";
import { hotkeysProblem } from "../../mock-server/routes/hotkeys.js";
import { ApiError } from "../../src/index.js";
import { ADA_KEY, BO_KEY, clientFor, raw, send, startFixture } from "./fixture.js";

/*
 * `/api/current-user/hotkeys/` (UserHotkeysAPI, HotkeysSerializer), with the answers a server (1.22) gave to the
 * same requests. Fixture users: 1 ada (ADA_KEY), 2 bo (BO_KEY).
 */
let server: MockServer;
beforeAll(async () => {
  server = await startFixture();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const PATH = "/api/current-user/hotkeys/";
const submit = { "annotation:submit": { key: "ctrl+enter", active: false } };
const refused = (message: string) => ({ error: "Invalid hotkeys configuration", details: { custom_hotkeys: [message] } });

describe("GET and PATCH", () => {
  test("a user starts with none; PATCH replaces them all and answers them; whoami shows them; only the caller's change", async () => {
    expect(await raw(server, "GET", PATH, { key: ADA_KEY })).toMatchObject({ status: 200, body: { custom_hotkeys: {} } });
    const written = await raw(server, "PATCH", PATH, { key: ADA_KEY, body: { custom_hotkeys: submit } });
    expect([written.status, written.body]).toEqual([200, { custom_hotkeys: submit }]);
    expect((await raw(server, "GET", PATH, { key: ADA_KEY })).body).toEqual({ custom_hotkeys: submit });
    expect((await raw(server, "GET", "/api/current-user/whoami", { key: ADA_KEY })).body.custom_hotkeys).toEqual(submit);
    expect((await raw(server, "GET", PATH, { key: BO_KEY })).body).toEqual({ custom_hotkeys: {} });
    const replaced = await raw(server, "PATCH", PATH, {
      key: ADA_KEY,
      body: { custom_hotkeys: { "regions:delete": { key: "backspace" } } },
    });
    expect(replaced.body).toEqual({ custom_hotkeys: { "regions:delete": { key: "backspace" } } });
    expect(server.data().users[0]!.custom_hotkeys).toEqual({ "regions:delete": { key: "backspace" } });
  });

  test("stored shortcuts the serializer refuses (written through PATCH /api/users/{id}/) read as none", async () => {
    await raw(server, "PATCH", "/api/users/1/", { body: { custom_hotkeys: { nocolon: { key: "a" } } } });
    expect(server.data().users[0]!.custom_hotkeys).toEqual({ nocolon: { key: "a" } });
    expect((await raw(server, "GET", PATH, { key: ADA_KEY })).body).toEqual({ custom_hotkeys: {} });
  });

  test("no credentials: 401; PUT and POST: 405 with the view's Allow", async () => {
    const anonymous = await raw(server, "GET", PATH, { key: null });
    expect([anonymous.status, anonymous.body.detail]).toEqual([401, "Authentication credentials were not provided."]);
    expect((await raw(server, "PATCH", PATH, { key: null, body: { custom_hotkeys: {} } })).status).toBe(401);
    for (const method of ["PUT", "POST"]) {
      const answer = await raw(server, method, PATH, { body: {} });
      expect([answer.status, answer.body.detail]).toEqual([405, `Method "${method}" not allowed.`]);
      expect(answer.headers.get("allow")).toBe("GET, PATCH, HEAD, OPTIONS");
    }
  });
});

describe("refused bodies: the view's own 400 with the serializer's errors, nothing stored", () => {
  test.each([
    [
      { custom_hotkeys: { "annotation:submit": { key: "alt+f4" } } },
      refused("Key combination 'alt+f4' is not allowed for security reasons"),
    ],
    [{ custom_hotkeys: [1] }, refused('Expected a dictionary of items but got type "list".')],
    [{}, refused("This field is required.")],
    [{ custom_hotkeys: null }, refused("This field may not be null.")],
    [
      [1],
      { error: "Invalid hotkeys configuration", details: { non_field_errors: ["Invalid data. Expected a dictionary, but got list."] } },
    ],
  ])("%j", async (body, answer) => {
    const got = await raw(server, "PATCH", PATH, { body });
    expect([got.status, got.body]).toEqual([400, answer]);
    expect(server.data().users[0]!.custom_hotkeys).toBeUndefined();
  });

  test("a body DRF cannot parse is the view's 500 (request.data is read inside its try)", async () => {
    for (const [body, type] of [
      ["{bad", "application/json"],
      ["{}", "text/plain"],
    ] as const) {
      const got = await send(server, "PATCH", PATH, body, type);
      expect([got.status, got.body]).toEqual([500, { error: "Failed to update hotkeys configuration" }]);
    }
  });

  test("a form: only `custom_hotkeys..<key>` fields reach the dict (DRF's parse_html_dict, twice), each a text", async () => {
    const empty = await send(server, "PATCH", PATH, "custom_hotkeys=1", "application/x-www-form-urlencoded");
    expect([empty.status, empty.body]).toEqual([200, { custom_hotkeys: {} }]);
    const text = await send(server, "PATCH", PATH, "custom_hotkeys..a%3Ab=x", "application/x-www-form-urlencoded");
    expect([text.status, text.body]).toEqual([400, refused("Hotkey data for 'a:b' must be a dictionary")]);
  });
});

describe("validate_custom_hotkeys, rule by rule, in the serializer's order", () => {
  const one = (action: string, data: unknown) => hotkeysProblem({ [action]: data });
  test.each([
    ["", { key: "a" }, "Action key '' must be a non-empty string"],
    ["s:" + "a".repeat(99), { key: "a" }, `Action key 's:${"a".repeat(99)}' is too long (max 100 characters)`],
    ["nocolon", { key: "a" }, "Action key 'nocolon' must be in 'section:action' format"],
    [" :x", { key: "a" }, "Action key ' :x' must have non-empty section and action parts"],
    ["s:\u3000", { key: "a" }, "Action key 's:\u3000' must have non-empty section and action parts"],
    ["s:a", "ctrl+a", "Hotkey data for 's:a' must be a dictionary"],
    ["s:a", { active: true }, "Missing 'key' in hotkey data for 's:a'"],
    ["s:a", { key: "" }, "Key combination for 's:a' must be a non-empty string"],
    ["s:a", { key: 5 }, "Key combination for 's:a' must be a non-empty string"],
    ["s:a", { key: "a".repeat(51) }, "Key combination for 's:a' is too long (max 50 characters)"],
    ["s:a", { key: " CMD+Tab\u00a0" }, "Key combination ' CMD+Tab\u00a0' is not allowed for security reasons"],
    ["s:a", { key: "a", active: "yes" }, "Active flag for 's:a' must be a boolean"],
    ["s:a", { key: "ctrl+é" }, "Key combination 'ctrl+é' for 's:a' contains invalid characters"],
    ["s:a", { key: `${"x".repeat(21)}+a` }, `Invalid modifier or key '${"x".repeat(21)}' in key combination '${"x".repeat(21)}+a'`],
  ])("%j %j", (action, data, message) => {
    expect(one(action, data)).toBe(message);
  });

  test("what passes: modifiers of any length, 20-character parts, a 50-character combination, 200 shortcuts, a 100-character key", () => {
    expect(one("s:a", { key: "ctrl + shift+alt+a", active: true })).toBeUndefined();
    expect(one("s:a", { key: `${"x".repeat(20)}+a` })).toBeUndefined();
    expect(one("s:a", { key: "a".repeat(50) })).toBeUndefined();
    expect(one(`s:${"a".repeat(98)}`, { key: "a" })).toBeUndefined();
    expect(hotkeysProblem(Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`s:${i}`, { key: "a" }])))).toBeUndefined();
    expect(hotkeysProblem(Object.fromEntries(Array.from({ length: 201 }, (_, i) => [`s:${i}`, { key: "a" }])))).toBe(
      "Cannot define more than 200 custom hotkeys",
    );
  });
});

describe("client", () => {
  test("users.getHotkeys / updateHotkeys in the SDK's shape; a refused body is an ApiError with the view's body", async () => {
    const client = clientFor(server, ADA_KEY);
    expect(await client.users.getHotkeys()).toEqual({ custom_hotkeys: {} });
    expect(await client.users.updateHotkeys({ custom_hotkeys: submit })).toEqual({ custom_hotkeys: submit });
    expect(await client.users.getHotkeys()).toEqual({ custom_hotkeys: submit });
    const error = await client.users.updateHotkeys({ custom_hotkeys: { x: { key: "a" } } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).statusCode).toBe(400);
    expect((error as ApiError).body).toEqual(refused("Action key 'x' must be in 'section:action' format"));
  });
});
