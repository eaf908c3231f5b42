// TypeScript declarations of onnx-wasm's public API (js/index.mjs). tests/js/package.test.mjs
// checks that every runtime export is declared here and that a TypeScript program using the
// API compiles. Element types and error classes come from src/*.def (js/generated/types.d.ts).
import type { TensorType } from './generated/types.js';

export type { TensorType };
export {
  UnsupportedOpError, OpsetError, TypeConstraintError, AttributeError, InputError, ShapeError,
  IndexOutOfRangeError, OutOfMemoryError, InvalidArgumentError, DisposedError, ModelError, ExternalDataError, ERROR_CLASSES,
} from './generated/types.js';

export declare class OnnxWasmError extends Error {
  readonly code: string;
}

export type TensorData =
  | Float32Array | Float64Array | Int8Array | Int16Array | Int32Array | BigInt64Array
  | Uint8Array | Uint16Array | Uint32Array | BigUint64Array | string[];

export interface InitOptions {
  /** false: use the one-thread build even where SharedArrayBuffer is available. */
  threads?: boolean;
  /** false: use the build without wasm SIMD. */
  simd?: boolean;
  /**
   * URL prefix under which the files of the package's dist/ folder are served (e.g. '/onnx-wasm/'),
   * for bundlers that do not copy assets referenced with `new URL(..., import.meta.url)`, such as esbuild.
   */
  wasmPaths?: string | URL;
  /** Where to fetch the .wasm of the chosen build (browsers). */
  wasmUrl?: string | URL;
  /** The bytes of the .wasm of the chosen build. */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /**
   * The .wasm of the chosen build, compiled by the caller, or a promise of it: for instance
   * `WebAssembly.compileStreaming(fetch(url))` started by an inline script in the page's head.
   */
  wasmModule?: WebAssembly.Module | Promise<WebAssembly.Module>;
}

export interface RuntimeInfo {
  module: 'onnx-wasm' | 'onnx-wasm-nosimd' | 'onnx-wasm-threads';
  simd: boolean;
  threads: number;
  threadsActive: boolean;
  reason: string;
  loadedFrom: string;
  kernels: string;
  minOpset: number;
  maxOpset: number;
}

export declare function init(options?: InitOptions): Promise<RuntimeInfo>;
export declare function runtime(): RuntimeInfo | null;
export declare function memoryStats(): { heapUsed: number; memory: number };

export declare class Tensor {
  constructor(type: TensorType, data: TensorData | ArrayLike<number | bigint | string | boolean>, dims?: readonly number[]);
  static alloc(type: TensorType, dims: readonly number[]): Tensor;
  readonly type: TensorType;
  readonly dims: readonly number[];
  readonly size: number;
  /** A view into wasm memory (string[] for strings). */
  readonly data: TensorData;
  readonly disposed: boolean;
  getData(): Promise<TensorData>;
  sharesMemoryWith(other: Tensor): boolean;
  dispose(): void;
}

export type AttributeValue = number | bigint | string | readonly number[] | readonly bigint[] | readonly string[];
export type NodeLike =
  | { opType: string; attributes?: Record<string, AttributeValue> }
  | { opType: string; attribute: readonly object[] };
export type TensorLike = Tensor | { type: TensorType; data: TensorData | ArrayLike<number | bigint | string>; dims?: readonly number[] };
export type Dim = number | string | null;
export interface ValueInfo { type: TensorType; dims: Dim[] | null; value?: readonly (number | bigint)[] }

export declare function runNode(node: NodeLike, inputs: readonly TensorLike[], options?: { opset?: number }): Tensor[];
export declare function inferShapes(node: NodeLike, inputs: readonly ValueInfo[], options?: { opset?: number }): { type: TensorType; dims: Dim[] | null }[];
export declare function opVersions(): {
  op: string; since: number; until: number; spec: string;
  inputs: { name: string; constraint: string; types: TensorType[] }[];
  attributes: { name: string; kind: 'INT' | 'INTS' | 'FLOAT' | 'STRING'; required: boolean }[];
}[];

export declare class PreparedNode {
  constructor(node: NodeLike, options?: { opset?: number });
  run(inputs: readonly Tensor[]): Tensor[];
  dispose(): void;
}
export declare function prepareNode(node: NodeLike, options?: { opset?: number }): PreparedNode;

export declare const TYPE_NAMES: readonly TensorType[];

export interface ValueMetadata { name: string; isTensor: true; type: TensorType; shape: Dim[] | null }
/** Bytes of external data: in memory, a Blob or File, or a URL (in Node a string that is not a URL is a file path). */
export type ExternalDataSource = Uint8Array | ArrayBuffer | Blob | URL | string;
export interface SessionOptions {
  /** { location: data } or onnxruntime-web's [{ path, data }]. Unlisted locations are read next to the model (a file in Node, a URL when the model came from one). */
  externalData?: Record<string, ExternalDataSource> | readonly { path: string; data: ExternalDataSource }[];
  /** Where tables in external data live: 'auto' (default: in wasm memory up to 2 GiB in all, kept in their source beyond), 'memory' or 'lazy' (kept in their source whenever only Gathers along axis 0 read them). */
  externalDataMode?: 'auto' | 'memory' | 'lazy';
  /** Bytes of the model and its external data loaded so far: at least every 64 MiB, and once at the end with loaded === total. */
  onProgress?: (progress: { loaded: number; total: number }) => void;
}
export declare class InferenceSession {
  /** model: a file path (Node), a URL, a Blob or File, a Uint8Array or an ArrayBuffer. */
  static create(model: string | URL | Blob | Uint8Array | ArrayBuffer, options?: SessionOptions): Promise<InferenceSession>;
  readonly inputNames: string[];
  readonly outputNames: string[];
  readonly inputMetadata: ValueMetadata[];
  readonly outputMetadata: ValueMetadata[];
  readonly opset: number;
  readonly irVersion: number;
  readonly opsetImports: { domain: string; version: number }[];
  readonly nodes: { name: string; opType: string; inputs: string[]; outputs: string[]; attributes: Record<string, unknown> }[];
  /** For initializers also storage: 'memory' (in wasm memory) or 'file' (kept in its external source `location`), and bytes. */
  valueInfo(name: string): { type: TensorType; dims: Dim[] | null; storage?: 'memory' | 'file'; location?: string; bytes?: number } | undefined;
  run(feeds: Record<string, TensorLike>, fetches?: readonly string[]): Promise<Record<string, Tensor>>;
  release(): Promise<void>;
}

// ---- The OPFS model cache (browsers; docs/large-tables-browser.md) ----
/** Declaration merging: the cache options of InferenceSession.create(). */
export interface SessionOptions {
  /** 'opfs': keep the model and its external data (downloaded, or a File/Blob copied) in the origin private file system; tables kept there are read by rows. */
  cache?: 'opfs';
  /** With cache: another key stores (and downloads) the model again. */
  cacheKey?: string;
}
export declare const modelCache: {
  /** Each cached model (or File copied in): url is the model's URL, or 'file:<name>'; complete: every file it lists is stored whole. */
  entries(): Promise<{ url: string; cacheKey: string | null; bytes: number; complete: boolean; files: { name: string; bytes: number; complete: boolean }[] }[]>;
  /** Removes the entry of a model URL (with its cacheKey) or of a File/Blob; resolves to whether there was one. */
  delete(source: string | URL | Blob, options?: { cacheKey?: string }): Promise<boolean>;
  clear(): Promise<void>;
};
