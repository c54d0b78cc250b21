/**
 * `T`, but not a place the compiler infers a type argument from: a refusal or a suggestion must not
 * become the inferred column or action. The built-in `NoInfer` needs TypeScript 5.4; this form
 * works on every version the package supports. Inference meets only `U`, which has no constraint, so
 * it never looks into `T`: the indexed-access form `[T][T extends unknown ? 0 : never]` made the
 * compiler resolve the constraint of `T` on the first call, i.e. the suggestion for every column.
 */
export type NoInference<T> = [T] extends [infer U] ? U : never;
