import { afterAll, beforeAll, expect, test } from "vitest";
import { ApiError, type Hotkeys } from "../../src/index.js";
import { useTarget } from "../../testing/vitest.js";

/*
 * The caller's keyboard shortcuts (`/api/current-user/hotkeys/`). They belong to the target's user, not to a
 * project: the tests put back what the user had.
 */
const ls = useTarget();
let before: Hotkeys;
beforeAll(async () => {
  before = await ls.client.users.getHotkeys();
});
afterAll(() => ls.client.users.updateHotkeys(before));

const submit = { "annotation:submit": { key: "ctrl+enter", active: false }, "regions:delete": { key: "Backspace" } };

test("PATCH replaces the caller's shortcuts and answers them; GET and whoami read them back", async () => {
  expect(await ls.client.users.updateHotkeys({ custom_hotkeys: submit })).toEqual({ custom_hotkeys: submit });
  expect(await ls.client.users.getHotkeys()).toEqual({ custom_hotkeys: submit });
  expect((await ls.client.users.whoami()).custom_hotkeys).toEqual(submit);
  expect(await ls.client.users.updateHotkeys({ custom_hotkeys: {} })).toEqual({ custom_hotkeys: {} });
});

test("a refused body: the view's own 400 with the serializer's first problem, nothing changed", async () => {
  await ls.client.users.updateHotkeys({ custom_hotkeys: submit });
  const cases: [unknown, unknown][] = [
    [
      { custom_hotkeys: { "annotation:submit": { key: "Alt+F4 " } } },
      { custom_hotkeys: ["Key combination 'Alt+F4 ' is not allowed for security reasons"] },
    ],
    [{ custom_hotkeys: { submit: { key: "a" } } }, { custom_hotkeys: ["Action key 'submit' must be in 'section:action' format"] }],
    [
      { custom_hotkeys: { "a:b": { key: "ctrl+ä" } } },
      { custom_hotkeys: ["Key combination 'ctrl+ä' for 'a:b' contains invalid characters"] },
    ],
    [{ custom_hotkeys: { "a:b": { key: "a", active: 1 } } }, { custom_hotkeys: ["Active flag for 'a:b' must be a boolean"] }],
    [{ custom_hotkeys: "x" }, { custom_hotkeys: ['Expected a dictionary of items but got type "str".'] }],
    [{ hotkeys: {} }, { custom_hotkeys: ["This field is required."] }],
  ];
  for (const [body, details] of cases) {
    const answer = await ls.target.fetch("/api/current-user/hotkeys/", {
      method: "PATCH",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    expect([answer.status, await answer.json()]).toEqual([400, { error: "Invalid hotkeys configuration", details }]);
  }
  expect(await ls.client.users.getHotkeys()).toEqual({ custom_hotkeys: submit });
});

test("a body the view cannot parse: its own 500; no credentials: 401", async () => {
  const bad = await ls.target.fetch("/api/current-user/hotkeys/", {
    method: "PATCH",
    headers: { "Content-Type": "application/json" },
    body: "{not json",
  });
  expect([bad.status, await bad.json()]).toEqual([500, { error: "Failed to update hotkeys configuration" }]);
  const anonymous = await ls.target.fetch("/api/current-user/hotkeys/", { headers: { Authorization: "" } });
  expect(anonymous.status).toBe(401);
  const error = await ls.client.users.updateHotkeys({ custom_hotkeys: { "a:b": { key: "cmd+tab" } } }).catch((e: unknown) => e);
  expect([(error as ApiError).statusCode, error instanceof ApiError]).toEqual([400, true]);
});
