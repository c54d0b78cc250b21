import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { startMockServer, type MockServer } from "../../mock-server/index.js";
import { raw, type Raw } from "./fixture.js";

/*
 * Multipart imports, the FileUpload records they keep and their routes, and the reimport, as Label Studio 1.22
 * answers them (measured on a running 1.22 server; docs/reference/imports.md).
 */
const CONFIG = '<View><Text name="text" value="$text"/><Choices name="c" toName="text"><Choice value="a"/></Choices></View>';
let server: MockServer;

beforeAll(async () => {
  server = await startMockServer({
    data: {
      users: [
        { id: 1, username: "admin" },
        { id: 2, username: "other" },
      ],
      projects: [{ id: 1, title: "Uploads", label_config: CONFIG }],
    },
  });
});
afterAll(() => server.close());

type Part = readonly [field: string, name: string, content: string];

/** A multipart request carrying `parts` as files. */
async function send(method: string, path: string, parts: readonly Part[], key = server.legacyToken): Promise<Raw> {
  const form = new FormData();
  for (const [field, name, content] of parts) form.append(field, new Blob([content]), name);
  const response = await fetch(`${server.url}${path}`, { method, headers: { authorization: `Token ${key}` }, body: form });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, headers: response.headers, body };
}

async function newProject(config = CONFIG): Promise<number> {
  return (await raw(server, "POST", "/api/projects/", { body: { title: "uploads", label_config: config } })).body.id as number;
}

const tasksOf = async (project: number) =>
  (await raw(server, "GET", `/api/projects/${project}/tasks/?page_size=100`)).body as {
    id: number;
    data: unknown;
    file_upload: number | null;
  }[];
const errors = (answer: Raw) => (answer.body as { validation_errors: { non_field_errors: string[] } }).validation_errors.non_field_errors;
const isPage = (answer: Raw) => answer.status === 404 && (answer.headers.get("content-type") ?? "").startsWith("text/html");

