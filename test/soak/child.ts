import { startMockServer } from "../../mock-server/index.js";

/**
 * The mock under soak, in its own process (so its memory is measured alone): the demo data, default
 * journal. Started with an IPC channel; answers every "sample" message with its memory use.
 */
const server = await startMockServer();
process.send?.({ url: server.url, key: server.legacyToken });
process.on("message", (message) => {
  if (message === "sample") process.send?.({ rss: process.memoryUsage.rss(), heap: process.memoryUsage().heapUsed });
  if (message === "stop") void server.close().then(() => process.exit(0));
});
