export * from "./value-types.js";
export * from "./operators.js";
export * from "./value-shapes.js";
export * from "./column-kinds.js";
export * from "./columns.js";
export * from "./actions.js";
export * from "./datetime.js";
export * from "./json.js";
