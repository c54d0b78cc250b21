import { describe, expectTypeOf, test } from "vitest";
import type { RequestOptions } from "../../src/client/options.js";
import { customAction } from "../../src/query/builder.js";
import { condition, isOrderKey, type Condition } from "../../src/query/condition.js";
import type { ProjectHandle, QueryBody, RunOptions } from "../../src/query/nodes.js";
import type { Refused, rules } from "../../src/query/rules.js";
import type {
  AndSelection,
  AnySelection,
  Binding,
  BoundSelection,
  FreshSelection,
  OrSelection,
  ResumedSelection,
  ScopedSelection,
  Selection,
  Untyped,
} from "../../src/query/types.js";
import { selection } from "../../src/selection.js";

declare const handle: ProjectHandle;
declare const flag: boolean;

describe("state aliases: composition without casts", () => {
  test("a variable that may take .and() later", () => {
    let s: AndSelection = selection(1).where("tasks:total_annotations").equal(0);
    if (flag) s = s.and("tasks:draft_exists").equal(true);
    s = s.and("tasks:id").greater(3).child("tasks:inner_id").less(9);
    // @ts-expect-error the set may already be an AND chain: .or() is refused
    s.or("tasks:id");
    // @ts-expect-error where() starts the set once
    s.where("tasks:id");
    expectTypeOf(s.toJSON()).toEqualTypeOf<QueryBody>();
  });
  test("OrSelection is the same for OR chains", () => {
    let s: OrSelection = selection(1).where("tasks:id").equal(1);
    if (flag) s = s.or("tasks:id").equal(2);
    // @ts-expect-error .and() cannot follow .or()
    s.and("tasks:id");
  });
  test("the inferred variable of the issue's example still refuses: an alias says what may follow", () => {
    let s = selection(1).where("tasks:id").equal(0);
    // @ts-expect-error a "first" state cannot hold an "and" state (it would still offer .or())
    if (flag) s = s.and("tasks:draft_exists").equal(true);
  });
  test("helpers take the state they need", () => {
    const onlyDone = (s: AndSelection) => s.and("tasks:total_annotations").greater(0);
    const show = (s: AnySelection) => s.toJSON();
    onlyDone(selection(1).where("tasks:id").greater(1));
    onlyDone(selection(1).where("tasks:id").greater(1).and("tasks:inner_id").less(5));
    // @ts-expect-error a fresh selection has no filter set to AND into
    onlyDone(selection(1));
    show(selection(1));
    show(selection(handle).where("tasks:id").equal(1).orderBy("tasks:id").including([1]));
    show(selection(1).fromView(3));
    show(selection.from(1, {}));
    const fresh = (s: FreshSelection) => s.where("tasks:id").equal(1);
    fresh(selection(1));
    // @ts-expect-error not fresh any more
    fresh(selection(1).orderBy("tasks:id"));
  });
  test("AnySelection only serialises: every step may be refused", () => {
    const use = (any: AnySelection) => {
      expectTypeOf(any.toJSON()).toEqualTypeOf<QueryBody>();
      // @ts-expect-error which step is allowed depends on the state
      any.where("tasks:id");
      // @ts-expect-error run() needs a bound selection
      void any.run("retrieve_tasks_predictions");
    };
    use(selection(1));
  });
  test("a bound selection runs what is not destructive; a scoped one runs everything", () => {
    const retrieve = (s: BoundSelection) => s.run("retrieve_tasks_predictions");
    void retrieve(selection(handle));
    void retrieve(selection(handle).where("tasks:id").equal(1));
    // @ts-expect-error an unbound selection cannot run
    void retrieve(selection(1));
    const wipe = (s: ScopedSelection<unknown, "bound">) => s.run("delete_tasks");
    void wipe;
    const wipeAny = (s: ScopedSelection) => s.toRequest("delete_tasks");
    wipeAny(selection(1).where("tasks:id").equal(1));
    wipeAny(selection(1).including([1]));
    wipeAny(selection(1).all());
    wipeAny(selection(1).fromView(2));
    // @ts-expect-error not scoped: every task
    wipeAny(selection(1));
    // @ts-expect-error excluding alone is not scoped
    wipeAny(selection(1).excluding([1]));
    const destroy = (s: BoundSelection) =>
      s.run(
        // @ts-expect-error a bound selection of any state may have no filters
        "delete_tasks",
      );
    void destroy;
  });
});

