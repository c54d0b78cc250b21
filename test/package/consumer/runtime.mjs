// Runs in a fresh project where the tarball is installed: ESM import, CommonJS require and the CLI
// entry must load, and each prints what the package does with one selection.
import { createRequire } from "node:module";

const esm = await import("dmq");
const { evaluate } = await import("dmq/semantics");
const cjs = createRequire(import.meta.url)("dmq");
const body = (m) => JSON.stringify(m.selection(1).where("tasks:id").greater(1).excluding([3]));
const at = "2024-01-01T00:00:00.000000Z";
const task = (id) => ({
  id,
  project: 1,
  data: {},
  created_at: at,
  updated_at: at,
  updated_by: null,
  file_upload: null,
  storage_filename: null,
});
const project = { id: 1, title: "p", label_config: "<View/>", model_version: null };
const dataset = { project, tasks: [1, 2, 3, 4].map(task), annotations: [], predictions: [] };
console.log(
  JSON.stringify({
    esm: body(esm),
    cjs: body(cjs),
    same: esm.selection === cjs.selection,
    ids: evaluate(dataset, esm.selection(1).where("tasks:id").greater(1).excluding([3]).toQuery()).ids,
  }),
);
