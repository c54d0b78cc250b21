import { createServer, type Server } from "node:http";
import { connect, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startMockServer, type MockServer } from "../../mock-server/index.js";
import { KEEP_ALIVE_ADVERTISED_SECONDS, KEEP_ALIVE_HOLD_MS } from "../../mock-server/keep-alive.js";
import { startMLBackend } from "../helpers/ml-backend.js";

/**
 * Idle keep-alive connections. The mock advertises 5 s (Node's default) and keeps an idle connection a
 * minute: a client that trusts the advertised time never writes on a socket the mock is closing, even when
 * the event loop they share goes seconds without running its timers (the ECONNRESET verify's e2e test met
 * under load, when Node closed at exactly 5 s). Connections live in real time, as clients reuse them (a
 * virtual clock would close sockets under a client), so the hold is shown on a mock tuned to advertise 1 s,
 * beside a server that closes at Node's own timer: an idle wait of 3 s, no CPU. verify's model server (which
 * the server under test and the mock both call) listens through the same holdIdleConnections.
 */
let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer();
});
afterAll(() => mock.close());

/** One raw connection: requests written by hand, answers read whole (the status line and headers). */
class Connection {
  readonly socket: Socket;
  #buffer = "";
  #wanted: (() => void) | undefined;
  closedAt: number | undefined;
  readonly closed: Promise<void>;
  constructor(url: string) {
    const { hostname, port } = new URL(url);
    this.socket = connect(Number(port), hostname);
    this.socket.setEncoding("utf8");
    this.socket.on("data", (chunk: string) => {
      this.#buffer += chunk;
      this.#wanted?.();
    });
    this.closed = new Promise((resolve) =>
      this.socket.once("close", () => {
        this.closedAt = Date.now();
        this.#wanted?.();
        resolve();
      }),
    );
  }

  /** Sends a GET and resolves with the answer's head once its body (Content-Length) is in; rejects if the connection closes first. */
  async get(path: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: [string, string][] }> {
    const lines = [`GET ${path} HTTP/1.1`, "Host: mock", ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
    this.socket.write(`${lines.join("\r\n")}\r\n\r\n`);
    for (;;) {
      const end = this.#buffer.indexOf("\r\n\r\n");
      if (end >= 0) {
        const [statusLine = "", ...rest] = this.#buffer.slice(0, end).split("\r\n");
        const fields = rest.map((l) => [l.slice(0, l.indexOf(":")).toLowerCase(), l.slice(l.indexOf(":") + 1).trim()] as [string, string]);
        const length = Number(fields.find(([k]) => k === "content-length")?.[1] ?? 0);
        if (this.#buffer.length >= end + 4 + length) {
          this.#buffer = this.#buffer.slice(end + 4 + length);
          return { status: Number(statusLine.split(" ")[1]), headers: fields };
        }
      }
      if (this.closedAt !== undefined) throw new Error(`GET ${path}: the connection closed before the answer`);
      await new Promise<void>((resolve) => (this.#wanted = resolve));
    }
  }
}

const idle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A plain server answering `{}`, listening on a loopback port. */
async function plainServer(setup: (server: Server) => void): Promise<{ server: Server; url: string }> {
  const server = createServer((_req, res) => res.end("{}"));
  setup(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

describe("the mock's idle keep-alive connections", () => {
  it("advertises 5 s once, holds a minute; a request asking to close gets neither", async () => {
    const c = new Connection(mock.url);
    const answer = await c.get("/api/version/");
    expect(answer.status).toBe(200);
    expect(answer.headers.filter(([k]) => k === "keep-alive")).toEqual([["keep-alive", `timeout=${KEEP_ALIVE_ADVERTISED_SECONDS}`]]);
    expect(answer.headers.filter(([k]) => k === "connection")).toEqual([["connection", "keep-alive"]]);
    expect(KEEP_ALIVE_HOLD_MS).toBeGreaterThan(KEEP_ALIVE_ADVERTISED_SECONDS * 1000 + 50_000);
    c.socket.end();

    const once = new Connection(mock.url);
    const last = await once.get("/api/version/", { Connection: "close" });
    expect(last.headers.some(([k]) => k === "keep-alive")).toBe(false);
    expect(last.headers.filter(([k]) => k === "connection")).toEqual([["connection", "close"]]);
    await once.closed;
  });
});

describe("verify's model server's idle keep-alive connections", () => {
  it("advertises 5 s like the mock", async () => {
    const model = await startMLBackend();
    try {
      const c = new Connection(model.url);
      const answer = await c.get("/health");
      expect(answer.status).toBe(200);
      expect(answer.headers.filter(([k]) => k === "keep-alive")).toEqual([["keep-alive", `timeout=${KEEP_ALIVE_ADVERTISED_SECONDS}`]]);
      c.socket.end();
    } finally {
      await model.close();
    }
  });
});

/** Either server, tuned to advertise 1 s and hold a minute: where it listens, a path it answers, how to stop it. */
const TUNED = { advertisedSeconds: 1, holdMs: 60_000 };
const tunedServers: [string, () => Promise<{ url: string; path: string; close: () => Promise<void> }>][] = [
  ["the mock", async () => ({ ...(await startMockServer({}, { keepAlive: TUNED })), path: "/api/version/" })],
  ["verify's model server", async () => ({ ...(await startMLBackend({ keepAlive: TUNED })), path: "/health" })],
];

describe.each(tunedServers)("%s, advertising 1 s", (_name, start) => {
  it("keeps a connection idle past the advertised time, where Node's own timer closes it", async () => {
    const held = await start();
    const plain = await plainServer((s) => (s.keepAliveTimeout = 1000));
    try {
      const [h, p] = [new Connection(held.url), new Connection(plain.url)];
      const answers = await Promise.all([h.get(held.path), p.get("/")]);
      expect(answers.map((a) => a.headers.find(([k]) => k === "keep-alive")?.[1])).toEqual(["timeout=1", "timeout=1"]);
      await idle(3000);
      expect(p.closedAt).toBeDefined();
      expect(h.closedAt).toBeUndefined();
      expect((await h.get(held.path)).status).toBe(200);
      h.socket.end();
    } finally {
      await held.close();
      plain.server.close();
      plain.server.closeAllConnections();
    }
  });
});
