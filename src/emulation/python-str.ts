/** Python's `str` methods where they differ from JavaScript's. */

/**
 * The characters `str.isspace()` accepts (and so `str.strip()`, `str.split()`, `int()` and `float()` skip):
 * JavaScript's `\s` plus U+001C..U+001F and U+0085, minus U+FEFF.
 */
export const PY_WHITESPACE = "\\t\\n\\v\\f\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";

const edges = new RegExp(`^[${PY_WHITESPACE}]+|[${PY_WHITESPACE}]+$`, "g");

/** `str.strip()` without arguments. */
export function pyStrip(s: string): string {
  return s.replace(edges, "");
}
