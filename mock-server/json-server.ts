import type { createApp } from "./app.js";
import type { Store } from "./store/store.js";

/** The package the mock server runs on: an optional peer dependency of `dmq`. */
export const JSON_SERVER = { name: "json-server", range: "^0.17.4" } as const;

export interface ServerModules {
  readonly createApp: typeof createApp;
  readonly Store: typeof Store;
}

/**
 * Loads the modules that import json-server. Only `dmq/mock-server` needs it, so it is an optional
 * peer dependency: `dmq` and `dmq/semantics` install without Express, and starting the mock without
 * it fails here, naming the package to install, instead of at import time.
 */
export async function loadServerModules(): Promise<ServerModules> {
  try {
    const [app, store] = await Promise.all([import("./app.js"), import("./store/store.js")]);
    return { createApp: app.createApp, Store: store.Store };
  } catch (error) {
    if (!isMissingPackage(error, JSON_SERVER.name)) throw error;
    throw new Error(
      `dmq/mock-server needs the optional peer dependency "${JSON_SERVER.name}" (${JSON_SERVER.range}), which is not installed. ` +
        `Install it next to dmq: npm install --save-dev ${JSON_SERVER.name}@"${JSON_SERVER.range}"`,
      { cause: error },
    );
  }
}

function isMissingPackage(error: unknown, name: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === "ERR_MODULE_NOT_FOUND" && typeof message === "string" && message.includes(`'${name}'`);
}
