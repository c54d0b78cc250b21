"""
Drive a running dmq mock with the official Python SDK (label-studio-sdk 2.x), unchanged.

test/e2e/python-sdk/python-sdk.test.ts runs it where a realls root (/work/shared/realls/setup.sh) exists: its Python
3.13 has the SDK and its dependencies (pandas for the exports' `as_pandas`). Elsewhere, set-up on Debian bookworm, as
docs/reference/python-sdk.md#running-it-without-pypi describes: `apt-get install python3-httpx python3-pydantic
python3-jwt`, the SDK's `src/` on disk, and a one-line `pydantic_core` shim (pydantic 1 lacks it):

    mkdir -p shim/pydantic_core
    echo "from pydantic.fields import Undefined as PydanticUndefined" > shim/pydantic_core/__init__.py
    npm start -- --port 8080 &
    SDK_SRC=/path/to/label-studio-sdk/src SHIM=shim python3 test/e2e/python-sdk/check.py http://127.0.0.1:8080 <legacy token>

It runs the same calls twice: with the legacy token, then with a personal access token obtained
from `POST /api/token/` (the SDK exchanges it at /api/token/refresh/ and sends Bearer); then the other served
resources (uploaded files and the import-record 404, users, ML backends with a model server of its own, label config
validation, the key's reset).
`bash test/e2e/python-sdk/run.sh` runs it inside a built real-server root (Python 3.13 with the SDK installed).
"""
import os
import sys, json, httpx
sys.path.insert(0, os.environ["SDK_SRC"]); sys.path.append(os.environ.get("SHIM", "shim"))
from label_studio_sdk.base_client import LabelStudioBase
from label_studio_sdk.tasks.client_ext import TasksClientExt
from label_studio_sdk._extensions.pager_ext import SyncPagerExt

url, legacy = sys.argv[1], sys.argv[2]
r = httpx.post(url + "/api/token/", headers={"Authorization": "Token " + legacy})
assert r.status_code == 201, (r.status_code, r.text)
pat = r.json()["token"]

def run(key, label):
    ls = LabelStudioBase(base_url=url, api_key=key)
    tasks = TasksClientExt(client_wrapper=ls._client_wrapper)
    me = ls.users.whoami()
    print(label, "whoami", me.username, me.email)
    projects = list(SyncPagerExt.from_sync_pager(ls.projects.list(page_size=50)))
    print(label, "projects", [p.id for p in projects])
    p = ls.projects.create(title="sdk " + label, label_config='<View><Text name="text" value="$text"/><Choices name="s" toName="text"><Choice value="A"/><Choice value="B"/></Choices></View>')
    for i in range(6):
        ls.tasks.create(data={"text": f"t{i}"}, project=p.id)
    got = list(tasks.list(project=p.id, page_size=4))
    print(label, "tasks", len(got), [t.id for t in got][:3], "annotations" in (got[0].dict() if hasattr(got[0], "dict") else {}))
    t1 = got[0].id
    pred = ls.predictions.create(task=t1, result=[{"from_name": "s", "to_name": "text", "type": "choices", "value": {"choices": ["A"]}}], score=0.9, model_version="m1")
    print(label, "prediction", pred.id, pred.model_version)
    ann = ls.annotations.create(id=got[1].id, result=[{"from_name": "s", "to_name": "text", "type": "choices", "value": {"choices": ["B"]}}])
    print(label, "annotation", ann.id, ann.task)
    view = ls.views.create(data={"filters": {"conjunction": "and", "items": [{"filter": "filter:tasks:id", "operator": "greater", "type": "Number", "value": 0}]}, "ordering": ["tasks:id"]}, project=p.id)
    print(label, "view", view.id, [v.id for v in ls.views.list(project=p.id)])
    acts = ls.actions.list(project=p.id)
    print(label, "actions", [a.id for a in acts])
    ls.actions.create(id="predictions_to_annotations", project=p.id)
    ls.actions.create(id="delete_tasks", project=p.id, selected_items={"all": False, "included": [got[-1].id]})
    ls.actions.create(id="delete_tasks", project=p.id, filters={"conjunction": "or", "items": [{"filter": "filter:tasks:completed_at", "operator": "greater", "type": "Datetime", "value": "2000-01-01T00:00:00.000000Z"}]}, ordering=["-tasks:created_at"], selected_items={"all": True, "excluded": [got[0].id]})
    left = list(tasks.list(project=p.id, query=json.dumps({"filters": {"conjunction": "and", "items": []}, "ordering": ["-tasks:id"]})))
    print(label, "left", [t.id for t in left])
    print(label, "task get", ls.tasks.get(id=str(left[0].id)).id, "project get", ls.projects.get(id=p.id).title)
    ls.tasks.delete(id=str(left[0].id))
    ls.projects.delete(id=p.id)

