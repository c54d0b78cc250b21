import { startMockServer } from "../../../mock-server/index.js";

/**
 * A persisting mock in its own process, for the SIGKILL test: `node --import tsx child.ts <file>`.
 * Prints its URL once it listens. A small compaction threshold makes background compactions frequent,
 * so kills also land in the middle of them.
 */
export const CHILD_KEY = "kill0000000000000000000000000000000000001";

const [file] = process.argv.slice(2);
if (file) {
  const server = await startMockServer(
    {
      persist: file,
      data: { users: [{ id: 1, username: "ada", token: CHILD_KEY }], projects: [{ id: 1, title: "Kill" }] },
      journalCapacity: 0,
    },
    { wal: { compactAfterBytes: 2048 } },
  );
  process.stdout.write(`${server.url}\n`);
}
