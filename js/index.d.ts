// TypeScript declarations of onnx-wasm's public API (js/index.mjs), for `import`. js/index.d.cts
// gives the same declarations to `require`. tests/types/ compiles a program that uses every
// export and option through both, and checks that every runtime export is declared and documented.
// Element types and error classes come from src/*.def (js/generated/types.d.ts, written at build).
// `npm run docs` builds the HTML API reference from this file (TypeDoc).
/**
 * ONNX's Gather, Flatten and Reshape at every opset version and element type, with shape
 * inference, in a small WebAssembly module for browsers and Node.js.
 *
 * Start with {@link init}, then {@link runNode} for one node or {@link InferenceSession} for a
 * model. Guides: README.md and docs/ in the repository.
 * @packageDocumentation
 */
import type { TensorType, ErrorCode, TensorDataTypeMap } from './generated/types.js';

export type { TensorType, ErrorCode, TensorDataTypeMap };
export {
  UnsupportedOpError, OpsetError, TypeConstraintError, AttributeError, InputError, ShapeError,
  IndexOutOfRangeError, OutOfMemoryError, InvalidArgumentError, DisposedError, ModelError, ExternalDataError, ERROR_CLASSES,
} from './generated/types.js';

/**
 * The base class of every error onnx-wasm throws. What it throws is always one of the
 * subclasses (one per code, listed in {@link ERROR_CLASSES}), whose `code` is stable; the message
 * is for people. After any error the module keeps working and nothing partial is returned.
 */
export declare class OnnxWasmError extends Error {
  constructor(message?: string, options?: ErrorOptions);
  /** The stable code, set by each subclass; an `OnnxWasmError` made directly has none. */
  readonly code?: ErrorCode;
}

/**
 * The storage of a tensor's elements, of any type: Float32Array / Float64Array (complex types
 * interleave real and imaginary parts), Int8Array ... BigUint64Array for integers, Uint8Array
 * for bool, float8 and packed sub-byte types (two 4-bit or four 2-bit values per byte, the first
 * element in the low bits), Uint16Array holding the bits of float16 and bfloat16, and `string[]`.
 * {@link TensorDataTypeMap} gives the one of each type.
 */
export type TensorData = TensorDataTypeMap[TensorType];

/** Options of {@link init}. Pass at most one of `wasmModule`, `wasmBinary` and `wasmUrl`. */
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
  /** Where to fetch the .wasm of the chosen build. */
  wasmUrl?: string | URL;
  /** The bytes of the .wasm of the chosen build. */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /**
   * The .wasm of the chosen build, compiled by the caller, or a promise of it: for instance
   * `WebAssembly.compileStreaming(fetch(url))` started by an inline script in the page's head.
   * A module of another build, a rejected promise or anything else is an {@link InvalidArgumentError}.
   */
  wasmModule?: WebAssembly.Module | Promise<WebAssembly.Module>;
}

/** Which module {@link init} loaded, and why. */
export interface RuntimeInfo {
  /** The build: SIMD with one thread, without SIMD, or SIMD with pthreads. */
  module: 'onnx-wasm' | 'onnx-wasm-nosimd' | 'onnx-wasm-threads';
  /** Whether the kernels use wasm SIMD. */
  simd: boolean;
  /** How many threads the largest gathers use (1 in the one-thread builds). */
  threads: number;
  /** Whether the threads build's workers are ready (they load in the background after init). */
  threadsActive: boolean;
  /** Why this build was chosen, as a sentence. */
  reason: string;
  /** Where the .wasm came from (a URL, or what the caller passed). */
  loadedFrom: string;
  /** The kernel set compiled in: 'wasmsimd' or 'scalar'. */
  kernels: string;
  /** The lowest opset any op version of the default domain covers (1). */
  minOpset: number;
  /** The highest opset the registry knows in the default domain (the default opset of {@link runNode}). */
  maxOpset: number;
}

/**
 * Loads the wasm module once; every later call returns the same promise (a failed load may be
 * retried). Resolves to what {@link runtime} returns.
 */
