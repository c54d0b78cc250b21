import { realpathSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * Whether the module whose `import.meta.url` is given is the script Node was started with (and
 * not imported). Links are resolved: npm's bin shims point at the file through one.
 */
export function isMain(moduleUrl: string): boolean {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(moduleUrl));
  } catch {
    return false;
  }
}
