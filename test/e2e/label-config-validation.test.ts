import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import type { MockServer } from "../../mock-server/index.js";
import { ADA_KEY, raw, startFixture } from "./fixture.js";

/*
 * Label config validation as a server (1.22) answered it: `POST /api/projects/validate/` (anyone may
 * call it; a refusal is DRF's bare `{"label_config": [...]}`), `GET`/`POST /api/projects/{id}/validate/`
 * (strict: the labels the annotations use must stay) and the config of `PATCH /api/projects/{id}/`
 * (not strict). Project 1 of the fixture: choices "sentiment" (Pos, Neg) on text "text"; its
 * annotations use Pos twice and Neg twice (a3 is cancelled with no result).
 */
let server: MockServer;
beforeAll(async () => {
  server = await startFixture();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const config = (choices: string[], name = "sentiment") =>
  `<View><Text name="text" value="$text"/><Choices name="${name}" toName="text">${choices.map((c) => `<Choice value="${c}"/>`).join("")}</Choices></View>`;

describe("POST /api/projects/validate/", () => {
  test("204 for a config the server accepts, with or without credentials", async () => {
    expect((await raw(server, "POST", "/api/projects/validate/", { body: { label_config: config(["A"]) } })).status).toBe(204);
    const anonymous = await raw(server, "POST", "/api/projects/validate/", { key: null, body: { label_config: "<View></View>" } });
    expect(anonymous.status).toBe(204);
  });

  test("a refusal is a bare {label_config: [message]} with the server's message", async () => {
    for (const [label_config, message] of [
      ['<View><Text name="t" value="$t"></View>', "mismatched tag: line 1, column 34"],
      [
        '<View><Text name="t" value="$t"/><Choices name="c" toName="x"><Choice value="A"/></Choices></View>',
        "toName=\"x\" not found in names: ['c', 't']",
      ],
      ['<View><Text name="t"/></View>', "Validation failed on : 'value' is a required property"],
      ["", "This field may not be blank."],
      [null, "This field may not be null."],
    ] as const) {
      const answer = await raw(server, "POST", "/api/projects/validate/", { body: { label_config } });
      expect([answer.status, answer.body], String(label_config)).toEqual([400, { label_config: [message] }]);
    }
    const missing = await raw(server, "POST", "/api/projects/validate/", { body: {} });
    expect(missing.body).toEqual({ label_config: ["This field is required."] });
  });

  test("credentials that fail are refused even here", async () => {
    const answer = await raw(server, "POST", "/api/projects/validate/", { key: "0".repeat(40), body: { label_config: "<View/>" } });
    expect([answer.status, answer.body.detail]).toEqual([401, "Invalid token."]);
  });
});

describe("GET and POST /api/projects/{id}/validate/", () => {
  test("GET renders the project's config", async () => {
    const answer = await raw(server, "GET", "/api/projects/1/validate/");
    expect(answer.body).toEqual({ label_config: config(["Pos", "Neg"]) });
  });

  test("POST says whether a control changed: true, or null (never false)", async () => {
    const post = (label_config: string) => raw(server, "POST", "/api/projects/1/validate/", { body: { label_config } });
    expect((await post(config(["Pos", "Neg", "Maybe"]))).body).toEqual({ config_essential_data_has_changed: null });
    expect((await post(config(["Pos", "Neg", "Maybe"]).replace("</View>", '<TextArea name="note" toName="text"/></View>'))).body).toEqual({
      config_essential_data_has_changed: true,
    });
    expect(server.data().projects[0]!.label_config).toBe(config(["Pos", "Neg"]));
  });

  test("strict: a label the annotations use must stay", async () => {
    const answer = await raw(server, "POST", "/api/projects/1/validate/", { body: { label_config: config(["Pos"]) } });
    expect(answer.status).toBe(400);
    expect(answer.body.validation_errors).toEqual({
      non_field_errors: [
        'These labels still exist in annotations or drafts:\nNeg (2 annotations)\nPlease add labels to tag with name="sentiment".',
      ],
    });
  });

  test("a control the annotations use must stay", async () => {
    const answer = await raw(server, "POST", "/api/projects/1/validate/", { body: { label_config: config(["Pos", "Neg"], "mood") } });
    expect(answer.body.validation_errors).toEqual({
      non_field_errors: [
        "Created annotations are incompatible with provided labeling schema, we found:\n4 with from_name=sentiment, to_name=text, type=choices",
      ],
    });
  });

  test("an empty or missing config, and an unknown project", async () => {
    for (const body of [{}, { label_config: "" }, { label_config: null }]) {
      const answer = await raw(server, "POST", "/api/projects/1/validate/", { body });
      expect(answer.body.validation_errors).toEqual({ non_field_errors: ["Label config is not set or is empty"] });
    }
    const missing = await raw(server, "POST", "/api/projects/99/validate/", { body: { label_config: "<View/>" } });
    expect([missing.status, missing.body.detail]).toEqual([404, "No Project matches the given query."]);
  });

  test("a malformed config is a 400", async () => {
    const answer = await raw(server, "POST", "/api/projects/1/validate/", { body: { label_config: "<View" } });
    expect(answer.status).toBe(400);
  });
});

describe("the config of PATCH /api/projects/{id}/", () => {
  test("not strict: dropping a used label is accepted, dropping a used control is not", async () => {
    const dropped = await raw(server, "PATCH", "/api/projects/1/", { key: ADA_KEY, body: { label_config: config(["Pos"]) } });
    expect(dropped.status).toBe(200);
    expect(Object.keys(dropped.body.parsed_label_config)).toEqual(["sentiment"]);
    const renamed = await raw(server, "PATCH", "/api/projects/1/", { body: { label_config: config(["Pos", "Neg"], "mood") } });
    expect(renamed.status).toBe(400);
    expect(renamed.body.validation_errors.label_config[0]).toMatch(/^Created annotations are incompatible/);
  });

  test("a null config is refused as the server refuses it", async () => {
    const answer = await raw(server, "PATCH", "/api/projects/1/", { body: { label_config: null } });
    expect([answer.status, answer.body.validation_errors]).toEqual([400, { label_config: ["can only parse strings"] }]);
  });

  test("a project whose tasks have no annotation takes any valid config; project 2's one annotation holds it to its control", async () => {
    const project = await raw(server, "POST", "/api/projects/", { body: { title: "fresh", label_config: config(["A"]) } });
    await raw(server, "POST", `/api/projects/${project.body.id}/import`, { body: [{ text: "x" }] });
    const answer = await raw(server, "PATCH", `/api/projects/${project.body.id}/`, { body: { label_config: config(["X"], "other") } });
    expect(answer.status).toBe(200);
    const held = await raw(server, "PATCH", "/api/projects/2/", { body: { label_config: config(["X"], "other") } });
    expect(held.status).toBe(400);
  });
});
