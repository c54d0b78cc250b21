import type { ProjectRecord, UserRecord } from "../../src/contract/records.js";
import type { JsonValue } from "../../src/vocabulary/json.js";
import { configChange, project as projectContract, projectLabelConfig } from "../../src/contract/index.js";
import { render } from "../../src/contract/render.js";
import { ServerException } from "../../src/emulation/exceptions.js";
import { tracebackOf } from "../../src/emulation/error-answer.js";
import { pyStr, pyTruthy } from "../../src/emulation/python-json.js";
import { describeValue } from "../../src/vocabulary/json.js";
import { pyInt } from "../../src/emulation/python-text.js";
import { HttpProblem, pythonException, pythonExceptionOrStrict, validationError } from "../errors.js";
import { bodyDict, noContent, ok, pageBody, pageSize, paginate, param, type Handler, type MockContext, type MockRequest } from "../http.js";
import { labelConfigProblem, libxmlSyntaxProblem, parseConfig } from "../label-config.js";
import { essentialDataChanged, projectConfigProblem } from "../project-config.js";
import { updateTasksStates } from "../overlap.js";
import { presentProject } from "../present/project.js";
import { newRecordDefaults } from "../../src/contract/field.js";
import { projectDefaults, projectModel } from "../../src/contract/project.js";
import { nowTimestamp } from "../../src/vocabulary/timestamps.js";
import { importTasks } from "./import.js";
import { pathId, projectOr404 } from "./lookup.js";
import { writeInput, inputHas, inputValue, validateWrite, type CustomRules } from "../drf/serializer.js";
import { sparseFields } from "../drf/flex-fields.js";

/**
 * Projects (label_studio/projects/api.py `ProjectListAPI`, `ProjectAPI`): the list paginated 30
 * per page (max 100), CRUD, import, delete all tasks. Writes are validated by the contract's
 * `ProjectSerializer` fields and rules.
 */
const PAGE_SIZE = 30;
const MAX_PAGE_SIZE = 100;

export function present(ctx: MockContext, req: MockRequest, project: ProjectRecord, counts = true) {
  return presentProject(project, ctx.store, { caller: req.user, counts, render: { sparse: sparseFields(req.query) } });
}

/** `ordering=` fields the list accepts; DRF's OrderingFilter drops any other. */
const orderable = new Set(["id", "title", "created_at", "pinned_at"]);

/** Postgres order: NULLs last ascending, first descending (`nullsLast` forces them last). */
function compare(a: JsonValue | undefined, b: JsonValue | undefined, sign: number, nullsLast = false): number {
  if (a === b) return 0;
  const aNull = a === null || a === undefined;
  const bNull = b === null || b === undefined;
  if (aNull || bNull) return (aNull ? 1 : -1) * (nullsLast ? 1 : sign);
  return sign * ((a as string | number) < (b as string | number) ? -1 : 1);
}

export const listProjects: Handler = (req, ctx) => {
  let rows = [...ctx.store.list("projects")];
  const ids = param(req.query, "ids");
  if (ids !== undefined) {
    const wanted = new Set(ids.split(",").map((s) => Number.parseInt(s.trim(), 10)));
    rows = rows.filter((p) => wanted.has(p.id));
  }
  const title = param(req.query, "title");
  // `title__icontains`: a null title matches nothing.
  if (title !== undefined) rows = rows.filter((p) => p.title !== null && p.title.toLowerCase().includes(title.toLowerCase()));
  const search = param(req.query, "search");
  if (search !== undefined) {
    const needle = search.toLowerCase();
    rows = rows.filter(
      (p) =>
        (p.title !== null && p.title.toLowerCase().includes(needle)) ||
        String(p["description"] ?? "")
          .toLowerCase()
          .includes(needle),
    );
  }
  const pinned = param(req.query, "filter");
  if (pinned === "pinned_only" || pinned === "exclude_pinned")
    rows = rows.filter((p) => (p["pinned_at"] == null) === (pinned === "exclude_pinned"));
  const ordering = (param(req.query, "ordering") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => orderable.has(s.replace(/^-/, "")));
  rows.sort((a, b) => {
    if (ordering.length === 0) {
      // Default: `F('pinned_at').desc(nulls_last=True), '-created_at'` (id breaks ties between equal timestamps).
      return compare(a["pinned_at"], b["pinned_at"], -1, true) || compare(a["created_at"], b["created_at"], -1) || b.id - a.id;
    }
    for (const key of ordering) {
      const field = key.replace(/^-/, "");
      const c = compare(a[field], b[field], key.startsWith("-") ? -1 : 1);
      if (c !== 0) return c;
    }
    return 0;
  });
  const page = paginate(rows, req.query, pageSize(req.query, PAGE_SIZE, MAX_PAGE_SIZE));
  return ok(
    pageBody(
      req,
      page,
      rows.length,
      page.items.map((p) => present(ctx, req, p)),
    ),
  );
};

