import { evaluate } from "../../src/semantics/index.js";
const ds = { project: { id: 1, title: "P", label_config: "<View></View>", model_version: null }, tasks: [], annotations: [], predictions: [], drafts: [] };
for (const col of ["comments", "reviewed", "ground_truth"]) {
  try { console.log(col, evaluate(ds, { filters: { conjunction: "and", items: [{ column: col, operator: "equal", type: "Number", value: 0, children: [] }] } }).ids); } catch (e) { console.log(col, (e as Error).message.slice(0, 100)); }
}
