import { afterAll, beforeAll, beforeEach, describe, expect, test } from "vitest";
import type { MockServer } from "../../mock-server/index.js";
import { ADA_KEY, BO_KEY, raw, startFixture, type Raw } from "./fixture.js";

/*
 * The organizations app (label_studio/organizations/api.py), as a Label Studio 1.22 server answered it. The mock has
 * one organization (id 1, "Label Studio"), created by its first user; its members are the users.
 * Fixture users: 1 ada (ADA_KEY, the creator), 2 bo (BO_KEY), 3 cy (no key).
 */
let server: MockServer;
beforeAll(async () => {
  server = await startFixture();
});
afterAll(() => server.close());
beforeEach(() => server.reset());

const isPage404 = (r: Raw) => [r.status, r.headers.get("content-type")?.startsWith("text/html")];
const ADA_JOINED = () => server.data().users[0]!.date_joined;

describe("/api/organizations/ and /api/organizations/{pk}", () => {
  test("the caller's organizations: the one, created by the first user when they joined", async () => {
    const list = await raw(server, "GET", "/api/organizations/");
    expect(list.status).toBe(200);
    expect(list.body).toEqual([{ id: 1, title: "Label Studio", contact_info: null, created_at: expect.stringMatching(/Z$/) }]);
    expect(list.body[0].created_at.slice(0, 19)).toBe(ADA_JOINED().slice(0, 19));
    expect((await raw(server, "GET", "/api/organizations/?fields=id,title")).body).toEqual([{ id: 1, title: "Label Studio" }]);
  });

  test("the whole organization: its invite token stays the same, its users are every member", async () => {
    const first = await raw(server, "GET", "/api/organizations/1");
    expect(first.status).toBe(200);
    expect(Object.keys(first.body)).toEqual(["id", "title", "token", "created_at", "updated_at", "contact_info", "created_by", "users"]);
    expect(first.body).toMatchObject({ id: 1, title: "Label Studio", contact_info: null, created_by: 1, users: [1, 2, 3] });
    expect(first.body.token).toMatch(/^[A-Za-z0-9]{40}$/);
    expect((await raw(server, "GET", "/api/organizations/1")).body.token).toBe(first.body.token);
    expect((await raw(server, "GET", "/api/organizations/1?fields=id,title")).body).toEqual({ id: 1, title: "Label Studio" });
    expect(isPage404(await raw(server, "GET", "/api/organizations/999"))).toEqual([404, true]);
  });

  test("PATCH changes the title everyone's active_organization_meta shows; PUT requires one; the field errors", async () => {
    const patched = await raw(server, "PATCH", "/api/organizations/1", { body: { title: "Acme", users: [1], id: 7 } });
    expect(patched.body).toMatchObject({ id: 1, title: "Acme", users: [1, 2, 3] });
    expect(patched.body.updated_at > patched.body.created_at).toBe(true);
    const bo = await raw(server, "GET", "/api/current-user/whoami", { key: BO_KEY });
    expect(bo.body.active_organization_meta).toEqual({ title: "Acme", email: "ada@example.com" });

    const put = await raw(server, "PUT", "/api/organizations/1", { body: {} });
    expect([put.status, put.body.validation_errors]).toEqual([400, { title: ["This field is required."] }]);
    const bad = await raw(server, "PATCH", "/api/organizations/1", { body: { contact_info: "not-an-email", created_by: 999 } });
    expect(bad.body.validation_errors).toEqual({
      contact_info: ["Enter a valid email address."],
      created_by: ['Invalid pk "999" - object does not exist.'],
    });
    expect((await raw(server, "GET", "/api/organizations/1")).body.title).toBe("Acme");
  });

  test("POST makes an organization with no members: no one lists it or may read it", async () => {
    const empty = await raw(server, "POST", "/api/organizations/", { body: {} });
    expect([empty.status, empty.body.validation_errors]).toEqual([400, { title: ["This field is required."] }]);
    const made = await raw(server, "POST", "/api/organizations/", { body: { title: "Second" } });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({ id: 2, title: "Second", contact_info: null, created_at: expect.stringMatching(/Z$/) });
    expect((await raw(server, "GET", "/api/organizations/")).body.map((o: { id: number }) => o.id)).toEqual([1]);
    const read = await raw(server, "GET", "/api/organizations/2");
    expect([read.status, read.body.detail]).toEqual([403, "You do not have permission to perform this action."]);
    expect((await raw(server, "GET", "/api/organizations/2/memberships/1/")).status).toBe(403);
    expect(isPage404(await raw(server, "GET", "/api/organizations/2/memberships"))).toEqual([404, true]);
    // The mock's own organization is untouched.
    expect((await raw(server, "GET", "/api/organizations/1")).body).toMatchObject({ title: "Label Studio", created_by: 1 });
  });

  test("deleting the creator empties created_by", async () => {
    await raw(server, "DELETE", "/api/users/1/", { key: BO_KEY });
    const org = await raw(server, "GET", "/api/organizations/1", { key: BO_KEY });
    expect(org.body).toMatchObject({ created_by: null, users: [2, 3] });
  });
});

