import { describe, expectTypeOf, test } from "vitest";
import type { ExportedFile, ProjectHandle } from "../../src/query/nodes.js";
import type { Refused, rules } from "../../src/query/rules.js";
import { selection } from "../../src/selection.js";
import type { ExportType } from "../../src/vocabulary/export-formats.js";

declare const handle: ProjectHandle;

describe(".export() on a selection", () => {
  test("a client-bound selection exports in any state, to a file", () => {
    expectTypeOf(selection(handle).export()).resolves.toEqualTypeOf<ExportedFile>();
    expectTypeOf(
      selection(handle).where("tasks:total_annotations").greater(0).orderBy("tasks:id").export("CSV"),
    ).resolves.toEqualTypeOf<ExportedFile>();
    expectTypeOf(selection(handle).fromView(3).export("COCO", { keep: true })).resolves.toEqualTypeOf<ExportedFile>();
    expectTypeOf(selection(handle).including([1, 2]).export)
      .parameter(0)
      .toEqualTypeOf<ExportType | undefined>();
  });
  test("an unbound selection has no export: the rule says why", () => {
    const s = selection(1).where("tasks:total_annotations").greater(0);
    expectTypeOf(s.export).toEqualTypeOf<Refused<typeof rules.exportNotBound>>();
    // @ts-expect-error export() needs selection(client.project(id))
    void s.export("JSON");
  });
  test("the format is one the converter knows, in its spelling", () => {
    // @ts-expect-error "csv": formats are upper case (the server's converter raises for anything else)
    void selection(handle).export("csv");
    // @ts-expect-error the options are the snapshot's, not an action's params
    void selection(handle).export("JSON", { annotator: 3 });
  });
});
