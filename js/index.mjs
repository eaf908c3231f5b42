// onnx-wasm: ONNX's data-movement ops (Gather, Flatten, Reshape and the shape ops around them, and
// com.microsoft GatherBlockQuantized) in WebAssembly.
// @ts-check
export { init, runtime, threadsReady, memoryStats } from './runtime.mjs';
export { Tensor } from './tensor.mjs';
export { runNode, inferShapes, opVersions } from './node.mjs';
export { prepareNode, PreparedNode } from './prepared.mjs';
export { InferenceSession } from './model/session.mjs';
export { TYPE_NAMES } from './types.mjs';
export { OnnxWasmError } from './errors-base.mjs';
export * from './generated/errors.mjs';   // one Error subclass per code, and ERROR_CLASSES
export { modelCache } from './model/model-cache.mjs';
