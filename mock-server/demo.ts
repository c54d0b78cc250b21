import { FILTER_PREFIX, ORDER_PREFIX } from "../src/query/nodes.js";
import type { JsonValue } from "../src/vocabulary/json.js";
import type { StoreState } from "../src/contract/state.js";
import { newRecordDefaults, storedTable } from "../src/contract/field.js";
import { projectModel } from "../src/contract/project.js";
import { taskModel, taskOwn } from "../src/contract/task.js";
import { timestampFromMs } from "../src/vocabulary/timestamps.js";

/**
 * The demo data `npm start` serves: a sentiment (text classification) project with 200 short
 * reviews, annotations by three users (some tasks twice, a few skipped), predictions of two model
 * versions, a handful of duplicated texts (for `remove_duplicates`) and one saved view. Generated
 * from a fixed seed, so every start serves the same data; users get no keys here (the server
 * generates the first user's legacy key at start).
 */
export const DEMO_TASKS = 200;
const LABELS = ["Positive", "Negative", "Neutral"] as const;
const BASE = Date.UTC(2024, 2, 1, 9, 0, 0);

/** mulberry32: small, fast and good enough for demo data. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const subjects = [
  "The battery",
  "Delivery",
  "The screen",
  "Customer support",
  "The price",
  "The manual",
  "Setup",
  "The sound",
  "The camera",
  "The app",
];
const opinions: Record<(typeof LABELS)[number], readonly string[]> = {
  Positive: ["is excellent", "exceeded my expectations", "works perfectly", "is worth every cent", "made my day"],
  Negative: ["stopped working after a week", "is a disappointment", "was painfully slow", "is overpriced", "broke on arrival"],
  Neutral: ["is as described", "is fine, nothing special", "arrived on Tuesday", "is about average", "does what it says"],
};

const at = (minutes: number) => timestampFromMs(BASE + minutes * 60_000);
const choice = (label: string): JsonValue[] => [{ from_name: "sentiment", to_name: "text", type: "choices", value: { choices: [label] } }];

/** The demo data `npm start` serves, in the seed format: a fresh copy on every call (see the file's comment above). */
export function demoData(): StoreState {
  const rnd = random(20240301);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rnd() * list.length)] as T;
  const state: StoreState = {
    users: [
      {
        id: 1,
        username: "admin",
        email: "admin@example.com",
        first_name: "Ada",
        last_name: "Admin",
        date_joined: at(0),
        last_activity: at(0),
      },
      { id: 2, username: "bea", email: "bea@example.com", first_name: "Bea", last_name: "Baker", date_joined: at(0), last_activity: at(0) },
      {
        id: 3,
        username: "carl",
        email: "carl@example.com",
        first_name: "Carl",
        last_name: "Cole",
        date_joined: at(0),
        last_activity: at(0),
      },
    ],
    projects: [
      {
        ...newRecordDefaults(projectModel),
        id: 1,
        title: "Product review sentiment",
        description: "Demo project served by the dmq mock server",
        label_config:
          '<View><Text name="text" value="$text"/><Choices name="sentiment" toName="text" choice="single">' +
          '<Choice value="Positive"/><Choice value="Negative"/><Choice value="Neutral"/></Choices></View>',
        model_version: "sentiment-v2",
        created_by: 1,
        created_at: at(0),
      },
    ],
    tasks: [],
    annotations: [],
    predictions: [],
    views: [
      {
        id: 1,
        project: 1,
        user: 1,
        order: 0,
        data: {
          title: "Unlabeled, most confident first",
          filters: {
            conjunction: "and",
            items: [{ filter: `${FILTER_PREFIX}total_annotations`, operator: "equal", type: "Number", value: 0, child_filters: [] }],
          },
          ordering: [`-${ORDER_PREFIX}predictions_score`],
        },
      },
    ],
    organizations: [],
    file_uploads: [],
    drafts: [],
    ml_backends: [],
    exports: [],
    converted_formats: [],
  };

  const truth: string[] = [];
  for (let i = 1; i <= DEMO_TASKS; i++) {
    // Every 40th task repeats an earlier text: remove_duplicates has something to find.
    const copyOf = i % 40 === 0 ? state.tasks[i - 11] : undefined;
    const label = copyOf ? (truth[i - 11] as string) : pick(LABELS);
    const text = copyOf ? (copyOf.data["text"] as string) : `${pick(subjects)} ${pick(opinions[label as (typeof LABELS)[number]])}.`;
    truth.push(label);
    state.tasks.push({
      ...newRecordDefaults(storedTable(taskModel, taskOwn)),
      id: i,
      project: 1,
      data: { text, source: i % 3 === 0 ? "tweet" : "review", stars: label === "Positive" ? 5 : label === "Negative" ? 1 : 3 },
      created_at: at(i),
      updated_at: at(i),
      file_upload: "demo-reviews.json",
      inner_id: i,
    });
  }

  let predictionId = 1;
  for (const task of state.tasks) {
    const label = truth[task.id - 1] as string;
    for (const version of ["sentiment-v1", "sentiment-v2"] as const) {
      if (version === "sentiment-v2" && task.id % 2 === 1) continue;
      const right = rnd() < (version === "sentiment-v1" ? 0.7 : 0.85);
      state.predictions.push({
        id: predictionId++,
        task: task.id,
        project: 1,
        result: choice(right ? label : pick(LABELS.filter((l) => l !== label))),
        score: Math.round((right ? 0.6 + rnd() * 0.4 : 0.3 + rnd() * 0.4) * 1000) / 1000,
        model_version: version,
        created_at: at(DEMO_TASKS + task.id),
        updated_at: at(DEMO_TASKS + task.id),
      });
    }
  }

  let annotationId = 1;
  const annotators = [1, 2, 3];
  for (const task of state.tasks) {
    if (task.id > 120) continue; // the rest stays unlabeled
    const label = truth[task.id - 1] as string;
    const first = annotators[task.id % 3] as number;
    const who = task.id % 5 === 0 ? [first, annotators[(task.id + 1) % 3] as number] : [first];
    for (const user of who) {
      const cancelled = task.id % 17 === 0 && user === first;
      state.annotations.push({
        id: annotationId++,
        task: task.id,
        project: 1,
        result: cancelled ? [] : choice(rnd() < 0.9 ? label : pick(LABELS)),
        completed_by: user,
        was_cancelled: cancelled,
        ground_truth: task.id % 25 === 0,
        lead_time: Math.round((3 + rnd() * 40) * 100) / 100,
        created_at: at(2 * DEMO_TASKS + annotationId * 7),
        updated_at: at(2 * DEMO_TASKS + annotationId * 7),
        parent_prediction: null,
      });
    }
  }
  return state;
}