describe("conditions as values", () => {
  test("where/and/or/child accept them and keep the state", () => {
    const c = condition("tasks:total_annotations").equal(0);
    expectTypeOf(c).toEqualTypeOf<Condition>();
    const s = selection(1)
      .where(c)
      .or(condition("tasks:id").inList([1, 2]));
    expectTypeOf(s).toEqualTypeOf<Selection<Untyped, "none", "or">>();
    // @ts-expect-error .and() cannot follow .or()
    s.and(c);
  });
  test("folding a list", () => {
    const list: Condition[] = [condition("tasks:id").greater(1), condition("tasks:inner_id").less(5)];
    const [first, ...rest] = list;
    if (first) {
      const s = rest.reduce<AndSelection>((acc, next) => acc.and(next), selection(1).where(first));
      expectTypeOf(s).toEqualTypeOf<AndSelection>();
    }
  });
  test("condition() has the checks of where()", () => {
    // @ts-expect-error contains is not a Datetime operator
    condition("tasks:completed_at").contains("x");
    // @ts-expect-error a Number column takes numbers
    condition("tasks:total_annotations").equal("0");
    condition.of<{ label: "cat" | "dog" }>()("tasks:data.label").equal("cat");
    // @ts-expect-error not one of the labels
    condition.of<{ label: "cat" | "dog" }>()("tasks:data.label").equal("cow");
  });
  test("a condition from a UI or a config: plain strings, checked at run time, typed next steps", () => {
    const row = { column: "tasks:id" as string, operator: "greater" as string, value: 3 as unknown };
    const s = selection(1).where(row);
    // @ts-expect-error where() once
    s.where(row);
    s.and(row).and(row);
    // @ts-expect-error the row made it an AND chain
    s.and(row).or(row);
  });
});

describe("values known only at run time", () => {
  test("an ordering key in a string is narrowed with isOrderKey", () => {
    const key: string = "-tasks:created_at";
    // @ts-expect-error a string may be any key
    selection(1).orderBy(key);
    if (isOrderKey(key)) selection(1).orderBy(key);
  });
  test("an action id in a string goes through customAction (checked at run time)", () => {
    const id: string = "delete_tasks";
    selection(1).toRequest(customAction(id), { any: 1 });
  });
});

describe("selection.from", () => {
  test("resumes with run() typed and the next step checked at run time", () => {
    const s = selection.from(handle, JSON.parse("{}") as unknown);
    expectTypeOf(s).toEqualTypeOf<ResumedSelection<Untyped, "bound">>();
    expectTypeOf(s.run("delete_tasks")).resolves.toEqualTypeOf<{ processed_items: number; reload: boolean; detail: string }>();
    const and = s.and("tasks:id").equal(1);
    // @ts-expect-error typed again after the first step
    and.or("tasks:id");
    expectTypeOf(selection.from(1, {}).run).toEqualTypeOf<Refused<typeof rules.notBound>>();
  });
});

