export { oracle, oracleQuery } from "./evaluate.js";
export { oracleBody } from "./body.js";
export { judge, certainIds, isDefinite, type Outcome, type Answer, type ResultSpec, type Tri } from "./outcome.js";
export type { OQuery } from "./query.js";
