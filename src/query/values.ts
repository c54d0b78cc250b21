import type { DatetimeCheck } from "../vocabulary/datetime.js";
import type { NoInference } from "./no-infer.js";
import type { Refused } from "./rules.js";

/*
 * Operator values the compiler can check beyond their type: integers on integer columns (the server
 * truncates a fraction) and datetime strings (the rules of `toWireDatetime`). Each is the parameter
 * type of a generic operator method: the argument as written when it passes, else a refusal whose
 * text says why. Values held in variables (`number`, `string`, `Date`) and the items of a list
 * (a conditional parameter type would lose their literal types) are checked at run time.
 */

// An integer literal first (the common case: one template check), then a plain `number` (checked at run time).
type Fraction<V extends number> = `${V}` extends `${bigint}` ? false : number extends V ? false : true;
type NotInteger<V extends number> = `${V} is not an integer: ids and counters are whole numbers, and the server truncates a fraction`;

/**
 * An integer value: a literal with a fraction is refused. Written out rather than through `Fraction`
 * (one conditional less per call, on the hot path of every id and counter condition).
 */
export type IntegerValue<V extends number> = `${V}` extends `${bigint}` ? V : number extends V ? V : Refused<NotInteger<V>>;

/**
 * An integer range: both ends checked (both integer literals first: one template check). The other
 * branches are behind `NoInference`: the range is inferred from the first, and inferring it does not
 * instantiate the checks.
 */
export type IntegerRangeValue<V extends { readonly min: number; readonly max: number }> =
  `${V["min"]}|${V["max"]}` extends `${bigint}|${bigint}` ? V : NoInference<IntegerEnds<V>>;
type IntegerEnds<V extends { readonly min: number; readonly max: number }> =
  Fraction<V["min"]> extends true ? Refused<NotInteger<V["min"]>> : Fraction<V["max"]> extends true ? Refused<NotInteger<V["max"]>> : V;

/**
 * What a datetime operator takes: a `Date` or a string (an ISO date or date-time with a zone; a
 * literal is checked by `DatetimeValue`, a `string` at run time).
 */
export type DatetimeArg = Date | string;
/**
 * A datetime value: a `Date`, or an ISO string (a literal is checked here, a `string` at run time).
 * The value is inferred from the last branch; the string checks are behind `NoInference`.
 */
export type DatetimeValue<V extends DatetimeArg> = V extends string ? NoInference<DatetimeString<V>> : V;
type DatetimeString<V extends string> = string extends V ? V : DatetimeCheck<V> extends true ? V : Refused<DatetimeCheck<V> & string>;

/**
 * A datetime range: each end a `DatetimeValue` (a bare date as `max` is the end of that day). Each end
 * is its own type argument, so the common range of two `Date`s is one type, checked once, and a
 * refused end is named by its property.
 */
export interface DatetimeRangeValue<Min extends DatetimeArg, Max extends DatetimeArg> {
  readonly min: DatetimeValue<Min>;
  readonly max: DatetimeValue<Max>;
}