/** `ProjectSerializer.validate_color`: "#" and six characters Python's `int(…, 16)` reads. */
const validColor = (v: unknown) =>
  typeof v === "string" && v.startsWith("#") && v.length === 7 && /^\s*[+-]?[0-9a-fA-F](?:_?[0-9a-fA-F])*\s*$/.test(v.slice(1));

/** `validate_<field>` of ProjectSerializer for this write (`instance`: the project a PATCH changes). */
function projectRules(ctx: MockContext, instance: ProjectRecord | undefined): CustomRules {
  const messages = Object.fromEntries(
    Object.values(projectContract.fields).flatMap((f) =>
      "checks" in f ? f.checks.flatMap((c) => (c.rule === "custom" ? [[c.name, c.message]] : [])) : [],
    ),
  ) as Record<string, string>;
  return {
    color: (v) => {
      if (v === null) throw pythonException("AttributeError", "'NoneType' object has no attribute 'startswith'");
      return validColor(v) ? { value: v } : { errors: [messages["color"] as string] };
    },
    label_config: (v) => {
      const config = typeof v === "string" ? v : null;
      const problem = instance ? projectConfigProblem(ctx.store, instance, config, false) : labelConfigProblem(config);
      return problem === undefined ? { value: v } : { errors: [problem] };
    },
    model_version: (v) => {
      if (instance === undefined || v === instance.model_version || v === "" || v === null) return { value: v };
      const known = ctx.store.dataset(instance).predictions.some((p) => p.model_version === v);
      return known ? { value: v } : { errors: [messages["model_version"] as string] };
    },
  };
}

/**
 * `ProjectSerializer.to_internal_value` and `update` after the fields: a written
 * `start_training_on_annotation_update` sets `min_annotations_to_start_training` to Python's
 * `int()` of it (500 where that raises); `show_collab_predictions: false` clears `model_version`.
 */
function projectWrite(req: MockRequest, ctx: MockContext, instance: ProjectRecord | undefined): Partial<ProjectRecord> {
  const body = writeInput(req.body);
  const written: Record<string, unknown> = {
    ...validateWrite(projectContract, body, {
      partial: req.method === "PATCH",
      strict: ctx.strict,
      store: ctx.store,
      rules: projectRules(ctx, instance),
      extra: ["start_training_on_annotation_update"],
    }),
  };
  const organization = written["organization"];
  if (organization !== undefined && organization !== null && organization !== 1)
    throw validationError({ organization: [`Invalid pk "${pyStr(organization)}" - object does not exist.`] });
  if (typeof written["created_by"] === "object" && written["created_by"] !== null) {
    throw pythonException(
      "AssertionError",
      `The \`.${instance ? "update" : "create"}()\` method does not support writable nested fields by default.\n` +
        "Write an explicit `.create()` method for serializer `projects.serializers.ProjectSerializer`, or set `read_only=True` on nested serializer fields.",
    );
  }
  delete written["created_by"];
  delete written["organization"];
  if (inputHas(body, "start_training_on_annotation_update"))
    written["min_annotations_to_start_training"] = pyInt(inputValue(body, "start_training_on_annotation_update"));
  if (instance && written["show_collab_predictions"] === false) written["model_version"] = "";
  return written as Partial<ProjectRecord>;
}

/**
 * `Project.get_updated_weights`, which `Project.save` runs when the config is new or changed or no
 * weights are stored: every control tag but Filter, weighted 1.0 overall and per label, keeping a
 * weight already given (label_studio/projects/models.py).
 */
function updatedWeights(labelConfig: string, given: unknown): JsonValue {
  const old = (typeof given === "object" && given !== null && !Array.isArray(given) ? given : {}) as Record<string, unknown>;
  const weight = (v: unknown): number => (typeof v === "number" ? v : 1.0);
  const out: Record<string, JsonValue> = {};
  for (const [name, tag] of parseConfig(labelConfig)) {
    if (tag.type === "Filter") continue;
    const before = (old[name] ?? {}) as { overall?: unknown; labels?: Record<string, unknown> };
    out[name] = {
      overall: weight(before.overall),
      type: tag.type,
      labels: Object.fromEntries(tag.labels.map((l) => [l, weight(before.labels?.[l])])),
    };
  }
  return out;
}

/** `Project.save`: the weights follow a new or changed config, or fill in when none are stored. */
function withWeights(project: Partial<ProjectRecord>, before: ProjectRecord | undefined): Partial<ProjectRecord> {
  const config = project.label_config ?? before?.label_config;
  const weights = "control_weights" in project ? project["control_weights"] : before?.["control_weights"];
  const changed = before === undefined || (project.label_config !== undefined && project.label_config !== before.label_config);
  const empty = weights === undefined || weights === null || (typeof weights === "object" && Object.keys(weights).length === 0);
  if (!config || !(changed || empty)) return project;
  return { ...project, control_weights: updatedWeights(config, weights) };
}

export const createProject: Handler = (req, ctx) => {
  const fields = projectWrite(req, ctx, undefined);
  const creator: UserRecord = req.user;
  const project = ctx.store.insert("projects", {
    ...newRecordDefaults(projectModel),
    ...withWeights({ label_config: projectDefaults.label_config, ...fields }, undefined),
    created_by: creator.id,
    created_at: nowTimestamp(),
  } as Omit<ProjectRecord, "id">);
  // The new instance was not loaded with `with_counts()`: its counters render null.
  return ok(present(ctx, req, project, false), 201);
};

