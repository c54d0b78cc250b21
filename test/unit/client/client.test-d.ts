import { describe, expectTypeOf, test } from "vitest";
import { customAction } from "../../../src/query/builder.js";
import type { ProjectHandle } from "../../../src/query/nodes.js";
import { selection } from "../../../src/selection.js";
import {
  createClient,
  type ActionInfo,
  type CreatedTask,
  type Paginated,
  type Project,
  type ProjectPage,
  type Task,
  type TaskListItem,
  type TaskPage,
  type UpdatedTask,
  type WhoAmI,
} from "../../../src/client/index.js";

const client = createClient({ baseUrl: "http://localhost:8080", apiKey: "key" });

describe("client types", () => {
  test("a project handle is a ProjectHandle that selection() binds", () => {
    expectTypeOf(client.project(1)).toExtend<ProjectHandle>();
    const bound = selection(client.project(1)).all();
    expectTypeOf(bound.run("delete_tasks")).resolves.toEqualTypeOf<{ processed_items: number; reload: boolean; detail: string }>();
    expectTypeOf(bound.run("predictions_to_annotations", { model_version: "v1" })).resolves.toEqualTypeOf<{ detail: string }>();
    expectTypeOf(bound.run(customAction("mine"), { any: 1 })).resolves.toBeUnknown();
    // @ts-expect-error annotator is delete_tasks_annotations' field, not delete_tasks'
    void bound.run("delete_tasks", { annotator: 1 });
    // @ts-expect-error an id the vocabulary does not know needs customAction()
    void bound.run("my_action");
    // @ts-expect-error rename_labels has required fields
    void bound.run("rename_labels");
  });

  test("run() is not offered on an unbound selection", () => {
    // @ts-expect-error selection(1) is not bound to a client
    void selection(1).all().run("delete_tasks");
  });

  test("resources return the wire types", () => {
    expectTypeOf(client.users.whoami()).resolves.toEqualTypeOf<WhoAmI>();
    expectTypeOf(client.projects.list()).toEqualTypeOf<Paginated<Project, ProjectPage>>();
    expectTypeOf(client.tasks.list({ project: 1, query: selection(1).all() })).toEqualTypeOf<Paginated<TaskListItem, TaskPage>>();
    expectTypeOf(client.tasks.get(1)).resolves.toEqualTypeOf<Task>();
    expectTypeOf(client.tasks.create({ project: 1, data: {} })).resolves.toEqualTypeOf<CreatedTask>();
    expectTypeOf(client.tasks.update(1, { data: {} })).resolves.toEqualTypeOf<UpdatedTask>();
    expectTypeOf(client.actions.list(1)).resolves.toEqualTypeOf<ActionInfo[]>();
    expectTypeOf(client.projects.delete(1)).resolves.toBeVoid();
    expectTypeOf<Task["data"]>().toEqualTypeOf<{ [key: string]: import("../../../src/vocabulary/json.js").JsonValue }>();
  });

  test("requests are checked", () => {
    // @ts-expect-error project is required by the Data Manager list
    void client.tasks.list({ query: selection(1).all() });
    // @ts-expect-error data is required to create a task
    void client.tasks.create({ project: 1 });
    // @ts-expect-error snake_case wire names: page_size, not pageSize
    void client.projects.list({ pageSize: 10 });
    // @ts-expect-error per-request options are { timeoutInSeconds, maxRetries, signal }
    void client.users.whoami({ timeout: 5 });
    // @ts-expect-error createClient's options are typed
    void createClient({ baseURL: "http://x" });
  });
});