export declare function init(options?: InitOptions): Promise<RuntimeInfo>;
/** Which module is loaded and why, or null before {@link init} has finished. */
export declare function runtime(): RuntimeInfo | null;
/**
 * Resolves once the threads build's workers are loaded and the largest gathers use them (they
 * load in the background after {@link init}), to whether they do: what
 * {@link RuntimeInfo.threadsActive} reads from then on. `true` then; `false` at once in the
 * one-thread builds, and `false` if a worker failed to load (everything keeps running on the
 * calling thread). Waits for an {@link init} still loading, and rejects with its error if it fails;
 * rejects with an {@link InvalidArgumentError} if {@link init} has not been called. In Node it keeps
 * the process alive until it settles.
 */
export declare function threadsReady(): Promise<boolean>;
/**
 * Wasm memory in use, for leak checks: `heapUsed`, bytes the allocator has handed out and not
 * taken back; `memory`, bytes of wasm memory (it grows, never shrinks).
 */
export declare function memoryStats(): { heapUsed: number; memory: number };

/**
 * Data that lives in wasm memory. Made once (the data copied in), then passed to any number of
 * calls without copying. `dispose()` frees it; a garbage-collected Tensor is freed too.
 * `T`, the element type, types `data` as onnxruntime-web's `TypedTensor<T>` does:
 * `new Tensor('float32', [1, 2]).data` is a Float32Array. `Tensor` alone is a tensor of any type.
 */
export declare class Tensor<T extends TensorType = TensorType> {
  /**
   * A tensor of `type` holding `data`, copied into wasm memory once. `data` is the type's typed
   * array ({@link TensorData}) or a plain array that converts exactly (booleans for bool; for
   * float16, bfloat16, float8 and sub-byte types the raw storage values). `dims` defaults to
   * [number of elements]. A value that does not fit, or a length that does not match `dims`, is
   * an {@link InvalidArgumentError}.
   */
  constructor(type: T, data: TensorDataTypeMap[T] | ArrayLike<number | bigint | string | boolean>, dims?: readonly number[]);
  /**
   * onnxruntime-web's form: the type from the data, a typed array (Float32Array: float32,
   * BigInt64Array: int64, Uint16Array: uint16, Uint8ClampedArray: uint8, ...), string[] (string)
   * or boolean[] (bool). An array of numbers names no type: an {@link InvalidArgumentError}.
   * TypeScript does not infer `T` from the data: `new Tensor<'float32'>(new Float32Array(4))`
   * types `data` as a Float32Array.
   */
  constructor(data: TensorDataTypeMap[T] | (T extends 'string' ? readonly string[] : never) | (T extends 'bool' ? readonly boolean[] : never) | (T extends 'uint8' ? Uint8ClampedArray : never), dims?: readonly number[]);
  /** A tensor of zeros (empty strings) allocated in wasm memory, to fill in place through `data`. */
  static alloc<T extends TensorType>(type: T, dims: readonly number[]): Tensor<T>;
  /** The element type. */
  readonly type: T;
  /** The dimensions (frozen). */
  readonly dims: readonly number[];
  /** The number of elements. */
  readonly size: number;
  /**
   * A view into wasm memory (a `string[]` over it for strings): writes go to the tensor. Read it
   * again after later calls: when wasm memory grows an old view is detached. Reading a disposed
   * tensor's data is a {@link DisposedError}.
   */
  readonly data: TensorDataTypeMap[T];
  /** Whether `dispose()` has been called. */
  readonly disposed: boolean;
  /** A copy of the data, as onnxruntime-web's `Tensor.getData()`. */
  getData(): Promise<TensorDataTypeMap[T]>;
  /** Whether both tensors read the same wasm memory (a Reshape or Flatten output and its input). */
  sharesMemoryWith(other: Tensor): boolean;
  /** Frees the tensor's memory now. Calling it again does nothing. */
  dispose(): void;
}

/** An attribute value: numbers and bigints are INT (FLOAT if not an integer), arrays INTS, FLOATS or STRINGS. Integers beyond 2^53 as bigints (int64's range). */
/** A Tensor is a TENSOR attribute (ConstantOfShape's `value`). */
export type AttributeValue = number | bigint | string | readonly number[] | readonly bigint[] | readonly string[] | Tensor;