describe("a multipart import", () => {
  test("reads JSON, CSV, TSV and TXT files into tasks that name their upload, and answers what the files held", async () => {
    const project = await newProject();
    const json = await send("POST", `/api/projects/${project}/import?return_task_ids=true`, [
      ["file", "t.json", '[{"text":"j1"},{"data":{"text":"j2"},"annotations":[{"result":[]}]}]'],
    ]);
    expect(json.status).toBe(201);
    expect(json.body).toMatchObject({
      task_count: 2,
      annotation_count: 1,
      prediction_count: 0,
      could_be_tasks_list: false,
      found_formats: { ".json": 1 },
      data_columns: ["text"],
    });
    const [jsonUpload] = (json.body as { file_upload_ids: number[] }).file_upload_ids;
    expect((json.body as { task_ids: number[] }).task_ids).toHaveLength(2);

    const two = await send("POST", `/api/projects/${project}/import`, [
      ["a", "t.csv", "text,n\nc1,1\nc2,\n"],
      ["b", "t.tsv", "text\tn\nt1\t1\nt2\t2\n"],
    ]);
    expect(two.status).toBe(201);
    expect(two.body).toMatchObject({ task_count: 4, could_be_tasks_list: true, found_formats: { ".csv": 1, ".tsv": 1 } });
    expect([...(two.body as { data_columns: string[] }).data_columns].sort()).toEqual(["n", "text"]);
    expect(two.body).not.toHaveProperty("task_ids");

    const txt = await send("POST", `/api/projects/${project}/import`, [["file", "t.txt", "line1\nline2\n"]]);
    expect(txt.body).toMatchObject({ task_count: 2, found_formats: { ".txt": 1 }, data_columns: ["$undefined$"] });

    const tasks = (await tasksOf(project)).sort((a, b) => a.id - b.id);
    // A CSV column with a missing value is a float column (1.0 on the server), its missing cell "".
    expect(tasks.map((t) => t.data)).toEqual([
      { text: "j1" },
      { text: "j2" },
      { text: "c1", n: 1 },
      { text: "c2", n: "" },
      { text: "t1", n: 1 },
      { text: "t2", n: 2 },
      // A text file's line goes under the config's only data key.
      { text: "line1" },
      { text: "line2" },
    ]);
    expect(tasks[0]!.file_upload).toBe(jsonUpload);
    // The Data Manager shows the stored file's name, and filters on it.
    const detail = await raw(server, "GET", `/api/tasks/${tasks[0]!.id}/`);
    expect(detail.body.file_upload).toMatch(/^[0-9a-f]{8}-t\.json$/);
    const upload = await raw(server, "GET", `/api/import/file-upload/${jsonUpload}`);
    expect(upload.body).toEqual({ id: jsonUpload, file: `upload/${project}/${detail.body.file_upload as string}`, size: 68 });
    const query = {
      filters: {
        conjunction: "and",
        items: [{ filter: "filter:tasks:file_upload", operator: "contains", type: "String", value: "t.tsv" }],
      },
    };
    const filtered = await raw(server, "GET", `/api/tasks/?project=${project}&query=${encodeURIComponent(JSON.stringify(query))}`);
    expect((filtered.body.tasks as { data: unknown }[]).map((t) => t.data)).toEqual([
      { text: "t1", n: 1 },
      { text: "t2", n: 2 },
    ]);
  });

  test("keeps the uploads of an import that fails, and names the file in the parser's error", async () => {
    const project = await newProject();
    const before = server.data().file_uploads.length;
    const bad = await send("POST", `/api/projects/${project}/import`, [["file", "bad.json", '[{"text":']]);
    expect(bad.status).toBe(400);
    expect(errors(bad)[0]).toMatch(/^Failed to parse input file [0-9a-f]{8}-bad\.json: Expected object or value$/);
    const missing = await send("POST", `/api/projects/${project}/import`, [["file", "other.csv", "other\nx\n"]]);
    expect(errors(missing)[0]).toMatch(
      /^Error at item 0: "text" key is expected in task data \[assume: item\["data"\] = task root with values\] :: \{'data': \{'other': 'x'\}, 'file_upload_id': \d+\}$/,
    );
    expect(server.data().file_uploads.length).toBe(before + 2);
    expect(server.data().tasks.filter((t) => t.project === project)).toEqual([]);
  });

  test.each([
    ["x.xyz", "abc", ".xyz extension is not supported"],
    ["empty.csv", "", /: No columns to parse from file$/],
    ["hdr.csv", "text\n", "load_tasks: No tasks added"],
    ["e.json", "[]", "load_tasks: No tasks added"],
    ["num.json", "5", /: 'int' object is not iterable$/],
    ["lnum.json", "[1]", /: 'int' object has no attribute 'get'$/],
    ["d5.json", '[{"data":5}]', /: \[ErrorDetail\(string='Task item should be dict', code='invalid'\)\]$/],
    ["wide.csv", "a,b\n1,2\n1,2,3,4\n", /: Error tokenizing data\. C error: Expected 2 fields in line 3, saw 4\n$/],
  ])("refuses %s as the server does", async (name, content, message) => {
    const project = await newProject();
    const answer = await send("POST", `/api/projects/${project}/import`, [["file", name, content]]);
    expect(answer.status).toBe(400);
    if (typeof message === "string") expect(errors(answer)).toEqual([message]);
    else expect(errors(answer)[0]).toMatch(message);
  });

  test("refuses files whose data keys share none, naming the later file", async () => {
    const project = await newProject();
    const answer = await send("POST", `/api/projects/${project}/import`, [
      ["a", "t.csv", "text\nx\n"],
      ["b", "other.csv", "other\ny\n"],
    ]);
    expect(answer.status).toBe(400);
    expect(errors(answer)[0]).toMatch(
      new RegExp(
        `^You're trying to import inconsistent data:\nuploading tabular data from "upload/${project}/[0-9a-f]{8}-other\\.csv" with data key\\(s\\) "other", clashes with data key\\(s\\) found from other files:\n"text"$`,
      ),
    );
  });

  test("takes each field's last file, and reads any other supported file as one task (its text or its URL)", async () => {
    const project = await newProject();
    const same = await send("POST", `/api/projects/${project}/import?return_task_ids=true`, [
      ["file", "a.json", '[{"text":"s1"}]'],
      ["file", "b.json", '[{"text":"s2"}]'],
    ]);
    expect(same.body).toMatchObject({ task_count: 1 });
    const html = await send("POST", `/api/projects/${project}/import`, [["file", "h.html", "<p>hi</p>"]]);
    expect(html.body).toMatchObject({ task_count: 1, found_formats: { ".html": 1 }, data_columns: ["$undefined$"] });
    const png = await send("POST", `/api/projects/${project}/import`, [["file", "i.png", "PNG"]]);
    const pngUpload = await raw(server, "GET", `/api/import/file-upload/${(png.body as { file_upload_ids: number[] }).file_upload_ids[0]}`);
    const data = (await tasksOf(project)).map((t) => t.data);
    expect(data).toContainEqual({ text: "s2" });
    expect(data).not.toContainEqual({ text: "s1" });
    expect(data).toContainEqual({ text: "<p>hi</p>" });
    expect(data).toContainEqual({ text: `/data/${pngUpload.body.file as string}` });
  });

  test("types CSV columns as pandas does", async () => {
    const project = await newProject();
    const csv = 'text,i,f,b,bn,s,in,q\nx,1,1.5,True,true,a,1,"a,b"\ny,2,2,False,,1,,"c""d"\n\nz,3,3,true,NA,b,null,e\n';
    const answer = await send("POST", `/api/projects/${project}/import`, [["file", "types.csv", csv]]);
    expect(answer.status).toBe(201);
    const data = (await tasksOf(project)).sort((a, b) => a.id - b.id).map((t) => t.data);
    expect(data).toEqual([
      { text: "x", i: 1, f: 1.5, b: true, bn: true, s: "a", in: 1, q: "a,b" },
      { text: "y", i: 2, f: 2, b: false, bn: "", s: "1", in: "", q: 'c"d' },
      { text: "z", i: 3, f: 3, b: true, bn: "", s: "b", in: "", q: "e" },
    ]);
  });

  test("commit_to_project=false keeps the uploads and stores no task; counts are null", async () => {
    const project = await newProject();
    const answer = await send("POST", `/api/projects/${project}/import?commit_to_project=false&return_task_ids=true`, [
      ["file", "t.csv", "text\na\nb\n"],
    ]);
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ task_count: 2, annotation_count: null, prediction_count: null, could_be_tasks_list: true });
    expect(answer.body).not.toHaveProperty("task_ids");
    expect(server.data().tasks.filter((t) => t.project === project)).toEqual([]);
    const bad = await raw(server, "POST", `/api/projects/${project}/import?commit_to_project=maybe`, { body: [{ text: "a" }] });
    expect(bad.status).toBe(400);
    expect(bad.body.validation_errors).toEqual({
      commit_to_project: 'Incorrect bool value "maybe". It should be one of [1, 0, true, false, yes, no]',
    });
  });

  test("a form without files is no data; a form's url that is JSON is kept as inplace.json", async () => {
    const project = await newProject();
    const form = new FormData();
    form.append("x", "1");
    const none = await fetch(`${server.url}/api/projects/${project}/import`, {
      method: "POST",
      headers: { authorization: `Token ${server.legacyToken}` },
      body: form,
    });
    expect(none.status).toBe(400);
    expect(((await none.json()) as { validation_errors: unknown }).validation_errors).toEqual({
      non_field_errors: ["load_tasks: No data found in DATA or in FILES"],
    });
    const urlForm = (url: string) =>
      raw(server, "POST", `/api/projects/${project}/import`, {
        body: `url=${encodeURIComponent(url)}`,
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
    // `str_to_json` reads it with `'` made `"`, but the file keeps the text as sent: ujson then refuses it.
    const quoted = await urlForm("[{'text': 'u1'}]");
    expect(errors(quoted)[0]).toMatch(/^Failed to parse input file [0-9a-f]{8}-inplace\.json: Expected object or value$/);
    const inline = await urlForm('[{"text": "u1"}]');
    expect(inline.status).toBe(201);
    expect(inline.body).toMatchObject({ task_count: 1, found_formats: { ".json": 1 }, data_columns: ["text"] });
    const upload = await raw(server, "GET", `/api/import/file-upload/${(inline.body as { file_upload_ids: number[] }).file_upload_ids[0]}`);
    expect(upload.body.file).toMatch(new RegExp(`^upload/${project}/[0-9a-f]{8}-inplace\\.json$`));
  });
});