def exports(key, label):
    """The SDK's projects.exports calls (and its ext helpers) on a project of their own, unchanged."""
    from label_studio_sdk.projects.exports.client_ext import ExportsClientExt
    ls = LabelStudioBase(base_url=url, api_key=key)
    ex = ls.projects.exports
    config = '<View><Text name="text" value="$text"/><Choices name="s" toName="text"><Choice value="A"/><Choice value="B"/></Choices></View>'
    p = ls.projects.create(title="sdk exports " + label, label_config=config)
    choice = lambda v: [{"from_name": "s", "to_name": "text", "type": "choices", "value": {"choices": [v]}}]
    ls.projects.import_tasks(id=p.id, request=[
        {"data": {"text": "labeled"}, "annotations": [{"result": choice("A")}], "predictions": [{"result": choice("B"), "score": 0.5}]},
        {"data": {"text": "skipped"}, "annotations": [{"result": [], "was_cancelled": True}]},
        {"data": {"text": "untouched"}},
    ])
    formats = ex.list_formats(id=p.id)
    print(label, "export formats", [f["name"] for f in formats if not f.get("disabled")])
    csv = b"".join(ex.download_sync(id=p.id, export_type="CSV", download_all_tasks=True)).decode()
    assert csv.startswith('"annotation_id","annotator","created_at","id"'), csv
    # One row per annotation not skipped, one for the task without any, none for the skipped one.
    print(label, "download_sync CSV rows", csv.count("\r\n") - 1)
    snap = ex.create(id=p.id, title="sdk " + label, task_filter_options={"annotated": "only"}, serialization_options={"predictions": {"only_id": False}})
    assert snap.status == "completed", snap
    print(label, "export create", snap.status, snap.counters)
    assert snap.id in [e.id for e in ex.list(id=p.id)]
    got = ex.get(export_pk=snap.id, id=p.id)
    assert got.md5 == snap.md5 and got.created_by.email, got
    converted = ex.convert(export_pk=snap.id, id=p.id, export_type="JSON_MIN")
    print(label, "export convert", converted.export_type)
    tasks = json.loads(b"".join(ex.download(export_pk=snap.id, id=p.id, request_options={"chunk_size": 1024})))
    assert [t["data"]["text"] for t in tasks] == ["labeled"], tasks
    assert isinstance(tasks[0]["predictions"][0], dict) and tasks[0]["predictions"][0]["score"] == 0.5, "predictions expanded"
    rows = b"".join(ex.download(export_pk=snap.id, id=p.id, export_type="TSV")).decode().split("\r\n")
    assert rows[0].split("\t")[3] == '"id"' and len(rows) == 3, rows
    print(label, "export download", len(tasks), "task,", len(rows) - 2, "TSV row")
    try:
        ex.convert(export_pk=snap.id, id=p.id, export_type="JSON_MIN")
        raise SystemExit("expected 'Conversion to JSON_MIN already started'")
    except ApiError as e:
        assert e.status_code == 400 and e.body["validation_errors"] == {"non_field_errors": ["Conversion to JSON_MIN already started"]}, e.body
    ex.delete(export_pk=snap.id, id=p.id)
    try:
        ex.get(export_pk=snap.id, id=p.id)
        raise SystemExit("expected the 404 page")
    except ApiError as e:
        assert e.status_code == 404 and "404 | Label Studio" in str(e.body), e.body
    ext = ExportsClientExt(client_wrapper=ls._client_wrapper)
    everything = ext.as_json(p.id)
    frame = ext.as_pandas(p.id)
    assert sorted(t["data"]["text"] for t in everything) == ["labeled", "skipped", "untouched"], everything
    assert sorted(frame["text"]) == ["labeled", "untouched"], frame
    print(label, "as_json", len(everything), "tasks, as_pandas", frame.shape[0], "rows")
    ls.projects.delete(id=p.id)

