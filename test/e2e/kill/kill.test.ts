import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { describe, expect, test } from "vitest";
import { CHILD_KEY } from "./child.js";

/**
 * An acknowledged write survives SIGKILL. A persisting mock runs in a child process; eight clients
 * create and delete tasks as fast as it answers; the child is killed with SIGKILL in the middle of
 * that (requests in flight, compactions running), restarted on the same file, and checked: every
 * create it answered 201 is there with its data, every delete it answered 204 is gone. Writes in
 * flight at the kill may land or not. Three kills, then a last start to check the end state.
 */
const KILLS = 3;
const CLIENTS = 8;
const headers = { authorization: `Token ${CHILD_KEY}`, "content-type": "application/json" };

interface Child {
  readonly process: ChildProcess;
  readonly url: string;
  readonly exited: Promise<void>;
}

async function startChild(file: string): Promise<Child> {
  const child = spawn(process.execPath, ["--import", "tsx", join(import.meta.dirname, "child.ts"), file], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once("line", resolve);
    child.once("exit", (code) => reject(new Error(`the mock exited (${code}) before listening`)));
  });
  return { process: child, url, exited };
}

/** The ids and data of every task the server has, read through its API. */
async function tasksOf(url: string): Promise<Map<number, unknown>> {
  const response = await fetch(`${url}/api/tasks/?project=1&page_size=1000000`, { headers });
  const body = (await response.json()) as { tasks: { id: number; data: unknown }[] };
  return new Map(body.tasks.map((t) => [t.id, t.data]));
}

describe("persistence under SIGKILL", () => {
  test(`${KILLS} kills during concurrent writes lose no acknowledged write`, async () => {
    const file = join(mkdtempSync(join(tmpdir(), "dmq-kill-")), "db.json");
    const created = new Map<number, unknown>();
    const deleted = new Set<number>();
    /** Deletes sent but not answered when the process died: the task may be there or not. */
    const maybeDeleted = new Set<number>();
    let serial = 0;
    let acknowledged = 0;
    const lost: string[] = [];

    for (let kill = 0; kill <= KILLS; kill++) {
      const child = await startChild(file);
      const present = await tasksOf(child.url);
      for (const [id, data] of created) {
        if (deleted.has(id) || (maybeDeleted.has(id) && !present.has(id))) continue;
        if (JSON.stringify(present.get(id)) !== JSON.stringify(data)) lost.push(`create ${id} (start ${kill})`);
      }
      for (const id of deleted) if (present.has(id)) lost.push(`delete ${id} (start ${kill})`);
      if (kill === KILLS) {
        child.process.kill("SIGTERM");
        await child.exited;
        break;
      }

      // Kill after a varying number of acknowledged writes in this run.
      const target = acknowledged + 30 + kill * 7;
      let stop = false;
      const client = async (lane: number) => {
        while (!stop) {
          try {
            const ownDeletable = [...created.keys()].filter((id) => !deleted.has(id) && !maybeDeleted.has(id) && id % CLIENTS === lane);
            if (ownDeletable.length > 3 && serial % 3 === 0) {
              const id = ownDeletable[0] as number;
              maybeDeleted.add(id);
              const response = await fetch(`${child.url}/api/tasks/${id}/`, { method: "DELETE", headers });
              if (response.status === 204) {
                maybeDeleted.delete(id);
                deleted.add(id);
                acknowledged += 1;
              }
            } else {
              const data = { n: ++serial, lane, text: `task ${serial}` };
              const response = await fetch(`${child.url}/api/tasks/`, {
                method: "POST",
                headers,
                body: JSON.stringify({ project: 1, data }),
              });
              if (response.status === 201) {
                created.set(((await response.json()) as { id: number }).id, data);
                acknowledged += 1;
              }
            }
          } catch {
            // The process is gone: what was in flight is unacknowledged.
            return;
          }
          if (acknowledged >= target && !stop) {
            stop = true;
            child.process.kill("SIGKILL");
          }
        }
      };
      await Promise.all(Array.from({ length: CLIENTS }, (_, lane) => client(lane)));
      await child.exited;
    }

    expect(lost).toEqual([]);
    expect(acknowledged).toBeGreaterThanOrEqual(KILLS * 30);
    expect(created.size - deleted.size).toBeGreaterThan(0);
  }, 120_000);
});
