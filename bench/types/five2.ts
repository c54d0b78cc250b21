import { selection } from "../../src/selection.js";
export const s = selection(1).where("tasks:id").greater(1).and("tasks:total_annotations").equal(2).and("tasks:completed_at").greater(new Date()).and("tasks:file_upload").contains("x").and("tasks:annotators").contains([1]);
export const s2 = selection(2).where("tasks:id").less(3).and("tasks:total_annotations").greater(2).and("tasks:completed_at").less(new Date()).and("tasks:file_upload").regex("x").and("tasks:annotators").notContains([1]);
