import fc from "fast-check";
import { routes, type Route } from "../../../mock-server/routes/index.js";

/**
 * Hostile requests for every route: ids that are not ids, odd query strings, bodies that are not
 * JSON, JSON of the wrong shape in every field, huge and deeply nested values, lone surrogates,
 * prototype keys, and every kind of Content-Type.
 */
export interface FuzzRequest {
  readonly method: string;
  /** Path and query, already encoded (may hold sequences a URL encoder would refuse). */
  readonly url: string;
  readonly contentType: string | undefined;
  readonly body: Uint8Array | undefined;
  readonly credential: "valid" | "none" | "bad";
}

const METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;

/** Path ids: real ones, missing ones, and things that are not integers at all. */
const idArb = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 1, max: 8 }).map(String) },
  { weight: 2, arbitrary: fc.constantFrom("0", "999999", "99999999999999999999999", "007", "1e3", "-1", "+1", "%201") },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      "..%2F..%2Fetc%2Fpasswd",
      "%2e%2e",
      "..",
      "1%00",
      "1%2F2",
      "1;DROP",
      "__proto__",
      "constructor",
      "%F0%9F%98%80",
      "%ED%A0%80",
      "%ZZ",
    ),
  },
);
const actionArb = fc.constantFrom("delete_tasks", "predictions_to_annotations", "next_task", "unknown_action", "__proto__", "%00", "..%2F");

const queryKeys = [
  "project",
  "view",
  "id",
  "page",
  "page_size",
  "query",
  "fields",
  "include",
  "ids",
  "title",
  "search",
  "ordering",
  "task",
  "was_cancelled",
  "return_task_ids",
  "selectedItems",
  "filters",
  "interaction",
  "__proto__",
  "constructor",
  "a[b]",
  "",
  "%ZZ",
];
const rawValue = fc.oneof(
  fc.constantFrom(
    "1",
    "2",
    "0",
    "-1",
    "abc",
    "",
    "null",
    "true",
    "[]",
    "{}",
    "%ZZ",
    "%ED%A0%80",
    "1e308",
    "99999999999999999999",
    "last",
    "all",
  ),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
  fc.jsonValue({ maxDepth: 2 }).map((v) => encodeURIComponent(JSON.stringify(v) ?? "null")),
);
const queryArb = fc
  .array(fc.tuple(fc.constantFrom(...queryKeys), rawValue), { maxLength: 5 })
  .map((pairs) => (pairs.length === 0 ? "" : `?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}`));

/** A path for a route pattern, with generated ids and an optional trailing slash. */
function pathOf(pattern: string): fc.Arbitrary<string> {
  const parts = pattern.split(/(:\w+\([^)]*\)|:action)/).filter((p) => p !== "");
  return fc
    .tuple(...parts.map((p) => (p === ":action" ? actionArb : p.startsWith(":") ? idArb : fc.constant(p))), fc.boolean())
    .map((pieces) => {
      const slash = pieces.pop() as boolean;
      return `${(pieces as string[]).join("")}${slash ? "/" : ""}`;
    });
}

/** Field names the server's views and serializers read. */
const fields = [
  "project",
  "data",
  "meta",
  "title",
  "description",
  "label_config",
  "filters",
  "ordering",
  "selectedItems",
  "result",
  "score",
  "model_version",
  "completed_by",
  "was_cancelled",
  "ground_truth",
  "lead_time",
  "annotator",
  "refresh",
  "task",
  "tasks",
  "items",
  "conjunction",
  "filter",
  "operator",
  "type",
  "value",
  "all",
  "included",
  "excluded",
  "order",
  "ids",
  "id",
  "view",
  "query",
];
/** Values of every JSON type, some huge. */
const anyValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 8, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(1e308, -0, 2 ** 53 + 1, -1, 0, "", "\ud800", "\udfff\ud800", "x".repeat(70_000)) },
  { weight: 1, arbitrary: fc.nat(3).map((n) => Array.from({ length: 10 ** (n + 2) }, (_, i) => i)) },
);
const shapedObject = fc.dictionary(fc.constantFrom(...fields), anyValue, { maxKeys: 6 });
const filtersBody = fc.record({
  filters: fc.record({
    conjunction: fc.oneof(fc.constantFrom("and", "or"), anyValue),
    items: fc.array(
      fc.record({
        filter: fc.oneof(
          fc.constantFrom("filter:tasks:id", "filter:tasks:data.text", "filter:tasks:completed_at", "tasks:id", "filter:tasks:__proto__"),
          anyValue,
        ),
        operator: fc.oneof(fc.constantFrom("equal", "regex", "in", "contains", "greater", "empty", "not_exists"), anyValue),
        type: fc.oneof(fc.constantFrom("Number", "String", "Datetime", "Boolean", "List"), anyValue),
        value: fc.oneof(fc.constantFrom("^(a+)+$", "(a|a)*b", "\\", "["), anyValue),
      }),
      { maxLength: 4 },
    ),
  }),
  ordering: fc.oneof(fc.constantFrom(["tasks:id"], ["-tasks:data.text"]), anyValue),
  selectedItems: fc.oneof(fc.record({ all: fc.boolean(), included: fc.array(fc.integer(), { maxLength: 3 }) }), anyValue),
});

