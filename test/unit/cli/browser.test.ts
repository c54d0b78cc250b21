import { describe, expect, test } from "vitest";
import { browserPlan } from "../../../src/cli/browser.js";

const url = "http://127.0.0.1:8080/playground/#project=1&q=%7B%7D";

describe("whether dmq explain --open opens a browser", () => {
  test("never when stdout is not a terminal (a pipe, a script, a test) or BROWSER=none", () => {
    expect(browserPlan(url, {}, "linux", false)).toEqual({ open: false, why: "stdout is not a terminal" });
    expect(browserPlan(url, { BROWSER: "none" }, "linux", true)).toEqual({ open: false, why: "BROWSER=none" });
    expect(browserPlan(url, { BROWSER: "firefox" }, "darwin", false)).toMatchObject({ open: false });
  });

  test("$BROWSER first (its words, then the URL), else the platform's opener", () => {
    expect(browserPlan(url, { BROWSER: "firefox --new-tab" }, "linux", true)).toEqual({
      open: true,
      command: "firefox",
      args: ["--new-tab", url],
    });
    expect(browserPlan(url, {}, "linux", true)).toEqual({ open: true, command: "xdg-open", args: [url] });
    expect(browserPlan(url, {}, "darwin", true)).toEqual({ open: true, command: "open", args: [url] });
    expect(browserPlan(url, {}, "win32", true)).toEqual({
      open: true,
      command: "cmd",
      args: ["/c", "start", '""', url.replace("&", "^&")],
    });
  });
});
