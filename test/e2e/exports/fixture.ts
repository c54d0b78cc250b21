import type { MockSeed } from "../../../mock-server/index.js";

/**
 * A project as one was measured on a real server (docs/reference/exports.md, facts marked measured): five tasks,
 * their annotations, predictions and drafts, with the server's timestamps and annotation UUIDs.
 * Results are written in the order a client sends them; the server's answers put their keys in
 * PostgreSQL's jsonb order, and so must the mock's exports.
 *
 *   task  data                                annotations                 predictions   drafts
 *   1     text with Ünïcode, /, ", \n, \t;    a1 (sentiment pos + note,   p1 (m1 .25)   d1 (lead 2)
 *         n 2.5; meta_info {k: [1, 2]}        lead 1.5)
 *   2     "no annotations", n 3               -                           -             d2 (empty)
 *   3     "two annotations", n -1             a2 (neg), a3 (pos, neg)     -             -
 *   4     "cancelled only"                    a4 (skipped)                -             -
 *   5     "predictions only", n 0.001         -                           p2 (m2 .9)    -
 */
export const KEY = "exports0000000000000000000000000000000001";
export const CONFIG =
  '<View><Text name="text" value="$text"/><Choices name="sentiment" toName="text"><Choice value="pos"/><Choice value="neg"/></Choices><TextArea name="note" toName="text"/></View>';

const choices = (...values: string[]) => ({ from_name: "sentiment", to_name: "text", type: "choices", value: { choices: values } });
const note = (text: string) => ({ from_name: "note", to_name: "text", type: "textarea", value: { text: [text] } });
const at = (micros: string) => `2026-11-25T22:59:${micros}Z`;

export const TEXT = 'Ünïcode / slash "quoted", comma\nnewline\ttab';

export const seed: MockSeed = {
  users: [{ id: 1, username: "admin", email: "admin@example.com", first_name: "", last_name: "", token: KEY }],
  projects: [
    { id: 1, title: "exports probe text", label_config: CONFIG, created_by: 1 },
    { id: 2, title: "other", label_config: CONFIG, created_by: 1 },
  ],
  tasks: [
    { id: 1, project: 1, data: { text: TEXT, n: 2.5, meta_info: { k: [1, 2] } }, created_at: at("09.132038"), updated_at: at("09.132054") },
    { id: 2, project: 1, data: { text: "no annotations", n: 3 }, created_at: at("09.132087"), updated_at: at("09.132089") },
    { id: 3, project: 1, data: { text: "two annotations", n: -1 }, created_at: at("09.132104"), updated_at: at("09.132107") },
    { id: 4, project: 1, data: { text: "cancelled only" }, created_at: at("09.132121"), updated_at: at("09.132123") },
    { id: 5, project: 1, data: { text: "predictions only", n: 0.001 }, created_at: at("09.132135"), updated_at: at("09.132137") },
    { id: 6, project: 2, data: { text: "elsewhere" } },
  ],
  annotations: [
    {
      id: 1,
      task: 1,
      completed_by: 1,
      result: [choices("pos"), note("a note")],
      ground_truth: true,
      lead_time: 1.5,
      created_at: at("09.137396"),
      updated_at: at("09.137405"),
      unique_id: "3e39d2c5-c5aa-4a15-a840-47c2db721ffb",
    },
    {
      id: 2,
      task: 3,
      completed_by: 1,
      result: [choices("neg")],
      ground_truth: true,
      created_at: at("09.137440"),
      updated_at: at("09.137442"),
      unique_id: "e47710b4-7b21-48ee-ad9f-70b02496c908",
    },
    {
      id: 3,
      task: 3,
      completed_by: 1,
      result: [choices("pos", "neg")],
      ground_truth: true,
      created_at: at("09.137460"),
      updated_at: at("09.137462"),
      unique_id: "bf767db5-8ee0-4820-a5e0-992dc5ad879e",
    },
    {
      id: 4,
      task: 4,
      completed_by: 1,
      result: [],
      was_cancelled: true,
      ground_truth: true,
      created_at: at("09.137477"),
      updated_at: at("09.137478"),
      unique_id: "b35890ec-10b1-40e1-b10d-4ba567845378",
    },
  ],
  predictions: [
    {
      id: 1,
      task: 1,
      result: [choices("neg")],
      score: 0.25,
      model_version: "m1",
      created_at: at("09.143719"),
      updated_at: at("09.143730"),
    },
    { id: 2, task: 5, result: [choices("pos")], score: 0.9, model_version: "m2", created_at: at("09.143741"), updated_at: at("09.143743") },
  ],
  drafts: [
    { id: 1, task: 1, user: 1, result: [choices("neg")], lead_time: 2, created_at: at("12.492063"), updated_at: at("12.492080") },
    { id: 2, task: 2, user: 1, result: [], created_at: at("12.557422"), updated_at: at("12.557437") },
  ],
};

/** The minute the tests run in (a virtual clock): 2026-11-25 23:01:30 UTC, two minutes after the drafts. */
export const NOW = Date.UTC(2026, 10, 25, 23, 1, 30);