from label_studio_sdk.core.api_error import ApiError
run(legacy, "legacy")
run(pat, "pat")
exports(legacy, "legacy")
exports(pat, "pat")

# The routes the inventory serves beyond the Data Manager's (docs/reference/routes.md), through the SDK's own methods.
import threading, http.server, socketserver

class TinyModel(http.server.BaseHTTPRequestHandler):
    """A model server: health, setup, predict (the first choice of "s"), versions."""
    def log_message(self, *args):
        pass
    def _answer(self, body):
        data = json.dumps(body).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
    def do_GET(self):
        self._answer({"status": "UP"} if self.path == "/health" else {"versions": ["tiny-v1"]})
    def do_POST(self):
        request = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"{}")
        if self.path == "/setup":
            return self._answer({"model_version": "tiny-v1"})
        result = [{"from_name": "s", "to_name": "text", "type": "choices", "value": {"choices": ["A"]}}]
        self._answer({"results": [{"result": result, "score": 0.5} for _ in request.get("tasks", [])]})

model = socketserver.TCPServer(("127.0.0.1", 0), TinyModel)
threading.Thread(target=model.serve_forever, daemon=True).start()
model_url = "http://127.0.0.1:%d" % model.server_address[1]

ls = LabelStudioBase(base_url=url, api_key=legacy)
config = '<View><Text name="text" value="$text"/><Choices name="s" toName="text"><Choice value="A"/><Choice value="B"/></Choices></View>'
p = ls.projects.create(title="sdk routes", label_config=config)
ls.projects.import_tasks(id=p.id, request=[{"text": "one"}, {"text": "two"}])
print("validate", ls.projects.validate_label_config(id=p.id, label_config=config))
# Uploaded files: a multipart import keeps each file as a FileUpload; files.* reads, replaces and deletes them.
# (projects.import_tasks sends JSON only: the upload goes through httpx.) A community server keeps no import records.
fp = ls.projects.create(title="sdk files", label_config=config)
up = httpx.post(url + f"/api/projects/{fp.id}/import", headers={"Authorization": "Token " + legacy}, files={"file": ("t.csv", b"text\nc1\nc2\n")})
assert up.status_code == 201 and up.json()["task_count"] == 2 and up.json()["found_formats"] == {".csv": 1}, up.text
up_ids = up.json()["file_upload_ids"]
got_file = ls.files.get(id=up_ids[0])
assert got_file.size == 11 and got_file.file.startswith(f"upload/{fp.id}/") and got_file.file.endswith("-t.csv"), got_file
assert [f.id for f in ls.files.list(id=fp.id, all_=True)] == up_ids
assert [f.id for f in ls.files.list(id=fp.id, ids=json.dumps(up_ids))] == up_ids
# files.download answers nothing on success (the SDK drops the body); a name no upload has is the view's 500.
ls.files.download(filename=got_file.file[len("upload/"):])
try:
    ls.files.download(filename=f"{fp.id}/nope.csv")
    raise SystemExit("expected the 500 for a file no upload has")
except ApiError as e:
    assert e.status_code == 500, e.body
replaced = ls.files.update(id=up_ids[0], file=("n.csv", b"text\nn1\n"))
assert replaced.file.endswith("-n.csv") and replaced.size == 8, replaced
try:
    ls.tasks.create_many_status(id=fp.id, import_pk=1)
    raise SystemExit("expected the 404 for an import record")
