// Starts the packed mock server, reads the action list through the packed client and the title of
// the playground page it serves (built into the package); without json-server, prints the error.
import { createClient } from "dmq";
import { startMockServer } from "dmq/mock-server";

try {
  const server = await startMockServer();
  try {
    const client = createClient({ baseUrl: server.url, apiKey: server.legacyToken });
    const actions = await client.actions.list(1);
    const page = await fetch(`${server.url}/playground/`).then((r) => r.text());
    const playground = /<title>[^<]*<\/title>/.exec(page)?.[0];
    console.log(JSON.stringify({ started: true, actions: actions.map((a) => a.id), playground }));
  } finally {
    await server.close();
  }
} catch (error) {
  console.log(JSON.stringify({ started: false, error: error.message }));
}
