/**
 * Mutation check for the conformance suite: `npx tsx test/conformance/mutations.ts [name…]`.
 * Each mutation changes one behaviour of the engine or the mock (a small text edit). The suite
 * runs on a scratch copy of the repository (never the shared working tree), with npm test's fixed
 * seeds, and must fail for every mutation; the script prints which tests caught each one.
 */
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

interface Mutation {
  readonly name: string;
  readonly what: string;
  readonly file: string;
  readonly from: string;
  readonly to: string;
}

export const mutationList: readonly Mutation[] = [
  {
    name: "contains-case-sensitive",
    what: "contains / not_contains compare case-sensitively",
    file: "src/semantics/generic.ts",
    from: "return h === null ? null : pgUpper(h).includes(needle);",
    to: "return h === null ? null : h.includes(str(value));",
  },
  {
    name: "in-exclusive",
    what: "in / not_in ranges exclude their ends",
    file: "src/semantics/generic.ts",
    from: 'const lo = positive(ctx, target, "gte", cast.min);\n    const hi = positive(ctx, target, "lte", cast.max);',
    to: 'const lo = positive(ctx, target, "gt", cast.min);\n    const hi = positive(ctx, target, "lt", cast.max);',
  },
  {
    name: "nulls-first-descending",
    what: "NULLs come first when ordering descending (NULLs-last dropped)",
    file: "src/semantics/ordering.ts",
    from: "if (a !== b) return a === null ? 1 : -1;",
    to: "if (a !== b) return sign * (a === null ? 1 : -1);",
  },
  {
    name: "included-before-filters",
    what: "{all: false, included} picks the included tasks before (regardless of) the filters",
    file: "src/semantics/evaluate.ts",
    from: "const exact = only === undefined && (found as Candidates).exact;",
    to: "const exact = only !== undefined || (found as Candidates).exact;",
  },
  {
    name: "empty-included-selects-nothing",
    what: "{all: false, included: []} selects no task instead of every filtered one",
    file: "src/semantics/evaluate.ts",
    from: "const only = selected?.all === false && selected.included.length > 0 ? includedIndexes",
    to: "const only = selected?.all === false ? includedIndexes",
  },
  {
    name: "negation-keeps-null",
    what: "not_equal / not_contains / not_in / not_in_list keep NULL and missing values",
    file: "src/semantics/generic.ts",
    from: "return r === null ? nullPasses : !r;",
    to: "return r === null ? true : !r;",
  },
  {
    name: "cancelled-in-total",
    what: "total_annotations counts cancelled annotations",
    file: "src/semantics/dataset.ts",
    from: "else total[i] = (total[i] as number) + 1;",
    to: "total[i] = (total[i] as number) + 1;",
  },
  {
    name: "or-as-and",
    what: "the or conjunction combines lines with AND",
    file: "src/semantics/filters.ts",
    from: 'const or = filters.conjunction === "or";',
    to: 'const or = filters.conjunction === "or" && Math.random() > 2;',
  },
  {
    name: "invalid-regex-ignored",
    what: "an invalid regex drops its filter instead of emptying the result",
    file: "src/semantics/filters.ts",
    from: 'if (item.node.operator === "regex" && !checkPythonRegex(str(item.value)).ok) return NONE;',
    to: 'if (item.node.operator === "regex" && !checkPythonRegex(str(item.value)).ok) continue;',
  },
  {
    name: "completed-at-oldest",
    what: "completed_at takes the oldest annotation instead of the newest",
    file: "src/semantics/dataset.ts",
    from: "if (a.id > (newestId[i] as number)) {",
    to: "if (newestId[i] === -Infinity || a.id < (newestId[i] as number)) {",
  },
  {
    name: "counter-empty-is-null",
    what: "empty on a counter tests NULL instead of == 0",
    file: "src/semantics/generic.ts",
    from: 'if (target.t === "scalar" && COUNTERS.has(cond.column) && operator === "empty") {',
    to: "if (Math.random() > 2) {",
  },
  {
    name: "annotators-skip-cancelled",
    what: "annotators contains ignores cancelled annotations",
    file: "src/semantics/special.ts",
    from: "test: (a) => a !== null && a.completed_by !== null && has(a.completed_by),",
    to: "test: (a) => a !== null && a.completed_by !== null && has(a.completed_by) && !a.was_cancelled,",
  },
  {
    name: "display-type-ignored",
    what: "columnsDisplayType Number no longer orders data.* numerically",
    file: "src/semantics/ordering.ts",
    // source text to find, not a template
    from: 'if (columnsDisplayType?.[`tasks:${column}`] !== "Number") return sorter(ds, `text:${jsonField}`, asText, descending);',
    // source text to write, not a template
    to: "return sorter(ds, `text:${jsonField}`, asText, descending);",
  },
  {
    name: "empty-user-list-matches-nothing",
    what: "an empty user-id list makes its line match nothing instead of dropping the line",
    file: "src/semantics/special.ts",
    from: 'if (ids.length === 0) return "skipLine";',
    to: 'if (ids.length === 0) return { k: "task", test: () => false };',
  },
  {
    name: "parser-dash-after-prefix",
    what: "wire parser: `tasks:-x` is not read as descending",
    file: "src/wire/parse-ordering.ts",
    from: 'if (!descending && name.startsWith("-")) {',
    to: "if (Math.random() > 2) {",
  },
  {
    name: "parser-singular-child",
    what: "wire parser: the legacy `child_filter` is dropped",
    file: "src/wire/parse-filters-inline.ts",
    from: "list = x.child_filter === null ? [] : [x.child_filter];",
    to: "list = [];",
  },
  {
    name: "mock-delete-keeps-views",
    what: "mock: delete_tasks leaves the views of a project it empties",
    file: "mock-server/actions/delete.ts",
    from: 'if (empty) store.removeWhere("views", (v) => v.project === project);',
    to: "",
  },
  {
    name: "mock-annotator-ignored",
    what: "mock: delete_tasks_annotations ignores the annotator field",
    file: "mock-server/actions/delete.ts",
    from: "selected.has(a.task) && (annotator === undefined || a.completed_by === annotator)",
    to: "selected.has(a.task)",
  },
  {
    name: "mock-reconvert-predictions",
    what: "mock: predictions_to_annotations converts predictions that already have an annotation",
    file: "mock-server/actions/predictions.ts",
    from: ".filter((p) => selected.has(p.task) && !converted.has(p.id))",
    to: ".filter((p) => selected.has(p.task))",
  },
  {
    name: "mock-predictions-count-tasks",
    what: "mock: delete_tasks_predictions reports the number of tasks, not of predictions",
    file: "mock-server/actions/predictions.ts",
    from: "return ok({ processed_items: removed.length,",
    to: "return ok({ processed_items: ids.length,",
  },
  // Caches and indexes (issue #12): each must be caught like a wrong answer.
  {
    name: "stale-dataset-after-write",
    what: "store: a write keeps the project's cached dataset (and everything kept with it)",
    file: "mock-server/store/store.ts",
    from: "      this.#datasets.delete(project);",
    to: "",
  },
  {
    name: "task-index-misses-inserts",
    what: "mock: the store's per-task index is not told of a new annotation (a task shown alone misses it)",
    file: "mock-server/store/store.ts",
    from: '} else if (change.kind === "insert") addByTask(byTask, change.record);',
    to: '} else if (change.kind === "insert") void change.record;',
  },
  {
    name: "task-index-keeps-removed",
    what: "mock: the store's per-task index keeps a removed annotation",
    file: "mock-server/store/store.ts",
    from: "      else for (const r of records) dropByTask(byTask, r);",
    to: "",
  },
  {
    name: "evaluation-kept-across-writes",
    what: "mock: a kept evaluation survives a write that changes what its query reads",
    file: "mock-server/engine.ts",
    from: "for (const [key, entry] of kept) if (affects(entry.reads, patch)) kept.delete(key);",
    to: "for (const [key, entry] of kept) if (affects(entry.reads, patch) && patch.reshaped) kept.delete(key);",
  },
  {
    name: "item-text-kept-across-writes",
    what: "mock: a kept list item's text survives a write to its task",
    file: "mock-server/engine.ts",
    from: "else for (const task of patch.tasks) fresh.texts.delete(task);",
    to: "else for (const task of patch.tasks) void task;",
  },
  {
    name: "update-in-place",
    what: "store: an update edits the record in place (the reset point shares records, frozen to refuse this)",
    file: "mock-server/store/store.ts",
    from: "const next = { ...before, ...patch, id } as RecordOf<C>;",
    to: "const next = Object.assign(before, patch, { id }) as RecordOf<C>;",
  },
  {
    name: "index-keeps-first-only",
    what: "engine: the equality index keeps only the first task holding a value",
    file: "src/semantics/plan.ts",
    from: 'else if (typeof at === "number") map.set(v, [at, i]);',
    to: 'else if (typeof at === "number") continue;',
  },
  {
    name: "row-index-misses-new-values",
    what: "engine: the index of tasks by their annotations' authors does not follow a write adding a value",
    file: "src/semantics/plan.ts",
    from: "map.set(v, at === undefined ? [i] : sortedWith(at, i));",
    to: "if (at !== undefined) map.set(v, sortedWith(at, i));",
  },
  {
    name: "row-lookup-skips-rest",
    what: "engine: a line answered by a joined-row index skips the line's other tests (its child filters)",
    file: "src/semantics/plan.ts",
    from: "return found === undefined || rest === undefined ? found : found.filter((i) => rest(i));",
    to: "return found;",
  },
  {
    name: "lookup-merges-targets",
    what: "engine: an OR of equalities on different columns is merged into one lookup",
    file: "src/semantics/plan.ts",
    from: "if (first === undefined || lookups.some((l) => l.target !== first.target)) return undefined;",
    to: "if (first === undefined) return undefined;",
  },
  {
    name: "lookup-loose-keys",
    what: 'engine: equality keys also match their text form ("1" equals 1)',
    file: "src/semantics/generic.ts",
    from: "return Object.assign(test, { keys: new Set(keys) });",
    to: "return Object.assign(test, { keys: new Set(keys.flatMap((k) => [k, String(k)])) });",
  },
  {
    name: "fused-gt-inclusive",
    what: "engine: a fused scan's `greater` also holds for an equal number",
    file: "src/semantics/fused.ts",
    from: "return `(${v} !== null && !(${v} <= ${constant(test.rhs)}))`;",
    to: "return `(${v} !== null && !(${v} < ${constant(test.rhs)}))`;",
  },
  {
    name: "fused-null-holds",
    what: "engine: a fused scan takes a condition that is NULL (unknown) for a task as holding",
    file: "src/semantics/fused.ts",
    from: "return `(${constant(test.test)}(${v}) === true)`;",
    to: "return `(${constant(test.test)}(${v}) !== false)`;",
  },
  {
    name: "fused-skips-check",
    what: "engine: a fused scan takes another project's task, or ids out of order, as the project's tasks in order",
    file: "src/semantics/fused.ts",
    from: '"    if (t.project !== project || !(t.id > last)) return undefined;",',
    to: '"    if (false) return undefined;",',
  },
  {
    name: "sort-index-drops-nulls",
    what: "engine: the kept sort order leaves out tasks whose key is NULL",
    file: "src/semantics/ordering.ts",
    from: "() => Int32Array.from(sortIndexes(everyIndex(ds.size)))",
    to: "() => Int32Array.from(sortIndexes(everyIndex(ds.size)).filter((i) => key.get(i) !== null))",
  },
  {
    name: "collation-shortcut-mixed-case",
    what: "engine: the code-point shortcut of the collation also takes upper-case letters",
    file: "src/semantics/ordering.ts",
    from: "const SIMPLE_TEXT = /^[0-9a-z]*$/;",
    to: "const SIMPLE_TEXT = /^[0-9a-zA-Z]*$/;",
  },
  {
    name: "kept-upper-column-as-read",
    what: "engine: the kept column for contains holds the text as read, not upper-cased",
    file: "src/semantics/generic.ts",
    from: 'const column = textColumn(ctx, target, "upper", upper);',
    to: 'const column = textColumn(ctx, target, "upper", text);',
  },
  {
    name: "prefilter-optional-is-empty",
    what: "engine: the regex prefilter reads an optional or repeated part as matching exactly nothing",
    file: "src/emulation/regex/prefilter.ts",
    from: "  if (min === 0) return ANY;",
    to: "  if (min === 0) return EMPTY;",
  },
  {
    name: "glob-ignores-end-anchor",
    what: "engine: a literals-and-.* regex ending in $ matches texts that do not end with its last literal",
    file: "src/emulation/regex/prefilter.ts",
    from: "  const tail = !end || gap;",
    to: "  const tail = true;",
  },
  {
    name: "glob-first-alternative",
    what: "engine: a literals-and-.* regex takes the first alternative found, not the one ending first",
    file: "src/emulation/regex/prefilter.ts",
    from: "        if (next < 0 || at + s.length < next) next = at + s.length;",
    to: "        if (next < 0) next = at + s.length;",
  },
  {
    name: "prefilter-anchor-newline",
    what: "engine: the regex prefilter keeps the start anchor of a newline-sensitive pattern",
    file: "src/emulation/regex/prefilter.ts",
    from: "  const anchored = !opts.newlineSensitive && (body.startsWith",
    to: "  const anchored = (body.startsWith",
  },
];

