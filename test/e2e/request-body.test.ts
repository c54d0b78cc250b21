import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { MockServer } from "../../mock-server/index.js";
import { send, startFixture, taskIds, withFixture, type Answer } from "./fixture.js";

/**
 * The mock's one body layer against DRF's defaults (JSON, form, multipart parsers; Django's limits): every
 * request below goes over HTTP, and every refused one must leave the store exactly as it was.
 */

const DELETE_TASKS = "/api/dm/actions/?id=delete_tasks&project=1";
const only = (id: number) => JSON.stringify({ selectedItems: { all: false, included: [id] } });

/** The handler body of a DRF error (`custom_exception_handler`). */
function expectHandlerBody(answer: Answer, status: number, detail: string | RegExp): void {
  expect(answer.status).toBe(status);
  expect(Object.keys(answer.body)).toEqual(["id", "status_code", "version", "detail", "exc_info"]);
  expect(answer.body.status_code).toBe(status);
  if (typeof detail === "string") expect(answer.body.detail).toBe(detail);
  else expect(answer.body.detail).toMatch(detail);
}

describe("content negotiation (DRF's default parsers)", () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startFixture();
  });
  afterAll(() => server.close());

  /** Sends, then checks that nothing in the store changed. */
  async function refused(method: string, path: string, body: string | Uint8Array | undefined, contentType?: string): Promise<Answer> {
    const before = server.data();
    const answer = await send(server, method, path, body, contentType);
    expect(server.data()).toEqual(before);
    return answer;
  }

  test("text/plain: 415 in the handler's shape, and delete_tasks deletes nothing", async () => {
    const answer = await refused("POST", DELETE_TASKS, only(1), "text/plain");
    expectHandlerBody(answer, 415, 'Unsupported media type "text/plain" in request.');
    expect(answer.body.exc_info).toBeNull();
  });

  test("the content type is reported as sent, parameters included", async () => {
    const answer = await refused("POST", DELETE_TASKS, only(1), "application/xml; charset=utf-8");
    expectHandlerBody(answer, 415, 'Unsupported media type "application/xml; charset=utf-8" in request.');
    expectHandlerBody(await refused("POST", DELETE_TASKS, only(1), "application/json-patch+json"), 415, /json-patch\+json/);
    expectHandlerBody(await refused("POST", DELETE_TASKS, only(1), "text/json"), 415, /"text\/json"/);
  });

  test("a body without Content-Type is text/plain to the server's development server: 415", async () => {
    expectHandlerBody(await refused("POST", DELETE_TASKS, only(1), undefined), 415, 'Unsupported media type "text/plain" in request.');
  });

  test("case, parameters and wildcards select the JSON parser as DRF's matching does", async () => {
    for (const type of ["Application/JSON", "application/json; charset=UTF-8", "*/*", "application/*"]) {
      const id = taskIds(server)[0] as number;
      const answer = await send(server, "POST", DELETE_TASKS, only(id), type);
      expect(answer.status, type).toBe(200);
      expect(taskIds(server), type).not.toContain(id);
    }
  });

  test("an empty body is {} whatever its type: no selection means every task, as on the server", async () => {
    await withFixture({}, async (fresh) => {
      const answer = await send(fresh, "POST", "/api/dm/actions/?id=delete_tasks_predictions&project=1", "", "text/plain");
      expect(answer.status).toBe(200);
      expect(answer.body.detail).toBe("Deleted 5 predictions");
      expect(fresh.data().predictions).toEqual([]);
    });
  });

  test("a view that never reads the body never refuses it: with ?view= the action runs on the view", async () => {
    await withFixture({}, async (fresh) => {
      const answer = await send(fresh, "POST", "/api/dm/actions/?id=delete_tasks&project=1&view=1", "not json", "text/plain");
      expect(answer.status).toBe(200);
      expect(taskIds(fresh)).toEqual([3, 5]);
    });
  });

  test("the task list reads request.data for `view` when the query string has none", async () => {
    expectHandlerBody(await refused("GET", "/api/tasks/?project=1", "x", "text/plain"), 415, /"text\/plain"/);
    const listed = await send(server, "GET", "/api/tasks/?project=1&view=1", "x", "text/plain");
    expect(listed.status).toBe(200);
  });
});