describe("the file-upload routes", () => {
  async function imported(project: number, name = "t.json", content = '[{"text":"a"},{"text":"b"}]') {
    const answer = await send("POST", `/api/projects/${project}/import`, [["file", name, content]]);
    expect(answer.status).toBe(201);
    return (answer.body as { file_upload_ids: number[] }).file_upload_ids[0]!;
  }

  test("GET one by id (any caller's), 404 page for a missing id", async () => {
    const project = await newProject();
    const id = await imported(project);
    expect((await raw(server, "GET", `/api/import/file-upload/${id}`)).body).toMatchObject({ id, size: 27 });
    expect(isPage(await raw(server, "GET", "/api/import/file-upload/99999"))).toBe(true);
  });

  test("PATCH and PUT replace the file under a new name; its tasks show it; refusals as DRF's FileField", async () => {
    const project = await newProject();
    const id = await imported(project);
    const unchanged = await raw(server, "PATCH", `/api/import/file-upload/${id}`, { body: {} });
    expect(unchanged.status).toBe(200);
    const patched = await send("PATCH", `/api/import/file-upload/${id}`, [["file", "new.json", '[{"text":"p1"}]']]);
    expect(patched.body).toMatchObject({ id, size: 15 });
    expect((patched.body as { file: string }).file).toMatch(new RegExp(`^upload/${project}/[0-9a-f]{8}-new\\.json$`));
    const [task] = await tasksOf(project);
    expect((await raw(server, "GET", `/api/tasks/${task!.id}/`)).body.file_upload).toBe(
      (patched.body as { file: string }).file.split("/").pop(),
    );
    expect((await raw(server, "PATCH", `/api/import/file-upload/${id}`, { body: { file: "x.json" } })).body.validation_errors).toEqual({
      file: ["The submitted data was not a file. Check the encoding type on the form."],
    });
    expect((await raw(server, "PUT", `/api/import/file-upload/${id}`, { body: {} })).body.validation_errors).toEqual({
      file: ["No file was submitted."],
    });
  });

  test("DELETE one: 204, then the 404 page; its tasks stay without an upload", async () => {
    const project = await newProject();
    const id = await imported(project);
    expect((await raw(server, "DELETE", `/api/import/file-upload/${id}`)).status).toBe(204);
    expect(isPage(await raw(server, "DELETE", `/api/import/file-upload/${id}`))).toBe(true);
    const tasks = await tasksOf(project);
    expect(tasks.map((t) => t.file_upload)).toEqual([null, null]);
    expect((await raw(server, "GET", `/api/tasks/${tasks[0]!.id}/`)).body.file_upload).toBeNull();
  });

  test("the project's list: the caller's own, ids by a JSON list, all=true for all; not paginated", async () => {
    const project = await newProject();
    const a = await imported(project);
    const b = await imported(project, "t.csv", "text\nx\n");
    const list = (query: string) => raw(server, "GET", `/api/projects/${project}/file-uploads${query}`);
    expect((await list("")).body).toEqual([]);
    expect(((await list(`?ids=${encodeURIComponent(`[${b}]`)}`)).body as { id: number }[]).map((u) => u.id)).toEqual([b]);
    expect(((await list(`?ids=${encodeURIComponent(`["${a}"]`)}`)).body as { id: number }[]).map((u) => u.id)).toEqual([a]);
    expect(((await list("?all=true&page_size=1")).body as { id: number }[]).map((u) => u.id)).toEqual([a, b]);
    expect((await list("?all=maybe")).body.validation_errors).toEqual({
      all: 'Incorrect bool value "maybe". It should be one of [1, 0, true, false, yes, no]',
    });
    // `json.loads` on the text and Python's iteration: a 500 with the exception's words.
    expect((await list("?ids=1,3")).body).toMatchObject({ status_code: 500, detail: "Extra data: line 1 column 2 (char 1)" });
    expect((await list("?ids=1")).body).toMatchObject({ status_code: 500, detail: "'int' object is not iterable" });
    expect(isPage(await raw(server, "GET", "/api/projects/99999/file-uploads?all=true"))).toBe(true);
  });

  test("DELETE the project's list: the ids given (a list), all without the key, a 500 for anything else", async () => {
    const project = await newProject();
    const a = await imported(project);
    const b = await imported(project);
    await imported(project);
    const del = (body: unknown) => raw(server, "DELETE", `/api/projects/${project}/file-uploads`, { body });
    expect((await del({ file_upload_ids: [a, 99999] })).body).toEqual({ deleted: 1 });
    expect((await del({ file_upload_ids: b })).body).toMatchObject({
      status_code: 500,
      detail: '"file_upload_ids" parameter must be a list of integers',
    });
    expect((await del({ file_upload_ids: [String(b)] })).body).toEqual({ deleted: 1 });
    expect((await del({})).body).toEqual({ deleted: 1 });
    expect(
      server
        .data()
        .file_uploads.filter((u) => u.project === project)
        .map((u) => u.id),
    ).toEqual([]);
    expect((await tasksOf(project)).every((t) => t.file_upload === null)).toBe(true);
  });
});

