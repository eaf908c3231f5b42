// Types only (JSDoc, for `tsc -p tsconfig.check.json`): the Emscripten module object that init()
// loads (js/runtime.mjs), as bindings/embind.cpp registers its calls, and the values that cross.
// The modules name them as import('./wasm-module.mjs').WasmModule, so the shapes of the wasm
// boundary are written down once; nothing imports this file at run time (it holds no code).
// @ts-check

/**
 * A failure as a call that can fail returns it instead of its result (bindings/embind.cpp), the
 * code as in src/status_codes.def; check() (js/binding.mjs) throws it as the Error of its code.
 * @typedef {{ code: string, message: string }} Failure
 */

/**
 * An attribute as the binding reads it (js/node.mjs, normalizeNode): numbers only (an INT exact
 * below 2^53; a bigint is a malformed call).
 * @typedef {{ name: string, kind: 'INT' | 'INTS' | 'FLOAT' | 'FLOATS' | 'STRING' | 'STRINGS' | 'TENSOR', value: number | string | (number | string)[] | string[] | WasmTensorValue }} WasmAttribute
 */

/**
 * A TENSOR attribute's value: its ONNX type id, dims, and storage bytes (little-endian, packed as
 * ONNX packs sub-byte types) or, for strings, the strings.
 * @typedef {{ type: number, dims: number[], bytes?: number[], strings?: string[] }} WasmTensorValue
 */

/**
 * What inferNode takes of an input: an ONNX type id (0 for an omitted input), dims (null:
 * unknown rank) and, for a constant int64 input, its values (entries a number, a decimal string
 * for one beyond 2^53, or for a value computed from symbolic dims, a symbol or null).
 * @typedef {{ type: number, dims: (number | string | null)[] | null, value?: (number | string | null)[] }} WasmValueInfo
 */

/**
 * One op version as opVersions lists it (js/index.d.ts's OpVersion, and what the binding adds:
 * the domain, optional and variadic inputs, the capabilities).
 * @typedef {object} WasmOpVersion
 * @property {string} domain
 * @property {string} op
 * @property {number} since
 * @property {number} until
 * @property {string} spec
 * @property {{ name: string, constraint: string, types: import('./index.js').TensorType[], optional: boolean, variadic: boolean }[]} inputs
 * @property {{ name: string, kind: 'INT' | 'INTS' | 'FLOAT' | 'FLOATS' | 'STRING' | 'STRINGS' | 'TENSOR', required: boolean }[]} attributes
 * @property {{ view: boolean, rowsInput: number, rowsAxis: string }} capabilities rowsInput -1 and rowsAxis '' when the op reads no table by rows
 */

/**
 * The storage of a tensor as tensorData gives it: a typed array over wasm memory (undefined for
 * strings).
 * @typedef {Float32Array | Float64Array | Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | BigInt64Array | BigUint64Array} WasmView
 */

/**
 * The loaded module (as of bindings/embind.cpp's EMSCRIPTEN_BINDINGS: keep the two in step).
 * Handles (a tensor's or a prepared node's address) are numbers; 0 is none. Calls that can fail
 * return their result or a {@link Failure}; the per-run calls return 0 instead (nodeRunHandle,
 * tensorInfoAddress, tensorCreateHandle, inputsAddress). A prepared node's input handles are
 * written as uint32s at inputsAddress(n) before nodeRun or nodeRunHandle.
 * @typedef {object} WasmModule
 * @property {Uint8Array} HEAPU8 wasm memory (a new view after it grows: read it again after any call that may grow it)
 * @property {(typeId: number, dims: readonly number[], zeroed: boolean) => number | Failure} tensorCreate
 * @property {(typeId: number, rank: number, zeroed: number, d0: number, d1: number, d2: number, d3: number) => number} tensorCreateHandle
 * @property {(handle: number) => WasmView | undefined} tensorData
 * @property {(handle: number) => { type: number, dims: number[] }} tensorInfo
 * @property {(handle: number) => number} tensorInfoAddress the address of the info int32s, or 0
 * @property {() => number} infoAddress
 * @property {(handle: number) => void} tensorDelete
 * @property {(a: number, b: number) => boolean} tensorSharesBuffer
 * @property {(handle: number, i: number) => string} tensorString
 * @property {(handle: number, i: number, s: string) => void} tensorSetString
 * @property {(domain: string, op: string, opset: number, attrs: WasmAttribute[]) => { node: number } | Failure} prepareNode
 * @property {(n: number) => number} inputsAddress room for n input handles: its address (it moves as it grows), or 0
 * @property {(node: number, n: number) => number | Failure} nodeRun
 * @property {(node: number, n: number) => number} nodeRunHandle
 * @property {(node: number) => void} nodeDelete
 * @property {(node: number, count: number, typeId: number, dims: readonly number[], outside: readonly number[]) => { rows: number, remapped: number } | Failure} nodeGatherRows
 *   outside: [input, type id, rank, dims...] for each other input kept outside memory with the table
 * @property {(domain: string, op: string, opset: number, attrs: WasmAttribute[], inputs: number[]) => number[] | Failure} runNode
 * @property {(domain: string, op: string, opset: number, attrs: WasmAttribute[], inputs: WasmValueInfo[]) => WasmValueInfo[] | Failure} inferNode
 * @property {() => WasmOpVersion[]} opVersions
 * @property {() => Uint8Array} registryIndex a view of wasm memory (the module's; copy it before memory can grow) holding one
 *   line a (domain, op) in the table's order, "domain\top\trowsInput\trowsAxis\trowsAlso\n", in UTF-8 (a cheaper read than opVersions)
 * @property {() => { kernels: string, threads: number, minOpset: number, maxOpset: number, domains: { domain: string, minOpset: number, maxOpset: number }[] }} runtimeFacts
 * @property {() => boolean} threadsActive
 * @property {() => void} enableThreads
 * @property {() => number} heapUsed
 * @property {any} [PThread] Emscripten's pthread pool (the threads build only)
 */

export {};