export const getProject: Handler = (req, ctx) => ok(present(ctx, req, projectOr404(ctx, pathId(req.params))));

export const patchProject: Handler = (req, ctx) => {
  const project = projectOr404(ctx, pathId(req.params));
  const written = withWeights(projectWrite(req, ctx, project), project);
  // PUT: created_by's default (CreatedByFromContext) reads a context only the create view sets, so the owner becomes null.
  const updated = ctx.store.update("projects", project.id, req.method === "PUT" ? { ...written, created_by: null } : written);
  // Project.save: the tasks' overlap follows maximum_annotations and the overlap cohort.
  const changed = (name: string) => updated[name] !== undefined && updated[name] !== project[name];
  updateTasksStates(ctx.store, updated, changed("maximum_annotations"), changed("overlap_cohort_percentage"), false);
  return ok(present(ctx, req, ctx.store.find("projects", updated.id) ?? updated));
};

export const deleteProject: Handler = (req, ctx) => {
  ctx.store.deleteProject(projectOr404(ctx, pathId(req.params)).id);
  return noContent();
};

/** `DELETE /api/projects/{id}/tasks/`: every task of the project (views stay). */
export const deleteAllTasks: Handler = (req, ctx) => {
  const project = projectOr404(ctx, pathId(req.params));
  ctx.store.deleteTasks(new Set(ctx.store.dataset(project).tasks.map((t) => t.id)));
  return noContent();
};

export const importIntoProject: Handler = (req, ctx) => importTasks(req, ctx, projectOr404(ctx, pathId(req.params)));

/** `ProjectLabelConfigSerializer`'s check: `Project.validate_label_config`, the server's message for a config it refuses. */
const configRule: CustomRules = {
  label_config: (v) => {
    const problem = labelConfigProblem(typeof v === "string" ? v : null);
    return problem === undefined ? { value: v } : { errors: [problem] };
  },
};

/**
 * `POST /api/projects/validate/` (`LabelConfigValidateAPI`, AllowAny): 204 for a config the server accepts. A
 * refusal goes through DRF's default exception handler, not the server's: a bare `{"label_config": [...]}`.
 */
export const validateLabelConfig: Handler = (req, ctx) => {
  try {
    validateWrite(projectLabelConfig, writeInput(req.body), {
      partial: false,
      strict: ctx.strict,
      store: ctx.store,
      relations: {},
      rules: configRule,
    });
  } catch (error) {
    const errors = error instanceof ServerException && error.error.status === 400 ? error.error.validationErrors : undefined;
    if (errors) return { status: 400, body: errors };
    throw error;
  }
  return noContent();
};

/** `GET /api/projects/{id}/validate/`: the project's config through `ProjectLabelConfigSerializer`. */
export const getProjectLabelConfig: Handler = (req, ctx) => {
  const project = projectOr404(ctx, pathId(req.params));
  return ok(render(projectLabelConfig, { label_config: project.label_config }));
};

/**
 * `POST /api/projects/{id}/validate/` (`ProjectLabelConfigValidateAPI.post`): a falsy `label_config` is refused
 * as "not set or is empty"; then whether the config changes a control, and `Project.validate_config` with
 * strict on (a label the annotations or drafts use must stay). Nothing is saved.
 */
const XML_SYNTAX = "label_studio_sdk._extensions.label_studio_tools.core.utils.exceptions.LabelStudioXMLSyntaxErrorSentryIgnored";

export const validateProjectLabelConfig: Handler = (req, ctx) => {
  const project = projectOr404(ctx, pathId(req.params));
  const config = bodyDict(req, ctx)["label_config"];
  if (!pyTruthy(config)) throw validationError({ non_field_errors: ["Label config is not set or is empty"] });
  if (typeof config !== "string") {
    throw pythonExceptionOrStrict(
      ctx,
      "TypeError",
      "can only parse strings",
      "label_config",
      `expected a labeling config (text), found ${describeValue(config)}`,
    );
  }
  // The view parses it with lxml first: a broken document is a 400 in libxml2's words (the checks after it use expat's).
  // (parse_config re-raises it as the SDK's LabelStudioXMLSyntaxErrorSentryIgnored: the handler's 400 carries its traceback.)
  const broken = libxmlSyntaxProblem(config);
  if (broken !== undefined)
    throw new ServerException({ status: 400, detail: broken, exception: XML_SYNTAX, excInfo: tracebackOf(XML_SYNTAX, broken) });
  const syntax = labelConfigProblem(config);
  if (syntax !== undefined && syntax.startsWith("DTDForbidden")) throw new HttpProblem(400, syntax);
  const changed = essentialDataChanged(config, project.label_config);
  const problem = projectConfigProblem(ctx.store, project, config, true);
  if (problem !== undefined) throw validationError({ non_field_errors: [problem] });
  return ok(render(configChange, { config_essential_data_has_changed: changed }));
};
