import type { Server } from "node:http";
import type { KeepAliveTuning } from "./keep-alive-tuning.js";

/** What the mock tells clients: reuse an idle connection for at most this long (`Keep-Alive: timeout=5`, Node's default). */
export const KEEP_ALIVE_ADVERTISED_SECONDS = 5;

/**
 * How long the mock really keeps an idle connection: far past what it advertises. Node's server on its own
 * closes an idle socket at exactly the advertised time, on a timer of the same event loop as an in-process
 * client; fetch (undici) reuses a socket until `timeout` minus 2 s. When that loop goes 2 s without running
 * its timers (a loaded machine), the client writes a request on a socket whose expiry it has not processed
 * yet, the server's expiry runs first and destroys the socket with the request unread, and the client gets
 * ECONNRESET. Holding the socket this much longer (Node 24 added `keepAliveTimeoutBuffer` for the same
 * reason) makes that take a 55 s stall.
 *
 * Real time, not the mock's clock: clients reuse sockets by real time, and a test advancing a virtual clock
 * would close connections under a client that is about to write on them.
 */
export const KEEP_ALIVE_HOLD_MS = 60_000;

/**
 * Advertises `tuning.advertisedSeconds` on every kept-alive answer and closes idle connections after
 * `tuning.holdMs` (by default the mock's: {@link KEEP_ALIVE_ADVERTISED_SECONDS}, {@link KEEP_ALIVE_HOLD_MS}).
 * The mock and verify's model server both listen through it.
 */
export function holdIdleConnections(
  server: Server,
  tuning: KeepAliveTuning = { advertisedSeconds: KEEP_ALIVE_ADVERTISED_SECONDS, holdMs: KEEP_ALIVE_HOLD_MS },
): void {
  server.keepAliveTimeout = tuning.holdMs;
  // Before the app's listener, which may answer at once. A header of our own stops Node from writing its
  // `Keep-Alive` line, which would advertise the hold (`_defaultKeepAlive`, node's _http_outgoing.js).
  server.prependListener("request", (_req, res) => {
    if (res.shouldKeepAlive) res.setHeader("Keep-Alive", `timeout=${tuning.advertisedSeconds}`);
  });
}
