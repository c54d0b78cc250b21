import { inspect } from "node:util";
import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { ApiError } from "../../src/client/index.js";
import type { MockServer } from "../../mock-server/index.js";
import { startMLBackend, type MLBackend } from "../helpers/ml-backend.js";
import { clientFor, startFixture } from "./fixture.js";

/*
 * The client's users, drafts, ML backends and label config checks (the official SDK's `client.users`,
 * `client.ml`, `projects.validate_label_config`), against the mock.
 */
/** What a promise rejects with (a test fails if it resolves). */
async function thrown(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error("expected a rejection");
}

let server: MockServer;
let model: MLBackend;
beforeAll(async () => {
  server = await startFixture();
  model = await startMLBackend();
});
afterAll(async () => {
  await server.close();
  await model.close();
});
beforeEach(() => server.reset());

describe("client.users", () => {
  test("list, create, get, update, delete", async () => {
    const client = clientFor(server);
    expect((await client.users.list()).map((u) => u.username)).toEqual(["ada", "bo", "cy"]);
    const dee = await client.users.create({ username: "dee", email: "dee@example.com" });
    expect((await client.users.get(dee.id)).email).toBe("dee@example.com");
    expect((await client.users.update(dee.id, { first_name: "Dee" })).initials).toBe("D");
    await client.users.delete(dee.id);
    const error = await thrown(client.users.get(dee.id));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).statusCode).toBe(404);
  });

  test("getToken and resetToken: the new key works, and no key shows in the client or its errors", async () => {
    const client = clientFor(server);
    expect((await client.users.getToken()).token).toBe(server.legacyToken);
    const { token } = await client.users.resetToken();
    expect(token).toMatch(/^[0-9a-f]{40}$/);
    expect((await clientFor(server, token).users.whoami()).username).toBe("ada");
    const error = await thrown(client.users.whoami());
    expect((error as ApiError).statusCode).toBe(401);
    expect(inspect(client) + inspect(error)).not.toContain(token);
  });
});

describe("client.drafts", () => {
  test("create on a task and on an annotation, list, update, delete, from an annotation", async () => {
    const client = clientFor(server);
    const draft = await client.drafts.create(1, { result: [], lead_time: 1 });
    const onAnnotation = await client.drafts.create(1, { result: [] }, { annotation: 1 });
    expect([draft.task, draft.annotation, onAnnotation.annotation]).toEqual([1, null, 1]);
    expect((await client.drafts.list(1)).map((d) => d.id)).toEqual([draft.id, onAnnotation.id]);
    expect((await client.drafts.update(draft.id, { was_postponed: true })).was_postponed).toBe(true);
    await client.drafts.delete(draft.id);
    const converted = await client.drafts.fromAnnotation(4);
    expect([converted.task, converted.user]).toEqual([4, "ada@example.com"]);
  });
});

describe("client.projects label config checks", () => {
  test("validateConfig resolves for a valid config and rejects with the server's message", async () => {
    const client = clientFor(server);
    await expect(client.projects.validateConfig({ label_config: "<View></View>" })).resolves.toBeUndefined();
    const error = (await thrown(client.projects.validateConfig({ label_config: "<View>" }))) as ApiError;
    expect([error.statusCode, error.body]).toEqual([400, { label_config: ["no element found: line 1, column 6"] }]);
  });

  test("validateLabelConfig: changed or not, and the labels the annotations still use", async () => {
    const client = clientFor(server);
    const config = (choices: string) =>
      `<View><Text name="text" value="$text"/><Choices name="sentiment" toName="text">${choices}</Choices></View>`;
    expect(await client.projects.validateLabelConfig(1, { label_config: config('<Choice value="Pos"/><Choice value="Neg"/>') })).toEqual({
      config_essential_data_has_changed: null,
    });
    const error = (await thrown(client.projects.validateLabelConfig(1, { label_config: config('<Choice value="Pos"/>') }))) as ApiError;
    expect(error.statusCode).toBe(400);
    expect(error.message).toContain("These labels still exist in annotations or drafts");
  });
});

describe("client.ml", () => {
  test("create, list, get, versions, predictInteractive, train, delete", async () => {
    const client = clientFor(server);
    const backend = await client.ml.create({ url: model.url, project: 1, title: "tiny", is_interactive: true });
    expect([backend.state, backend.model_version]).toEqual(["CO", "tiny-v1"]);
    expect((await client.ml.list(1)).map((b) => b.id)).toEqual([backend.id]);
    expect((await client.ml.list(1, { is_interactive: false })).length).toBe(0);
    expect((await client.ml.get(backend.id)).title).toBe("tiny");
    expect(await client.ml.listModelVersions(backend.id)).toEqual({ versions: ["tiny-v1"] });
    expect((await client.ml.predictInteractive(backend.id, { task: 1 })).data).toMatchObject({ score: 0.5 });
    expect(Object.keys(await client.ml.testPredict(backend.id))).toContain("response");
    await client.ml.train(backend.id);
    expect((await client.ml.update(backend.id, { url: model.url, project: 1, title: "renamed" })).title).toBe("renamed");
    await client.ml.delete(backend.id);
    expect(await client.ml.list(1)).toEqual([]);
  });
});