describe("/api/organizations/{pk}/memberships", () => {
  test("every member by username, 20 a page; page_size -1 is all; a page past the end is the 404 page", async () => {
    const all = await raw(server, "GET", "/api/organizations/1/memberships");
    expect(all.body).toMatchObject({ count: 3, next: null, previous: null });
    expect(
      all.body.results.map((m: { id: number; organization: number; user: { username: string } }) => [
        m.id,
        m.organization,
        m.user.username,
      ]),
    ).toEqual([
      [1, 1, "ada"],
      [2, 1, "bo"],
      [3, 1, "cy"],
    ]);
    expect(all.body.results[0].user).toMatchObject({
      email: "ada@example.com",
      initials: "AL",
      created_projects: null,
      contributed_to_projects: null,
    });

    const page = await raw(server, "GET", "/api/organizations/1/memberships?page_size=2&page=2");
    expect(page.body).toMatchObject({ count: 3, next: null, previous: `${server.url}/api/organizations/1/memberships?page_size=2` });
    expect(page.body.results.map((m: { id: number }) => m.id)).toEqual([3]);
    expect((await raw(server, "GET", "/api/organizations/1/memberships?page_size=-1")).body.results).toHaveLength(3);
    expect(isPage404(await raw(server, "GET", "/api/organizations/1/memberships?page=9"))).toEqual([404, true]);
    expect((await raw(server, "GET", "/api/organizations/1/memberships?fields=id")).body.results).toEqual([
      { id: 1 },
      { id: 2 },
      { id: 3 },
    ]);
  });

  test("?contributed_to_projects=1: the projects each member created and annotated; a word it cannot read is a 400", async () => {
    const answer = await raw(server, "GET", "/api/organizations/1/memberships?contributed_to_projects=1");
    const byUser = Object.fromEntries(
      answer.body.results.map((m: { user: { username: string; contributed_to_projects: unknown } }) => [
        m.user.username,
        m.user.contributed_to_projects,
      ]),
    );
    expect(byUser).toEqual({
      ada: [
        { id: 1, title: "Fixture" },
        { id: 2, title: "Other" },
      ],
      bo: [{ id: 1, title: "Fixture" }],
      cy: [{ id: 1, title: "Fixture" }],
    });
    const bad = await raw(server, "GET", "/api/organizations/1/memberships?contributed_to_projects=maybe");
    expect([bad.status, bad.body.validation_errors]).toEqual([
      400,
      { contributed_to_projects: 'Incorrect bool value "maybe". It should be one of [1, 0, true, false, yes, no]' },
    ]);
  });
});

