import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test, vi } from "vitest";
import { ClientConfigError, createClient } from "../../../src/client/index.js";
import { passthrough, type MockServer } from "../../../mock-server/index.js";
import { startMock } from "./on-mock.js";
import { LEGACY_KEY } from "./fixtures.js";

let mock: MockServer;
beforeAll(async () => {
  mock = await startMock();
});
afterAll(() => mock.close());
beforeEach(() => mock.reset());

/** The Authorization headers whoami requests carry, as sent. */
function keysSent(): unknown[] {
  const sent: unknown[] = [];
  mock.use("GET /api/current-user/whoami", (request) => (sent.push(request.headers.authorization), passthrough()));
  return sent;
}

afterEach(() => {
  vi.unstubAllEnvs();
});

const configError = (fn: () => unknown): ClientConfigError => {
  try {
    fn();
  } catch (error) {
    expect(error).toBeInstanceOf(ClientConfigError);
    return error as ClientConfigError;
  }
  throw new Error("expected a ClientConfigError");
};

describe("base URL rule: http:// or https://, no trailing slash", () => {
  test.each(["http://localhost:8080", "https://label.example.com", "http://10.0.0.5:8080/prefix"])("%s is accepted as given", (baseUrl) => {
    expect(createClient({ baseUrl, apiKey: LEGACY_KEY }).baseUrl).toBe(baseUrl);
  });

  test.each([
    ["http://localhost:8080/", 'found "http://localhost:8080/"; drop the trailing slash: "http://localhost:8080"'],
    ["https://x.test/prefix//", 'found "https://x.test/prefix//"; drop the trailing slash: "https://x.test/prefix"'],
    ["localhost:8080", 'found "localhost:8080"; add the scheme: "http://localhost:8080"'],
    ["127.0.0.1:8080/", 'found string "127.0.0.1:8080/"; add the scheme: "http://127.0.0.1:8080"'],
    ["label.example.com", 'found string "label.example.com"; add the scheme: "https://label.example.com"'],
    ["ftp://x.test", 'found "ftp://x.test"'],
    ["http://", 'found string "http://"'],
    ["", 'found string ""'],
  ])("%j is refused", (baseUrl, found) => {
    const error = configError(() => createClient({ baseUrl, apiKey: LEGACY_KEY }));
    expect(error.field).toBe("baseUrl");
    expect(error.message).toBe(`baseUrl: expected an http:// or https:// URL without a trailing slash (the published rule), ${found}`);
  });

  test.each([
    ["http://localhost:8080/api", "http://localhost:8080"],
    ["https://x.test/prefix/api/", "https://x.test/prefix"],
  ])("%j, the API's root rather than the server's: drop the /api (the client adds it)", (baseUrl, fixed) => {
    const error = configError(() => createClient({ baseUrl, apiKey: LEGACY_KEY }));
    expect(error.message).toBe(
      "baseUrl: expected an http:// or https:// URL without a trailing slash (the published rule), the server's root " +
        `(the client adds /api/… itself), found ${JSON.stringify(baseUrl)}; drop the /api at the end: ${JSON.stringify(fixed)}`,
    );
  });

  test("a query string or fragment is refused, its values not shown (a query may carry a token)", () => {
    expect(() => createClient({ baseUrl: "http://x.test?a=1", apiKey: LEGACY_KEY })).toThrow(
      /no query string or fragment, found "http:\/\/x.test\?a=\*\*\*"/,
    );
    const error = configError(() => createClient({ baseUrl: "http://x.test/?token=hunter2secret&page", apiKey: LEGACY_KEY }));
    expect(error.message).toContain('found "http://x.test/?token=***&page"');
  });

  test.each([
    "http://ann:hunter2secret@x.test",
    "http://ann:hunter2secret@x.test/",
    "https://ann:hunter2secret@x.test/prefix/api",
    "ann:hunter2secret@x.test",
    "http://x.test/?key=hunter2secret/",
  ])("%j: refused without the secret in the message or its hint", (baseUrl) => {
    const error = configError(() => createClient({ baseUrl, apiKey: LEGACY_KEY }));
    expect(error.message).not.toContain("hunter2secret");
    expect(error.message).toContain("***");
  });

  test("a user name or password is the first thing said: a hint never quotes a URL holding one", () => {
    const error = configError(() => createClient({ baseUrl: "http://ann:hunter2secret@x.test/", apiKey: LEGACY_KEY }));
    expect(error.message).toBe(
      "baseUrl: expected an http:// or https:// URL without a trailing slash (the published rule) and no user name or password, " +
        'found "http://ann:***@x.test/"; pass the credential as apiKey',
    );
  });

  test("a path prefix is kept: requests go under it", async () => {
    // The mock serves no prefix: its answer is the server's 404 page, and its journal shows the path.
    await expect(createClient({ baseUrl: `${mock.url}/prefix`, apiKey: LEGACY_KEY }).users.whoami()).rejects.toMatchObject({
      statusCode: 404,
    });
    expect(mock.requests.map((r) => r.path)).toEqual(["/prefix/api/current-user/whoami"]);
  });
});

