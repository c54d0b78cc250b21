import { describe, expectTypeOf, test } from "vitest";
import type { CreatedTask } from "../../src/client/types.js";
import type { FieldSpec, Rendered } from "../../src/contract/field.js";
import { taskDefaults, type task as taskDeclaration, type taskModel as TaskModel } from "../../src/contract/task.js";

// The client's task types are the task model's rendered form (src/contract/task.ts): a field the
// model gains is in them, typed by its kind (test/model/defaults.test.ts follows the defaults at run time).
describe("the task model and the client's types", () => {
  test("the client's task type is the model's rendered form: a field added to the model is in it", () => {
    expectTypeOf<CreatedTask>().toEqualTypeOf<Rendered<typeof taskDeclaration>>();
    expectTypeOf<CreatedTask["overlap"]>().toEqualTypeOf<number>();
    type WithReviews = Omit<typeof taskDeclaration, "fields"> & {
      readonly fields: typeof TaskModel & {
        readonly reviews: { readonly kind: "integer"; readonly nullable: false; readonly access: "read-write"; readonly default: 0 };
      };
    };
    expectTypeOf<Rendered<WithReviews>["reviews"]>().toEqualTypeOf<number>();
    expectTypeOf<(typeof TaskModel)["overlap"]>().toMatchTypeOf<FieldSpec>();
  });

  test("the defaults are typed by the model: overlap is the literal the model writes", () => {
    expectTypeOf(taskDefaults.overlap).toEqualTypeOf<1>();
    // @ts-expect-error data is required on create: the model declares no default for it
    void taskDefaults.data;
  });
});
