import { spawn } from "node:child_process";
import { match } from "ts-pattern";

/** How to open a URL in a browser, or why it is not opened. */
export type BrowserPlan =
  | { readonly open: true; readonly command: string; readonly args: readonly string[] }
  | { readonly open: false; readonly why: string };

/**
 * Whether and how `dmq explain --open` opens a browser: only for a person at a terminal (stdout a
 * TTY), never with `BROWSER=none`; `$BROWSER` first (a command, the URL appended), else the
 * platform's opener. Pure, so the rule is tested without launching anything.
 */
export function browserPlan(
  url: string,
  env: Readonly<Record<string, string | undefined>>,
  platform: string,
  stdoutIsTTY: boolean,
): BrowserPlan {
  const browser = env["BROWSER"]?.trim();
  if (browser === "none") return { open: false, why: "BROWSER=none" };
  if (!stdoutIsTTY) return { open: false, why: "stdout is not a terminal" };
  if (browser) {
    const [command = browser, ...args] = browser.split(/\s+/);
    return { open: true, command, args: [...args, url] };
  }
  if (platform === "darwin") return { open: true, command: "open", args: [url] };
  // `start` is a cmd builtin; its first quoted argument is the window title.
  if (platform === "win32") return { open: true, command: "cmd", args: ["/c", "start", '""', url.replace(/&/g, "^&")] };
  return { open: true, command: "xdg-open", args: [url] };
}

/** Runs a plan: the browser is left running on its own; a missing opener is a reason, not a failure. */
export function openInBrowser(plan: BrowserPlan): Promise<string | undefined> {
  return match(plan)
    .with({ open: false }, ({ why }) => Promise.resolve<string | undefined>(why))
    .with({ open: true }, ({ command, args }) => launch(command, args))
    .exhaustive();
}

function launch(command: string, args: readonly string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn(command, [...args], { detached: true, stdio: "ignore" });
    child.once("error", (error) => resolve(`${command}: ${error.message}`));
    child.once("spawn", () => {
      child.unref();
      resolve(undefined);
    });
  });
}