/** An attribute in the shape of ONNX's AttributeProto (as decoders such as onnx-buf or protobufjs give it). */
export interface AttributeProtoLike {
  name: string;
  /** AttributeProto.AttributeType: 1 FLOAT, 2 INT, 3 STRING, 4 TENSOR, 6 FLOATS, 7 INTS, 8 STRINGS, or its name. */
  type: number | 'FLOAT' | 'INT' | 'STRING' | 'TENSOR' | 'FLOATS' | 'INTS' | 'STRINGS';
  /** INT value (a decimal string as in proto3 JSON). */
  i?: number | bigint | string;
  ints?: ArrayLike<number | bigint | string>;
  f?: number;
  floats?: ArrayLike<number>;
  /** STRING value, as text or UTF-8 bytes. */
  s?: string | Uint8Array;
  strings?: ArrayLike<string | Uint8Array>;
  /** TENSOR value. */
  t?: Tensor;
}

/**
 * A node to run or infer: `{ opType, attributes }` with attributes as an object or a Map, or a
 * NodeProto-shaped object (`op_type` accepted for `opType`) with an `attribute` list. `domain`:
 * '' or 'ai.onnx' (the default), or another domain of the registry ('com.microsoft', 'onnx-wasm'); an op the
 * registry does not have in that domain is an {@link UnsupportedOpError}.
 */
export type NodeLike =
  | { opType: string; domain?: string; attributes?: Record<string, AttributeValue> | ReadonlyMap<string, AttributeValue> }
  | { op_type: string; domain?: string; attributes?: Record<string, AttributeValue> | ReadonlyMap<string, AttributeValue> }
  | { opType: string; domain?: string; attribute: readonly AttributeProtoLike[] }
  | { op_type: string; domain?: string; attribute: readonly AttributeProtoLike[] };

/**
 * An input: a {@link Tensor} of this package (used in place) or any `{ type, data, dims }`, such
 * as an onnxruntime-web Tensor (copied in for the call). `T`: its element type.
 */
export type TensorLike<T extends TensorType = TensorType> =
  | Tensor<T>
  | { type: T; data: TensorDataTypeMap[T] | ArrayLike<number | bigint | string | boolean>; dims?: readonly number[] };

/** A dimension: a number, a symbolic name, or null when unknown. */
export type Dim = number | string | null;

/**
 * What {@link inferShapes} knows of an input: its type and dims (null: unknown rank), and for a
 * constant int64 input such as Reshape's shape its values. A value computed from symbolic dims
 * (a Shape of ['batch', 8]) may have entries that are a symbol or null (unknown).
 */
export interface ValueInfo {
  type: TensorType;
  dims?: readonly Dim[] | null;
  value?: readonly (number | bigint | string | null)[] | null;
}

/** An inferred output: type and dims (null: unknown rank). */
export interface InferredShape {
  type: TensorType;
  dims: Dim[] | null;
  /**
   * The values of a small int64 output that inference knows (Shape's, a Concat of known parts...):
   * numbers, or for values computed from symbolic dims, entries that are a symbol or null.
   */
  value?: Dim[];
}

/** Options of {@link runNode}, {@link inferShapes}, {@link prepareNode} and {@link PreparedNode}. */
export interface NodeOptions {
  /**
   * The opset of the node's domain (default: the newest the registry has for it). It selects the
   * newest version of the op whose since_version is not above it. As in onnxruntime-web's op
   * tests, it may be given as `{ domain, version }`, whose domain must be the node's.
   */
  opset?: number | { domain: string; version: number };
}

/** The ops (of the default domain) whose output has the element type of input 0, the data. */
export type DataTypeOp = 'Gather' | 'Flatten' | 'Reshape' | 'Identity' | 'Unsqueeze' | 'Squeeze' | 'Concat';
/** The ops (of the default domain) whose output is int64 whatever their input. */
export type Int64Op = 'Shape' | 'Size';
/**
 * The output of a node of op type `Op` whose input 0 is a `Tensor<T>`: a `Tensor<T>` for a
 * {@link DataTypeOp}, a `Tensor<'int64'>` for an {@link Int64Op}, else a Tensor of any type.
 */
export type OutputOf<Op extends string, T extends TensorType> =
  [Op] extends [DataTypeOp] ? Tensor<T> : [Op] extends [Int64Op] ? Tensor<'int64'> : Tensor;
/** A {@link NodeLike} whose op type is one of `Op` (written as `opType` or `op_type`). */
export type NodeOf<Op extends string> = NodeLike & ({ opType: Op; domain?: '' | 'ai.onnx' } | { op_type: Op; domain?: '' | 'ai.onnx' });

