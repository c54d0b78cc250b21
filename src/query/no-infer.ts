/**
 * `T`, but not a place the compiler infers a type argument from: a refusal or a suggestion must not
 * become the inferred column or action. The built-in `NoInfer` needs TypeScript 5.4; this form
 * works on every version the package supports.
 */
export type NoInference<T> = [T][T extends unknown ? 0 : never];
