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
  "GET /api/users/{id}/": Rendered<typeof user>;
  "GET /api/projects/": Rendered<typeof projectPage>;
  "POST /api/projects/": Rendered<typeof project>;
  "GET /api/projects/{id}/": Rendered<typeof project>;
  "PATCH /api/projects/{id}/": Rendered<typeof project>;
  "PUT /api/projects/{id}/": Rendered<typeof project>;
  "GET /api/tasks/": Rendered<typeof taskPage>;
  "POST /api/tasks/": Rendered<typeof task>;
  "GET /api/tasks/{id}/": Rendered<typeof dmTaskDetail>;
  "PATCH /api/tasks/{id}/": Rendered<typeof taskSimple>;
  "PUT /api/tasks/{id}/": Rendered<typeof taskSimple>;
  "GET /api/tasks/{id}/annotations/": Rendered<typeof annotation>[];
  "POST /api/tasks/{id}/annotations/": Rendered<typeof annotation>;
  "GET /api/annotations/{id}/": Rendered<typeof annotation>;
  "PATCH /api/annotations/{id}/": Rendered<typeof annotation>;
  "PUT /api/annotations/{id}/": Rendered<typeof annotation>;
  "GET /api/predictions/": Rendered<typeof prediction>[];
  "POST /api/predictions/": Rendered<typeof prediction>;
  "GET /api/predictions/{id}/": Rendered<typeof prediction>;
  "PATCH /api/predictions/{id}/": Rendered<typeof prediction>;
  "PUT /api/predictions/{id}/": Rendered<typeof prediction>;
  "GET /api/dm/views/": Rendered<typeof view>[];
  "POST /api/dm/views/": Rendered<typeof view>;
  "GET /api/dm/views/{id}/": Rendered<typeof view>;
  "PATCH /api/dm/views/{id}/": Rendered<typeof view>;
  "PUT /api/dm/views/{id}/": Rendered<typeof view>;
  "POST /api/dm/views/order/": Rendered<typeof viewOrder>;
  "GET /api/dm/actions/": Rendered<typeof actionEntry>[];
  "GET /api/actions": Rendered<typeof actionEntry>[];
}

/** Every key is a route the mock serves (a typo here is a compile error). */
export type DeclaredRoutesAreRoutes = keyof DeclaredReplies extends RouteKey ? true : never;
const routesChecked: DeclaredRoutesAreRoutes = true;
void routesChecked;

/** Routes whose success is 201 Created (the others answer 200). */
export const CREATED: ReadonlySet<string> = new Set<RouteKey>([
  "POST /api/projects/",
  "POST /api/projects/{id}/import",
  "POST /api/tasks/",
  "POST /api/tasks/{id}/annotations/",
  "POST /api/predictions/",
  "POST /api/dm/views/",
  "POST /api/token/",
]);
