import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { KeepAliveTuning } from "../../../mock-server/keep-alive-tuning.js";
import { holdIdleConnections } from "../../../mock-server/keep-alive.js";

/**
 * A tiny ML backend (a model server as Label Studio calls one), for `dmq verify`'s ML backend scenarios
 * (both the server and the mock register it) and for tests: it answers `GET /health`,
 * `POST /setup` (its model version), `POST /predict` (for each task, the first choice of every `Choices`
 * control of the config, scored 0.5, or what `predict` returns), `GET /versions` and `POST /webhook`,
 * and records every request it gets.
 */
export interface SeenRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage["headers"];
  readonly body: unknown;
}

export interface MLBackendOptions {
  readonly version?: string;
  /** The `results` item for one task (default: the first choice of each Choices control). */
  readonly predict?: (task: { id: number; data: Record<string, unknown> }, config: string) => unknown;
  /** Answer an endpoint with this status instead (e.g. `{ versions: 404 }`). */
  readonly fail?: Partial<Record<"health" | "setup" | "predict" | "versions" | "webhook", number>>;
  /**
   * Idle keep-alive connections: what it advertises and how long it really holds them (default: the mock's,
   * 5 s and a minute, so a client reusing a socket never meets Node's close at exactly the advertised time).
   */
  readonly keepAlive?: KeepAliveTuning;
}

export interface MLBackend {
  readonly url: string;
  readonly seen: SeenRequest[];
  close(): Promise<void>;
}

/** The first `<Choice value>` of each `<Choices name toName>` of a config: a result a model could return. */
function firstChoices(config: string): unknown[] {
  const out: unknown[] = [];
  for (const block of config.split("<Choices ").slice(1)) {
    const name = /(?:^|\s)name="([^"]*)"/.exec(block)?.[1];
    const toName = /(?:^|\s)toName="([^"]*)"/.exec(block)?.[1];
    const tag = /<Choice\s[^<>]*>/.exec(block)?.[0];
    const choice = tag === undefined ? undefined : /\svalue="([^"]*)"/.exec(tag)?.[1];
    if (name && toName && choice) out.push({ from_name: name, to_name: toName, type: "choices", value: { choices: [choice] } });
  }
  return out;
}

/** A loopback port nothing listens on (opened, then closed). */
export async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

export async function startMLBackend(options: MLBackendOptions = {}): Promise<MLBackend> {
  const version = options.version ?? "tiny-v1";
  const seen: SeenRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
      const path = (req.url ?? "/").split("?")[0] as string;
      seen.push({ method: req.method ?? "", path, headers: req.headers, body });
      const endpoint = path.slice(1) as keyof NonNullable<MLBackendOptions["fail"]>;
      const failing = options.fail?.[endpoint];
      const send = (status: number, answer: unknown) => {
        const payload = JSON.stringify(answer);
        res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(payload) });
        res.end(payload);
      };
      if (failing !== undefined) return send(failing, { error: `${endpoint} failed` });
      if (path === "/health") return send(200, { status: "UP", model_class: "Tiny" });
      if (path === "/setup") return send(200, { model_version: version });
      if (path === "/versions") return send(200, { versions: [version] });
      if (path === "/webhook") return send(201, { job: "train-1" });
      if (path === "/predict") {
        const request = body as { tasks: { id: number; data: Record<string, unknown> }[]; label_config: string };
        const results = request.tasks.map(
          (task) =>
            options.predict?.(task, request.label_config) ?? {
              result: firstChoices(request.label_config),
              score: 0.5,
              model_version: version,
            },
        );
        return send(200, { results });
      }
      send(404, { error: "no such endpoint" });
    });
  });
  holdIdleConnections(server, options.keepAlive);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((e) => (e ? reject(e) : resolve()));
        // A client's idle keep-alive connection would hold close() open.
        server.closeAllConnections();
      }),
  };
}