describe("$if and $call", () => {
  test("$if: a step is offered next only if both outcomes allow it", () => {
    const s = selection(1)
      .where("tasks:id")
      .equal(0)
      .$if(flag, (x) => x.and("tasks:draft_exists").equal(true));
    s.and("tasks:inner_id").less(3);
    // @ts-expect-error with the step it is an AND chain
    s.or("tasks:inner_id");
    // One condition or an AND chain takes what an AND chain takes, and leads where it leads: it is one.
    expectTypeOf(s).toEqualTypeOf<Selection<Untyped, "none", "and">>();
    const or = selection(1)
      .where("tasks:id")
      .equal(0)
      .$if(flag, (x) => x.or("tasks:inner_id").less(3).or("tasks:id").equal(9));
    expectTypeOf(or).toEqualTypeOf<Selection<Untyped, "none", "or">>();
    // @ts-expect-error one condition or an OR chain: an OR chain
    or.and("tasks:inner_id");
    expectTypeOf(s.child("tasks:id").greater(1)).toEqualTypeOf<Selection<Untyped, "none", "and">>();
    const maybe = selection(1).$if(flag, (x) => x.where("tasks:id").equal(1));
    // @ts-expect-error maybe there is no filter yet, maybe there is one
    maybe.and("tasks:id");
  });
  test("$if keeps a destructive action refused unless both outcomes are scoped", () => {
    const maybe = selection(handle).$if(flag, (x) => x.where("tasks:id").equal(1));
    // @ts-expect-error without the step the selection is every task
    void maybe.run("delete_tasks");
    void maybe.all().run("delete_tasks");
  });
  test("$call returns what the step returns", () => {
    // An alias takes bound and unbound selections by default, so its result is either.
    const onlyDone = (s: AndSelection) => s.and("tasks:total_annotations").greater(0);
    expectTypeOf(selection(1).where("tasks:id").equal(1).$call(onlyDone)).toEqualTypeOf<
      Selection<Untyped, "none", "and", "unordered", Binding>
    >();
    // Generic over the binding, a helper keeps it.
    const keepsBinding = <B extends Binding>(s: AndSelection<Untyped, B>) => s.and("tasks:total_annotations").greater(0);
    expectTypeOf(selection(1).where("tasks:id").equal(1).$call(keepsBinding)).toEqualTypeOf<Selection<Untyped, "none", "and">>();
  });
});

describe("nothing destructive by accident (compile time)", () => {
  test("refused on a selection that names every task", () => {
    // @ts-expect-error no filters, ids or view
    void selection(handle).run("delete_tasks");
    // @ts-expect-error excluding() names the tasks to keep
    void selection(handle).excluding([1]).run("delete_tasks_annotations");
    // @ts-expect-error toRequest() too
    selection(1).toRequest("delete_tasks_predictions");
    // @ts-expect-error ordering does not limit the tasks
    selection(1).orderBy("tasks:id").toRequest("remove_duplicates");
  });
  test("allowed with filters, included ids, a view or .all()", () => {
    void selection(handle).where("tasks:id").equal(1).run("delete_tasks");
    void selection(handle).including([1]).run("delete_tasks");
    void selection(handle).fromView(3).run("delete_tasks");
    void selection(handle).all().run("delete_tasks");
    void selection(handle).excluding([1]).all().run("delete_tasks");
    void selection(handle).all().excluding([1]).run("delete_tasks");
    void selection(handle).run("retrieve_tasks_predictions");
  });
});

describe("run() and toRequest(): one signature", () => {
  test("options are the client's request options", () => {
    expectTypeOf<RunOptions>().toEqualTypeOf<RequestOptions>();
    const s = selection(handle).all();
    void s.run("delete_tasks", undefined, { timeoutInSeconds: 3, maxRetries: 0, signal: new AbortController().signal });
    void s.run("delete_tasks_annotations", { annotator: 2 }, { maxRetries: 1 });
    // @ts-expect-error options go third
    void s.run("delete_tasks", { timeoutInSeconds: 3 });
    // @ts-expect-error missing required params
    void s.run("rename_labels");
    // @ts-expect-error an unknown param
    void s.run("delete_tasks_annotations", { annotator: 2, reviewer: 3 });
    // @ts-expect-error a wrong value gets the compiler's message on the params
    void s.run("cache_labels", { control_tag: "x", with_counters: "Maybe" });
    void s.run("cache_labels", { control_tag: "x", with_counters: "Yes" });
  });
});

