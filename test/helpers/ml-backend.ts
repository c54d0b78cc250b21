// The tiny model server lives with `dmq verify`, which starts it for the ML backend scenarios; tests use the same one.
export * from "../../src/cli/verify/model-server.js";
