/**
 * How the server's Python prints the values it complains about. The server's 500 details are
 * `str(exc)` of Python exceptions (pydantic ValidationError, DataManagerException, AttributeError),
 * so reproducing them needs Python's `repr`, `type(x).__name__` and pydantic's error layout.
 * Only error paths use these: nothing here runs for a well-formed body.
 */

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/** `type(value).__name__` for a decoded JSON value. */
export function pyType(value: unknown): string {
  if (value === null || value === undefined) return "NoneType";
  if (typeof value === "boolean") return "bool";
  if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
  if (typeof value === "string") return "str";
  if (Array.isArray(value)) return "list";
  return isPlainObject(value) ? "dict" : typeof value;
}

/** Python truthiness: the server's `if conjunction:` / `ordering or []`. */
export function pyTruthy(value: unknown): boolean {
  if (value === null || value === undefined || value === false || value === 0 || value === "") return false;
  if (Array.isArray(value)) return value.length > 0;
  if (isPlainObject(value)) return Object.keys(value).length > 0;
  return true;
}

function pyFloat(n: number): string {
  if (Number.isNaN(n)) return "nan";
  if (!Number.isFinite(n)) return n > 0 ? "inf" : "-inf";
  // JSON integers decode to Python ints; JavaScript cannot tell 1.0 from 1, so integral means int.
  if (Number.isInteger(n) && Math.abs(n) < 1e16) return String(n);
  const s = String(n);
  // Python pads the exponent to two digits: 1e-07, 1e+21.
  return s.replace(/e([+-])(\d)$/, "e$10$2");
}

function pyStrRepr(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    const code = ch.codePointAt(0) as number;
    if (ch === "\\") out += "\\\\";
    else if (ch === quote) out += `\\${quote}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, "0")}`;
    else out += ch;
  }
  return out + quote;
}

/** `repr(value)` of a decoded JSON value. */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return pyFloat(value);
  if (typeof value === "string") return pyStrRepr(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  if (isPlainObject(value)) {
    return `{${Object.entries(value)
      .map(([k, v]) => `${pyStrRepr(k)}: ${pyRepr(v)}`)
      .join(", ")}}`;
  }
  return String(value);
}

/** `str(value)`: like repr, except that a top-level string prints bare (f-string interpolation). */
export function pyStr(value: unknown): string {
  return typeof value === "string" ? value : pyRepr(value);
}

/** `{type(x)}` in an f-string, e.g. `<class 'list'>`. */
export function pyClass(value: unknown): string {
  return `<class '${pyType(value)}'>`;
}

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
 * `str(ValidationError)` as pydantic 2 prints it for the server's `PrepareParams` model (without
 * the trailing "For further information visit …" lines, which carry pydantic's exact version).
 */
export function pydanticText(errors: readonly PydanticError[], model = "PrepareParams"): string {
  const n = errors.length;
  const lines = [`${n} validation error${n === 1 ? "" : "s"} for ${model}`];
  for (const e of errors) {
    lines.push(e.loc.join("."));
    lines.push(`  ${e.msg} [type=${e.type}, input_value=${truncateRepr(pyRepr(e.input))}, input_type=${pyType(e.input)}]`);
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