const root = resolve(import.meta.dirname, "../..");

function scratchCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), "dmq-mutants-"));
  for (const entry of ["src", "mock-server", "test", "package.json", "tsconfig.json", "vitest.conformance.config.ts"]) {
    if (existsSync(join(root, entry))) cpSync(join(root, entry), join(dir, entry), { recursive: true });
  }
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  return dir;
}

function runSuite(dir: string): { passed: boolean; failed: string[]; seconds: number } {
  const out = join(dir, "report.json");
  const vitest = join(root, "node_modules", "vitest", "vitest.mjs");
  const started = Date.now();
  const env = { ...process.env };
  for (const name of ["FC_NUM_RUNS", "FC_SEED", "FC_PATH", "FC_COMBO"]) delete env[name];
  spawnSync(process.execPath, [vitest, "run", "--config", "vitest.conformance.config.ts", "--reporter=json", `--outputFile=${out}`], {
    cwd: dir,
    env,
    stdio: "ignore",
  });
  const seconds = (Date.now() - started) / 1000;
  if (!existsSync(out)) return { passed: false, failed: ["(no report: the suite did not run)"], seconds };
  const report = JSON.parse(readFileSync(out, "utf8")) as {
    success: boolean;
    testResults: { name: string; assertionResults: { fullName: string; status: string }[] }[];
  };
  rmSync(out);
  const failed = report.testResults.flatMap((f) =>
    f.assertionResults
      .filter((a) => a.status === "failed")
      .map((a) => `${f.name.slice(f.name.indexOf("test/conformance/"))}: ${a.fullName}`),
  );
  return { passed: report.success && failed.length === 0, failed, seconds };
}

