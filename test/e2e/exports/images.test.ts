import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startMockServer, type MockSeed, type MockServer } from "../../../mock-server/index.js";
import { NOT_FOUND_PAGE } from "../../../mock-server/guards.js";
import { unzip } from "../../../mock-server/exports/zip.js";
import { VirtualClock } from "../../helpers/virtual-clock.js";

/**
 * COCO and YOLO as the converter writes them, for an image project measured on a real server
 * (docs/reference/exports.md#the-converters-formats): one rectangle rotated by 30°, a polygon, a category
 * given in the config, images at http(s), S3 and upload URLs. The server's archive differs from run
 * to run (dates, member order, compression): the members and their bytes are what is compared.
 */
const KEY = "images00000000000000000000000000000000001";
const CONFIG =
  '<View><Image name="image" value="$image"/><RectangleLabels name="label" toName="image"><Label value="Cat"/><Label value="Dog" category="7"/><Label value="Bird"/></RectangleLabels><PolygonLabels name="poly" toName="image"><Label value="Cat"/><Label value="Fish"/></PolygonLabels></View>';
const rect = (x: number, y: number, w: number, h: number, label: string, rotation = 0) => ({
  from_name: "label",
  to_name: "image",
  type: "rectanglelabels",
  original_width: 640,
  original_height: 480,
  image_rotation: 0,
  value: { x, y, width: w, height: h, rotation, rectanglelabels: [label] },
});
const poly = (points: number[][], label: string) => ({
  from_name: "poly",
  to_name: "image",
  type: "polygonlabels",
  original_width: 640,
  original_height: 480,
  value: { points, polygonlabels: [label] },
});
const seed: MockSeed = {
  users: [{ id: 1, username: "admin", email: "admin@example.com", token: KEY }],
  projects: [{ id: 5, title: "exports probe image", label_config: CONFIG }],
  tasks: [
    { id: 59, project: 5, data: { image: "http://example.com/images/cat%201.jpg?x=1" } },
    { id: 60, project: 5, data: { image: "https://example.com/b.png" } },
    { id: 61, project: 5, data: { image: "s3://bucket/dir/c.jpg" } },
    { id: 62, project: 5, data: { image: "/data/upload/3/d.jpg" } },
  ],
  annotations: [
    {
      id: 1,
      task: 59,
      completed_by: 1,
      result: [
        rect(10, 20, 30.5, 40, "Cat"),
        rect(50, 50, 10, 10, "Dog", 30),
        poly(
          [
            [10, 10],
            [20, 10],
            [15, 30],
          ],
          "Fish",
        ),
      ],
    },
    { id: 2, task: 61, completed_by: 1, result: [rect(0, 0, 100, 100, "Bird")] },
    { id: 3, task: 62, completed_by: 1, result: [rect(1.5, 2.25, 3, 4, "Cat")] },
    { id: 4, task: 62, completed_by: 1, result: [], was_cancelled: true },
  ],
};

let mock: MockServer;
beforeAll(async () => {
  mock = await startMockServer({ data: seed, clock: new VirtualClock(Date.UTC(2026, 10, 25, 23, 1, 5, 926)) });
});
afterAll(() => mock.close());

async function archive(path: string): Promise<Map<string, string | undefined>> {
  const response = await fetch(`${mock.url}${path}`, { headers: { Authorization: `Token ${KEY}` } });
  expect(response.headers.get("content-type")).toBe("application/zip");
  const entries = unzip(new Uint8Array(await response.arrayBuffer()));
  return new Map(entries.map((e) => [e.name, e.bytes === undefined ? undefined : new TextDecoder().decode(e.bytes)]));
}
const snapshotId = async () =>
  (
    (await (
      await fetch(`${mock.url}/api/projects/5/exports/`, {
        method: "POST",
        headers: { Authorization: `Token ${KEY}`, "Content-Type": "application/json" },
        body: "{}",
      })
    ).json()) as { id: number }
  ).id;

