import { createInterface } from "node:readline";
import { browserPlan, openInBrowser } from "./browser.js";

/**
 * What the CLI touches of its process, so tests can run it in-process too. Text written to
 * stdout/stderr is written as given (callers end lines themselves).
 */
export interface CliIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Bytes to stdout as they are (a downloaded file); absent: they are written as UTF-8 text through `stdout`. */
  readonly stdoutBytes?: (bytes: Uint8Array) => void;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Whether stdin is a terminal: only then does a destructive command ask before it acts. */
  readonly stdinIsTTY: boolean;
  /** Whether stderr is a terminal: only then is progress drawn. */
  readonly stderrIsTTY: boolean;
  /** All of stdin (a body piped to `dmq explain`, tasks piped to `dmq projects import … -`). */
  readonly readStdin: () => Promise<string>;
  /** Shows `question` on stderr and reads one line of the answer from stdin. */
  readonly ask: (question: string) => Promise<string>;
  /** Opens `url` in a browser when a person is there to see it; resolves to why not, or undefined once opened. */
  readonly openUrl?: (url: string) => Promise<string | undefined>;
  /** Calls `handler` on the first Ctrl-C (SIGINT) instead of exiting; returns the function that removes it. */
  readonly onInterrupt?: (handler: () => void) => () => void;
}

export function processIo(): CliIo {
  return {
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    stdoutBytes: (bytes) => process.stdout.write(bytes),
    env: process.env,
    stdinIsTTY: process.stdin.isTTY === true,
    stderrIsTTY: process.stderr.isTTY === true,
    openUrl: (url) => openInBrowser(browserPlan(url, process.env, process.platform, process.stdout.isTTY === true)),
    onInterrupt: (handler) => {
      process.once("SIGINT", handler);
      return () => process.off("SIGINT", handler);
    },
    readStdin: async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of process.stdin) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer));
      return Buffer.concat(chunks).toString("utf8");
    },
    ask: (question) =>
      new Promise((resolve) => {
        const rl = createInterface({ input: process.stdin, output: process.stderr, terminal: false });
        let answered = false;
        rl.question(question, (answer) => {
          answered = true;
          rl.close();
          resolve(answer);
        });
        // End of input (Ctrl-D) answers "no".
        rl.on("close", () => {
          if (!answered) resolve("");
        });
      }),
  };
}
