// Starts the packed mock server and reads the action list through the packed client; without
// json-server installed, prints the error instead.
import { createClient } from "dmq";
import { startMockServer } from "dmq/mock-server";

try {
  const server = await startMockServer();
  try {
    const client = createClient({ baseUrl: server.url, apiKey: server.legacyToken });
    const actions = await client.actions.list(1);
    console.log(JSON.stringify({ started: true, actions: actions.map((a) => a.id) }));
  } finally {
    await server.close();
  }
} catch (error) {
  console.log(JSON.stringify({ started: false, error: error.message }));
}