describe("/api/organizations/{pk}/memberships/{user_pk}/", () => {
  test("a member: their annotations in the organization's projects (cancelled ones too)", async () => {
    const bo = await raw(server, "GET", "/api/organizations/1/memberships/2/");
    expect(bo.body).toEqual({
      user: 2,
      organization: 1,
      contributed_projects_count: 1,
      annotations_count: 2,
      created_at: expect.stringMatching(/Z$/),
    });
    expect((await raw(server, "GET", "/api/organizations/1/memberships/3/?fields=annotations_count")).body).toEqual({
      annotations_count: 2,
    });
    const none = await raw(server, "GET", "/api/organizations/1/memberships/999/");
    expect([none.status, none.body.detail]).toEqual([404, "No User matches the given query."]);
    const noOrg = await raw(server, "GET", "/api/organizations/999/memberships/1/");
    expect([noOrg.status, noOrg.body.detail]).toEqual([404, "No Organization matches the given query."]);
  });

  test("DELETE soft-deletes: the member stays, shown as Deleted User, without an active organization", async () => {
    const bosProject = await raw(server, "POST", "/api/projects/", { key: BO_KEY, body: { title: "Bo's" } });
    const gone = await raw(server, "DELETE", "/api/organizations/1/memberships/2/");
    expect(gone.status).toBe(204);
    const members = await raw(server, "GET", "/api/organizations/1/memberships");
    expect(members.body.count).toBe(3);
    expect(members.body.results[1].user).toMatchObject({
      id: 2,
      first_name: "Deleted",
      last_name: "User",
      username: "Deleted",
      email: "Deleted",
      initials: "DU",
      active_organization: null,
      active_organization_meta: { title: "", email: "" },
    });
    expect((await raw(server, "GET", "/api/users/2/")).body).toMatchObject({ username: "Deleted", initials: "DU" });
    expect((await raw(server, "GET", "/api/organizations/1/memberships/2/")).status).toBe(200);
    expect((await raw(server, "GET", "/api/organizations/1")).body.users).toEqual([1, 2, 3]);
    // The removed member sees themselves as they are, and no organization of theirs.
    expect((await raw(server, "GET", "/api/current-user/whoami", { key: BO_KEY })).body).toMatchObject({
      username: "bo",
      active_organization: null,
    });
    expect((await raw(server, "GET", "/api/organizations/", { key: BO_KEY })).body).toEqual([]);
    expect((await raw(server, "GET", "/api/organizations/1", { key: BO_KEY })).status).toBe(403);

    // A task's expanded authors too, with a `username` the serializer otherwise lacks; created_username keeps the name.
    const task = await raw(server, "GET", "/api/tasks/2/");
    const byBo = task.body.annotations.find((a: { id: number }) => a.id === 2);
    expect(byBo.completed_by).toEqual({
      id: 2,
      first_name: "Deleted",
      last_name: "User",
      avatar: null,
      email: "Deleted",
      initials: "DU",
      username: "Deleted",
    });
    expect(byBo.created_username).toBe(" bo@example.com, 2");
    // And as a project's creator (UserSimpleSerializer, the same base class).
    expect((await raw(server, "GET", `/api/projects/${bosProject.body.id}/`)).body.created_by).toEqual({
      id: 2,
      first_name: "Deleted",
      last_name: "User",
      email: "Deleted",
      avatar: null,
      username: "Deleted",
    });
    expect(Object.keys(task.body.annotations.find((a: { id: number }) => a.id === 3).completed_by)).not.toContain("username");

    const again = await raw(server, "DELETE", "/api/organizations/1/memberships/2/");
    expect([again.status, again.body.detail]).toEqual([404, "Member not found"]);
  });

  test("only the organization's creator removes members, never themselves", async () => {
    const notOwner = await raw(server, "DELETE", "/api/organizations/1/memberships/3/", { key: BO_KEY });
    expect([notOwner.status, notOwner.body.detail]).toEqual([403, "You do not have permission to perform this action."]);
    const self = await raw(server, "DELETE", "/api/organizations/1/memberships/1/", { key: ADA_KEY });
    expect([self.status, self.body]).toEqual([405, { detail: "User cannot soft delete self" }]);
    const none = await raw(server, "DELETE", "/api/organizations/1/memberships/999/");
    expect([none.status, none.body.detail]).toEqual([404, "No User matches the given query."]);
    expect(server.data().users.every((u) => u.membership_deleted_at === undefined)).toBe(true);
  });
});

describe("/api/invite", () => {
  test("the invite token and its signup path; reset-token replaces it (201)", async () => {
    const before = await raw(server, "GET", "/api/invite");
    expect(before.status).toBe(200);
    expect(before.body).toEqual({
      token: expect.stringMatching(/^[A-Za-z0-9]{40}$/),
      invite_url: `/user/signup/?token=${before.body.token}`,
    });
    expect(before.body.token).toBe((await raw(server, "GET", "/api/organizations/1")).body.token);

    const reset = await raw(server, "POST", "/api/invite/reset-token");
    expect(reset.status).toBe(201);
    expect(reset.body.token).not.toBe(before.body.token);
    expect(reset.body).toEqual({
      token: expect.stringMatching(/^[A-Za-z0-9]{40}$/),
      invite_url: `/user/signup/?token=${reset.body.token}`,
    });
    expect((await raw(server, "GET", "/api/invite")).body.token).toBe(reset.body.token);
  });

  test("a caller without an active organization is the server's 500", async () => {
    await raw(server, "DELETE", "/api/organizations/1/memberships/2/");
    const answer = await raw(server, "GET", "/api/invite", { key: BO_KEY });
    expect([answer.status, answer.body.detail]).toEqual([500, "'NoneType' object has no attribute 'token'"]);
  });
});