describe("reimport and the import records", () => {
  test("reimport reads uploads again, replacing the tasks they made; no ids is a 200 of zeros", async () => {
    const project = await newProject();
    const staged = await send("POST", `/api/projects/${project}/import?commit_to_project=false`, [
      ["file", "t.csv", "text,n\nc1,1\nc2,\n"],
    ]);
    const [id] = (staged.body as { file_upload_ids: number[] }).file_upload_ids;
    const again = (body: unknown) => raw(server, "POST", `/api/projects/${project}/reimport`, { body });
    expect((await again({})).status).toBe(200);
    expect((await again({})).body).toEqual({
      task_count: 0,
      annotation_count: 0,
      prediction_count: 0,
      duration: 0,
      file_upload_ids: [],
      found_formats: {},
      data_columns: [],
    });
    const first = await again({ file_upload_ids: [id] });
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({
      task_count: 2,
      annotation_count: 0,
      prediction_count: 0,
      file_upload_ids: [id],
      found_formats: { ".csv": 1 },
    });
    expect(first.body).not.toHaveProperty("could_be_tasks_list");
    await again({ file_upload_ids: [id] });
    expect(await tasksOf(project)).toHaveLength(2);
    // As one file: a single task holding its URL.
    const single = await again({ file_upload_ids: [id], files_as_tasks_list: false });
    expect(single.body).toMatchObject({ task_count: 1, data_columns: ["$undefined$"] });
    const upload = await raw(server, "GET", `/api/import/file-upload/${id}`);
    expect((await tasksOf(project)).map((t) => t.data)).toEqual([{ text: `/data/${upload.body.file as string}` }]);
    // Ids of no upload of the project: nothing read, nothing removed.
    expect((await again({ file_upload_ids: [99999] })).body).toMatchObject({ task_count: 0, file_upload_ids: [99999], found_formats: {} });
    expect(await tasksOf(project)).toHaveLength(1);
    expect(isPage(await raw(server, "POST", "/api/projects/99999/reimport", { body: { file_upload_ids: [id] } }))).toBe(true);
    // `bool_from_request(request.data, 'files_as_tasks_list', True)`, then `request.data.get('file_upload_ids')`.
    expect((await again({ file_upload_ids: [id], files_as_tasks_list: "maybe" })).body.validation_errors).toEqual({
      files_as_tasks_list: 'Incorrect bool value "maybe". It should be one of [1, 0, true, false, yes, no]',
    });
    expect((await again({ file_upload_ids: [id], files_as_tasks_list: null })).body.validation_errors).toEqual({
      files_as_tasks_list: "int() argument must be a string, a bytes-like object or a real number, not 'NoneType'",
    });
    expect((await again([1])).body).toMatchObject({ status_code: 500, detail: "'list' object has no attribute 'get'" });
    // A text is iterated: "12" names uploads 1 and 2, and is answered as sent.
    expect((await again({ file_upload_ids: "12" })).body).toMatchObject({ task_count: 0, file_upload_ids: "12" });
  });

  test("the import and reimport records: none on a community server, any id is a JSON 404", async () => {
    const project = await newProject();
    for (const [path, model] of [
      [`/api/projects/${project}/imports/1/`, "ProjectImport"],
      [`/api/projects/99999/imports/1/`, "ProjectImport"],
      [`/api/projects/${project}/reimports/1/`, "ProjectReimport"],
    ] as const) {
      const answer = await raw(server, "GET", path);
      expect(answer.status).toBe(404);
      expect(answer.body).toMatchObject({ status_code: 404, detail: `No ${model} matches the given query.` });
    }
  });

  test("deleting the project deletes its uploads", async () => {
    const project = await newProject();
    await send("POST", `/api/projects/${project}/import`, [["file", "t.json", '[{"text":"a"}]']]);
    expect(server.data().file_uploads.some((u) => u.project === project)).toBe(true);
    await raw(server, "DELETE", `/api/projects/${project}/`);
    expect(server.data().file_uploads.some((u) => u.project === project)).toBe(false);
  });
});

