// The type test's ES module program: every export and option of onnx-wasm through `import`
// (resolved by package name, as a user's code resolves it). Compiled, not run, by
// tests/types/types.test.mjs; each @ts-expect-error line is a wrong call that must not compile.
import * as o from 'onnx-wasm';
import {
  init, runtime, threadsReady, memoryStats, Tensor, runNode, inferShapes, opVersions, prepareNode, PreparedNode, InferenceSession,
  TYPE_NAMES, ERROR_CLASSES, OnnxWasmError, UnsupportedOpError, OpsetError, TypeConstraintError, AttributeError, InputError,
  ShapeError, IndexOutOfRangeError, OutOfMemoryError, InvalidArgumentError, DisposedError, ModelError, ExternalDataError,
  type TensorType, type ErrorCode, type TensorData, type InitOptions, type RuntimeInfo, type AttributeValue, type AttributeProtoLike,
  type NodeLike, type TensorLike, type Dim, type ValueInfo, type InferredShape, type NodeOptions, type OpVersion, type ValueMetadata,
  type ExternalDataSource, type SessionOptions, type SessionValueInfo, type SessionNode, modelCache, type ModelCacheEntry,
  type TensorDataTypeMap,
} from 'onnx-wasm';

const initOptions: InitOptions[] = [
  { threads: false, simd: true },
  { wasmPaths: '/onnx-wasm/' }, { wasmPaths: new URL('https://example.com/dist/') },
  { wasmUrl: '/onnx-wasm.wasm' }, { wasmBinary: new Uint8Array(8) }, { wasmBinary: new ArrayBuffer(8) },
  { wasmModule: WebAssembly.compile(new Uint8Array(8)) },
];
const info: RuntimeInfo = await init(initOptions[0]);
const built: 'onnx-wasm' | 'onnx-wasm-nosimd' | 'onnx-wasm-threads' = info.module;
const facts: [boolean, number, boolean, string, string, string, number, number] =
  [info.simd, info.threads, info.threadsActive, info.reason, info.loadedFrom, info.kernels, info.minOpset, info.maxOpset];
const now: RuntimeInfo | null = runtime();
const pooled: boolean = await threadsReady();
const { heapUsed, memory }: { heapUsed: number; memory: number } = memoryStats();

const type: TensorType = TYPE_NAMES[0];
const table = new Tensor('float32', [1, 2, 3, 4, 5, 6], [3, 2]);
const flags = new Tensor('bool', [true, false]);
const halves = Tensor.alloc('float16', [2, 2]);
const data: TensorData = halves.data;
const facts2: [TensorType, readonly number[], number, boolean, boolean] = [table.type, table.dims, table.size, table.disposed, table.sharesMemoryWith(flags)];
const copy: Promise<TensorData> = table.getData();
// Tensor<T>: data typed by the type name, as onnxruntime-web's TypedTensor<T>.
const floats: Float32Array = new Tensor('float32', [1, 2], [2]).data;
const words: string[] = new Tensor('string', ['a', 'b']).data;
const bits: Uint16Array = halves.data;
const wide: BigInt64Array = Tensor.alloc('int64', [2]).data;
const later: Promise<Float32Array> = table.getData();
const typed: Tensor<'float32'> = table;
const anyType: Tensor = flags;
const storage: TensorDataTypeMap['bool'] = flags.data;
function firstOf<T extends TensorType>(t: Tensor<T>): TensorDataTypeMap[T] { return t.data; }
const firstFloats: Float32Array = firstOf(table);

