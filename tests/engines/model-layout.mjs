// The engine suite's model, described once: engines.test.mjs builds model.onnx and weights.bin
// from it, and suite.mjs (in every engine) computes the expected outputs from it and the bytes of
// weights.bin. No imports, so that every engine can load it next to the suite.
//
// model.onnx (opset 13): ids int64 ['n'] -> Gather(table, ids, axis 0) -> rows [n, COLS]
//   -> Reshape(rows, [1, -1]) -> flat [1, n * COLS]. `table` is a float32 [ROWS, COLS]
// initializer stored outside the model, in weights.bin at OFFSET (bytes before and after it are
// filler that must not be read).
export const LAYOUT = {
  file: 'weights.bin',
  rows: 6,
  cols: 4,
  offset: 16,
  after: 8,
  ids: [5, 0, -1, 2],
  badId: 6,   // one past the last row: IndexOutOfRangeError
};
