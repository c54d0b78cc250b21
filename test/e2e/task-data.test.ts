import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startMockServer, type MockServer } from "../../mock-server/index.js";
import { raw } from "./fixture.js";

/*
 * Task data against the labeling config (`TaskValidator.check_data`, label_studio/tasks/validation.py, with its
 * `_DATA_TYPES`), and data that is no dict (`ProjectSummary.update_data_columns`, projects/models.py). Every answer
 * here was measured on Label Studio 1.22 (PostgreSQL); `dmq verify` keeps comparing them (routes/task-data/*).
 */
const ASSUME = ' [assume: item["data"] = task root with values]';
let server: MockServer;
let strict: MockServer;

const seed = (label_config: string) => ({
  users: [{ id: 1, username: "admin" }],
  projects: [
    { id: 1, title: "Tags", label_config },
    { id: 2, title: "No keys", label_config: "<View></View>" },
    {
      id: 3,
      title: "Repeater",
      label_config:
        '<View><Repeater on="$pages" indexFlag="{{idx}}"><Image name="page_{{idx}}" value="$pages[{{idx}}].url"/></Repeater></View>',
    },
  ],
});
const TAGS_CONFIG =
  "<View>" +
  '<Text name="text" value="$text"/><Table name="table" value="$table"/><Chat name="chat" value="$chat"/>' +
  '<Taxonomy name="tax" toName="text" value="$tax"/><Header name="header" value="$header"/><Audio name="audio" value="$audio"/>' +
  '<Text name="dotted" value="$nested.key"/>' +
  "</View>";
const good = { text: "t", table: "t", chat: "t", tax: "t", header: "t", audio: "t", nested: { key: "t" } };

beforeAll(async () => {
  server = await startMockServer({ data: seed(TAGS_CONFIG) });
  strict = await startMockServer({ strict: true, data: seed(TAGS_CONFIG) });
});
afterAll(async () => {
  await server.close();
  await strict.close();
});

const create = (on: MockServer, project: number, data: unknown) => raw(on, "POST", `/api/projects/${project}/tasks/`, { body: { data } });
const tasksOf = (on: MockServer, project: number) => on.data().tasks.filter((t) => t.project === project);

describe("the types each object tag takes (_DATA_TYPES)", () => {
  test("Text takes a list, Table a list or a dict, Taxonomy null, Header a bool (an int to Python)", async () => {
    for (const data of [
      { ...good, text: ["a", "b"] },
      { ...good, table: [{ a: 1 }] },
      { ...good, table: { a: [1, 2] } },
      { ...good, tax: null },
      { ...good, header: true },
      { ...good, chat: [{ role: "user", content: "hi" }] },
    ]) {
      const answer = await create(server, 1, data);
      expect([answer.status, answer.body.data]).toEqual([201, data]);
    }
  });

  test("a refusal names the key, the value as Python prints it, the tag and its types in the server's order", async () => {
    const refused = async (data: Record<string, unknown>) => {
      const answer = await create(server, 1, { ...good, ...data });
      expect(answer.status).toBe(400);
      return (answer.body.validation_errors as { non_field_errors: string[] }).non_field_errors;
    };
    expect(await refused({ chat: { role: "user" } })).toEqual([
      `data['chat']={'role': 'user'} is of type 'dict', but the object tag Chat expects the following types: ['list', 'str']${ASSUME}`,
    ]);
    expect(await refused({ header: [1] })).toEqual([
      `data['header']=[1] is of type 'list', but the object tag Header expects the following types: ['str', 'int', 'float']${ASSUME}`,
    ]);
    // A tag the table does not name takes a text only.
    expect(await refused({ audio: 5 })).toEqual([
      `data['audio']=5 is of type 'int', but the object tag Audio expects the following types: ['str']${ASSUME}`,
    ]);
    expect(await refused({ tax: 1.5 })).toEqual([
      `data['tax']=1.5 is of type 'float', but the object tag Taxonomy expects the following types: ['str', 'list', 'NoneType']${ASSUME}`,
    ]);
  });

  test("an import checks every item the same way, one entry per item; an update checks nothing", async () => {
    const answer = await raw(server, "POST", "/api/projects/1/import", {
      body: [{ data: { ...good, text: ["ok"] } }, { data: { ...good, table: 1 } }],
    });
    expect(answer.status).toBe(400);
    const errors = answer.body.validation_errors.non_field_errors as unknown[];
    expect(errors[0]).toEqual({});
    expect(errors[1]).toMatch(
      /^Error at item 1: data\['table'\]=1 is of type 'int', but the object tag Table expects the following types: \['dict', 'list', 'str'\]/,
    );
    const made = await create(server, 1, good);
    const patched = await raw(server, "PATCH", `/api/tasks/${made.body.id}/`, { body: { data: { ...good, header: { a: 1 } } } });
    expect([patched.status, patched.body.data.header]).toEqual([200, { a: 1 }]);
  });

  test("a key read inside a Repeater takes a list only, whatever the tag", async () => {
    expect((await create(server, 3, { pages: [{ url: "a" }] })).status).toBe(201);
    const text = await create(server, 3, { pages: "a" });
    expect(text.body.validation_errors).toEqual({
      non_field_errors: [`data['pages']=a is of type 'str', but the object tag Image expects the following types: ['list']${ASSUME}`],
    });
  });

  test("a dotted key is read step by step: missing is the validator's refusal, a parent Python cannot index a 500", async () => {
    const missing = await create(server, 1, { ...good, nested: { other: 1 } });
    expect(missing.body.validation_errors).toEqual({ non_field_errors: [`"nested.key" key is expected in task data${ASSUME}`] });
    // The flat key "nested.key" is not the path.
    const flat = await create(server, 1, { ...good, nested: undefined, "nested.key": "t" });
    expect(flat.status).toBe(400);
    for (const [parent, detail] of [
      ["s", "string indices must be integers, not 'str'"],
      [[1], "list indices must be integers or slices, not str"],
      [null, "'NoneType' object is not subscriptable"],
      [3, "'int' object is not subscriptable"],
    ] as const) {
      const answer = await create(server, 1, { ...good, nested: parent });
      expect([answer.status, answer.body.detail]).toEqual([500, detail]);
    }
    const fine = await create(server, 1, { ...good, nested: { key: ["a"] } });
    expect(fine.status).toBe(201);
  });
});

