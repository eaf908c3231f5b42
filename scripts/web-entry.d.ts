// The global that scripts/build-web.mjs defines as true in the one-file browser entries (see
// js/runtime.mjs, isNode); undefined elsewhere. For the type check only (tsconfig.check.json).
declare var __ONNX_WASM_WEB_ENTRY__: boolean | undefined;