describe("helpers generic over the task data (issue #23)", () => {
  type Review = { score: number; label: "cat" | "dog" };
  test("known columns, conditions and ordering keys need no data type", () => {
    const recent = <D, B extends Binding>(s: FreshSelection<D, B>) =>
      s
        .where("tasks:created_at")
        .greater("2024-06-01")
        .and(condition("tasks:total_annotations").equal(0))
        .child("tasks:id")
        .greater(3)
        .orderBy("-tasks:created_at");
    const typed = recent(selection<Review>(1));
    expectTypeOf(typed).toEqualTypeOf<Selection<Review, "none", "and", "ordered">>();
    // The data type stays: its keys are typed after the helper.
    typed.excluding([1]).toJSON();
    const more = recent(selection<Review>(1)).including([2]);
    expectTypeOf(more).toEqualTypeOf<Selection<Review, "included", "and", "ordered">>();
    expectTypeOf(recent(selection(handle))).toEqualTypeOf<Selection<Untyped, "none", "and", "ordered", "bound">>();
  });
  test("a helper's result keeps the data type for the caller's data columns", () => {
    const unlabeled = <D, B extends Binding>(s: AndSelection<D, B>) => s.and("tasks:total_annotations").equal(0);
    const s = unlabeled(selection<Review>(1).where("tasks:data.label").equal("cat"));
    s.and("tasks:data.score").greater(0.5);
    // @ts-expect-error not one of the labels: the helper kept Review
    s.and("tasks:data.label").equal("cow");
  });
  test("the data type and binding are inferred through every alias", () => {
    const f = <D, B extends Binding>(s: OrSelection<D, B>) => s;
    expectTypeOf(f(selection<Review>(handle).where("tasks:id").equal(1))).toEqualTypeOf<
      Selection<Review, "none", "first" | "or", "unordered", "bound">
    >();
    const r = <D, B extends Binding>(s: ResumedSelection<D, B>) => s;
    expectTypeOf(r(selection.from(1, {}))).toEqualTypeOf<ResumedSelection<Untyped, "unbound">>();
  });
});

describe(".child() on every alias (issue #23)", () => {
  test("AndSelection and OrSelection take .child() and keep their state", () => {
    const a = (s: AndSelection) => s.child("tasks:id").greater(1).child(condition("tasks:inner_id").less(9));
    expectTypeOf(a(selection(1).where("tasks:id").equal(1))).toEqualTypeOf<AndSelection>();
    const o = (s: OrSelection) => s.child("tasks:id").greater(1);
    expectTypeOf(o(selection(1).where("tasks:id").equal(1))).toEqualTypeOf<OrSelection>();
    let folded: AndSelection = selection(1).where("tasks:id").equal(1);
    folded = folded.child("tasks:inner_id").less(3);
    folded = folded.and("tasks:id").less(9).child("tasks:inner_id").greater(0);
    void folded;
  });
  test("after $if, .child() is offered where every outcome has a line", () => {
    const s = selection(1)
      .where("tasks:id")
      .equal(1)
      .$if(flag, (x) => x.and("tasks:inner_id").less(2));
    s.child("tasks:inner_id").greater(0);
    const maybe = selection(1).$if(flag, (x) => x.where("tasks:id").equal(1));
    // @ts-expect-error maybe there is no line yet
    maybe.child("tasks:id");
  });
});