const attributes: Record<string, AttributeValue> = { axis: 0 };
const protoAttribute: AttributeProtoLike = { name: 'axis', type: 2, i: '1' };
const nodes: NodeLike[] = [
  { opType: 'Gather', attributes },
  { opType: 'Gather', domain: 'ai.onnx', attributes: new Map([['axis', 1n]]) },
  { op_type: 'Flatten', attribute: [protoAttribute, { name: 'axis', type: 'INT', i: 1n }] },
  { op_type: 'Reshape', domain: '', attributes: { allowzero: 0 } },
];
const indices: TensorLike = { type: 'int64', data: new BigInt64Array([2n, 0n]), dims: [2] };
const options: NodeOptions = { opset: 13 };
const outputs: Tensor[] = runNode(nodes[0], [table, indices], options);
// Outputs keep their type where the op says it: input 0's for Gather, Reshape, Flatten... (the
// data), int64 for Shape and Size.
const [gathered] = runNode({ opType: 'Gather', attributes: { axis: 0 } }, [table, indices], { opset: 13 });
const gatheredRows: Float32Array = gathered.data;
const [reshaped] = runNode({ op_type: 'Reshape' }, [flags, { type: 'int64', data: [-1n] }]);
const reshapedFlags: Uint8Array = reshaped.data;
const [joined] = runNode({ opType: 'Concat', attributes: { axis: 0 } }, [words0(), words0()]);
const joinedWords: string[] = joined.data;
const [shapeOf] = runNode({ opType: 'Shape' }, [table]);
const dimsOf: BigInt64Array = shapeOf.data;
const [fromLike] = runNode({ opType: 'Identity' }, [{ type: 'int32', data: new Int32Array(2) }]);
const likeData: Int32Array = fromLike.data;
function words0() { return new Tensor('string', ['a']); }
runNode({ opType: 'Reshape' }, [table, null]);
runNode({ opType: 'Reshape' }, [table, undefined], {});
const dims: Dim[] = ['batch', 4, null];
const infos: ValueInfo[] = [{ type: 'float32', dims }, { type: 'int64', dims: [3], value: [0, 4, -1] }, { type: 'int64', dims: null, value: [1n] }, { type: 'float32' }];
const shapes: InferredShape[] = inferShapes({ opType: 'Reshape' }, [table, infos[1]], { opset: 25 });
inferShapes(nodes[3], infos.slice(0, 2));
const versions: OpVersion[] = opVersions();
const since: number = versions[0].since;

const prepared: PreparedNode = prepareNode(nodes[0], options);
const also = new PreparedNode({ opType: 'Flatten' });
const [flat]: Tensor[] = prepared.run([table, outputs[0]]);
// A prepared node whose op type is known keeps the output type, as runNode does.
const flattened: Float32Array = also.run([table])[0].data;
const gatherer: PreparedNode<'Gather'> = prepareNode({ opType: 'Gather', attributes: { axis: 0 } });
const picked: Uint8Array = gatherer.run([flags, Tensor.alloc('int64', [1])])[0].data;
const sized: BigInt64Array = prepareNode({ op_type: 'Size' }).run([table])[0].data;
const anyPrepared: PreparedNode[] = [gatherer, also, prepared];
const quantized: Tensor[] = prepareNode({ opType: 'GatherBlockQuantized', domain: 'com.microsoft' }).run([flags, table]);
const omitted: Tensor[] = prepareNode({ opType: 'Reshape' }).run([null, table]);
prepared.dispose();
also.dispose();

const external: ExternalDataSource[] = [new Uint8Array(4), new ArrayBuffer(4), new Blob([]), new URL('https://example.com/t.bin'), 'table.bin'];
const sessionOptions: SessionOptions[] = [
  { externalData: { 'table.bin': external[0] }, externalDataMode: 'auto', onProgress: ({ loaded, total }) => { void (loaded / total); } },
  { externalData: [{ path: 'table.bin', data: external[2] }], externalDataMode: 'memory' },
  { externalDataMode: 'lazy' },
  { cache: 'opfs', cacheKey: 'v2', externalDataMode: 'lazy', keepPartial: true, cacheRowLayout: true },
];
const session: InferenceSession = await InferenceSession.create('model.onnx', sessionOptions[0]);
await InferenceSession.create(new URL('https://example.com/model.onnx'));
await InferenceSession.create(new Blob([]), sessionOptions[1]);
await InferenceSession.create(new ArrayBuffer(0), sessionOptions[2]);
await InferenceSession.create('https://example.com/model.onnx', sessionOptions[3]);
const cached: ModelCacheEntry[] = await modelCache.entries();
const deleted: boolean[] = [await modelCache.delete('https://example.com/model.onnx', { cacheKey: 'v2' }), await modelCache.delete(new Blob([])),
  await modelCache.delete(cached[0]), await modelCache.delete(new URL('https://example.com/model.onnx'))];
