import type { Rendered } from "../../src/contract/field.js";
import type {
  actionEntry,
  annotation,
  dmTaskDetail,
  prediction,
  project,
  projectPage,
  task,
  taskPage,
  taskSimple,
  user,
  view,
  viewOrder,
  whoAmI,
} from "../../src/contract/index.js";
import type { RouteKey } from "./keys.js";

/**
 * The body each route answers with on success, where a declaration of src/contract renders it (the
 * mock's presenters render the same declarations). `mock.use` types an override's reply by it; a
 * route not listed answers any JSON.
 */
export interface DeclaredReplies {
  "GET /api/current-user/whoami": Rendered<typeof whoAmI>;
  "GET /api/users/": Rendered<typeof user>[];
  "GET /api/users/{pk}/": Rendered<typeof user>;
  "GET /api/projects/": Rendered<typeof projectPage>;
  "POST /api/projects/": Rendered<typeof project>;
  "GET /api/projects/{pk}/": Rendered<typeof project>;
  "PATCH /api/projects/{pk}/": Rendered<typeof project>;
  "PUT /api/projects/{pk}/": Rendered<typeof project>;
  "GET /api/tasks/": Rendered<typeof taskPage>;
  "POST /api/tasks/": Rendered<typeof task>;
  "GET /api/tasks/{pk}/": Rendered<typeof dmTaskDetail>;
  "PATCH /api/tasks/{pk}/": Rendered<typeof taskSimple>;
  "PUT /api/tasks/{pk}/": Rendered<typeof taskSimple>;
  "GET /api/tasks/{pk}/annotations/": Rendered<typeof annotation>[];
  "POST /api/tasks/{pk}/annotations/": Rendered<typeof annotation>;
  "GET /api/annotations/{pk}/": Rendered<typeof annotation>;
  "PATCH /api/annotations/{pk}/": Rendered<typeof annotation>;
  "PUT /api/annotations/{pk}/": Rendered<typeof annotation>;
  "GET /api/predictions/": Rendered<typeof prediction>[];
  "POST /api/predictions/": Rendered<typeof prediction>;
  "GET /api/predictions/{pk}/": Rendered<typeof prediction>;
  "PATCH /api/predictions/{pk}/": Rendered<typeof prediction>;
  "PUT /api/predictions/{pk}/": Rendered<typeof prediction>;
  "GET /api/dm/views/": Rendered<typeof view>[];
  "POST /api/dm/views/": Rendered<typeof view>;
  "GET /api/dm/views/{pk}/": Rendered<typeof view>;
  "PATCH /api/dm/views/{pk}/": Rendered<typeof view>;
  "PUT /api/dm/views/{pk}/": Rendered<typeof view>;
  "POST /api/dm/views/order/": Rendered<typeof viewOrder>;
  "GET /api/dm/actions/": Rendered<typeof actionEntry>[];
  "GET /api/actions": Rendered<typeof actionEntry>[];
}

/** Every key is a route the mock serves (a typo here is a compile error). */
export type DeclaredRoutesAreRoutes = keyof DeclaredReplies extends RouteKey ? true : never;
const routesChecked: DeclaredRoutesAreRoutes = true;
void routesChecked;

/** Routes whose success is 201 Created (the others answer 200): the mock's handlers answer these 201. */
export const CREATED: ReadonlySet<string> = new Set<RouteKey>([
  "POST /api/projects/",
  "POST /api/projects/{pk}/import",
  "POST /api/projects/{pk}/tasks/bulk/",
  "POST /api/projects/{pk}/tasks/",
  "POST /api/tasks/",
  "POST /api/tasks/{pk}/annotations/",
  "POST /api/tasks/{pk}/drafts",
  "POST /api/tasks/{pk}/annotations/{annotation_id}/drafts",
  "POST /api/annotations/{pk}/convert-to-draft",
  "POST /api/predictions/",
  "POST /api/dm/views/",
  "POST /api/ml/",
  "POST /api/users/",
  "POST /api/token/",
  "POST /api/current-user/reset-token/",
]);
