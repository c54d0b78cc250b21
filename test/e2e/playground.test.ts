import { existsSync, mkdirSync } from "node:fs";
import { get } from "node:http";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { MockServer } from "../../mock-server/index.js";
import { runMockCli } from "../../mock-server/main.js";
import { linkHash } from "../../playground/src/link.js";
import type { QueryBody } from "../../src/query/nodes.js";
import { selection } from "../../src/selection.js";
import { needsDist } from "../helpers/dist.js";
import { raw, startFixture } from "./fixture.js";

/*
 * The playground in a real browser: Debian's Chromium driven by playwright-core (no browser is
 * downloaded). Three filters are built by clicking and typing (the third with the keyboard only);
 * for each, the body the page shows must be the builder's body for the same chain, and the
 * highlighted tasks must be the server's answer, the page's own server run and the ids worked out
 * by hand from the fixture (fixture.ts). Screenshots go to test-artifacts/playground/.
 */
const root = join(import.meta.dirname, "..", "..");
const artifacts = join(root, "test-artifacts", "playground");
const candidates = [process.env["DMQ_CHROMIUM"], "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter((p): p is string => !!p);
const executablePath = candidates.find((p) => existsSync(p));
const missing = `no Chromium found (looked at ${candidates.join(", ")}); install it with \`apt-get install -y chromium\` or set DMQ_CHROMIUM`;
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

// dist/playground, built from the current sources by the integration project's globalSetup.
needsDist();

describe("the /playground/ route", () => {
  let server: MockServer;
  beforeAll(async () => {
    server = await startFixture();
  });
  afterAll(async () => {
    await server?.close();
  });

  test("the page and its assets are public; /playground redirects to /playground/", async () => {
    const page = await raw(server, "GET", "/playground/", { key: null });
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.body).toContain("<title>dmq semantics playground</title>");
    const script = /src="(\/playground\/assets\/[^"]+\.js)"/.exec(page.body as string)?.[1];
    expect(script).toBeDefined();
    const asset = await raw(server, "GET", script as string, { key: null });
    expect([asset.status, asset.headers.get("content-type")]).toEqual([200, "text/javascript; charset=utf-8"]);
    const bare = await fetch(`${server.url}/playground`, { redirect: "manual" });
    expect([bare.status, bare.headers.get("location")]).toEqual([301, "/playground/"]);
  });

  test("nothing outside the build is served; only GET and HEAD", async () => {
    // fetch() would resolve the dots itself: send the path as written.
    const escapeKey = await new Promise<number | undefined>((resolve, reject) => {
      const { hostname, port } = new URL(server.url);
      get({ hostname, port, path: "/playground/%2e%2e/%2e%2e/package.json" }, (res) => resolve(res.resume().statusCode)).on(
        "error",
        reject,
      );
    });
    expect(escapeKey).toBe(404);
    expect((await raw(server, "GET", "/playground/nope.js", { key: null })).status).toBe(404);
    const post = await raw(server, "POST", "/playground/", { key: null, body: {} });
    expect([post.status, post.body.detail]).toEqual([405, 'Method "POST" not allowed.']);
  });

  test("dataset.json needs credentials and gives the project's records, users without keys", async () => {
    const anonymous = await raw(server, "GET", "/playground/dataset.json", { key: null });
    expect([anonymous.status, anonymous.body.detail, anonymous.headers.get("www-authenticate")]).toEqual([
      401,
      "Authentication credentials were not provided.",
      "Token",
    ]);
    const first = await raw(server, "GET", "/playground/dataset.json");
    expect(first.status).toBe(200);
    expect(first.body.project.id).toBe(1);
    expect(first.body.tasks.map((t: { id: number }) => t.id)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(first.body.annotations.map((a: { id: number }) => a.id)).toEqual([1, 2, 3, 4, 6]);
    expect(first.body.projects).toEqual([
      { id: 1, title: "Fixture" },
      { id: 2, title: "Other" },
    ]);
    expect(first.body.users).toEqual([
      { id: 1, username: "ada" },
      { id: 2, username: "bo" },
      { id: 3, username: "cy" },
    ]);
    expect(JSON.stringify(first.body)).not.toContain(server.legacyToken);
    const second = await raw(server, "GET", "/playground/dataset.json?project=2");
    expect(second.body.tasks.map((t: { id: number }) => t.id)).toEqual([7]);
    const none = await raw(server, "GET", "/playground/dataset.json?project=99");
    expect([none.status, none.body.detail]).toEqual([404, "Project 99 does not exist."]);
  });

  test("npm start prints the playground URL, with the token in the fragment (never sent to the server)", async () => {
    const out: string[] = [];
    const run = await runMockCli(["--port", "0", "--quiet"], {}, { out: (l) => out.push(l), signals: false });
    try {
      expect(out.join("\n")).toContain(`  playground:            ${run.server.url}/playground/#token=${run.server.legacyToken}`);
    } finally {
      await run.stop();
    }
  });
});

