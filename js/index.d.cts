// The declarations of js/index.d.ts for `require('onnx-wasm')` (TypeScript's node16/nodenext
// resolution picks this file through package.json's "types" → "require" condition). In this
// "type": "module" package a .d.ts is an ES module, which a CommonJS file may not import, so
// this file imports the ESM declarations as types only ("resolution-mode": "import") and
// re-declares each value export with that type. The docs are in js/index.d.ts; tests/types/
// checks that both files declare every runtime export.
type ESM = typeof import('./index.js', { with: { 'resolution-mode': 'import' } });
export type * from './index.js' with { 'resolution-mode': 'import' };
/** Loads the wasm module once. See js/index.d.ts. */
export declare const init: ESM['init'];
/** Which module is loaded and why, or null before init. See js/index.d.ts. */
export declare const runtime: ESM['runtime'];
/** Resolves once the threads build's workers are ready, to whether gathers use them. See js/index.d.ts. */
export declare const threadsReady: ESM['threadsReady'];
/** Wasm memory in use. See js/index.d.ts. */
export declare const memoryStats: ESM['memoryStats'];
/** Runs one node. See js/index.d.ts. */
export declare const runNode: ESM['runNode'];
/** The output types and shapes of one node, without running it. See js/index.d.ts. */
export declare const inferShapes: ESM['inferShapes'];
/** Every version of every op in the registry. See js/index.d.ts. */
export declare const opVersions: ESM['opVersions'];
/** Parses and checks a node once for many runs. See js/index.d.ts. */
export declare const prepareNode: ESM['prepareNode'];
/** Every element type name. See js/index.d.ts. */
export declare const TYPE_NAMES: ESM['TYPE_NAMES'];
/** Every error class by its code. See js/index.d.ts. */
export declare const ERROR_CLASSES: ESM['ERROR_CLASSES'];
/** The base class of every error onnx-wasm throws. See js/index.d.ts. */
export declare const OnnxWasmError: ESM['OnnxWasmError'];
export type OnnxWasmError = import('./index.js', { with: { 'resolution-mode': 'import' } }).OnnxWasmError;
/** Data that lives in wasm memory. See js/index.d.ts. */
export declare const Tensor: ESM['Tensor'];
export type Tensor = import('./index.js', { with: { 'resolution-mode': 'import' } }).Tensor;
/** A node parsed and checked once, run many times. See js/index.d.ts. */
export declare const PreparedNode: ESM['PreparedNode'];
export type PreparedNode = import('./index.js', { with: { 'resolution-mode': 'import' } }).PreparedNode;
/** The OPFS model cache (browsers). See js/index.d.ts. */
export declare const modelCache: ESM['modelCache'];
/** A loaded ONNX model. See js/index.d.ts. */
export declare const InferenceSession: ESM['InferenceSession'];
export type InferenceSession = import('./index.js', { with: { 'resolution-mode': 'import' } }).InferenceSession;
/** An OnnxWasmError subclass (docs/errors.md). See js/index.d.ts. */
export declare const UnsupportedOpError: ESM['UnsupportedOpError'];
export type UnsupportedOpError = import('./index.js', { with: { 'resolution-mode': 'import' } }).UnsupportedOpError;
/** An OnnxWasmError subclass (docs/errors.md). See js/index.d.ts. */
export declare const OpsetError: ESM['OpsetError'];
export type OpsetError = import('./index.js', { with: { 'resolution-mode': 'import' } }).OpsetError;
/** An OnnxWasmError subclass (docs/errors.md). See js/index.d.ts. */
export declare const TypeConstraintError: ESM['TypeConstraintError'];
export type TypeConstraintError = import('./index.js', { with: { 'resolution-mode': 'import' } }).TypeConstraintError;
/** An OnnxWasmError subclass (docs/errors.md). See js/index.d.ts. */
export declare const AttributeError: ESM['AttributeError'];
export type AttributeError = import('./index.js', { with: { 'resolution-mode': 'import' } }).AttributeError;
/** An OnnxWasmError subclass (docs/errors.md). See js/index.d.ts. */
export declare const InputError: ESM['InputError'];
export type InputError = import('./index.js', { with: { 'resolution-mode': 'import' } }).InputError;
/** An OnnxWasmError subclass (docs/errors.md). See js/index.d.ts. */
export declare const ShapeError: ESM['ShapeError'];
export type ShapeError = import('./index.js', { with: { 'resolution-mode': 'import' } }).ShapeError;
/** An OnnxWasmError subclass (docs/errors.md). See js/index.d.ts. */
export declare const IndexOutOfRangeError: ESM['IndexOutOfRangeError'];
export type IndexOutOfRangeError = import('./index.js', { with: { 'resolution-mode': 'import' } }).IndexOutOfRangeError;
/** An OnnxWasmError subclass (docs/errors.md). See js/index.d.ts. */
export declare const OutOfMemoryError: ESM['OutOfMemoryError'];
export type OutOfMemoryError = import('./index.js', { with: { 'resolution-mode': 'import' } }).OutOfMemoryError;
/** An OnnxWasmError subclass (docs/errors.md). See js/index.d.ts. */
export declare const InvalidArgumentError: ESM['InvalidArgumentError'];
export type InvalidArgumentError = import('./index.js', { with: { 'resolution-mode': 'import' } }).InvalidArgumentError;
/** An OnnxWasmError subclass (docs/errors.md). See js/index.d.ts. */
export declare const DisposedError: ESM['DisposedError'];
export type DisposedError = import('./index.js', { with: { 'resolution-mode': 'import' } }).DisposedError;
/** An OnnxWasmError subclass (docs/errors.md). See js/index.d.ts. */
export declare const ModelError: ESM['ModelError'];
export type ModelError = import('./index.js', { with: { 'resolution-mode': 'import' } }).ModelError;
/** An OnnxWasmError subclass (docs/errors.md). See js/index.d.ts. */
export declare const ExternalDataError: ESM['ExternalDataError'];
export type ExternalDataError = import('./index.js', { with: { 'resolution-mode': 'import' } }).ExternalDataError;