describe("aliases take bound and unbound selections (issue #23)", () => {
  test("a fold over a bound selection, then run", () => {
    const conditions: Condition[] = [condition("tasks:id").greater(1), condition("tasks:inner_id").less(5)];
    const [first, ...rest] = conditions;
    if (!first) return;
    // The default alias takes the bound selection; its bound form keeps run().
    const loose = rest.reduce<AndSelection>((acc, c) => acc.and(c), selection(handle).where(first));
    // @ts-expect-error the default alias may hold an unbound selection: no run()
    void loose.run("retrieve_tasks_predictions");
    const bound = rest.reduce<AndSelection<Untyped, "bound">>((acc, c) => acc.and(c), selection(handle).where(first));
    expectTypeOf(bound.run("delete_tasks")).resolves.toEqualTypeOf<{ processed_items: number; reload: boolean; detail: string }>();
    // @ts-expect-error an unbound selection does not fit the bound form
    const unbound: AndSelection<Untyped, "bound"> = selection(1).where(first);
    void unbound;
  });
  test("FreshSelection and ResumedSelection take both too", () => {
    const fresh = (s: FreshSelection) => s.toJSON();
    fresh(selection(1));
    fresh(selection(handle));
    const resumed = (s: ResumedSelection) => s.toJSON();
    resumed(selection.from(1, {}));
    resumed(selection.from(handle, {}));
  });
});

describe("AnySelection, BoundSelection and ScopedSelection are small structural types (issue #23)", () => {
  test("AnySelection takes every selection of any data type", () => {
    const show = (s: AnySelection) => s.toJSON();
    show(selection<{ a: number }>(1));
    show(selection<{ a: number }>(handle).where("tasks:data.a").greater(1).orderBy("tasks:id").excluding([1]));
    show(selection(1).fromView(2));
    show(selection(1).$if(flag, (x) => x.where("tasks:id").equal(1)));
  });
  test("AnySelection<D> takes selections of D only", () => {
    const ofReviews = (s: AnySelection<{ score: number }>) => s.project;
    ofReviews(selection<{ score: number }>(1));
    // @ts-expect-error a selection of other task data
    ofReviews(selection<{ label: string }>(1));
    const untyped = selection(1);
    // @ts-expect-error an untyped selection
    ofReviews(untyped);
  });
  test("BoundSelection runs what is not destructive; ScopedSelection<D, 'bound'> runs everything", () => {
    const retrieve = (s: BoundSelection) => s.run("retrieve_tasks_predictions");
    void retrieve(selection<{ a: number }>(handle).orderBy("tasks:id"));
    const wipe = (s: ScopedSelection<unknown, "bound">) => s.run("delete_tasks");
    void wipe(selection(handle).where("tasks:id").equal(1));
    void wipe(selection<{ a: number }>(handle).all());
    // @ts-expect-error not scoped
    void wipe(selection(handle).excluding([1]));
    // @ts-expect-error not bound
    void wipe(selection(1).all());
  });
});

