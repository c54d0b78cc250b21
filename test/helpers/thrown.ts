/** The error of class `kind` that `run` throws; anything else thrown propagates, nothing thrown fails. */
export function thrown<E extends Error>(kind: abstract new (...args: never[]) => E, run: () => unknown): E {
  try {
    run();
  } catch (error) {
    if (error instanceof kind) return error;
    throw error;
  }
  throw new Error(`expected a ${kind.name}, but nothing was thrown`);
}
