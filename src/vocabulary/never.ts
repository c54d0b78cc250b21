/**
 * The `default:` of a plain `switch` over a closed union. Elsewhere the code matches unions with
 * ts-pattern's `match(…).exhaustive()`; a `switch` stays only in measured hot loops, and this call
 * keeps it just as exhaustive: a new variant makes it a compile error (the value is no longer
 * `never`), and a value the types ruled out fails loudly instead of falling through.
 */
export function assertNever(value: never, what: string): never {
  throw new Error(`unreachable: unexpected ${what} ${JSON.stringify(value)}`);
}
