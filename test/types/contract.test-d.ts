import { describe, expectTypeOf, test } from "vitest";
import type {
  Annotation,
  ActionInfo,
  CreatedTask,
  Prediction,
  Project,
  Task,
  TaskListItem,
  UpdatedTask,
  User,
  WhoAmI,
} from "../../src/client/index.js";
import type { Rendered } from "../../src/contract/field.js";
import { type annotation, type dmTask, prediction, type project, type Declaration } from "../../src/contract/index.js";
import { render } from "../../src/contract/render.js";
import type { presentAnnotation } from "../../mock-server/present/annotations.js";
import type { presentPrediction } from "../../mock-server/present/predictions.js";
import type { presentProject } from "../../mock-server/present/project.js";
import type { presentDmTask, presentDmTaskDetail, presentTask, presentTaskSimple } from "../../mock-server/present/tasks.js";
import type { presentUser, presentWhoAmI } from "../../mock-server/present/users.js";
import type { actionList } from "../../mock-server/actions/registry.js";
import type { JsonValue } from "../../src/vocabulary/json.js";

/** A prediction as a presenter gives it, every field present. */
const values = {
  id: 1,
  result: [],
  model_version: "v1",
  created_ago: "0 minutes",
  score: null,
  cluster: null,
  neighbors: null,
  mislabeling: 0,
  created_at: "2024-01-01T00:00:00Z",
  updated_at: "2024-01-01T00:00:00Z",
  model: null,
  model_run: null,
  task: 1,
  project: 1,
};

describe("a presenter renders exactly the declared fields", () => {
  test("every field present compiles", () => {
    expectTypeOf(render(prediction, values)).toEqualTypeOf<Prediction>();
  });

  test("a dropped field does not compile", () => {
    const { created_ago: _dropped, ...missing } = values;
    // @ts-expect-error created_ago is declared by PredictionSerializer: a presenter cannot leave it out
    render(prediction, missing);
  });

  test("a renamed field does not compile", () => {
    const { score: _score, ...rest } = values;
    // @ts-expect-error "scores" is not a field of the contract, and "score" is missing
    render(prediction, { ...rest, scores: 0.5 });
  });

  test("a wrongly typed or wrongly null field does not compile", () => {
    // @ts-expect-error task is a primary key, never null
    render(prediction, { ...values, task: null });
    // @ts-expect-error model_version is text
    render(prediction, { ...values, model_version: 2 });
  });

  test("conditional fields are thunks, computed only when rendered", () => {
    type Values = Parameters<typeof render<typeof dmTask>>[1];
    expectTypeOf<Values["completed_at"]>().toEqualTypeOf<() => string | null>();
    expectTypeOf<Values["annotations"]>().returns.toEqualTypeOf<Annotation[]>();
    expectTypeOf<Values["inner_id"]>().toEqualTypeOf<number | null>();
  });
});

describe("the client's response types are the contract's renderings", () => {
  test("each client type is the rendering of its declaration", () => {
    expectTypeOf<Project>().toEqualTypeOf<Rendered<typeof project>>();
    expectTypeOf<Annotation>().toEqualTypeOf<Rendered<typeof annotation>>();
    expectTypeOf<Prediction>().toEqualTypeOf<Rendered<typeof prediction>>();
    expectTypeOf<TaskListItem>().toEqualTypeOf<Rendered<typeof dmTask>>();
  });

  test("and the mock's presenters return them", () => {
    expectTypeOf<ReturnType<typeof presentProject>>().toEqualTypeOf<Project>();
    expectTypeOf<ReturnType<typeof presentAnnotation>>().toEqualTypeOf<Annotation>();
    expectTypeOf<ReturnType<typeof presentPrediction>>().toEqualTypeOf<Prediction>();
    expectTypeOf<ReturnType<typeof presentTask>>().toEqualTypeOf<CreatedTask>();
    expectTypeOf<ReturnType<typeof presentTaskSimple>>().toEqualTypeOf<UpdatedTask>();
    expectTypeOf<ReturnType<typeof presentDmTask>>().toEqualTypeOf<TaskListItem>();
    expectTypeOf<ReturnType<typeof presentDmTaskDetail>>().toEqualTypeOf<Task>();
    expectTypeOf<ReturnType<typeof presentUser>>().toEqualTypeOf<User>();
    expectTypeOf<ReturnType<typeof presentWhoAmI>>().toEqualTypeOf<WhoAmI>();
    expectTypeOf<ReturnType<typeof actionList>>().toEqualTypeOf<ActionInfo[]>();
  });

  test("null-ness and presence follow the declaration", () => {
    expectTypeOf<Project["task_number"]>().toEqualTypeOf<number | null>();
    expectTypeOf<Project["sampling"]>().toEqualTypeOf<"Sequential sampling" | "Uniform sampling" | "Uncertainty sampling" | null>();
    expectTypeOf<Annotation["completed_by"]>().toEqualTypeOf<number | null>();
    expectTypeOf<Task["annotations"][number]["completed_by"]>().toEqualTypeOf<Rendered<
      typeof import("../../src/contract/user.js").completedByDm
    > | null>();
    expectTypeOf<TaskListItem["annotations"]>().toEqualTypeOf<Annotation[] | undefined>();
    expectTypeOf<TaskListItem["completed_at"]>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<Task["data"]>().toEqualTypeOf<{ [key: string]: JsonValue }>();
    expectTypeOf<ActionInfo["permission"]>().toEqualTypeOf<string | string[]>();
  });

  test("a field the contract drops is gone from the type; write-only fields are never rendered", () => {
    const { score: _score, ...fields } = prediction.fields;
    const without = { ...prediction, fields } as const satisfies Declaration;
    expectTypeOf<Rendered<typeof without>>().not.toHaveProperty("score");
    expectTypeOf<Rendered<typeof prediction>>().toHaveProperty("score");
    expectTypeOf<Annotation>().not.toHaveProperty("unique_id");
    // @ts-expect-error unique_id is write-only (AnnotationSerializer): it is not in the rendered type
    void ({} as Annotation).unique_id;
  });
});