// A missing browser fails these tests (with how to install one), never skips them: .ci/run installs Chromium.
describe("the playground in Chromium", () => {
  let server: MockServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    if (!executablePath) throw new Error(missing);
    mkdirSync(artifacts, { recursive: true });
    [server, browser] = await Promise.all([startFixture(), chromium.launch({ executablePath: executablePath as string, args: ARGS })]);
    page = await browser.newPage({ viewport: { width: 1400, height: 1100 } });
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    // The URL `npm start` prints: the token in the fragment, which the page keeps and drops.
    await page.goto(`${server.url}/playground/#token=${server.legacyToken}`);
    await page.waitForSelector("#engine-result[data-status='200']");
    expect(page.url()).not.toContain(server.legacyToken);
    expect(errors).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    // The token travelled in a fragment and in headers only: the journal (headers redacted) never holds it.
    expect(JSON.stringify(server?.requests ?? [])).not.toContain(server?.legacyToken);
    await server?.close();
  });

  /** A fresh, empty editor (the token is remembered by the page). */
  async function fresh(): Promise<void> {
    await page.goto(`${server.url}/playground/`);
    await page.waitForSelector("#engine-result[data-status='200']");
  }

  const highlighted = () => page.$$eval("#tasks tr.match", (rows) => rows.map((r) => Number(r.getAttribute("data-task-id"))));

  /** What the page shows must be the builder's; the highlighted ids the server's (asked by the page and by us). */
  async function check(expected: { toJSON(): QueryBody }, chain: string, ids: number[], shot: string): Promise<void> {
    const body = expected.toJSON();
    expect(await page.textContent("#body")).toBe(JSON.stringify(body, null, 2));
    expect(await page.textContent("#chain")).toBe(chain);
    expect(await highlighted()).toEqual(ids);

    await page.click("#run");
    await page.waitForSelector("#agreement[data-agree]");
    expect(await page.getAttribute("#agreement", "data-agree")).toBe("true");
    expect(await page.getAttribute("#server-result", "data-ids")).toBe(ids.join(","));
    const query = encodeURIComponent(encodeURIComponent(JSON.stringify(body)));
    const answer = await raw(server, "GET", `/api/tasks/?project=1&page_size=100&query=${query}`);
    expect(answer.body.tasks.map((t: { id: number }) => t.id)).toEqual(ids);

    await page.screenshot({ path: join(artifacts, `${shot}.png`), fullPage: true });

    // The address bar now carries the query: reloading it rebuilds the same body.
    await page.reload();
    await page.waitForSelector("#engine-result[data-status='200']");
    expect(await page.textContent("#body")).toBe(JSON.stringify(body, null, 2));
    expect(await highlighted()).toEqual(ids);
  }

  test("filter 1 (clicks): completed_at after a date, newest first; the why of a task without completed_at", async () => {
    await fresh();
    await page.click("#add-line");
    await page.selectOption("#l0-column", "completed_at");
    await page.selectOption("#l0-operator", "greater");
    await page.fill("#l0-value", "2024-02-01T12:00:00");
    await page.selectOption("#order-column", "completed_at");
    await page.selectOption("#order-direction", "desc");

    await page.click("button[data-why='3']");
    const why = await page.textContent("#why");
    expect(why).toContain('completed_at = NULL → "greater" is false');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe("why-h");

    await check(
      selection(1).where("tasks:completed_at").greater("2024-02-01T12:00:00Z").orderBy("-tasks:completed_at"),
      ["selection(1)", '  .where("tasks:completed_at").greater("2024-02-01T12:00:00Z")', '  .orderBy("-tasks:completed_at")'].join("\n"),
      // completed_at: task 2 → 02-03 (its newest annotation, cancelled), 4 → 02-04, 6 → 02-06; 3 and 5 NULL.
      [6, 4, 2],
      "1-completed-at",
    );
  });

  test("filter 2 (clicks): or, a child condition, a Number range on a data key", async () => {
    await fresh();
    await page.click("#add-line");
    await page.selectOption("#l0-column", "annotators");
    await page.fill("#l0-value", "2");
    await page.click("#l0-child");
    await page.selectOption("#l0c0-column", "data.text");
    await page.selectOption("#l0c0-operator", "contains");
    await page.fill("#l0c0-value", "AM");
    await page.click("#add-line");
    await page.click("#conj-or");
    await page.selectOption("#l1-column", "data.n");
    await page.selectOption("#l1-type", "Number");
    await page.selectOption("#l1-operator", "in");
    await page.fill("#l1-min", "5");
    await page.fill("#l1-max", "5");

    await check(
      selection(1)
        .where("tasks:annotators")
        .contains([2])
        .child("tasks:data.text")
        .contains("AM")
        .or("tasks:data.n", "Number")
        .in({ min: 5, max: 5 }),
      [
        "selection(1)",
        '  .where("tasks:annotators").contains([2])',
        '  .child("tasks:data.text").contains("AM")',
        '  .or("tasks:data.n", "Number").in({ min: 5, max: 5 })',
      ].join("\n"),
      // Bo (2) annotated tasks 2 (beta) and 4 (gamma, contains "am"); n = 5 only in task 5.
      [4, 5],
      "2-or-child-range",
    );
  });

  test("filter 3 (keyboard only): a regex, ordering by -id, and included ids that keep the order", async () => {
    await fresh();
    await page.focus("#add-line");
    await page.keyboard.press("Enter");
    await page.focus("#l0-column");
    await page.keyboard.type("data.text"); // type-ahead in the select
    await page.focus("#l0-operator");
    await page.keyboard.type("matches");
    await page.focus("#l0-value");
    await page.keyboard.type("^(alpha|delta)$");
    await page.focus("#order-column");
    await page.keyboard.type("id");
    await page.focus("#order-direction");
    await page.keyboard.type("d");
    await page.focus("#sel-including");
    await page.keyboard.press("Space");
    await page.focus("#sel-ids");
    await page.keyboard.type("5, 1, 2");

    await page.focus("button[data-why='6']");
    await page.keyboard.press("Enter");
    expect(await page.textContent("#why")).toContain("selectedItems: not among the included ids → not selected");

    await check(
      selection(1).where("tasks:data.text").regex("^(alpha|delta)$").orderBy("-tasks:id").including([5, 1, 2]),
      ["selection(1)", '  .where("tasks:data.text").regex("^(alpha|delta)$")', '  .orderBy("-tasks:id")', "  .including([5, 1, 2])"].join(
        "\n",
      ),
      // The regex keeps 1, 3, 5, 6; by -id: 6, 5, 3, 1; included 5, 1, 2 keeps 5 and 1 in that order.
      [5, 1],
      "3-keyboard-regex-including",
    );
  });

  test("a link with an inline dataset: evaluated in the page, nothing to compare on the server", async () => {
    const seed = {
      projects: [{ id: 1, title: "Inline" }],
      tasks: [
        { id: 1, project: 1, data: { text: "other" } },
        { id: 2, project: 1, data: {} },
        { id: 3, project: 1, data: { text: null } },
      ],
    };
    const body = selection(1).where("tasks:data.text").notEqual("other").toJSON();
    await page.goto(`${server.url}/playground/${linkHash({ project: 1, body, data: seed })}`);
    await page.waitForSelector("#engine-result[data-status='200']");
    // A missing key is NULL (no negated match); a JSON null is a value that is not "other".
    expect(await highlighted()).toEqual([3]);
    expect(await page.isDisabled("#run")).toBe(true);
    expect(await page.textContent("#source")).toContain("Inline dataset from the link");
    await page.screenshot({ path: join(artifacts, "4-inline-dataset.png"), fullPage: true });
  });
});
