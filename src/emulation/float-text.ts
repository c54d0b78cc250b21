/**
 * The shortest decimal digits that read back as the same double, written out. Python's `repr`
 * and Postgres's float8/numeric output (PG 12+) all start from these digits; they differ only in
 * when they switch to an exponent and in how they spell zero, infinities and NaN (their callers).
 */
export interface ShortestDigits {
  readonly negative: boolean;
  /** The significant digits, without sign or point. */
  readonly digits: string;
  /** The decimal exponent of the first digit: x = ±d.ddd × 10^exp. */
  readonly exp: number;
}

/** The shortest round-trip digits of a finite, non-zero x. */
export function shortestDigits(x: number): ShortestDigits {
  const [mant = "0", expPart = "0"] = x.toExponential().split("e");
  return { negative: mant.startsWith("-"), digits: mant.replace("-", "").replace(".", ""), exp: Number(expPart) };
}

const sign = (d: ShortestDigits) => (d.negative ? "-" : "");

/** `±d.ddde±XX`, the exponent with at least two digits. */
export function scientific(d: ShortestDigits): string {
  const { digits, exp } = d;
  const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
  return `${sign(d)}${m}e${exp < 0 ? "-" : "+"}${String(Math.abs(exp)).padStart(2, "0")}`;
}

/** Without an exponent: `±0.000ddd`, `±ddd.ddd`, or `±ddd000` (no point for a whole number). */
export function positional(d: ShortestDigits): string {
  const { digits, exp } = d;
  if (exp < 0) return `${sign(d)}0.${"0".repeat(-exp - 1)}${digits}`;
  if (digits.length <= exp + 1) return `${sign(d)}${digits}${"0".repeat(exp + 1 - digits.length)}`;
  return `${sign(d)}${digits.slice(0, exp + 1)}.${digits.slice(exp + 1)}`;
}
