import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test, vi } from "vitest";
import { demoData, MockOptionError, SeedError, startMockServer } from "../../mock-server/index.js";
import { runMockCli } from "../../mock-server/main.js";
import { Store } from "../../mock-server/store/store.js";
import { ADA_KEY, BO_KEY, clientFor, raw, seed, startFixture } from "./fixture.js";

const tempDir = () => mkdtempSync(join(tmpdir(), "dmq-mock-"));

describe("startMockServer", () => {
  test("defaults: an ephemeral port on 127.0.0.1, the demo data, a generated key for the first user", async () => {
    const server = await startMockServer();
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(server.legacyToken).toMatch(/^[0-9a-f]{40}$/);
      expect(server.data().tasks).toHaveLength(200);
      expect((await clientFor(server).users.whoami()).username).toBe("admin");
    } finally {
      await server.close();
    }
  });

  test("an empty seed gets one user and nothing else", async () => {
    const server = await startMockServer({ data: {} });
    try {
      const data = server.data();
      expect(data.users.map((u) => u.username)).toEqual(["admin"]);
      expect(data.projects).toEqual([]);
      expect((await clientFor(server, server.personalAccessToken).users.whoami()).id).toBe(1);
    } finally {
      await server.close();
    }
  });

  test("bad options are refused naming the option", async () => {
    await expect(startMockServer({ port: 70000 })).rejects.toThrow(
      "startMockServer: options.port: expected an integer port from 0 to 65535, found number 70000",
    );
    await expect(startMockServer({ strict: "yes" as unknown as boolean })).rejects.toThrow(MockOptionError);
    await expect(startMockServer({ colour: 1 } as never)).rejects.toThrow(/unknown option "colour"/);
    await expect(startMockServer({ token: "Token abc" })).rejects.toThrow(
      'startMockServer: options.token: expected a legacy API key: 1 to 40 visible ASCII characters, no spaces, found string "Token abc"',
    );
  });

  test("token: the first user's key, over the seed's; another user's key is refused", async () => {
    const server = await startMockServer({ data: seed, token: "pinned" });
    try {
      expect(server.legacyToken).toBe("pinned");
      expect((await clientFor(server, "pinned").users.whoami()).username).toBe("ada");
      // The seed's own key for user 1 no longer logs in; user 2's still does.
      expect((await raw(server, "GET", "/api/current-user/whoami", { key: ADA_KEY })).status).toBe(401);
      expect((await clientFor(server, BO_KEY).users.whoami()).username).toBe("bo");
    } finally {
      await server.close();
    }
    await expect(startMockServer({ data: seed, token: BO_KEY })).rejects.toThrow(
      "startMockServer: options.token: expected a key no other user of the data holds, found the key of users[1] (id 2)",
    );
  });

  test("servers in one process share nothing", async () => {
    const a = await startFixture();
    const b = await startFixture();
    try {
      await clientFor(a).projects.delete(1);
      expect(b.data().projects.map((p) => p.id)).toEqual([1, 2]);
      expect(a.personalAccessToken).not.toBe(b.personalAccessToken);
      const foreign = await raw(b, "POST", "/api/token/refresh/", { key: null, body: { refresh: a.personalAccessToken } });
      expect(foreign.status).toBe(401);
      expect(b.requests.map((r) => r.path)).toEqual(["/api/token/refresh/"]);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  test("the seed object is never modified; data() is a copy; reset() restores and empties the journal", async () => {
    const copy = structuredClone(seed);
    const server = await startFixture();
    try {
      await clientFor(server).tasks.delete(1);
      const snapshot = server.data();
      snapshot.tasks.length = 0;
      expect(server.data().tasks).toHaveLength(6);
      await server.reset();
      expect(server.data().tasks).toHaveLength(7);
      expect(server.requests).toEqual([]);
      expect(seed).toEqual(copy);
      await server.reset({ users: [{ id: 5, username: "eve", token: "eve-key" }] });
      expect(server.legacyToken).toBe("eve-key");
      expect((await clientFor(server, server.personalAccessToken).users.whoami()).username).toBe("eve");
    } finally {
      await server.close();
    }
  });

  test("a seed file path; invalid seeds are refused naming record and field", async () => {
    const dir = tempDir();
    const file = join(dir, "seed.json");
    writeFileSync(file, JSON.stringify(seed));
    const server = await startMockServer({ data: file });
    try {
      expect(server.legacyToken).toBe(ADA_KEY);
      expect(server.data().tasks).toHaveLength(7);
    } finally {
      await server.close();
    }
    await expect(startMockServer({ data: { tasks: [{ id: 1, project: 3, data: {} }] } })).rejects.toThrow(SeedError);
    await expect(startMockServer({ data: { tasks: [{ id: 1, project: 3, data: {} }] } })).rejects.toThrow(/tasks\[0\] \(id 1\)\.project/);
    await expect(startMockServer({ data: join(dir, "missing.json") })).rejects.toThrow(/missing\.json/);
  });

  test("persist: a snapshot and a log of the changes, loaded on the next start", async () => {
    const dir = tempDir();
    const file = join(dir, "db.json");
    const first = await startFixture({ persist: file });
    expect(JSON.parse(readFileSync(file, "utf8")).tasks.map((t: { id: number }) => t.id)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    await clientFor(first).tasks.delete(2);
    expect(readdirSync(dir).sort()).toEqual(["db.json", "db.json.wal.1"]);
    expect(readFileSync(join(dir, "db.json.wal.1"), "utf8")).toBe(
      '[["delete","tasks",[2]],["delete","annotations",[2,3]],["delete","predictions",[3]]]\n',
    );
    await first.close();
    const second = await startMockServer({ persist: file, data: { users: [{ id: 9, username: "ignored" }] } });
    try {
      expect(second.data().tasks.map((t) => t.id)).toEqual([1, 3, 4, 5, 6, 7]);
      expect(second.legacyToken).toBe(ADA_KEY);
      const created = await clientFor(second).tasks.create({ project: 1, data: { text: "after restart" } });
      expect(created.id).toBe(8);
    } finally {
      await second.close();
    }
  });

  test("the logger gets one line per request, without credentials", async () => {
    const lines: string[] = [];
    const server = await startFixture({ logger: (line) => lines.push(line) });
    try {
      await raw(server, "GET", "/api/projects/?page=1");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^GET \/api\/projects\/\?page=1 200 [\d.]+ ms$/);
      expect(lines.join("\n")).not.toContain(server.legacyToken);
    } finally {
      await server.close();
    }
  });
});

describe("the demo data", () => {
  test("a text-classification project, 200 tasks, annotations by three users, two model versions, one view", () => {
    const demo = demoData();
    expect(demo.projects).toHaveLength(1);
    expect(demo.projects[0]?.label_config).toContain("<Choices");
    expect(demo.tasks).toHaveLength(200);
    expect(new Set(demo.annotations.map((a) => a.completed_by))).toEqual(new Set([1, 2, 3]));
    expect(new Set(demo.predictions.map((p) => p.model_version))).toEqual(new Set(["sentiment-v1", "sentiment-v2"]));
    expect(demo.views).toHaveLength(1);
    expect(demoData()).toEqual(demo);
    expect(demo.users.some((u) => u.token !== undefined)).toBe(false);
  });
});

describe("the CLI entry", () => {
  test("prints URL, tokens and two commands; serves the demo; stop() closes it", async () => {
    const out: string[] = [];
    const run = await runMockCli(["--port", "0", "--quiet"], {}, { out: (l) => out.push(l), signals: false });
    const banner = out.join("\n");
    expect(banner).toContain(run.server.url);
    expect(banner).toContain(`legacy token:          ${run.server.legacyToken}`);
    expect(banner).toContain(`personal access token: ${run.server.personalAccessToken}`);
    expect(banner).toMatch(/curl -H "Authorization: Token [0-9a-f]{40}"/);
    expect(banner).toContain("label-studio-sdk --base-url");
    // Ready to paste into another shell.
    expect(banner).toContain(`\n  export LABEL_STUDIO_URL=${run.server.url} LABEL_STUDIO_API_KEY=${run.server.legacyToken}\n`);
    const list = await raw(run.server, "GET", "/api/tasks/?project=1&page_size=1");
    expect(list.body.total).toBe(200);
    await run.stop();
    expect(out.at(-1)).toBe("dmq mock server stopped");
    await expect(fetch(`${run.server.url}/api/projects/`)).rejects.toThrow();
  });

  test("the banner reads counts from the store, never a copy of it (a 100k-task seed would double the memory)", async () => {
    const snapshot = vi.spyOn(Store.prototype, "snapshot");
    const out: string[] = [];
    const run = await runMockCli(["--port", "0", "--quiet"], {}, { out: (l) => out.push(l), signals: false });
    try {
      expect(snapshot).not.toHaveBeenCalled();
      expect(out[0]?.split("\n")[0]).toBe(`dmq mock server (faithful) listening on ${run.server.url}`);
      expect(out.join("\n")).toContain("built-in demo (1 project, 200 tasks, 3 users)");
      expect(out.join("\n")).toContain(`/api/dm/actions/?project=1"`);
    } finally {
      snapshot.mockRestore();
      await run.stop();
    }
  });

  test("--token pins the legacy key across reset(); a key from $LABEL_STUDIO_API_KEY is used but never printed", async () => {
    const out: string[] = [];
    const pinned = await runMockCli(["--port", "0", "--quiet", "--token", "ci-key-1"], {}, { out: (l) => out.push(l), signals: false });
    try {
      expect(pinned.server.legacyToken).toBe("ci-key-1");
      expect((await clientFor(pinned.server, "ci-key-1").users.whoami()).id).toBe(1);
      await pinned.server.reset();
      expect((await clientFor(pinned.server, "ci-key-1").users.whoami()).id).toBe(1);
      expect(out.join("\n")).toContain("LABEL_STUDIO_API_KEY=ci-key-1");
    } finally {
      await pinned.stop();
    }
    const lines: string[] = [];
    const fromEnv = await runMockCli(
      ["--port", "0", "--quiet"],
      { LABEL_STUDIO_API_KEY: "env-secret-key" },
      { out: (l) => lines.push(l), signals: false },
    );
    try {
      expect(fromEnv.server.legacyToken).toBe("env-secret-key");
      const banner = lines.join("\n");
      expect(banner).not.toContain("env-secret-key");
      expect(banner).toContain(`export LABEL_STUDIO_URL=${fromEnv.server.url}\n`);
      expect(banner).toContain("legacy token:          $LABEL_STUDIO_API_KEY (from the environment)");
    } finally {
      await fromEnv.stop();
    }
  });

  test("a port in use: the error says so and how to get a free one", async () => {
    const taken = await startMockServer();
    const port = new URL(taken.url).port;
    try {
      await expect(runMockCli(["--port", port, "--quiet"], {}, { signals: false })).rejects.toThrow(
        `port ${port} on 127.0.0.1 is in use (EADDRINUSE): another server (an earlier mock?) holds it. ` +
          "Pass --port 0 to pick a free port (the banner prints it), or --port <n> for another one.",
      );
    } finally {
      await taken.close();
    }
  });

  test("--data, $PORT and usage errors", async () => {
    const dir = tempDir();
    const file = join(dir, "seed.json");
    writeFileSync(file, JSON.stringify(seed));
    const out: string[] = [];
    const run = await runMockCli(["--data", file, "--strict", "--quiet"], { PORT: "0" }, { out: (l) => out.push(l), signals: false });
    try {
      expect(run.server.legacyToken).toBe(ADA_KEY);
      expect(out[0]).toContain("(strict)");
    } finally {
      await run.stop();
    }
    await expect(runMockCli(["--port", "http"], {}, { signals: false })).rejects.toThrow(
      '--port: expected an integer port from 0 to 65535, found "http"',
    );
    await expect(runMockCli(["--bogus"], {}, { signals: false })).rejects.toThrow(/bogus/);
  });
});
