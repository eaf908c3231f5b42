// The model InferenceSession runs once a process or page, in the first idle moment after the
// first session is made (session.mjs: a task queued by create(); a second run that comes before
// it starts it and waits): out = Gather(d, i), d a float32 [2, 2] initializer, i an int64 [1]
// input (ONNX, opset 13; 112 bytes, made with onnx-buf; tests/js/session.test.mjs decodes it).
// V8 runs a function in its interpreter until it has been called enough; the run path of a session
// (run, the feed checks, the prepared node, the tensor handles) is shared by every session, so 60
// runs here let a user's later runs start on compiled code: before this, runs 2 to 50 of a fresh
// session were several times the steady state (bench/cold-runs.mjs). 60, not the 40 of an async
// run(): once run() settled at once (each run cheaper), V8's batch of baseline (Sparkplug)
// compilation with it fell on a user's run after 40 runs, and no longer after 60. Since a graph of
// one node runs by its plan once its feeds have passed their checks (plan.mjs, oneNodePlan), every
// fourth run (session.mjs) feeds a new Tensor so that the general path a user's first run takes
// is compiled too. It ran inside the first create() until 2026-11-27, where it held the first
// result. Figures: docs/performance.md ("Figures behind design choices") and the
// cold-run notes in docs/notes/.
// @ts-check
export const WARM_UP_MODEL = new Uint8Array([
  8, 8, 58, 102, 10, 30, 10, 1, 100, 10, 1, 105, 18, 1, 111, 34, 6, 71, 97, 116, 104, 101, 114, 42, 11, 10, 4, 97,
  120, 105, 115, 24, 0, 160, 1, 2, 18, 1, 119, 42, 27, 8, 2, 8, 2, 16, 1, 66, 1, 100, 74, 16, 0, 0, 128, 63, 0, 0,
  0, 64, 0, 0, 64, 64, 0, 0, 128, 64, 90, 15, 10, 1, 105, 18, 10, 10, 8, 8, 7, 18, 4, 10, 2, 8, 1, 98, 19, 10, 1, 111,
  18, 14, 10, 12, 8, 1, 18, 8, 10, 2, 8, 1, 10, 2, 8, 2, 66, 4, 10, 0, 16, 13,
]);
export const WARM_UP_RUNS = 60;