await modelCache.clear();
const metadata: ValueMetadata[] = [...session.inputMetadata, ...session.outputMetadata];
const names: string[] = [...session.inputNames, ...session.outputNames];
const graph: [number, number, { domain: string; version: number }[], SessionNode[]] = [session.opset, session.irVersion, session.opsetImports, session.nodes];
const where: SessionValueInfo | undefined = session.valueInfo('table');
const result: Record<string, Tensor> = await session.run({ ids: indices, table }, ['flat']);
await session.run({ ids: indices }, { flat: null }, { tag: 'from onnxruntime-web' });
await session.run({ ids: indices }, { logSeverityLevel: 3 });
const fromBuffer: InferenceSession = await InferenceSession.create(new ArrayBuffer(8), 0, 8, { externalDataMode: 'memory' });
const inferred: Tensor = new Tensor(new Float32Array(4), [2, 2]);
const inferredExactly: Float32Array = new Tensor<'float32'>(new Float32Array(4), [2, 2]).data;
const inferredStrings: string[] = new Tensor<'string'>(['a', 'b']).data;
await session.run({ ids: table });
await session.release();

const errorClasses = [UnsupportedOpError, OpsetError, TypeConstraintError, AttributeError, InputError, ShapeError, IndexOutOfRangeError,
  OutOfMemoryError, InvalidArgumentError, DisposedError, ModelError, ExternalDataError] as const;
function codeOf(e: unknown): ErrorCode | undefined {
  if (e instanceof IndexOutOfRangeError) {
    const code: 'ERR_INDEX' = e.code;
    return code;
  }
  return e instanceof OnnxWasmError ? e.code : undefined;
}
const byCode: typeof ExternalDataError = ERROR_CLASSES.ERR_EXTERNAL_DATA;
const base = new OnnxWasmError('made by the caller', { cause: 1 });
const viaNamespace: typeof o.Tensor = o.Tensor;

// Wrong calls: each must be a compile error.
// @ts-expect-error InferenceSession has no public constructor: use InferenceSession.create
new InferenceSession();
// @ts-expect-error not an element type
new Tensor('float128', [1]);
// @ts-expect-error a node needs an op type
runNode({ attributes: { axis: 0 } }, [table]);
// @ts-expect-error the opset is a number
runNode(nodes[0], [table], { opset: '13' });
// @ts-expect-error not a mode
await InferenceSession.create('model.onnx', { externalDataMode: 'disk' });
// @ts-expect-error init takes no wasm option of this name
await init({ wasmFile: 'x.wasm' });
// @ts-expect-error a prepared node runs Tensors of this package only
prepared.run([indices]);
// @ts-expect-error fetches map names to null (onnx-wasm writes into no given Tensor)
await session.run({ ids: indices }, { flat: table });
// @ts-expect-error fetches are names
await session.run({ ids: indices }, 'flat');
// @ts-expect-error the type of an array of numbers is not inferred
new Tensor([1, 2]);
// @ts-expect-error an Int32Array is no float32 data
new Tensor<'float32'>(new Int32Array(4));
// @ts-expect-error a byte offset is into an ArrayBuffer
await InferenceSession.create(new Uint8Array(8), 0);
// @ts-expect-error dims are read-only
table.dims.push(1);
// @ts-expect-error the base class's code may be undefined
const sure: ErrorCode = base.code;
// @ts-expect-error the only cache is 'opfs'
await InferenceSession.create('model.onnx', { cache: 'indexeddb' });
// @ts-expect-error a float32 tensor's data is a Float32Array
const notInts: Int32Array = new Tensor('float32', [1, 2], [2]).data;
// @ts-expect-error a Gather of float32 data gives float32
const notInt64: Tensor<'int64'> = runNode({ opType: 'Gather' }, [table, indices])[0];
// @ts-expect-error Shape gives int64
const notFloats: Float32Array = runNode({ opType: 'Shape' }, [table])[0].data;
// @ts-expect-error a prepared Flatten of float32 data gives float32
const notStrings: string[] = also.run([table])[0].data;
// @ts-expect-error a bool tensor's data is bytes, not booleans
const notBools: boolean[] = flags.data;

export {
  built, facts, now, pooled, heapUsed, memory, type, data, facts2, copy, shapes, since, flat, metadata, names, graph, where, result,
  errorClasses, codeOf, byCode, viaNamespace, sure, cached, deleted, floats, words, bits, wide, later, typed, anyType, storage,
  firstFloats, gatheredRows, reshapedFlags, joinedWords, dimsOf, likeData, notInts, notInt64, notFloats, notBools,
  flattened, picked, sized, anyPrepared, quantized, omitted, notStrings,
};