describe("holes closed at compile time (issue #23)", () => {
  test("`any` is refused where it would leave the rest of the chain unchecked", () => {
    const anyValue = JSON.parse("{}");
    // @ts-expect-error an any column or condition
    selection(1).where(anyValue);
    // @ts-expect-error an any list
    selection(1).whereAll(anyValue);
    // @ts-expect-error a $if callback that returns any
    selection(1).$if(flag, (s) => s as never as typeof anyValue);
    // @ts-expect-error a $call step that returns any
    selection(1).$call((s) => s as never as typeof anyValue);
    // @ts-expect-error an any action id
    void selection(handle).run(anyValue);
    // @ts-expect-error an any action id
    selection(1).toRequest(anyValue);
    // An any value for an operator or the ids keeps the chain typed (checked at run time).
    expectTypeOf(selection(1).where("tasks:id").equal(anyValue)).toEqualTypeOf<Selection<Untyped, "none", "first">>();
    expectTypeOf(selection(1).including(anyValue)).toEqualTypeOf<Selection<Untyped, "included">>();
  });
  test("a union of a column and a condition is refused", () => {
    // @ts-expect-error either a column (then an operator) or a condition, not both
    selection(1).where(flag ? "tasks:id" : condition("tasks:id").equal(1));
    selection(1).where(flag ? condition("tasks:inner_id").equal(2) : condition("tasks:id").equal(1));
  });
  test("integer columns take integers: a fractional literal is refused, a number is checked at run time", () => {
    // @ts-expect-error the server would truncate 0.5 to 0
    selection(1).where("tasks:total_annotations").equal(0.5);
    // @ts-expect-error a fractional range end on an id
    selection(1).where("tasks:id").between({ min: 1, max: 2.5 });
    // @ts-expect-error on inner_id too
    selection(1).where("tasks:inner_id").less(1.5);
    const n: number = 3;
    selection(1).where("tasks:id").equal(n).and("tasks:cancelled_annotations").between({ min: 0, max: n });
    selection(1).where("tasks:id").inList([1, 2]).and("tasks:total_predictions").notIn({ min: -1, max: 3 });
    // Non-integer columns take any finite number.
    selection(1).where("tasks:predictions_score").greater(0.5).and("tasks:data.score", "Number").equal(0.5);
  });
  test("datetime strings: what the run time accepts, a literal checked in full", () => {
    selection(1)
      .where("tasks:created_at")
      .greater("2024-01-31")
      .and("tasks:created_at")
      .less("2024-01-31 10:00Z")
      .and("tasks:updated_at")
      .in({ min: "2024-01-01T00:00:00.123456+02:00", max: "2024-01-31" })
      .and("tasks:completed_at")
      .lessOrEqual("2024-01-31T10:00:00,5z");
    // @ts-expect-error month 13 does not exist
    selection(1).where("tasks:created_at").greater("2024-13-45");
    // @ts-expect-error no zone: JavaScript and the server would read it differently
    selection(1).where("tasks:created_at").greater("2024-01-31T10:00:00");
    // @ts-expect-error at most 6 fraction digits
    selection(1).where("tasks:created_at").greater("2024-01-31T10:00:00.1234567Z");
    // @ts-expect-error a range end is checked too
    selection(1).where("tasks:created_at").in({ min: "2024-01-01", max: "2024-1-31" });
    const text: string = "2024-01-31";
    selection(1).where("tasks:created_at").greater(text).and("tasks:updated_at").less(new Date());
  });
  test("tasks:data. without a key is refused", () => {
    // @ts-expect-error a data column needs a key
    selection(1).where("tasks:data.");
    // @ts-expect-error an ordering key too
    selection(1).orderBy("-tasks:data.");
  });
  test("a list with an item next to a spread is not empty", () => {
    const ids: number[] = [];
    selection(1)
      .including([...ids, 5])
      .including([5, ...ids]);
    // @ts-expect-error a list that may be empty
    selection(1).including([...ids]);
  });
  test("a condition carries the task data it was built for", () => {
    type A = { a: number };
    const onA = condition.of<A>()("tasks:data.a").greater(1);
    expectTypeOf(onA).toEqualTypeOf<Condition<A>>();
    const known = condition("tasks:id").greater(1);
    expectTypeOf(known).toEqualTypeOf<Condition>();
    selection<A>(1).where(onA).and(known);
    // @ts-expect-error a condition on A's data in a selection of other data
    selection<{ b: string }>(1).where(onA);
    // @ts-expect-error nor in an untyped one
    selection(1).where(onA);
    // @ts-expect-error an untyped data condition skips A's key checks
    selection<A>(1).where(condition("tasks:data.a").equal(1));
    // A condition from a UI or a config (a plain Condition) fits every selection, checked at run time.
    const row: Condition = { column: "tasks:data.a", operator: "equal", value: 1 };
    selection<A>(1).where(row);
    const generic = <D>(s: AndSelection<D>) => s.and(known).and(condition.of<D>()("tasks:id").equal(2));
    generic(selection<A>(1).where(onA));
  });
  test("a $if callback returns a selection of the same data and binding", () => {
    // @ts-expect-error other task data
    selection<{ a: number }>(1).$if(flag, () => selection<{ b: string }>(1).where("tasks:id").equal(1));
    // @ts-expect-error bound for an unbound one
    selection(1).$if(flag, () => selection(handle).where("tasks:id").equal(1));
    // @ts-expect-error a step without its operator is not a selection
    selection(1).$if(flag, (s) => s.where("tasks:id"));
  });
  test("selection.from of a selection keeps what the compiler knows", () => {
    const s = selection<{ a: number }>(1).where("tasks:id").equal(1).orderBy("tasks:id").all();
    expectTypeOf(selection.from(handle, s)).toEqualTypeOf<Selection<{ a: number }, "all", "first", "ordered", "bound">>();
    void selection.from(handle, s).run("delete_tasks");
    expectTypeOf(selection.from(1, selection(handle).fromView(2))).toEqualTypeOf<Selection<Untyped, "none", "view", "unordered">>();
    // A state the compiler only knows as a union is resumed: each next step checked at run time.
    const any: AnySelection = s;
    expectTypeOf(selection.from(1, any)).toEqualTypeOf<ResumedSelection<Untyped, "unbound">>();
    const maybe = selection(1).$if(flag, (x) => x.where("tasks:id").equal(1));
    expectTypeOf(selection.from(1, maybe)).toEqualTypeOf<Selection<Untyped, "none", "unknown">>();
    // A body is resumed as before.
    expectTypeOf(selection.from(1, JSON.parse("{}"))).toEqualTypeOf<ResumedSelection<Untyped, "unbound">>();
  });
  test("a union of columns of several kinds offers their shared methods, refused where the values differ", () => {
    selection(1)
      .where(flag ? "tasks:id" : "tasks:total_annotations")
      .equal(1);
    selection(1)
      .where(flag ? "tasks:id" : "tasks:created_at")
      .empty(true);
    const mixed = selection(1).where(flag ? "tasks:id" : "tasks:created_at");
    // @ts-expect-error greater takes a number on tasks:id, a datetime on tasks:created_at
    mixed.greater(1);
  });
});