describe("data that is no dict (update_data_columns)", () => {
  test("list data where the config reads no key: the server's 500, and the mock keeps nothing", async () => {
    const before = tasksOf(server, 2).length;
    const imported = await raw(server, "POST", "/api/projects/2/import", { body: [{ data: { x: "a" } }, { data: ["a", "b"] }] });
    expect([imported.status, imported.body.detail]).toEqual([500, "'list' object has no attribute 'keys'"]);
    const created = await create(server, 2, [1, 2]);
    expect([created.status, created.body.detail]).toEqual([500, "'list' object has no attribute 'keys'"]);
    const elsewhere = await raw(server, "POST", "/api/tasks/", { body: { project: 2, data: ["z"] } });
    expect([elsewhere.status, elsewhere.body.detail]).toEqual([500, "'list' object has no attribute 'keys'"]);
    expect(tasksOf(server, 2).length).toBe(before);
  });

  test("an update to data that is no dict is the same 500, named by the value's type; null is DRF's refusal", async () => {
    const made = await create(server, 2, { x: "a" });
    for (const [data, type] of [
      [["p"], "list"],
      ["t", "str"],
      [5, "int"],
      [true, "bool"],
    ] as const) {
      const answer = await raw(server, "PATCH", `/api/tasks/${made.body.id}/`, { body: { data } });
      expect([answer.status, answer.body.detail]).toEqual([500, `'${type}' object has no attribute 'keys'`]);
    }
    const nulled = await raw(server, "PATCH", `/api/tasks/${made.body.id}/`, { body: { data: null } });
    expect([nulled.status, nulled.body.validation_errors]).toEqual([400, { data: ["This field may not be null."] }]);
    expect(server.data().tasks.find((t) => t.id === made.body.id)?.data).toEqual({ x: "a" });
  });

  test("list data the config reads a key from: refused without it, the server's TypeError with it", async () => {
    const without = await create(server, 1, ["x"]);
    expect(without.body.validation_errors).toEqual({ non_field_errors: [`"text" key is expected in task data${ASSUME}`] });
    for (const data of [["text"], ["$undefined$"]]) {
      const answer = await create(server, 1, data);
      expect([answer.status, answer.body.detail]).toEqual([500, "list indices must be integers or slices, not str"]);
    }
  });

  test("strict mode answers a 400 naming the field instead of the server's 500", async () => {
    const imported = await raw(strict, "POST", "/api/projects/2/import", { body: [{ data: { x: "a" } }, { data: ["a"] }] });
    expect(imported.status).toBe(400);
    expect(Object.keys(imported.body.validation_errors)).toEqual(["[1].data"]);
    expect(imported.body.validation_errors["[1].data"][0]).toMatch(
      /^expected a JSON object, got list: the server stores it, answers a 500/,
    );
    const created = await create(strict, 2, ["a"]);
    expect([created.status, Object.keys(created.body.validation_errors)]).toEqual([400, ["data"]]);
    expect(tasksOf(strict, 2)).toEqual([]);
  });
});
