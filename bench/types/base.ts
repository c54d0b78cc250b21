import { selection } from "../../src/selection.js";
export const s = selection(1);
