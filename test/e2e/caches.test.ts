/**
 * The mock keeps evaluations, derived columns and list items per (query, dataset version): a
 * write must show in the next answer, a write to another project must change nothing, and reset()
 * goes back to the start data although it shares the start records. Expected ids are from the
 * fixture's table (test/e2e/fixture.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import type { MockServer } from "../../mock-server/index.js";
import type { Client } from "../../src/client/index.js";
import { selection } from "../../src/selection.js";
import { clientFor, startFixture } from "./fixture.js";

let server: MockServer;
let client: Client;
beforeAll(async () => {
  server = await startFixture();
  client = clientFor(server);
});
afterAll(() => server.close());

const annotated = selection(1).where("tasks:total_annotations").greater(0).orderBy("-tasks:id").toJSON();
const alpha = selection(1).where("tasks:data.text").equal("alpha").or("tasks:data.text").equal("beta").toJSON();

async function ids(query: unknown, project = 1): Promise<number[]> {
  const page = await client.tasks.list({ project, page_size: 100, query: query as never }).page(1);
  return page.tasks.map((t) => t.id);
}

describe("kept answers follow the data", () => {
  test("an annotation, a task patch and a deletion show in the next list; counters too", async () => {
    await server.reset();
    expect(await ids(annotated)).toEqual([6, 4, 2, 1]);
    expect(await ids(alpha)).toEqual([1, 2, 3, 6]);
    await client.annotations.create(3, { result: [] });
    expect(await ids(annotated)).toEqual([6, 4, 3, 2, 1]);
    await client.tasks.update(5, { data: { text: "alpha", n: 5 } });
    expect(await ids(alpha)).toEqual([1, 2, 3, 5, 6]);
    const page = await client.tasks.list({ project: 1, page_size: 100, query: annotated as never }).page(1);
    expect(page.tasks.find((t) => t.id === 3)?.total_annotations).toBe(1);
    expect(page.total_annotations).toBe(5);
    await client.tasks.delete(6);
    expect(await ids(annotated)).toEqual([4, 3, 2, 1]);
  });

  test("a write to another project leaves this one's answers as they were", async () => {
    await server.reset();
    const before = await client.tasks.list({ project: 1, page_size: 100 }).page(1);
    await client.annotations.create(7, { result: [] });
    await client.tasks.update(7, { data: { text: "alpha" } });
    expect(await client.tasks.list({ project: 1, page_size: 100 }).page(1)).toEqual(before);
    expect(await ids({}, 2)).toEqual([7]);
    expect((await client.tasks.list({ project: 2, page_size: 100 }).page(1)).total_annotations).toBe(2);
  });

  test("pages of one kept answer agree with the whole answer", async () => {
    await server.reset();
    const pages = [];
    for (let n = 1; n <= 2; n++)
      pages.push(...(await client.tasks.list({ project: 1, page_size: 2, query: annotated as never }).page(n)).tasks.map((t) => t.id));
    expect(pages).toEqual([6, 4, 2, 1]);
  });

  test("reset() goes back to the start data after writes", async () => {
    await server.reset();
    const start = server.data();
    await client.tasks.update(1, { data: { text: "changed" } });
    await client.annotations.create(5, { result: [] });
    await client.tasks.delete(2);
    await server.reset();
    expect(server.data()).toEqual(start);
    expect(await ids(annotated)).toEqual([6, 4, 2, 1]);
  });
});
