import type { PreparedDataset } from "../../src/semantics/dataset.js";
import type { Dataset } from "../../src/semantics/records.js";

/**
 * The live prepared dataset behind each dataset the store hands out: the engine's helpers take a
 * store's dataset and find the project's one `PreparedDataset` here, which follows every write
 * (`PreparedDataset.apply`) instead of being built again. A dataset not from a store has none.
 */
export const liveDatasets = new WeakMap<Dataset, PreparedDataset>();
