import { deriveColumns, EvaluationError, explain, PreparedDataset, type Explanation } from "../../src/semantics/index.js";
import type { DerivedColumns } from "../../src/semantics/records.js";
import { build, type Built } from "./chain.js";
import { detailOf, fromSeed, fromServer, idsOfAnswer, runOnServer, Unauthorized, type Answer, type Loaded } from "./data.js";
import { byId, h, replaceChildren } from "./dom.js";
import { conditionKey, renderEditor } from "./editor.js";
import { draftFromBody, linkHash, parseLink, type ParsedLink } from "./link.js";
import { emptyDraft, type Draft } from "./model.js";
import { dataKeysOf, renderTasks, renderWhy } from "./tasks.js";

/**
 * The playground page: a draft edited in the form, built by the real builder, evaluated by the
 * real engine over the project's tasks, and on request sent to the mock's list route to compare.
 */
const TOKEN_KEY = "dmq-playground-token";

interface Page {
  link: ParsedLink;
  loaded: Loaded;
  prepared: PreparedDataset;
  derived: ReadonlyMap<number, DerivedColumns>;
  dataKeys: readonly string[];
  draft: Draft;
  built: Built;
  explanation: Explanation | undefined;
  engineError: EvaluationError | undefined;
  why: number | undefined;
  /** Bumped by every edit: a server answer for an older draft is dropped. */
  revision: number;
}

let page: Page | undefined;

function boot(): void {
  const link = parseLink(location.hash);
  if (link.token) localStorage.setItem(TOKEN_KEY, link.token);
  // The token stays out of the address bar (and so out of shared links and history).
  history.replaceState(null, "", `${location.pathname}${linkHash(link)}`);
  byId("auth").addEventListener("submit", (e) => {
    e.preventDefault();
    const token = byId<HTMLInputElement>("token").value.trim();
    if (token) localStorage.setItem(TOKEN_KEY, token);
    void load(link);
  });
  byId("run").addEventListener("click", () => void compare());
  // A link pasted into the address bar of an open playground changes only the fragment.
  window.addEventListener("hashchange", () => {
    if (page && location.hash === linkHash(linkOf(page))) return; // our own update
    const next = parseLink(location.hash);
    if (next.token) localStorage.setItem(TOKEN_KEY, next.token);
    history.replaceState(null, "", `${location.pathname}${linkHash(next)}`);
    void load(next);
  });
  void load(link);
}

/** The link of the page as it is: project, the builder's body, and the inline data it came with. */
function linkOf(p: Page) {
  return {
    project: p.draft.project,
    ...(p.built.body ? { body: p.built.body } : {}),
    ...(p.link.data !== undefined ? { data: p.link.data } : {}),
  };
}

async function load(link: ParsedLink, project = link.project): Promise<void> {
  const status = byId("source");
  let loaded: Loaded;
  try {
    if (link.data !== undefined) loaded = fromSeed(link.data, project, new Date().toISOString());
    else {
      const token = localStorage.getItem(TOKEN_KEY);
      if (!token) return showAuth("This page reads the mock's data with a token.");
      status.textContent = "Loading the project's tasks…";
      loaded = await fromServer(token, project);
    }
  } catch (error) {
    if (error instanceof Unauthorized)
      return showAuth("The server did not accept the stored token (the mock makes a new one at each start, unless --token pins it).");
    status.textContent = `Could not load the data: ${(error as Error).message}`;
    return;
  }
  byId("auth").hidden = true;
  byId("app").hidden = false;
  const id = loaded.dataset.project.id;
  const fromLink = link.body === undefined ? { draft: emptyDraft(id), problems: [] } : draftFromBody(id, link.body);
  const prepared = new PreparedDataset(loaded.dataset);
  page = {
    link,
    loaded,
    prepared,
    derived: deriveColumns(prepared),
    dataKeys: dataKeysOf(loaded.dataset),
    draft: fromLink.draft,
    built: { chain: "" },
    explanation: undefined,
    engineError: undefined,
    why: undefined,
    revision: 0,
  };
  const tasks = prepared.size;
  status.textContent =
    loaded.source === "inline"
      ? `Inline dataset from the link: project ${id} (${loaded.dataset.project.title || "untitled"}), ${tasks} tasks.`
      : `The mock's project ${id} (${loaded.dataset.project.title}), ${tasks} tasks.`;
  renderProjects(loaded, id, link);
  replaceChildren(byId("notes"), ...[...link.problems, ...fromLink.problems].map((p) => h("li", {}, p)));
  const run = byId<HTMLButtonElement>("run");
  run.disabled = loaded.source === "inline";
  byId("run-hint").textContent =
    loaded.source === "inline" ? "The link brings its own tasks: the server holds other data, so there is nothing to compare." : "";
  drawEditor();
  recompute();
}

