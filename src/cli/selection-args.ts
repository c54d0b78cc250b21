import { parseArgs } from "node:util";
import type { ProjectHandle } from "../query/nodes.js";
import { selection } from "../selection.js";
import { CliUsageError, parseCondition } from "./conditions.js";

/** The options every selection-taking command shares. */
export const selectionOptions = {
  project: { type: "string", short: "p" },
  where: { type: "string", multiple: true, short: "w" },
  and: { type: "string", multiple: true },
  or: { type: "string", multiple: true },
  child: { type: "string", multiple: true },
  order: { type: "string" },
  include: { type: "string", multiple: true },
  exclude: { type: "string", multiple: true },
  all: { type: "boolean" },
  view: { type: "string" },
  param: { type: "string", multiple: true },
} as const;

const ids = (text: string, flag: string): number[] =>
  text.split(",").map((t) => {
    const n = Number(t.trim());
    if (!Number.isSafeInteger(n) || n <= 0) throw new CliUsageError(`${flag} ${text}: expected comma-separated task ids, found "${t}"`);
    return n;
  });

export function positiveInt(text: string | undefined, flag: string): number {
  const n = Number(text);
  if (text === undefined || !Number.isSafeInteger(n) || n <= 0) {
    throw new CliUsageError(`${flag}: expected a positive integer, found ${text === undefined ? "nothing" : `"${text}"`}`);
  }
  return n;
}

/** `--order -tasks:x` -> `--order=-tasks:x`: values may start with "-" (descending keys, negative numbers). */
function joinValues(argv: readonly string[], options: Record<string, { type: string; short?: string }>): string[] {
  const takesValue = new Set<string>();
  for (const [name, o] of Object.entries(options)) {
    if (o.type !== "string") continue;
    takesValue.add(`--${name}`);
    if (o.short) takesValue.add(`-${o.short}`);
  }
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const next = argv[i + 1];
    if (takesValue.has(arg) && next !== undefined && next.startsWith("-")) {
      out.push(arg.startsWith("--") ? `${arg}=${next}` : `${arg}${next}`);
      i++;
    } else {
      out.push(arg);
    }
  }
  return out;
}

/**
 * Replays the selection flags in command-line order through the builder, so the CLI obeys exactly
 * the builder's rules and error messages. Returns the selection (loosely typed: the order of
 * flags is only known at run time).
 */
export function selectionFromArgs(
  argv: readonly string[],
  project: number | ProjectHandle | undefined,
  extra: Record<string, { type: "string" | "boolean"; multiple?: boolean; short?: string }> = {},
) {
  const options = { ...selectionOptions, ...extra };
  const parsed = parseArgs({
    args: joinValues(argv, options),
    options,
    allowPositionals: true,
    strict: true,
    tokens: true,
  });
  const values = parsed.values as Record<string, unknown>;
  const target = project ?? positiveInt(values.project as string | undefined, "--project");
  let s: any = selection(target as number);
  const params: Record<string, unknown> = {};
  for (const token of parsed.tokens ?? []) {
    if (token.kind !== "option") continue;
    const flag = `--${token.name}`;
    const value = token.value ?? "";
    switch (token.name) {
      case "where":
      case "and":
      case "or":
      case "child": {
        const c = parseCondition(value, flag);
        const step = c.type === undefined ? s[token.name](c.column) : s[token.name](c.column, c.type);
        const apply = step[c.method];
        if (typeof apply !== "function") {
          throw new CliUsageError(`${flag} "${value}": ${c.method} is not an operator of ${c.column}`);
        }
        s = apply.call(step, c.value);
        break;
      }
      case "order":
        s = s.orderBy(value);
        break;
      case "include":
        s = s.including(ids(value, flag));
        break;
      case "exclude":
        s = s.excluding(ids(value, flag));
        break;
      case "all":
        s = s.all();
        break;
      case "view":
        s = s.fromView(positiveInt(value, flag));
        break;
      case "param": {
        const eq = value.indexOf("=");
        if (eq <= 0) throw new CliUsageError(`${flag} ${value}: expected key=value`);
        const raw = value.slice(eq + 1);
        let v: unknown = raw;
        try {
          v = JSON.parse(raw);
        } catch {
          // a bare word is a string
        }
        params[value.slice(0, eq)] = v;
        break;
      }
    }
  }
  return { selection: s, params, values, positionals: parsed.positionals };
}