describe("an uploaded file's bytes (GET /data/upload/<path>, the SDK's files.download)", () => {
  test("the file with its media type in the CSP sandbox, a Range as 206/416; a missing one the view's 500; 401 without a key", async () => {
    const project = await newProject();
    const answer = await send("POST", `/api/projects/${project}/import`, [["file", "t.csv", "text,n\nc1,1\nc2,\n"]]);
    const [id] = (answer.body as { file_upload_ids: number[] }).file_upload_ids;
    const file = (await raw(server, "GET", `/api/import/file-upload/${id}`)).body.file as string;
    const auth = { authorization: `Token ${server.legacyToken}` };
    const whole = await fetch(`${server.url}/data/${file}`, { headers: auth });
    expect(whole.status).toBe(200);
    expect(whole.headers.get("content-type")).toBe("text/csv");
    expect(whole.headers.get("content-security-policy")).toBe("sandbox");
    expect(await whole.text()).toBe("text,n\nc1,1\nc2,\n");
    const part = await fetch(`${server.url}/data/${file}`, { headers: { ...auth, range: "bytes=0-3" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe("bytes 0-3/16");
    expect(await part.text()).toBe("text");
    expect((await fetch(`${server.url}/data/${file}`, { headers: { ...auth, range: "bytes=50-60" } })).status).toBe(416);
    const missing = await raw(server, "GET", `/data/upload/${project}/nope.csv`);
    expect(missing.body).toMatchObject({ status_code: 500, detail: "'NoneType' object has no attribute 'has_permission'" });
    expect((await raw(server, "GET", `/data/${file}`, { key: null })).status).toBe(401);
    expect((await raw(server, "POST", `/data/${file}`)).status).toBe(405);
  });
});