function showAuth(why: string): void {
  byId("auth").hidden = false;
  byId("app").hidden = true;
  byId("source").textContent = why;
  byId("token").focus();
}

function renderProjects(loaded: Loaded, current: number, link: ParsedLink): void {
  const box = byId("projects");
  if (loaded.projects.length < 2) {
    box.replaceChildren();
    return;
  }
  box.replaceChildren(
    h("label", { for: "project" }, "Project "),
    h(
      "select",
      { id: "project", onchange: (e) => void load(link, Number((e.target as HTMLSelectElement).value)) },
      loaded.projects.map((p) => h("option", { value: p.id, selected: p.id === current }, `${p.id}: ${p.title}`)),
    ),
  );
}

function update(change: (draft: Draft) => Draft): Draft {
  if (!page) throw new Error("playground: no data loaded");
  page.draft = change(page.draft);
  recompute();
  return page.draft;
}

function drawEditor(): void {
  if (!page) return;
  replaceChildren(byId("editor"), ...renderEditor(page.draft, page.dataKeys, { update, redraw: drawEditor }));
  // A removed line took the focused button with it: continue from "Add a line".
  if (document.activeElement === document.body) byId("add-line").focus();
}

/** Build, evaluate, and draw every output of the current draft. */
function recompute(): void {
  if (!page) return;
  const p = page;
  p.revision += 1;
  p.built = build(p.draft);
  p.explanation = undefined;
  p.engineError = undefined;
  if (p.built.query) {
    try {
      p.explanation = explain(p.prepared, p.built.query);
    } catch (error) {
      if (!(error instanceof EvaluationError)) throw error;
      p.engineError = error;
    }
  }
  byId("chain").textContent = p.built.chain;
  byId("body").textContent = p.built.body ? JSON.stringify(p.built.body, null, 2) : "(no body: the builder refuses the chain)";
  showBuildError(p.built.error);
  if (p.built.body) history.replaceState(null, "", `${location.pathname}${linkHash(linkOf(p))}`);
  drawEngineResult(p);
  renderTasks(byId<HTMLTableElement>("tasks"), p.loaded.dataset, p.derived, p.explanation?.ids, showWhy);
  renderWhy(byId("why"), p.explanation, p.why);
  const server = byId("server-result");
  server.removeAttribute("data-ids");
  server.removeAttribute("data-status");
  server.textContent = p.loaded.source === "server" ? "Not run yet for this query." : "";
  const agreement = byId("agreement");
  agreement.removeAttribute("data-agree");
  agreement.textContent = "";
}

/** The builder's refusal, next to the control it names (by its body path). */
function showBuildError(error: Built["error"]): void {
  for (const el of document.querySelectorAll<HTMLElement>(".error")) el.textContent = "";
  for (const el of document.querySelectorAll<HTMLElement>("[aria-invalid]")) el.removeAttribute("aria-invalid");
  if (!error) return;
  const m = /^filters\.items\[(\d+)\](?:\.child_filters\[(\d+)\])?/.exec(error.path);
  const slot = m
    ? `${conditionKey(Number(m[1]), m[2] === undefined ? undefined : Number(m[2]))}-error`
    : error.path.startsWith("ordering")
      ? "ordering-error"
      : error.path.startsWith("selectedItems")
        ? "selectedItems-error"
        : "filters-error";
  const target = document.getElementById(slot) ?? byId("filters-error");
  target.textContent = `The builder refuses this: ${error.message}`;
  if (m && /\.value$/.test(error.path)) {
    const key = conditionKey(Number(m[1]), m[2] === undefined ? undefined : Number(m[2]));
    for (const id of ["value", "min", "max"]) document.getElementById(`${key}-${id}`)?.setAttribute("aria-invalid", "true");
  }
}