describe("optional filters: whereAll and whereAny (issue #23)", () => {
  test("the state counts the conditions that are surely present", () => {
    expectTypeOf(selection(1).whereAll([condition("tasks:id").greater(1), flag && condition("tasks:inner_id").less(3)])).toEqualTypeOf<
      Selection<Untyped, "none", "and">
    >();
    expectTypeOf(selection(1).whereAll([condition("tasks:id").greater(1), condition("tasks:inner_id").less(3)])).toEqualTypeOf<
      Selection<Untyped, "none", "and">
    >();
    expectTypeOf(selection(1).whereAny([condition("tasks:id").greater(1), undefined, null, 0, ""])).toEqualTypeOf<
      Selection<Untyped, "none", "first">
    >();
    expectTypeOf(selection(1).whereAny([flag && condition("tasks:id").greater(1), flag && condition("tasks:id").less(9)])).toEqualTypeOf<
      Selection<Untyped, "none", "none" | "or">
    >();
    const list: Condition[] = [];
    expectTypeOf(selection(1).whereAll(list)).toEqualTypeOf<Selection<Untyped, "none", "none" | "and">>();
  });
  test("the rules of where() hold: once, not on a view, and destructive actions need a sure condition", () => {
    const sure = selection(handle).whereAll([condition("tasks:id").greater(1), flag && condition("tasks:inner_id").less(3)]);
    void sure.run("delete_tasks");
    sure.and("tasks:total_annotations").equal(0);
    const maybe = selection(handle).whereAll([flag && condition("tasks:id").greater(1)]);
    // @ts-expect-error maybe no condition: every task
    void maybe.run("delete_tasks");
    void maybe.all().run("delete_tasks");
    // @ts-expect-error where() starts the filter set once
    sure.whereAll([]);
    // @ts-expect-error a view's filters are its own
    selection(1).fromView(2).whereAny([]);
    // @ts-expect-error conditions only, not columns
    selection(1).whereAll(["tasks:id"]);
  });
});
