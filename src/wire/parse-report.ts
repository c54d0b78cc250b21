import { match } from "ts-pattern";
import { describeValue, type JsonValue } from "../vocabulary/json.js";
import type { IssueEffect, ParseIssue } from "./issues.js";
import { pythonFailure, validationFailure, type ServerError } from "../emulation/error-answer.js";
import { pydanticText, type PydanticError } from "../emulation/pydantic.js";

/**
 * Where in the server's handling a finding stops the request. The server meets them in this
 * order, so the first finding of the earliest phase is the answer it gives:
 * - `crash`: a Python exception while reading the body (AttributeError, TypeError) → 500 `str(exc)`;
 * - `precheck`: `DataManagerException` in `get_prepare_params` before the model → 500;
 * - `save`: a DRF serializer error while saving a view → 400 with nested `validation_errors`;
 * - `raise`: a DRF ValidationError raised inside a pydantic validator (`__` traversal) → 400;
 * - `pydantic`: errors pydantic collects while building `PrepareParams` → one 500 listing them all;
 * - `soft`: "ignored" and "evaluated" findings: the server answers normally.
 */
export type Phase = "crash" | "precheck" | "save" | "raise" | "pydantic" | "soft";
const phaseRank: Readonly<Record<Phase, number>> = { crash: 0, precheck: 1, save: 2, raise: 3, pydantic: 4, soft: 5 };
const phaseEffect: Readonly<Record<Exclude<Phase, "soft">, IssueEffect>> = {
  crash: "server-error",
  precheck: "server-error",
  save: "rejected",
  raise: "rejected",
  pydantic: "server-error",
};

/** What the server answers when it refuses the body: the emulation's one server-error type. */
export type ServerAnswer = ServerError;

interface Finding {
  readonly path: string;
  readonly expected: string;
  readonly found: string;
  readonly phase: Phase;
  readonly effect: IssueEffect;
  /** crash, precheck, save, raise: the server's text for this finding. */
  readonly detail?: string;
  /** save: where DRF puts the message in `validation_errors`. */
  readonly drf?: readonly (string | number)[];
  /** pydantic: this finding's lines in the ValidationError. */
  readonly errors?: readonly PydanticError[];
  /** pydantic: a model validator that runs only when no other error sits under this field. */
  readonly soloIn?: string;
}

/** Collects findings in the order the parser meets them; `finish()` orders them as the server does. */
export class Report {
  readonly #findings: Finding[] = [];
  #blocked = false;

  /** True once any finding makes the server refuse the body (no query can be evaluated). */
  get blocked(): boolean {
    return this.#blocked;
  }

  /** A finding the server answers normally over; `found` is a value (described) or, with `as: "text"`, already words. */
  soft(path: string, effect: "ignored" | "evaluated", expected: string, found: unknown, as: "value" | "text" = "value"): void {
    this.#findings.push({ path, expected, found: as === "text" ? String(found) : describeValue(found), phase: "soft", effect });
  }

  /** A refusal with a fixed server text (crash, precheck, raise). */
  refuse(phase: "crash" | "precheck" | "raise", path: string, expected: string, found: unknown, detail: string): void {
    this.#push({ path, expected, found: describeValue(found), phase, effect: phaseEffect[phase], detail });
  }

  /** A DRF serializer error while saving a view. */
  save(path: string, expected: string, found: unknown, detail: string, drf: readonly (string | number)[]): void {
    this.#push({ path, expected, found: describeValue(found), phase: "save", effect: "rejected", detail, drf });
  }

  pydantic(path: string, expected: string, found: unknown, errors: readonly PydanticError[], soloIn?: string): void {
    this.#push({
      path,
      expected,
      found: describeValue(found),
      phase: "pydantic",
      effect: "server-error",
      errors,
      ...(soloIn === undefined ? {} : { soloIn }),
    });
  }

  #push(finding: Finding): void {
    this.#blocked = true;
    this.#findings.push(finding);
  }

  finish(): { issues: ParseIssue[]; answer: ServerAnswer | undefined } {
    // Array.prototype.sort is stable: within a phase the parser's (the server's) order stays.
    const findings = [...this.#findings].sort((a, b) => phaseRank[a.phase] - phaseRank[b.phase]);
    const pydanticDetail = pydanticDetailOf(findings);
    const issues = findings.map((f): ParseIssue => {
      const serverDetail = f.phase === "pydantic" ? pydanticDetail : f.detail;
      return Object.freeze({
        path: f.path,
        expected: f.expected,
        found: f.found,
        effect: f.effect,
        ...(serverDetail === undefined ? {} : { serverDetail }),
        message: `${f.path}: expected ${f.expected}, found ${f.found}`,
      });
    });
    return { issues, answer: answerOf(findings, pydanticDetail) };
  }
}

function pydanticDetailOf(findings: readonly Finding[]): string | undefined {
  const all = findings.filter((f) => f.phase === "pydantic");
  if (all.length === 0) return undefined;
  const others = (f: Finding) => all.some((g) => g !== f && g.soloIn === undefined && g.errors?.some((e) => e.loc[0] === f.soloIn));
  const errors = all.filter((f) => f.soloIn === undefined || !others(f)).flatMap((f) => f.errors ?? []);
  return pydanticText(errors);
}

function answerOf(findings: readonly Finding[], pydanticDetail: string | undefined): ServerAnswer | undefined {
  const first = findings[0];
  if (first === undefined) return undefined;
  return (
    match(first.phase)
      .returnType<ServerAnswer | undefined>()
      .with("soft", () => undefined)
      // `'list' object has no attribute 'get'`, `'int' object is not iterable`
      .with("crash", () => pythonFailure(first.detail?.includes("not iterable") ? "TypeError" : "AttributeError", first.detail ?? ""))
      .with("precheck", () => pythonFailure("data_manager.functions.DataManagerException", first.detail ?? ""))
      .with("pydantic", () => pythonFailure("pydantic_core._pydantic_core.ValidationError", pydanticDetail ?? ""))
      // DRF's ValidationError("…") carries a list, which the handler files under non_field_errors.
      .with("raise", () => validationFailure([first.detail ?? ""]))
      .with("save", () => validationFailure(nestSaveErrors(findings)))
      .exhaustive()
  );
}

type Container = Record<string | number, unknown>;

/** DRF's nested error layout: fields map to message lists, list serializers to per-item slots (`{}` when valid). */
function nestSaveErrors(findings: readonly Finding[]): { [key: string]: JsonValue } {
  const root: Container = {};
  for (const f of findings) {
    if (f.phase !== "save" || f.drf === undefined || f.detail === undefined) continue;
    const { drf, detail } = f;
    let node = root;
    drf.forEach((key, i) => {
      if (Array.isArray(node) && typeof key === "number") while (node.length <= key) node.push({});
      const next = drf[i + 1];
      if (next === undefined) {
        const messages = (node[key] as string[] | undefined) ?? [];
        if (!messages.includes(detail)) messages.push(detail);
        node[key] = messages;
        return;
      }
      const existing = node[key];
      const filled = typeof existing === "object" && existing !== null && Object.keys(existing).length > 0;
      if (!filled) node[key] = typeof next === "number" ? [] : {};
      node = node[key] as Container;
    });
  }
  return root as { [key: string]: JsonValue };
}
