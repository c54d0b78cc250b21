/**
 * What the command line's banner shows of a running mock (how many projects and users, the first
 * project's id), read from the store: `data()` would copy every record of a 100k-task seed only to
 * count two collections. Kept off the `MockServer` interface: the library's users have `data()`.
 */
export interface MockSummary {
  readonly projects: number;
  readonly users: number;
  readonly firstProject: number | undefined;
}

const summaries = new WeakMap<object, () => MockSummary>();

/** Called by `startMockServer` for the server it returns. */
export function registerSummary(server: object, summary: () => MockSummary): void {
  summaries.set(server, summary);
}

/** The summary of a server `startMockServer` returned. */
export function summaryOf(server: object): MockSummary {
  const summary = summaries.get(server);
  if (!summary) throw new Error("summaryOf: not a server startMockServer returned");
  return summary();
}