function main(): void {
  const only = process.argv.slice(2);
  const chosen = only.length ? mutationList.filter((m) => only.includes(m.name)) : mutationList;
  const dir = scratchCopy();
  try {
    const baseline = runSuite(dir);
    console.log(`baseline: ${baseline.passed ? "passes" : `FAILS (${baseline.failed.join("; ")})`} in ${baseline.seconds.toFixed(0)} s`);
    if (!baseline.passed) process.exitCode = 1;
    let survivors = 0;
    for (const m of chosen) {
      const path = join(dir, m.file);
      const original = readFileSync(path, "utf8");
      const hits = original.split(m.from).length - 1;
      if (hits !== 1) {
        console.log(`\n${m.name}: SKIPPED — the text to change occurs ${hits} times in ${m.file} (the code moved on; update the mutation)`);
        survivors++;
        continue;
      }
      writeFileSync(path, original.replace(m.from, m.to));
      try {
        const r = runSuite(dir);
        if (r.passed) survivors++;
        console.log(`\n${m.name} (${m.what}): ${r.passed ? "SURVIVED" : "caught"} in ${r.seconds.toFixed(0)} s`);
        for (const f of r.failed) console.log(`  - ${f}`);
      } finally {
        writeFileSync(path, original);
      }
    }
    console.log(`\n${chosen.length - survivors} of ${chosen.length} mutations caught`);
    if (survivors > 0) process.exitCode = 1;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

// Run only as a script: the unit test imports the list to check that every mutation still applies.
if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
