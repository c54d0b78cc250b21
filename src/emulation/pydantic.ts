import { pyRepr, pyType } from "./python-json.js";

/**
 * pydantic's side of the server's error texts. The server's 500 details are `str(exc)` of Python
 * exceptions (pydantic ValidationError, DataManagerException, AttributeError), so reproducing them
 * needs Python's `repr` and `type(x).__name__` (python-json.ts) and pydantic's error layout (here).
 * Only error paths use these: nothing here runs for a well-formed body.
 */

/** One line error of a pydantic ValidationError. */
export interface PydanticError {
  /** Location inside `PrepareParams`, e.g. `["filters", "items", 0, "value"]`. */
  readonly loc: readonly (string | number)[];
  readonly msg: string;
  readonly type: string;
  readonly input: unknown;
}

/** pydantic-core shortens long input reprs to their first 25 and last 24 characters. */
function truncateRepr(repr: string): string {
  const chars = [...repr];
  return chars.length > 50 ? `${chars.slice(0, 25).join("")}...${chars.slice(-24).join("")}` : repr;
}

/**
 * The pydantic the server runs, as `major.minor`: each error line links to its documentation under
 * this version. Label Studio 1.22's lock pins pydantic 2.9.2 (its newer releases require `>=2.9.2`,
 * so the installed one decides: `dmq verify` reports a different version as the environment's).
 */
export const PYDANTIC_DOCS_VERSION = "2.9";

/**
 * `str(ValidationError)` as pydantic 2 prints it for the server's `PrepareParams` model: a line with
 * the location and one with the message, input and type, then the link pydantic adds to each error
 * (`errors.pydantic.dev/<version>/v/<type>`, as long as `PYDANTIC_ERRORS_INCLUDE_URL` is not off).
 */
export function pydanticText(errors: readonly PydanticError[], model = "PrepareParams"): string {
  const n = errors.length;
  const lines = [`${n} validation error${n === 1 ? "" : "s"} for ${model}`];
  for (const e of errors) {
    lines.push(e.loc.join("."));
    lines.push(`  ${e.msg} [type=${e.type}, input_value=${truncateRepr(pyRepr(e.input))}, input_type=${pyType(e.input)}]`);
    lines.push(`    For further information visit https://errors.pydantic.dev/${PYDANTIC_DOCS_VERSION}/v/${e.type}`);
  }
  return lines.join("\n");
}

/** pydantic's messages for the error types the server's models can raise. */
export const pydanticMessages = {
  missing: "Field required",
  string_type: "Input should be a valid string",
  int_type: "Input should be a valid integer",
  int_parsing: "Input should be a valid integer, unable to parse string as an integer",
  int_from_float: "Input should be a valid integer, got a number with a fractional part",
  float_type: "Input should be a valid number",
  bool_type: "Input should be a valid boolean",
  bool_parsing: "Input should be a valid boolean, unable to interpret input",
  list_type: "Input should be a valid list",
  enum: "Input should be 'or' or 'and'",
} as const;
export type PydanticType = keyof typeof pydanticMessages;

export function pydanticError(loc: readonly (string | number)[], type: PydanticType, input: unknown): PydanticError {
  return { loc, type, msg: pydanticMessages[type], input };
}

/** "Input should be a valid dictionary or instance of <Model>" (`model_type`). */
export function modelTypeError(loc: readonly (string | number)[], model: string, input: unknown): PydanticError {
  return { loc, type: "model_type", msg: `Input should be a valid dictionary or instance of ${model}`, input };
}

/** A `ValueError` raised by a model validator ("Value error, …"). */
export function valueError(loc: readonly (string | number)[], message: string, input: unknown): PydanticError {
  return { loc, type: "value_error", msg: `Value error, ${message}`, input };
}
