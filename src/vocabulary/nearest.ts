/**
 * "Did you mean": the known name nearest to a misspelt one, for messages about names people type
 * (columns, action ids, body keys). Pure, so every layer uses the same judgement.
 */

/** Edit distance with adjacent transpositions (optimal string alignment): `filtres` is one edit from `filters`. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = rows[i] as number[];
      const up = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((up[j] as number) + 1, (row[j - 1] as number) + 1, (up[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = best;
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/** The spelling-free form of a name: case, `_`, `-` and spaces do not count (`selected_items` ~ `selectedItems`). */
const folded = (name: string): string => name.toLowerCase().replace(/[-_\s]/g, "");

/** A name's words: split at `_`, `-`, spaces and lower-to-upper case changes, in lower case (`selectedItems` → selected, items). */
const words = (name: string): string[] =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .split(/[-_\s]+/)
    .filter((w) => w !== "");

/** One word for another, a plural `s` aside (`annotation` ~ `annotations`). */
const sameWord = (a: string, b: string): boolean => a === b || a === `${b}s` || `${a}s` === b;

/**
 * The candidates that hold `name`'s words, in a row and whole (`annotations` in `annotations_ids`,
 * `total_annotations`…, and not in `annotators`), those that begin with them first: what a name that is a part
 * of several known ones may stand for.
 */
export function holdingWords(name: string, candidates: Iterable<string>): string[] {
  const wanted = words(name);
  if (name.length < 3 || wanted.length === 0) return [];
  const found = [...candidates].flatMap((candidate) => {
    const have = words(candidate);
    if (candidate === name || have.length <= wanted.length) return [];
    for (let at = 0; at + wanted.length <= have.length; at++) {
      if (wanted.every((w, i) => sameWord(w, have[at + i] as string))) return [{ candidate, at }];
    }
    return [];
  });
  // The ones that begin with the words first (`annotations_ids` before `total_annotations`); a stable sort keeps the rest.
  return found.sort((a, b) => Number(a.at > 0) - Number(b.at > 0)).map((f) => f.candidate);
}

/**
 * The candidates `name` most likely stands for, best first, and how: `spelling` (the same name in another case or
 * separator style; the only one that `name` begins, a name cut short: `inner` for `inner_id`; a misspelling by one
 * edit; else the nearest within a third of its length in edits, at most three) or `words` (every one that holds
 * `name`'s words: `annotations` → `annotations_results`, `annotations_ids`, `total_annotations`…). Words beat a
 * far spelling: a part of several names is not a misspelling of a third (`annotators`, two edits away).
 * Ties keep the candidates' order.
 */
function near(name: string, candidates: Iterable<string>): { readonly names: string[]; readonly by: "spelling" | "words" } {
  const list = [...candidates].filter((c) => c !== name);
  const same = list.find((c) => folded(c) === folded(name));
  if (same !== undefined) return { names: [same], by: "spelling" };
  const longer = name.length >= 3 ? list.filter((c) => folded(c).startsWith(folded(name))) : [];
  if (longer.length === 1) return { names: longer, by: "spelling" };
  const distances = list.map((c) => editDistance(folded(name), folded(c)));
  const best = Math.min(...distances);
  const atBest = list.filter((_, i) => distances[i] === best);
  if (best === 1) return { names: atBest, by: "spelling" };
  const holding = holdingWords(name, list);
  if (holding.length > 0) return { names: holding, by: "words" };
  const limit = Math.min(3, Math.max(1, Math.floor(name.length / 3)));
  return { names: best <= limit ? atBest : [], by: "spelling" };
}

/** Every candidate `name` may stand for, best first (see `near`); empty when none is close. For messages. */
export function nearestAll(name: string, candidates: Iterable<string>): string[] {
  return near(name, candidates).names;
}

/**
 * The one candidate `name` is a misspelling of, or undefined: none is close, several are, or `name` is only a part
 * of some (`type` in `columnsDisplayType`). Where a near miss is a finding, not a hint.
 */
export function nearest(name: string, candidates: Iterable<string>): string | undefined {
  const { names, by } = near(name, candidates);
  return by === "spelling" && names.length === 1 ? names[0] : undefined;
}

/** `a`, `a or b`, `a, b or c`. */
export function orList(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? "") : `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
}

/** ` (did you mean x?)` (or `x, y or z?` when several are as likely) when a candidate is near, else nothing: to append to a message. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const near = nearestAll(name, candidates);
  return near.length === 0 ? "" : ` (did you mean ${orList(near)}?)`;
}
