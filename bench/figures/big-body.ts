/**
 * `server.big_body_vs_json_parse`: a 12 MB action body (`selectedItems` listing 1.7 million ids) posted to
 * `/api/dm/actions/` of the mock serving the 10k-task seed, against `JSON.parse` of the same text. The
 * request is timed by the CPU the server's process used for it (from /proc), `JSON.parse` by the CPU of
 * this process; rounds alternate after a warm-up round (which does the action's deletes: later rounds
 * select the same tasks and delete nothing, so every round does the same work).
 */
import { cpuMs, figure, fmt, median, RUNS, type Figure } from "../lib/stats.js";
import { processCpuMs, serveMock } from "../lib/children.js";

const IDS = 1_700_000;

export async function bigBodyFigures(seedPath: string, token: string, log: (line: string) => void): Promise<Figure[]> {
  const body = JSON.stringify({ selectedItems: { all: false, included: Array.from({ length: IDS }, (_, i) => i + 1) } });
  const mock = await serveMock(seedPath, token);
  const request: number[] = [],
    parse: number[] = [];
  try {
    for (let round = 0; round <= RUNS; round++) {
      const before = processCpuMs(mock.pid);
      const res = await fetch(`${mock.url}/api/dm/actions/?id=delete_tasks_annotations&project=1`, {
        method: "POST",
        headers: { authorization: `Token ${token}`, "content-type": "application/json" },
        body,
      });
      const answer = await res.text();
      if (res.status !== 200) throw new Error(`big body: ${res.status} ${answer.slice(0, 200)}`);
      const server = processCpuMs(mock.pid) - before;
      const c0 = cpuMs();
      JSON.parse(body);
      const parsed = cpuMs() - c0;
      if (round > 0) {
        request.push(server);
        parse.push(parsed);
      }
    }
  } finally {
    await mock.stop();
  }
  const r = median(request),
    p = median(parse);
  log(`  ${fmt(body.length / 1e6)} MB action body: the mock ${fmt(r)} ms CPU, JSON.parse ${fmt(p)} ms`);
  return [
    figure(
      "server.big_body_vs_json_parse",
      r / p,
      "×",
      5,
      "lower",
      `POST /api/dm/actions/ with ${fmt(body.length / 1e6)} MB (${IDS} ids in selectedItems): ${fmt(r)} ms CPU ÷ JSON.parse ${fmt(p)} ms`,
    ),
  ];
}
