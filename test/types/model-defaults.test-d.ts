import { describe, expectTypeOf, test } from "vitest";
import type { Annotation, CreatedTask, Draft, Prediction } from "../../src/client/types.js";
import type { annotation as annotationDeclaration, annotationModel as AnnotationModel } from "../../src/contract/annotation.js";
import type { draft as draftDeclaration } from "../../src/contract/draft.js";
import type { prediction as predictionDeclaration } from "../../src/contract/prediction.js";
import type {
  AnnotationRecord,
  ConvertedFormatRecord,
  DraftRecord,
  ExportRecord,
  PredictionRecord,
  ProjectRecord,
  StoredRecord,
  TaskRecord,
  UserRecord,
  ViewRecord,
} from "../../src/contract/records.js";
import type { AnnotationRecord as EngineAnnotation, TaskRecord as EngineTask } from "../../src/semantics/records.js";
import type { JsonValue } from "../../src/vocabulary/json.js";
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

  test("the stored task is the model's StoredRecord: computed counters left out, is_labeled sparse, the mock's own fields its own", () => {
    expectTypeOf<TaskRecord["overlap"]>().toEqualTypeOf<number>();
    expectTypeOf<TaskRecord["meta"]>().toEqualTypeOf<JsonValue | null>();
    // The rendered kind map (KindTypes), read-only in the store.
    expectTypeOf<TaskRecord["data"]>().toEqualTypeOf<{ readonly [key: string]: JsonValue }>();
    // An owned reference is never null in the store, though the model allows it.
    expectTypeOf<TaskRecord["project"]>().toEqualTypeOf<number>();
    expectTypeOf<Pick<TaskRecord, "is_labeled">>().toEqualTypeOf<{ readonly is_labeled?: boolean }>();
    // @ts-expect-error the engine computes total_annotations from the annotations: never stored
    void ({} as TaskRecord).total_annotations;
    // The mock's own: the upload's path (the model's pk to a FileUpload), the storage link, an inner id never null.
    expectTypeOf<TaskRecord["file_upload"]>().toEqualTypeOf<string | null>();
    expectTypeOf<TaskRecord["storage_filename"]>().toEqualTypeOf<string | null>();
    expectTypeOf<TaskRecord["inner_id"]>().toEqualTypeOf<number>();
    type Reviews = {
      readonly reviews: { readonly kind: "integer"; readonly nullable: false; readonly access: "read-write"; readonly default: 0 };
    };
    expectTypeOf<StoredRecord<typeof TaskModel & Reviews>["reviews"]>().toEqualTypeOf<number>();
    // The engine's view: a stored task is one, and a task written by hand may leave the stored defaults out.
    expectTypeOf<TaskRecord>().toMatchTypeOf<EngineTask>();
    expectTypeOf<Pick<EngineTask, "overlap">>().toEqualTypeOf<{ readonly overlap?: number }>();
  });

  test("the defaults are typed by the model: overlap is the literal the model writes", () => {
    expectTypeOf(taskDefaults.overlap).toEqualTypeOf<1>();
    // @ts-expect-error data is required on create: the model declares no default for it
    void taskDefaults.data;
  });
});

describe("the child models, the store's records and the client's types", () => {
  type Reviews = {
    readonly reviews: { readonly kind: "integer"; readonly nullable: false; readonly access: "read-write"; readonly default: 0 };
  };

  test("the client's annotation, prediction and draft types are the models' rendered forms", () => {
    expectTypeOf<Annotation>().toEqualTypeOf<Rendered<typeof annotationDeclaration>>();
    expectTypeOf<Prediction>().toEqualTypeOf<Rendered<typeof predictionDeclaration>>();
    expectTypeOf<Draft>().toEqualTypeOf<Rendered<typeof draftDeclaration>>();
    expectTypeOf<Annotation["bulk_created"]>().toEqualTypeOf<boolean | null>();
  });

  test("the stored records are the model tables: a field added to a model is a stored field, a sparse one optional", () => {
    expectTypeOf<AnnotationRecord["lead_time"]>().toEqualTypeOf<number | null>();
    // An owned reference is never null in the store, though the model allows it.
    expectTypeOf<AnnotationRecord["task"]>().toEqualTypeOf<number>();
    expectTypeOf<AnnotationRecord>().toHaveProperty("bulk_created");
    expectTypeOf<Pick<AnnotationRecord, "bulk_created">>().toEqualTypeOf<{ readonly bulk_created?: boolean | null }>();
    expectTypeOf<StoredRecord<typeof AnnotationModel & Reviews>["reviews"]>().toEqualTypeOf<number>();
    type Sparse = { readonly reviews: Reviews["reviews"] & { readonly stored: "sparse" } };
    expectTypeOf<Pick<StoredRecord<typeof AnnotationModel & Sparse>, "reviews">>().toEqualTypeOf<{ readonly reviews?: number }>();
    expectTypeOf<PredictionRecord["model_version"]>().toEqualTypeOf<string | null>();
    expectTypeOf<DraftRecord["result"]>().toEqualTypeOf<readonly JsonValue[] | null>();
    // The mock's own fields (each model file's `…Own` table): typed by their own entries.
    expectTypeOf<ExportRecord["content"]>().toEqualTypeOf<string | null>();
    expectTypeOf<Pick<UserRecord, "token">>().toEqualTypeOf<{ readonly token?: string }>();
    expectTypeOf<ViewRecord["order"]>().toEqualTypeOf<number>();
    expectTypeOf<ProjectRecord["label_config"]>().toEqualTypeOf<string>();
    expectTypeOf<ConvertedFormatRecord["created_at"]>().toEqualTypeOf<string>();
  });

  test("the engine's views hold only what the engine reads", () => {
    // @ts-expect-error the engine never reads an annotation's bulk_created
    void ({} as EngineAnnotation).bulk_created;
    expectTypeOf<AnnotationRecord>().toMatchTypeOf<EngineAnnotation>();
  });
});