describe("JSON bodies (Python's json.loads through DRF's JSONParser)", () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startFixture();
  });
  afterAll(() => server.close());

  const cases: readonly (readonly [string, string])[] = [
    ['{"selectedItems":', "Expecting value: line 1 column 18 (char 17)"],
    ['{"selectedItems": {"all": true,}}', "Expecting property name enclosed in double quotes: line 1 column 32 (char 31)"],
    ["{'selectedItems': 1}", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"],
    ['{"a": 1} {"b": 2}', "Extra data: line 1 column 10 (char 9)"],
    ['{"a":\n  [1 2]}', "Expecting ',' delimiter: line 2 column 6 (char 11)"],
    ['{"a": NaN}', "Out of range float values are not JSON compliant: 'NaN'"],
    ['{"a": -Infinity}', "Out of range float values are not JSON compliant: '-Infinity'"],
    ['{"a": "tab\there"}', "Invalid control character at: line 1 column 11 (char 10)"],
    ['\ufeff{"a": 1}', "Unexpected UTF-8 BOM (decode using utf-8-sig): line 1 column 1 (char 0)"],
    ['{"a": "😀"} x', "Extra data: line 1 column 12 (char 11)"],
  ];
  test.each(cases)("%j → 400 JSON parse error - %s", async (body, message) => {
    const before = server.data();
    const answer = await send(server, "POST", DELETE_TASKS, body, "application/json");
    expectHandlerBody(answer, 400, `JSON parse error - ${message}`);
    expect(server.data()).toEqual(before);
  });

  test("bytes that are not UTF-8: the codec's own error; a charset Python knows decodes them", async () => {
    const body = Uint8Array.from([...Buffer.from('{"x": "caf'), 0xe9, ...Buffer.from('"}')]);
    const answer = await send(server, "POST", "/api/dm/views/", body, "application/json");
    expectHandlerBody(answer, 400, "JSON parse error - 'utf-8' codec can't decode byte 0xe9 in position 10: invalid continuation byte");
    const view = Uint8Array.from([...Buffer.from('{"project": 1, "data": {"title": "caf'), 0xe9, ...Buffer.from('"}}')]);
    const created = await send(server, "POST", "/api/dm/views/", view, "application/json; charset=ISO-8859-1");
    expect(created.status).toBe(201);
    expect(created.body.data.title).toBe("café");
  });

  test("a JSON value that is not an object: the server's request.data.get raises AttributeError (500)", async () => {
    const before = server.data();
    const answer = await send(server, "POST", DELETE_TASKS, "[1, 2]", "application/json");
    expect(answer.status).toBe(500);
    expect(answer.body.detail).toBe("'list' object has no attribute 'get'");
    expect(answer.body.exc_info).toContain("AttributeError: 'list' object has no attribute 'get'");
    expect(server.data()).toEqual(before);
  });

  test("nesting past Python's recursion limit: RecursionError (500) without a JavaScript stack", async () => {
    const before = server.data();
    const deep = `{"selectedItems": ${"[".repeat(5000)}${"]".repeat(5000)}}`;
    const answer = await send(server, "POST", DELETE_TASKS, deep, "application/json");
    expect(answer.status).toBe(500);
    expect(answer.body.detail).toBe("maximum recursion depth exceeded while decoding a JSON array from a unicode string");
    expect(answer.body.exc_info).not.toMatch(/\.ts:\d+|Maximum call stack/);
    expect(server.data()).toEqual(before);
  });
});

describe("form and multipart bodies (DRF's FormParser and MultiPartParser)", () => {
  test("form fields are strings: a JSON-encoded selectedItems is decoded, as get_prepare_params does", async () => {
    await withFixture({}, async (server) => {
      const form = `selectedItems=${encodeURIComponent('{"all": false, "included": [2]}')}`;
      const answer = await send(server, "POST", DELETE_TASKS, form, "application/x-www-form-urlencoded; charset=UTF-8");
      expect(answer.status).toBe(200);
      expect(answer.body.processed_items).toBe(1);
      expect(taskIds(server)).toEqual([1, 3, 4, 5, 6]);
      expect(server.requests.at(-1)?.body).toEqual({ selectedItems: '{"all": false, "included": [2]}' });
    });
  });

  test("a repeated form key: the last value is what request.data.get sees", async () => {
    await withFixture({}, async (server) => {
      const form = ["included", "included"]
        .map((_, i) => `selectedItems=${encodeURIComponent(JSON.stringify({ all: false, included: [i + 3] }))}`)
        .join("&");
      const answer = await send(server, "POST", DELETE_TASKS, form, "application/x-www-form-urlencoded");
      expect(answer.status).toBe(200);
      expect(taskIds(server)).toEqual([1, 2, 3, 5, 6]);
    });
  });

  test("filters in a form field are a string, which pydantic refuses: 500, nothing deleted", async () => {
    await withFixture({}, async (server) => {
      const before = server.data();
      const form = `filters=${encodeURIComponent('{"conjunction": "and", "items": []}')}`;
      const answer = await send(server, "POST", DELETE_TASKS, form, "application/x-www-form-urlencoded");
      expect(answer.status).toBe(500);
      expect(answer.body.detail).toContain("Input should be a valid dictionary or instance of Filters");
      expect(server.data()).toEqual(before);
    });
  });

  test("multipart fields work like form fields; a missing boundary is Django's parse error", async () => {
    await withFixture({}, async (server) => {
      const body = '--XyZ\r\nContent-Disposition: form-data; name="selectedItems"\r\n\r\n{"all": false, "included": [5]}\r\n--XyZ--\r\n';
      const answer = await send(server, "POST", DELETE_TASKS, body, "multipart/form-data; boundary=XyZ");
      expect(answer.status).toBe(200);
      expect(taskIds(server)).toEqual([1, 2, 3, 4, 6]);
      const before = server.data();
      expectHandlerBody(
        await send(server, "POST", DELETE_TASKS, "x", "multipart/form-data"),
        400,
        "Multipart form parse error - Invalid boundary in multipart: None",
      );
      expect(server.data()).toEqual(before);
    });
  });

  test("more than DATA_UPLOAD_MAX_NUMBER_FIELDS form fields: Django's TooManyFieldsSent (500)", async () => {
    await withFixture({}, async (server) => {
      const before = server.data();
      const form = Array.from({ length: 1001 }, (_, i) => `f${i}=1`).join("&");
      const answer = await send(server, "POST", DELETE_TASKS, form, "application/x-www-form-urlencoded");
      expect(answer.status).toBe(500);
      expect(answer.body.detail).toBe("The number of GET/POST parameters exceeded settings.DATA_UPLOAD_MAX_NUMBER_FIELDS.");
      expect(server.data()).toEqual(before);
    });
  });
});

