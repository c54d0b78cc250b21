// tsc writes files without the executable bit: give it back to the entry points that start with a
// shebang (the `dmq` bin and the mock's `node dist/mock-server/main.js`), so that `npx dmq` runs a
// fresh build and a packed tarball carries the bit.
import { chmodSync, readFileSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const entries = [...Object.values(pkg.bin ?? {}), "./dist/mock-server/main.js"];
for (const entry of entries) chmodSync(new URL(`../${entry}`, import.meta.url), 0o755);