describe("environment", () => {
  test("LABEL_STUDIO_URL and LABEL_STUDIO_API_KEY are the defaults, read when the client is created", async () => {
    const sent = keysSent();
    vi.stubEnv("LABEL_STUDIO_URL", mock.url);
    vi.stubEnv("LABEL_STUDIO_API_KEY", LEGACY_KEY);
    const client = createClient();
    vi.stubEnv("LABEL_STUDIO_URL", "http://127.0.0.1:9");
    vi.stubEnv("LABEL_STUDIO_API_KEY", "another-key-entirely");
    await client.users.whoami();
    expect(client.baseUrl).toBe(mock.url);
    expect(sent).toEqual([`Token ${LEGACY_KEY}`]);
  });

  test("options win over the environment", () => {
    vi.stubEnv("LABEL_STUDIO_URL", "http://env.test");
    vi.stubEnv("LABEL_STUDIO_API_KEY", LEGACY_KEY);
    expect(createClient({ baseUrl: "https://option.test" }).baseUrl).toBe("https://option.test");
  });

  test("a missing key names both ways to give one", () => {
    vi.stubEnv("LABEL_STUDIO_API_KEY", "");
    const error = configError(() => createClient({ baseUrl: "http://x.test" }));
    expect(error.message).toBe(
      "apiKey: expected a legacy token or a personal access token, found nothing; pass createClient({ apiKey }) or set LABEL_STUDIO_API_KEY (Account & Settings page of the server)",
    );
  });

  test("a missing base URL names both ways to give one", () => {
    vi.stubEnv("LABEL_STUDIO_URL", "");
    expect(() => createClient({ apiKey: LEGACY_KEY })).toThrow(/found nothing; pass createClient\(\{ baseUrl \}\) or set LABEL_STUDIO_URL/);
  });

  test("a bad URL from the environment says where it came from", () => {
    vi.stubEnv("LABEL_STUDIO_URL", "http://env.test/");
    expect(() => createClient({ apiKey: LEGACY_KEY })).toThrow(/^baseUrl \(from LABEL_STUDIO_URL\): expected/);
  });
});

describe("key, timeout and retry settings", () => {
  test("a key with a space is refused without showing it", () => {
    const error = configError(() => createClient({ baseUrl: "http://x.test", apiKey: "abcdef secretpart" }));
    expect(error.message).toBe(
      "apiKey: expected a legacy token or a personal access token (visible ASCII characters, no spaces), found a value with a space at position 7 of 17",
    );
    expect(error.message).not.toContain("secretpart");
  });

  test.each(["Token", "Bearer", "token"])(
    "a key pasted with its %s prefix: the hint says to pass it alone, the key is not shown",
    (scheme) => {
      const error = configError(() => createClient({ baseUrl: "http://x.test", apiKey: `${scheme} secretpart0123456789` }));
      expect(error.message).toBe(
        "apiKey: expected a legacy token or a personal access token (visible ASCII characters, no spaces), " +
          `found a value that starts with "${scheme} "; pass the key alone, without "${scheme} " (the client adds the header's scheme itself)`,
      );
      expect(error.message).not.toContain("secretpart");
    },
  );

  test("surrounding whitespace (a pasted key) is trimmed", async () => {
    const sent = keysSent();
    await createClient({ baseUrl: mock.url, apiKey: ` ${LEGACY_KEY}\n` }).users.whoami();
    expect(sent).toEqual([`Token ${LEGACY_KEY}`]);
  });

  test.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY, "5"])("timeoutInSeconds %j is refused", (timeoutInSeconds) => {
    const error = configError(() =>
      createClient({ baseUrl: "http://x.test", apiKey: LEGACY_KEY, timeoutInSeconds: timeoutInSeconds as number }),
    );
    expect(error.field).toBe("timeoutInSeconds");
    expect(error.message).toMatch(/^timeoutInSeconds: expected a number of seconds > 0/);
  });

  test.each([-1, 1.5, "2"])("maxRetries %j is refused", (maxRetries) => {
    expect(() => createClient({ baseUrl: "http://x.test", apiKey: LEGACY_KEY, maxRetries: maxRetries as number })).toThrow(
      /^maxRetries: expected a whole number ≥ 0, found/,
    );
  });

  test("per-request options are checked too, before anything is sent", async () => {
    const client = createClient({ baseUrl: "http://127.0.0.1:9", apiKey: LEGACY_KEY });
    await expect(client.users.whoami({ timeoutInSeconds: -2 })).rejects.toThrow(
      "options.timeoutInSeconds: expected a number of seconds > 0",
    );
    await expect(client.users.whoami({ maxRetries: 0.5 })).rejects.toThrow(
      "options.maxRetries: expected a whole number ≥ 0, found number 0.5",
    );
  });

  test.each(["api/actions", "/api/actions?x=1", 7])("routes.actions %j is refused", (actions) => {
    expect(() => createClient({ baseUrl: "http://x.test", apiKey: LEGACY_KEY, routes: { actions: actions as string } })).toThrow(
      /^routes.actions: expected a path starting with "\/"/,
    );
  });

  test("ids are checked before a request is made", async () => {
    const client = createClient({ baseUrl: "http://127.0.0.1:9", apiKey: LEGACY_KEY });
    await expect(client.projects.get(0)).rejects.toThrow("id: expected a positive integer id, found number 0");
    await expect(client.tasks.get(1.5)).rejects.toThrow("id: expected a positive integer id, found number 1.5");
    expect(() => client.project(-3)).toThrow("project id: expected a positive integer id, found number -3");
    expect(() => client.tasks.list({ project: "1" as unknown as number })).toThrow(
      'params.project: expected a positive integer id, found string "1"',
    );
  });
});