describe("YOLO", () => {
  test("a label file per image (named after the image), classes.txt and notes.json: the measured files", async () => {
    const files = await archive(`/api/projects/5/exports/${await snapshotId()}/download?exportType=YOLO`);
    expect([...files.keys()].sort()).toEqual([
      "classes.txt",
      "images/",
      "labels/",
      "labels/15de6e1b__cat%201.txt",
      "labels/85efc80e__b.txt",
      "labels/c.txt",
      "labels/d.txt",
      "notes.json",
    ]);
    // http(s) images: md5(url)[:8]__<file>; an S3 or upload URL needs the server's URL, which a download has none of.
    // Categories: "Dog" keeps its category attribute ("7", a string), the others are numbered from 0, sorted.
    expect(files.get("labels/15de6e1b__cat%201.txt")).toBe("1 0.2525 0.4 0.305 0.4\n7 0.55 0.55 0.1 0.1\n2 0.1 0.1 0.2 0.1 0.15 0.3\n");
    expect(files.get("labels/d.txt")).toBe("1 0.03 0.0425 0.03 0.04\n");
    expect(files.get("labels/c.txt")).toBe("0 0.5 0.5 1.0 1.0\n");
    expect(files.get("labels/85efc80e__b.txt")).toBe("");
    expect(files.get("classes.txt")).toBe("Dog\nBird\nCat\nFish\n");
    expect(files.get("notes.json")).toBe(
      '{\n  "categories": [\n    {\n      "id": "7",\n      "name": "Dog"\n    },\n    {\n      "id": 0,\n      "name": "Bird"\n    },\n    {\n      "id": 1,\n      "name": "Cat"\n    },\n    {\n      "id": 2,\n      "name": "Fish"\n    }\n  ],\n  "info": {\n    "year": 2026,\n    "version": "1.0",\n    "contributor": "Label Studio"\n  }\n}',
    );
  });

  test("YOLO OBB: the four corners of the rotated box", async () => {
    const files = await archive(`/api/projects/5/exports/${await snapshotId()}/download?exportType=YOLO_OBB`);
    expect(files.get("labels/15de6e1b__cat%201.txt")).toBe(
      "1 0.1 0.2 0.40499999999999997 0.2 0.40499999999999997 0.6 0.1 0.6\n7 0.5 0.5 0.5866025403784438 0.5666666666666667 0.5491025403784439 0.6532692070451105 0.4625 0.5866025403784438\n2 0.1 0.1 0.2 0.1 0.15 0.3\n",
    );
    expect(files.get("labels/c.txt")).toBe("0 0.0 0.0 1.0 0.0 1.0 1.0 0.0 1.0\n");
  });

  test("the one-step export knows the server's URL: upload and S3 images are named from it", async () => {
    const files = await archive("/api/projects/5/export?exportType=YOLO&download_all_tasks=true");
    const origin = mock.url;
    const { createHash } = await import("node:crypto");
    const hash = (url: string) => createHash("md5").update(url).digest("hex").slice(0, 8);
    expect(files.has(`labels/${hash(`${origin}/data/upload/3/d.jpg`)}__d.txt`)).toBe(true);
    expect(files.has(`labels/${hash(`${origin}/tasks/61/presign/?fileuri=s3://bucket/dir/c.jpg`)}__c.txt`)).toBe(true);
  });

  test("the _WITH_IMAGES variants: every download fails, so every image keeps its own name", async () => {
    const files = await archive(`/api/projects/5/exports/${await snapshotId()}/download?exportType=YOLO_WITH_IMAGES`);
    expect([...files.keys()].filter((k) => k.startsWith("labels/") && k !== "labels/").sort()).toEqual([
      "labels/b.txt",
      "labels/c.txt",
      "labels/cat%201.txt",
      "labels/d.txt",
    ]);
  });
});

describe("COCO", () => {
  test("result.json: images sized from the labels, categories renumbered from 0, boxes and polygons in pixels", async () => {
    const files = await archive(`/api/projects/5/exports/${await snapshotId()}/download?exportType=COCO`);
    expect([...files.keys()]).toEqual(["images/", "result.json"]);
    const coco = JSON.parse(files.get("result.json") as string) as Record<string, unknown>;
    expect(coco["categories"]).toEqual([
      { id: 0, name: "Dog" },
      { id: 1, name: "Bird" },
      { id: 2, name: "Cat" },
      { id: 3, name: "Fish" },
    ]);
    expect(coco["images"]).toEqual([
      { width: 640, height: 480, id: 0, file_name: "images/15de6e1b__cat%201.jpg" },
      { width: null, height: null, id: 1, file_name: "images/85efc80e__b.png" },
      { width: 640, height: 480, id: 2, file_name: "s3://bucket/dir/c.jpg" },
      { width: 640, height: 480, id: 3, file_name: "/data/upload/3/d.jpg" },
    ]);
    const text = files.get("result.json") as string;
    // ujson's indent 2, floats as Python writes them (0.0), `/` escaped.
    expect(text).toContain('"bbox": [\n        64.0,\n        96.0,\n        195.2,\n        192.0\n      ],');
    expect(text).toContain('"area": 37478.399999999994');
    expect(text).toContain('"bbox": [\n        288.0,\n        240.0,\n        87.42562584220404,\n        65.56921938165304\n      ]');
    expect(text).toContain(
      '"segmentation": [\n        [\n          64.0,\n          48.0,\n          128.0,\n          48.0,\n          96.0,\n          144.0\n        ]\n      ]',
    );
    expect(text).toContain('"area": 3072.0');
    expect(text).toContain('"file_name": "s3:\\/\\/bucket\\/dir\\/c.jpg"');
    expect(text).toContain('"date_created": "2026-11-25 23:01:05.926000"');
  });
});

describe("formats the mock does not write", () => {
  test("VOC, CONLL2003 and the brush formats answer as the server does when its converter writes nothing", async () => {
    const id = await snapshotId();
    for (const type of ["VOC", "CONLL2003", "BRUSH_TO_NUMPY", "ASR_MANIFEST"]) {
      const response = await fetch(`${mock.url}/api/projects/5/exports/${id}/download?exportType=${type}`, {
        headers: { Authorization: `Token ${KEY}` },
      });
      expect([type, response.status, await response.text()]).toEqual([type, 404, NOT_FOUND_PAGE]);
    }
  });
});