except ApiError as e:
    assert e.status_code == 404 and e.body["detail"] == "No ProjectImport matches the given query.", e.body
ls.files.delete(id=up_ids[0])
assert ls.files.list(id=fp.id, all_=True) == []
httpx.post(url + f"/api/projects/{fp.id}/import", headers={"Authorization": "Token " + legacy}, files={"file": ("t.txt", b"x\n")})
ls.files.delete_many(id=fp.id)
assert ls.files.list(id=fp.id, all_=True) == []
ls.projects.delete(id=fp.id)
print("files", got_file.size, replaced.size)
users = ls.users.list()
print("users", [u.username for u in users])
dee = ls.users.create(username="sdk-dee", email="sdk-dee@example.com")
print("user", ls.users.get(id=dee.id).email, ls.users.update(id=dee.id, first_name="Dee").first_name)
# The organization: its members (a page), one member, a soft delete by the creator (the member stays, "Deleted").
orgs = ls.organizations.list()
org = ls.organizations.get(id=orgs[0].id)
assert org.title == orgs[0].title and dee.id in org.users, org
page = ls.organizations.members.list(id=org.id, page_size=1)
assert page.count == len(org.users) and len(page.results) == 1, page
member = ls.organizations.members.get(id=org.id, user_pk=dee.id)
assert member.user == dee.id and member.annotations_count == 0, member
ls.organizations.members.delete(id=org.id, user_pk=dee.id)
assert ls.users.get(id=dee.id).username == "Deleted"
try:
    ls.organizations.members.delete(id=org.id, user_pk=dee.id)
    raise SystemExit("expected the 404 for a removed member")
except ApiError as e:
    assert e.status_code == 404 and e.body["detail"] == "Member not found", e.body
invite = ls.organizations.reset_token()
assert invite.invite_url == "/user/signup/?token=" + invite.token, invite
print("organization", org.title, page.count, member.organization, len(invite.token))
ls.users.delete(id=dee.id)
hotkeys = {"annotation:submit": {"key": "ctrl+enter", "active": False}}
assert ls.users.update_hotkeys(custom_hotkeys=hotkeys).custom_hotkeys == hotkeys
print("hotkeys", ls.users.get_hotkeys().custom_hotkeys)
try:
    ls.users.update_hotkeys(custom_hotkeys={"annotation:submit": {"key": "alt+f4"}})
    raise SystemExit("expected the 400 for a system shortcut")
except Exception as e:
    assert getattr(e, "status_code", None) == 400 and e.body["error"] == "Invalid hotkeys configuration", e
backend = ls.ml.create(url=model_url, project=p.id, title="tiny")
print("ml", backend.state, [b.id for b in ls.ml.list(project=p.id)], ls.ml.get(id=backend.id).model_version)
print("ml versions", ls.ml.list_model_versions(id=backend.id))
ls.actions.create(id="retrieve_tasks_predictions", project=p.id, selected_items={"all": True, "excluded": []})
made = [x for x in ls.predictions.list(project=p.id) if x.model_version == "tiny-v1"]
assert len(made) == 2, made
print("ml predictions", len(made))
ls.ml.train(id=backend.id)
ls.ml.delete(id=backend.id)
ls.tasks.delete_all_tasks(id=p.id)
ls.projects.delete(id=p.id)
# Last: a new legacy key for the caller (the old one stops working).
new_key = ls.users.reset_token()
fresh = LabelStudioBase(base_url=url, api_key=new_key.token)
assert fresh.users.get_token().token == new_key.token
print("reset token ok")

# A view overrides the body; the plain pager raises on the 404 past the end, as against a server.
ls = LabelStudioBase(base_url=url, api_key=new_key.token)
ls.actions.create(id="retrieve_tasks_predictions", project=1, view=1, selected_items={"all": False, "included": [1]})
try:
    list(ls.projects.list(page_size=50))
    raise SystemExit("expected the 404 past the last page")
except ApiError as e:
    assert e.status_code == 404 and e.body["detail"] == "Invalid page.", e.body
print("OK")
