// A consumer of the packed package: compiled by the packaging test with the minimum TypeScript
// version (docs: README "Requirements"), with the project's own and with TypeScript 7, under several resolutions.
import { ApiError, createClient, selection, type Selection } from "dmq";
import { evaluate, type Dataset } from "dmq/semantics";
import { startMockServer, type MockServer, type MockServerOptions } from "dmq/mock-server";
import { choice, resolveTarget, type SeedSpec, type Target } from "dmq/testing";

const body = selection(1)
  .where("tasks:completed_at")
  .greater(new Date("2024-01-01T00:00:00Z"))
  .orderBy("-tasks:created_at")
  .excluding([1, 2]);
export const json: string = JSON.stringify(body);

type Data = { score: number; text: string };
export const typed = selection<Data>(1).where("tasks:data.score").greater(0.5).or("tasks:data.text").contains("urgent");

// @ts-expect-error the type-state rules reach the consumer: including() and excluding() do not mix
selection(1).including([1]).excluding([2]);
// @ts-expect-error no contains() on a Datetime column
selection(1).where("tasks:completed_at").contains("2024");
// @ts-expect-error an empty id list is refused
selection(1).including([]);

export async function run(server: MockServer): Promise<number> {
  const client = createClient({ baseUrl: server.url, apiKey: server.legacyToken });
  try {
    const result = await selection(client.project(1)).where("tasks:id").greater(2).run("delete_tasks");
    return result.processed_items;
  } catch (error) {
    if (error instanceof ApiError) return error.statusCode;
    throw error;
  }
}

export const options: MockServerOptions = { port: 0, strict: true };
export const start: () => Promise<MockServer> = () => startMockServer(options);
export const select = (s: Selection, data: Dataset): readonly number[] => evaluate(data, s.toQuery()).ids;

// The testing kit's types: a spec, a target, a seeded project's id maps.
export const spec: SeedSpec = { tasks: [{ id: "a", data: { text: "a" }, annotations: [{ result: choice("pos") }] }] };
export async function seedOn(options: { baseUrl: string; apiKey: string }): Promise<number> {
  const target: Target = await resolveTarget({ target: "server", ...options });
  try {
    return (await target.seed(spec)).ids.tasks.get("a");
  } finally {
    await target.close();
  }
}