/** JSON text with prototype keys, which JSON.parse turns into own properties. */
const prototypeText = fc.constantFrom(
  '{"__proto__": {"admin": true, "project": 2}, "project": 1, "data": {}}',
  '{"constructor": {"prototype": {"polluted": 1}}, "title": "x"}',
  '{"data": {"__proto__": {"text": "x"}}, "project": 1}',
  '{"filters": {"__proto__": {"items": []}, "conjunction": "and"}}',
  '[{"__proto__": null}]',
);
const malformedText = fc.constantFrom(
  "",
  " ",
  "{",
  "[",
  '{"a":',
  '{"a" 1}',
  "{'a': 1}",
  "[1,]",
  '{"a":1,}',
  "NaN",
  "Infinity",
  "-",
  "tru",
  "nul",
  "\u0000",
  '"unterminated',
  '{"a":"\\x"}',
  '{"a":"\\ud800"}',
  '"\\udfff\\ud800"',
  "\ufeff{}",
  "1 2",
  "{}{}",
  "//{}",
);
const deepText = fc
  .constantFrom(10, 999, 1001, 5000, 100_000)
  .chain((depth) =>
    fc.constantFrom(`${"[".repeat(depth)}${"]".repeat(depth)}`, `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`, "[".repeat(depth)),
  );

const utf8 = (text: string) => new Uint8Array(Buffer.from(text, "utf8"));
const bodyArb: fc.Arbitrary<Uint8Array | undefined> = fc.oneof(
  { weight: 3, arbitrary: fc.constant(undefined) },
  { weight: 6, arbitrary: shapedObject.map((v) => utf8(JSON.stringify(v))) },
  { weight: 4, arbitrary: filtersBody.map((v) => utf8(JSON.stringify(v))) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => utf8(JSON.stringify(v) ?? "null")) },
  { weight: 2, arbitrary: prototypeText.map(utf8) },
  { weight: 3, arbitrary: malformedText.map(utf8) },
  { weight: 1, arbitrary: deepText.map(utf8) },
  // Bytes that are not UTF-8: a lone surrogate as WTF-8, a stray continuation byte, latin-1.
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      Uint8Array.of(0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d),
      Uint8Array.of(0x80, 0xff),
      Uint8Array.of(0x22, 0xe9, 0x22),
    ),
  },
  {
    weight: 2,
    arbitrary: fc
      .array(fc.tuple(fc.constantFrom(...fields), fc.string({ maxLength: 6 })), { maxLength: 4 })
      .map((pairs) => utf8(new URLSearchParams(pairs).toString())),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      utf8('--x\r\nContent-Disposition: form-data; name="project"\r\n\r\n1\r\n--x--\r\n'),
      utf8('--x\r\nContent-Disposition: form-data; name="file"; filename="a.json"\r\n\r\n[]\r\n--x--\r\n'),
      utf8("--x\r\ngarbage"),
    ),
  },
);
const contentTypeArb = fc.oneof(
  { weight: 8, arbitrary: fc.constant("application/json") },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      undefined,
      "",
      "text/plain",
      "application/xml",
      "text/html",
      "application/x-www-form-urlencoded",
      "multipart/form-data; boundary=x",
      "multipart/form-data",
      "application/json; charset=latin-1",
      "application/json; charset=utf-16",
      "application/json; charset=nope",
      "APPLICATION/JSON",
      "*/*",
      "application/*",
      "application/vnd.api+json",
      "application/octet-stream",
      "garbage",
      "application/json, text/plain",
    ),
  },
);

/** Mostly a method the route serves (its handlers run), sometimes any other. */
export const requestArb: fc.Arbitrary<FuzzRequest> = fc.constantFrom(...routes).chain((route) =>
  fc.record({
    method: fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...Object.keys(route.methods)) },
      { weight: 1, arbitrary: fc.constantFrom(...METHODS) },
    ),
    url: fc.tuple(pathOf(route.path), queryArb).map(([path, query]) => `${path}${query}`),
    contentType: contentTypeArb,
    body: bodyArb,
    credential: fc.oneof(
      { weight: 10, arbitrary: fc.constant("valid" as const) },
      { weight: 1, arbitrary: fc.constantFrom("none" as const, "bad" as const) },
    ),
  }),
);

/** The route serving the path (without the query, as sent): case-sensitive; the trailing slash optional where the server's pattern has one. */
export function routeOf(url: string): Route | undefined {
  const path = url.split("?")[0] as string;
  return routes.find((r) =>
    new RegExp(`^${r.path.replace(/:\w+\(([^)]*)\)/g, "($1)").replace(/:\w+/g, "([^/]+?)")}${r.slash === false ? "" : "/?"}$`).test(path),
  );
}

export const routed = (url: string): boolean => routeOf(url) !== undefined;
