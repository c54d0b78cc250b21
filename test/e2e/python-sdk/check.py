"""
Drive a running dmq mock with the official Python SDK (label-studio-sdk 2.x), unchanged.

Not part of `npm test` (it needs Python and the SDK's source). Set-up on Debian bookworm, as
docs/reference/python-sdk.md#running-it-without-pypi describes: `apt-get install python3-httpx python3-pydantic
python3-jwt`, the SDK's `src/` on disk, and a one-line `pydantic_core` shim (pydantic 1 lacks it):

    mkdir -p shim/pydantic_core
    echo "from pydantic.fields import Undefined as PydanticUndefined" > shim/pydantic_core/__init__.py
    npm start -- --port 8080 &
    SDK_SRC=/path/to/label-studio-sdk/src SHIM=shim python3 test/e2e/python-sdk/check.py http://127.0.0.1:8080 <legacy token>

It runs the same calls twice: with the legacy token, then with a personal access token obtained
from `POST /api/token/` (the SDK exchanges it at /api/token/refresh/ and sends Bearer).
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

run(legacy, "legacy")
run(pat, "pat")

# A view overrides the body; the plain pager raises on the 404 past the end, as against a server.
from label_studio_sdk.core.api_error import ApiError
ls = LabelStudioBase(base_url=url, api_key=legacy)
ls.actions.create(id="retrieve_tasks_predictions", project=1, view=1, selected_items={"all": False, "included": [1]})
try:
    list(ls.projects.list(page_size=50))
    raise SystemExit("expected the 404 past the last page")
except ApiError as e:
    assert e.status_code == 404 and e.body["detail"] == "Invalid page.", e.body
print("OK")
