// A CommonJS consumer: Node >= 20.19 loads the ES modules with require(); TypeScript >= 5.8 types
// it under `module: nodenext` (older compilers and `module: node16` need `await import("dmq")`).
import dmq = require("dmq");
import semantics = require("dmq/semantics");

export const json: string = JSON.stringify(dmq.selection(1).where("tasks:id").greater(3).excluding([4]));
export const evaluate: typeof semantics.evaluate = semantics.evaluate;
// @ts-expect-error the type-state rules hold through require() too
dmq.selection(1).including([1]).excluding([2]);