/**
 * Runs one node and returns its outputs, new Tensors the caller disposes. Reshape and Flatten
 * outputs share the input's memory (O(1) at any size); Gather writes a new buffer. `null` or
 * `undefined` stands for an omitted input (an empty name in a NodeProto): allowed where the op
 * version marks the input optional, else an {@link InputError}. Errors: the {@link OnnxWasmError}
 * subclass of the rule broken. The output keeps its element type in its type where the op type
 * says it: input 0's for a {@link DataTypeOp} (Gather, Reshape...), int64 for Shape and Size.
 */
export declare function runNode<T extends TensorType>(node: NodeOf<DataTypeOp>, inputs: readonly [TensorLike<T>, ...(TensorLike | null | undefined)[]], options?: NodeOptions): Tensor<T>[];
export declare function runNode(node: NodeOf<Int64Op>, inputs: readonly (TensorLike | null | undefined)[], options?: NodeOptions): Tensor<'int64'>[];
export declare function runNode(node: NodeLike, inputs: readonly (TensorLike | null | undefined)[], options?: NodeOptions): Tensor[];
/**
 * The output types and shapes of one node, without running it. An input is a {@link ValueInfo}
 * or a Tensor (its type, dims, and for a small int64 tensor its values), or null for an omitted
 * optional input.
 */
export declare function inferShapes(node: NodeLike, inputs: readonly (ValueInfo | Tensor | null)[], options?: NodeOptions): InferredShape[];

/** One version of one op in the registry, as {@link opVersions} lists it. */
export interface OpVersion {
  /** '' for the default ONNX domain, else the domain ('com.microsoft', or 'onnx-wasm' for its Gather of every element type and its GatherBlockQuantized with a multiplier). */
  domain: string;
  op: 'Gather' | 'Flatten' | 'Reshape' | 'Shape' | 'Size' | 'Identity' | 'Unsqueeze' | 'Squeeze' | 'Concat' | 'Slice' | 'Range' | 'ConstantOfShape' | 'Cast' | 'CastLike' | 'GatherElements' | 'GatherND' | 'Add' | 'Sub' | 'Mul' | 'Div' | 'DequantizeLinear' | 'GatherBlockQuantized';
  /** The opset (of its domain) in which this version appeared. */
  since: number;
  /** The last opset it covers. */
  until: number;
  /** The operator page of this version. */
  spec: string;
  /**
   * Its inputs in order. Inputs of one constraint letter (`T`) must have one type. `optional`: may
   * be omitted; `variadic`: the last input, given one or more times.
   */
  inputs: { name: string; constraint: string; types: TensorType[]; optional: boolean; variadic: boolean }[];
  attributes: { name: string; kind: 'INT' | 'INTS' | 'FLOAT' | 'FLOATS' | 'STRING' | 'STRINGS' | 'TENSOR'; required: boolean }[];
  /**
   * What the package relies on: `view`, the output shares input 0's memory (no copy);
   * `rowsInput` (-1 for none), the input a session may keep outside memory (in its file, a Blob or
   * OPFS) and read by rows when the attribute `rowsAxis` is 0; `rowsAlso`, the inputs indexed by
   * the same rows (GatherBlockQuantized's scales and zero points), taken at the rows read.
   */
  capabilities: { view: boolean; rowsInput: number; rowsAxis: string; rowsAlso: number[] };
}
/** The registry: every version of every op, with its domain, opset range, inputs, attributes and capabilities. */
export declare function opVersions(): OpVersion[];

/**
 * A node parsed and checked once, run many times with no per-call parsing (how
 * {@link InferenceSession} runs its nodes). Owns wasm memory: `dispose()` frees it.
 */