describe("the body size limit (maxBodySize, the server's DATA_UPLOAD_MAX_MEMORY_SIZE)", () => {
  const big = JSON.stringify({ selectedItems: { all: false, included: [1] }, pad: "x".repeat(2000) });

  test("faithful: a view that reads the body answers the server's 500; nothing changes", async () => {
    await withFixture({ maxBodySize: 1000 }, async (server) => {
      const before = server.data();
      const answer = await send(server, "POST", DELETE_TASKS, big, "application/json");
      expect(answer.status).toBe(500);
      expect(answer.body.detail).toBe("Request body exceeded settings.DATA_UPLOAD_MAX_MEMORY_SIZE.");
      expect(server.data()).toEqual(before);
      const small = await send(server, "POST", DELETE_TASKS, only(1), "application/json");
      expect(small.status).toBe(200);
    });
  });

  test("strict: 413 before any view runs, naming the limit", async () => {
    await withFixture({ maxBodySize: 1000, strict: true }, async (server) => {
      const before = server.data();
      const answer = await send(server, "DELETE", "/api/tasks/1/", big, "application/json");
      expectHandlerBody(
        answer,
        413,
        `Request body of ${Buffer.byteLength(big)} bytes exceeds the mock's limit of 1000 bytes (maxBodySize).`,
      );
      expect(server.data()).toEqual(before);
    });
  });
});

describe("strict mode: what the server answers with a 500 is a 400 naming the body", () => {
  test("a non-object JSON body and nesting past the recursion limit", async () => {
    await withFixture({ strict: true }, async (server) => {
      const before = server.data();
      const list = await send(server, "POST", DELETE_TASKS, "[1, 2]", "application/json");
      expect(list.status).toBe(400);
      expect(list.body.validation_errors.body[0]).toMatch(/^expected a JSON object, found/);
      const deep = await send(server, "POST", DELETE_TASKS, "[".repeat(3000), "application/json");
      expect(deep.status).toBe(400);
      expect(deep.body.validation_errors.body[0]).toContain("RecursionError");
      // The server's own refusals stay what they are.
      expectHandlerBody(await send(server, "POST", DELETE_TASKS, only(1), "text/plain"), 415, /text\/plain/);
      expect(server.data()).toEqual(before);
    });
  });
});

describe("strict mode: a body the server never reads", () => {
  test("faithful: ignored, as on the server; strict: 400 naming the body, nothing changes; an empty object is no content", async () => {
    await withFixture({}, async (server) => {
      const answer = await send(server, "DELETE", "/api/tasks/1/", JSON.stringify({ cascade: false }), "application/json");
      expect(answer.status).toBe(204);
      expect(taskIds(server)).not.toContain(1);
    });
    await withFixture({ strict: true }, async (server) => {
      const before = server.data();
      const answer = await send(server, "DELETE", "/api/annotations/1/", JSON.stringify({ cascade: false }), "application/json");
      expect(answer.status).toBe(400);
      expect(answer.body.validation_errors).toEqual({
        body: ["nothing: DELETE /api/annotations/1/ does not read a request body; the server ignores this one"],
      });
      expect(server.data()).toEqual(before);
      expect((await send(server, "DELETE", "/api/annotations/1/", "{}", "application/json")).status).toBe(204);
    });
  });

  test("a task read or delete reads only body.project (TaskAPI.get_queryset): strict refuses any other key", async () => {
    await withFixture({ strict: true }, async (server) => {
      const before = server.data();
      const answer = await send(server, "DELETE", "/api/tasks/1/", JSON.stringify({ cascade: false, project: 1 }), "application/json");
      expect(answer.status).toBe(400);
      expect(answer.body.validation_errors).toEqual({
        body: ["expected at most a project key: DELETE /api/tasks/1/ reads only body.project; the server ignores cascade"],
      });
      expect(server.data()).toEqual(before);
      // The key the lookup reads is honoured: another project's id hides the task.
      expect((await send(server, "DELETE", "/api/tasks/1/", JSON.stringify({ project: 2 }), "application/json")).status).toBe(404);
      expect((await send(server, "DELETE", "/api/tasks/1/", JSON.stringify({ project: 1 }), "application/json")).status).toBe(204);
      expect(taskIds(server)).not.toContain(1);
    });
  });
});
