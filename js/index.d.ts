// TypeScript declarations of onnx-wasm's public API (js/index.mjs). tests/js/package.test.mjs
// checks that every runtime export is declared here and that a TypeScript program using the
// API compiles. Element types and error classes come from src/*.def (js/generated/types.d.ts).
import type { TensorType } from './generated/types.js';

export type { TensorType };
export {
  UnsupportedOpError, OpsetError, TypeConstraintError, AttributeError, InputError, ShapeError,
  IndexOutOfRangeError, OutOfMemoryError, InvalidArgumentError, DisposedError, ModelError, ERROR_CLASSES,
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
export declare class InferenceSession {
  static create(model: string | Uint8Array | ArrayBuffer, options?: { externalData?: Record<string, Uint8Array> }): Promise<InferenceSession>;
  readonly inputNames: string[];
  readonly outputNames: string[];
  readonly inputMetadata: ValueMetadata[];
  readonly outputMetadata: ValueMetadata[];
  readonly opset: number;
  readonly irVersion: number;
  readonly opsetImports: { domain: string; version: number }[];
  readonly nodes: { name: string; opType: string; inputs: string[]; outputs: string[]; attributes: Record<string, unknown> }[];
  valueInfo(name: string): { type: TensorType; dims: Dim[] | null } | undefined;
  run(feeds: Record<string, TensorLike>, fetches?: readonly string[]): Promise<Record<string, Tensor>>;
  release(): Promise<void>;
}