export declare class PreparedNode<Op extends string = string> {
  /** The same as {@link prepareNode}. */
  constructor(node: NodeLike & ({ opType: Op } | { op_type: Op }), options?: NodeOptions);
  /**
   * Runs the node on Tensors of this package (no copies; null or undefined for an omitted optional
   * input); returns [output], which the caller disposes. The output's type is input 0's for a
   * {@link DataTypeOp}, int64 for Shape and Size ({@link OutputOf}).
   */
  run<T extends TensorType>(inputs: readonly [Tensor<T> | null | undefined, ...(Tensor | null | undefined)[]]): OutputOf<Op, T>[];
  run(inputs: readonly (Tensor | null | undefined)[]): Tensor[];
  /** Frees the prepared node; a later `run` is a {@link DisposedError}. */
  dispose(): void;
}
/** Parses and checks a node once for many runs; errors as {@link runNode}'s. */
export declare function prepareNode<Op extends string>(node: NodeLike & ({ opType: Op } | { op_type: Op }), options?: NodeOptions): PreparedNode<Op>;

/** Every element type name, in the order of ONNX's TensorProto.DataType. */
export declare const TYPE_NAMES: readonly TensorType[];

/** An input or output of a model, as onnxruntime-web describes it. */
export interface ValueMetadata {
  name: string;
  isTensor: true;
  type: TensorType;
  /** Dims as declared (inputs) or inferred at load (outputs); null when the rank is unknown. */
  shape: Dim[] | null;
}

/** Bytes of external data: in memory, a Blob or File, or a URL (in Node a string that is not a URL is a file path). */
export type ExternalDataSource = Uint8Array | ArrayBuffer | Blob | URL | string;

/** Options of {@link InferenceSession.create}. */
export interface SessionOptions {
  /**
   * `{ location: data }` or onnxruntime-web's `[{ path, data }]`. Unlisted locations are read next
   * to the model (a file in Node, a URL when the model came from one).
   */
  externalData?: Record<string, ExternalDataSource> | readonly { path: string; data: ExternalDataSource }[];
  /**
   * Where tables in external data live: 'auto' (default: in wasm memory while those there total
   * at most 2 GiB, larger ones kept in their source), 'memory' (all loaded) or 'lazy' (kept in
   * their source whenever only Gathers along axis 0 read them).
   */
  externalDataMode?: 'auto' | 'memory' | 'lazy';
  /** Bytes of the model and of the external data it loads, read so far: called at least every 64 MiB, and once at the end with loaded === total. */
  onProgress?: (progress: { loaded: number; total: number }) => void;
  /**
   * `'opfs'` (browsers): keep the model and its external data (downloaded from their URLs, or a
   * File/Blob given in `externalData` copied) in the origin private file system, and read them
   * from there on later visits, offline too; tables kept there are read by rows. A download that
   * stops resumes from the bytes stored. See {@link modelCache}.
   */
  cache?: 'opfs';
  /** With `cache`: another key is another entry, downloaded again. */
  cacheKey?: string;
  /**
   * With `cache`: a download or copy that runs out of storage quota keeps the bytes stored, and a
   * later `create()` resumes from them once there is room. By default they are removed: nothing
   * half-written is left. Either way `create()` fails with an {@link ExternalDataError}.
   */
  keepPartial?: boolean;
  /**
   * With `cache`: tables that a node reads by rows together and that stay in the cache (a
   * GatherBlockQuantized's codes, scales and zero points) are also written, once, to a second
   * file of the entry with their rows side by side, and runs read each row of them all in one read
   * instead of one per table. The entry then takes those tables' bytes twice. Off by default.
   */
  cacheRowLayout?: boolean;
}

/**
 * onnxruntime-web's run options, taken by {@link InferenceSession.run} so that its calls carry
 * over; none of them changes a run of onnx-wasm.
 */
export interface RunOptions {
  logSeverityLevel?: 0 | 1 | 2 | 3 | 4;
  logVerbosityLevel?: number;
  terminate?: boolean;
  tag?: string;
  extra?: Record<string, unknown>;
}

/** What {@link InferenceSession.valueInfo} says of a value of the graph. */
export interface SessionValueInfo {
  type: TensorType;
  /** Dims with symbols; null when the rank is unknown. */
  dims: Dim[] | null;
  /** For an initializer: in wasm memory, or kept in its external source and read by rows. */
  storage?: 'memory' | 'file';
  /** For a table kept in its source: the external data location. */
  location?: string;
  /** For an initializer: its size in bytes (not given for strings). */
  bytes?: number;
}

/** A node of a loaded model, in run order. */
export interface SessionNode {
  name: string;
  /** The node's domain as the model writes it ('' for the default one). */
  domain: string;
  opType: string;
  inputs: string[];
  outputs: string[];
  /** Attributes as plain values: ints as numbers, strings as text. */
  attributes: Record<string, number | string | number[] | string[]>;
}