function drawEngineResult(p: Page): void {
  const out = byId("engine-result");
  out.removeAttribute("data-ids");
  out.removeAttribute("data-status");
  if (p.explanation) {
    const { ids, emptied } = p.explanation;
    out.setAttribute("data-ids", ids.join(","));
    out.setAttribute("data-status", "200");
    out.replaceChildren(
      h("strong", {}, `Engine: ${ids.length} task${ids.length === 1 ? "" : "s"}`),
      ids.length ? `: ${list(ids)}` : "",
      emptied ? h("p", { class: "note" }, `The whole answer is empty: ${emptied}`) : "",
    );
  } else if (p.engineError) {
    const e = p.engineError;
    out.setAttribute("data-status", String(e.status));
    out.replaceChildren(
      h("strong", {}, `Engine: the server answers ${e.status}`),
      h("p", {}, e.validationErrors ? `${e.detail}: ${JSON.stringify(e.validationErrors)}` : e.detail),
      h(
        "p",
        { class: "note" },
        `${e.path}: expected ${e.expected}, found ${e.found}${e.unsupported ? " (dmq cannot reproduce this one)" : ""}`,
      ),
    );
  } else out.replaceChildren(h("strong", {}, "Engine: no result"), " — fix the query first.");
}

const list = (ids: readonly number[]) => (ids.length > 40 ? `${ids.slice(0, 40).join(", ")}, … (${ids.length - 40} more)` : ids.join(", "));
/** `200 (4,5)`, `200 (no task)`, `500`. */
const said = (status: number | undefined, ids: string | undefined) =>
  `${status ?? "nothing"}${ids === undefined ? "" : ` (${ids || "no task"})`}`;

function showWhy(id: number): void {
  if (!page) return;
  page.why = id;
  renderWhy(byId("why"), page.explanation, id);
  byId("why-h").focus();
}

async function compare(): Promise<void> {
  const p = page;
  const token = localStorage.getItem(TOKEN_KEY);
  if (!p?.built.body || !token) return;
  const revision = p.revision;
  const out = byId("server-result");
  out.textContent = "Asking the server…";
  let answer: Answer;
  try {
    answer = await runOnServer(token, p.draft.project, p.built.body, p.prepared.size);
  } catch (error) {
    if (revision === p.revision) out.textContent = `The request failed: ${(error as Error).message}`;
    return;
  }
  if (revision !== p.revision) return; // the query changed while the server answered
  const ids = idsOfAnswer(answer);
  out.setAttribute("data-status", String(answer.status));
  if (ids) {
    out.setAttribute("data-ids", ids.join(","));
    out.replaceChildren(h("strong", {}, `Server: ${ids.length} task${ids.length === 1 ? "" : "s"}`), ids.length ? `: ${list(ids)}` : "");
  } else out.replaceChildren(h("strong", {}, `Server: ${answer.status}`), h("p", {}, detailOf(answer.body)));

  const engineStatus = p.explanation ? 200 : p.engineError?.status;
  const engineIds = p.explanation?.ids.join(",");
  const agree = engineStatus === answer.status && (ids === undefined || engineIds === ids.join(","));
  const agreement = byId("agreement");
  agreement.setAttribute("data-agree", String(agree));
  agreement.textContent = agree
    ? ids
      ? `✓ Agreed: the server selects the same ${ids.length} tasks, in the same order.`
      : `✓ Agreed: both answer ${answer.status}.`
    : `✗ They differ: the engine answers ${said(engineStatus, engineIds)}, the server ${said(answer.status, ids?.join(","))}.`;
}

boot();
