import { randomBytes } from "node:crypto";
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import type { StoreState } from "./state.js";

/** The persist file's content, or undefined when there is none yet (first start). */
export function readPersisted(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(`persist file ${path}: cannot read it: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new Error(`persist file ${path}: expected JSON in the seed format, found a parse error: ${(error as Error).message}`);
  }
}

/**
 * Write the whole store next to the target and rename it over the target: a reader (or a crash)
 * sees either the old file or the new one, never half of one.
 */
export function writeAtomically(path: string, state: StoreState): void {
  const temp = `${path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  try {
    writeFileSync(temp, `${JSON.stringify(state, null, 1)}\n`, "utf8");
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