/**
 * A loaded ONNX model of Gather, Flatten, Reshape and Constant nodes, with onnxruntime-web's API.
 * Made by {@link InferenceSession.create} only. Owns its initializers: `release()` frees them.
 */
export declare class InferenceSession {
  private constructor();
  /**
   * Loads a model: a file path (Node), a URL, a Blob or File, a Uint8Array or an ArrayBuffer.
   * Calls {@link init} if needed. Unsupported ops are one {@link UnsupportedOpError} naming them
   * all; a malformed graph or data is a {@link ModelError}.
   */
  static create(model: string | URL | Blob | Uint8Array | ArrayBuffer, options?: SessionOptions): Promise<InferenceSession>;
  /** The model at `byteLength` bytes (default: to the end) from `byteOffset` of `buffer`, as onnxruntime-web takes it. */
  static create(buffer: ArrayBuffer | SharedArrayBuffer, byteOffset: number, byteLength?: number, options?: SessionOptions): Promise<InferenceSession>;
  /** Names of the graph inputs a run needs (initializers excluded). */
  readonly inputNames: string[];
  /** Names of the graph outputs. */
  readonly outputNames: string[];
  /** The graph inputs with their declared types and shapes. */
  readonly inputMetadata: ValueMetadata[];
  /** The graph outputs with the types and shapes inferred at load, with symbols. */
  readonly outputMetadata: ValueMetadata[];
  /** The opset of the default ONNX domain, which selects each op's version. */
  readonly opset: number;
  /** The model's IR version. */
  readonly irVersion: number;
  /** The model's opset imports. */
  readonly opsetImports: { domain: string; version: number }[];
  /** The nodes, in run order. */
  readonly nodes: SessionNode[];
  /** The inferred type and dims of any value of the graph, and where an initializer lives; undefined for an unknown name. */
  valueInfo(name: string): SessionValueInfo | undefined;
  /**
   * Runs the model. Feeds are checked against the graph inputs (type, rank, fixed dims, one value
   * per symbol) before anything runs; `fetches` selects outputs or any other value of the graph,
   * as names or, as in onnxruntime-web, an object of names to null. Resolves to new Tensors by
   * name, which the caller disposes. On an error nothing is returned and nothing the run made is
   * left allocated.
   */
  run(feeds: Record<string, TensorLike>, options?: RunOptions): Promise<Record<string, Tensor>>;
  run(feeds: Record<string, TensorLike>, fetches: readonly string[] | Readonly<Record<string, null>>, options?: RunOptions): Promise<Record<string, Tensor>>;
  /** Frees the session's tensors and nodes; a later `run` is a {@link DisposedError}. */
  release(): Promise<void>;
}

/** An entry of the OPFS model cache, as {@link modelCache}.entries() lists it. */
export interface ModelCacheEntry {
  /** The model's URL, or `'file:<name>'` for a File or Blob copied in. */
  url: string;
  /** The key it was stored with (`cacheKey`), or null. */
  cacheKey: string | null;
  /** Bytes stored, partial files included. */
  bytes: number;
  /** Whether every file the entry lists is stored whole. */
  complete: boolean;
  /** Its files: `'model'` and each external data location. */
  files: { name: string; bytes: number; complete: boolean }[];
}

/**
 * The OPFS model cache of a browser origin (`InferenceSession.create(url, { cache: 'opfs' })`):
 * what it holds, and removing it. Each method fails with an {@link ExternalDataError} where the
 * origin private file system is missing (some private modes). See docs/large-tables-browser.md.
 */
export declare const modelCache: {
  /** Every cached model, and every File or Blob copied in. */
  entries(): Promise<ModelCacheEntry[]>;
  /**
   * Removes the entry of a model URL (with the `cacheKey` it was stored with), of a File or Blob,
   * or an entry as `entries()` lists it; resolves to whether there was one. Sessions reading it
   * close their handles first; their next run is an {@link ExternalDataError}.
   */
  delete(source: string | URL | Blob | Pick<ModelCacheEntry, 'url' | 'cacheKey'>, options?: { cacheKey?: string }): Promise<boolean>;
  /** Removes every entry. */
  clear(): Promise<void>;
};
