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

/**
 * The candidate `name` most likely stands for, or undefined when none is close: the same name in
 * another case or separator style, else the only one that `name` begins, else the nearest within a
 * third of its length in edits (at least one, at most three). Ties go to the earlier candidate.
 */
export function nearest(name: string, candidates: Iterable<string>): string | undefined {
  const list = [...candidates].filter((c) => c !== name);
  const same = list.find((c) => folded(c) === folded(name));
  if (same !== undefined) return same;
  // A name cut short (`inner` for `inner_id`), when only one candidate starts that way.
  const longer = name.length >= 3 ? list.filter((c) => folded(c).startsWith(folded(name))) : [];
  if (longer.length === 1) return longer[0];
  const limit = Math.min(3, Math.max(1, Math.floor(name.length / 3)));
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of list) {
    const d = editDistance(folded(name), folded(candidate));
    if (d < bestDistance) {
      best = candidate;
      bestDistance = d;
    }
  }
  return bestDistance <= limit ? best : undefined;
}

/** ` (did you mean x?)` when a candidate is near, else nothing: to append to a message. */
export function didYouMean(name: string, candidates: Iterable<string>): string {
  const near = nearest(name, candidates);
  return near === undefined ? "" : ` (did you mean ${near}?)`;
}
