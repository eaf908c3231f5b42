// Tensor: data that lives in wasm memory. Created once (Embind's Module.tensorCreate, data copied
// in), then passed to any number of calls without copying; `data` is the typed array over wasm
// memory that Module.tensorData returns (typed_memory_view), made again when memory grows.
// Memory: the Tensor owns one C++ tensor (a handle, freed with Module.tensorDelete); dispose() frees
// it, and a FinalizationRegistry frees it if the Tensor is garbage collected first (registered at
// the end of the task that made it: see registerLater).
// @ts-check
import { check } from './binding.mjs';
import { describeValue, invalidArgument, DisposedError } from './errors.mjs';
import { ERROR_CLASSES } from './generated/errors.mjs';
import { getModule, loadedModule, refreshInfo, runCalls } from './runtime.mjs';
import { TYPES_BY_ID, arrayClass, elementCount, storageLength, typeById, typeByName } from './types.mjs';

/** @typedef {import('./wasm-module.mjs').WasmModule} WasmModule */
/** @typedef {import('./wasm-module.mjs').WasmView} WasmView */
/** @typedef {import('./runtime.mjs').RunCalls} RunCalls */
/** @typedef {import('./types.mjs').ElementType} ElementType */
/** @typedef {import('./index.js').TensorData} TensorData */

const FROM_HANDLE = Symbol('fromHandle');
/** @typedef {typeof FROM_HANDLE} FromHandle */
const FROZEN = 1, REGISTERED = 2;   // Tensor's #flags
// Tensor[UNINITIALIZED](type, dims): for js/model/ loaders, not part of the public API.
export const UNINITIALIZED = Symbol('uninitialized');
// handleOf(t): t.handle for js/ internals (a call, where the getter's access cost more in V8's
// first tiers, a session's first runs).
/** @type {(t: Tensor) => number} */
export let handleOf;
let stringWrites = 0;   // writes through any string tensor's data array (see #stringArray)
const finalizer = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry((/** @type {number} */ ptr) => getModule().tensorDelete(ptr))
  : null;

// Registering with the FinalizationRegistry costs as much as a whole tiny Gather
// (docs/performance.md), and most tensors (run outputs) are disposed in the task that made them. So new tensors wait
// here and are registered at the end of the task (a timer), or as soon as 256 wait, unless
// disposed by then. Finalizers run between tasks anyway: a tensor dropped without dispose() is
// still freed once collected, at most one task or 256 tensors later.
/** @type {Tensor[]} */
let unregistered = [];
/** @type {ReturnType<typeof setTimeout> | null} */
let flushTimer = null;
/** @param {Tensor} t */
function registerLater(t) {
  if (unregistered.push(t) >= 256) registerWaiting();
  else flushTimer ??= setTimeout(registerWaiting, 0);
}
function registerWaiting() {
  if (flushTimer !== null) { clearTimeout(flushTimer); flushTimer = null; }
  const list = unregistered;
  unregistered = [];
  registerAll(list);
}
/** @type {(list: Tensor[]) => void} */
let registerAll;   // (tensors): registers each not yet disposed or registered (Tensor's static block)

/**
 * @param {ArrayLike<number | bigint>} dims (the caller's: checked here)
 * @returns {number[]}
 */
function checkDims(dims) {
  if (!Array.isArray(dims) && !ArrayBuffer.isView(dims)) throw invalidArgument(`dims must be an array of integers, got ${typeof dims}`);
  const out = new Array(dims.length);
  for (let i = 0; i < out.length; ++i) {
    const d = dims[i];
    const n = typeof d === 'bigint' ? Number(d) : d;
    if (!Number.isSafeInteger(n) || n < 0)
      throw invalidArgument(`dims[${i}] is ${String(d)}; dimensions must be integers >= 0`);
    out[i] = n;
  }
  return out;
}

// A new C++ tensor (its handle), of zeros unless `zeroed` is false (for data written in full
// right after), or the binding's error thrown. Up to rank 4 the dims cross as numbers
// (tensorCreateHandle); 0 from it, or a higher rank, takes tensorCreate, which reports the failure.
/**
 * @param {WasmModule} m
 * @param {number} typeId
 * @param {readonly number[]} dims
 * @param {boolean} [zeroed]
 * @returns {number}
 */
function createHandle(m, typeId, dims, zeroed = true) {
  const r = dims.length;
  const h = r <= 4 ? m.tensorCreateHandle(typeId, r, zeroed ? 1 : 0, r > 0 ? dims[0] : 0, r > 1 ? dims[1] : 0, r > 2 ? dims[2] : 0, r > 3 ? dims[3] : 0) : 0;
  return h || check(m.tensorCreate(typeId, dims, zeroed));
}

/** @type {Record<string, [number, number]>} */
const INT_RANGE = {
  int8: [-128, 127], uint8: [0, 255], int16: [-32768, 32767], uint16: [0, 65535],
  int32: [-2147483648, 2147483647], uint32: [0, 4294967295],
};

// A plain array converted exactly to the type's storage, or an error naming the first bad value.
// (The values are the caller's, each checked here; Cls is any, as arrayClass returns it, so the
// callbacks below name their parameters' types.)
/**
 * @param {ElementType} t
 * @param {readonly (number | bigint | string | boolean)[]} values
 * @returns {TensorData}
 */
function fromPlainArray(t, values) {
  const Cls = arrayClass(t);
  /** @type {(i: number, expected: string) => Error} */
  const bad = (i, expected) => invalidArgument(`${t.name} data[${i}] is ${describeValue(values[i])}, not ${expected}`);
  if (t.name === 'string') {
    values.forEach((v, i) => { if (typeof v !== 'string') throw bad(i, 'a string'); });
    return /** @type {string[]} */ (values.slice());
  }
  if (Cls === BigInt64Array || Cls === BigUint64Array) {
    const bits = 64;
    return Cls.from(values, (/** @type {number | bigint | string | boolean} */ v, /** @type {number} */ i) => {
      const b = typeof v === 'bigint' ? v : Number.isSafeInteger(v) ? BigInt(v) : null;
      const fits = b !== null && (Cls === BigInt64Array ? BigInt.asIntN(bits, b) === b : BigInt.asUintN(bits, b) === b);
      if (!fits) {
        const range = `an integer within ${t.name}'s range`;
        throw bad(i, typeof v === 'bigint' || typeof v === 'number' ? range : `a bigint or a number (${range})`);
      }
      return b;
    });
  }
  if (Cls === Float32Array || Cls === Float64Array) {
    return Cls.from(values, (/** @type {unknown} */ v, /** @type {number} */ i) => {
      if (typeof v !== 'number') throw bad(i, 'a number');
      return v;
    });
  }
  if (t.name === 'bool') {
    return Uint8Array.from(values, (v, i) => {
      if (v === true || v === 1) return 1;
      if (v === false || v === 0) return 0;
      throw bad(i, 'a boolean (true, false, 1 or 0)');
    });
  }
  // Integers, and the raw storage of float16, bfloat16, float8 and packed sub-byte types.
  const [lo, hi] = INT_RANGE[Cls === Uint8Array ? 'uint8' : Cls === Uint16Array ? 'uint16' : t.name];
  return Cls.from(values, (/** @type {number} */ v, /** @type {number} */ i) => {   // (v: as Number.isInteger checks it)
    if (!Number.isInteger(v) || v < lo || v > hi) throw bad(i, typeof v === 'number' ? `an integer in [${lo}, ${hi}]` : `a number (an integer in [${lo}, ${hi}])`);
    return v;
  });
}

// onnxruntime-web's new Tensor(data, dims?): the type its typed array stands for (a Uint8ClampedArray
// is uint8, viewed as a Uint8Array), string for string[], bool for boolean[]. Returns the
// arguments of new Tensor(type, data, dims).
/**
 * @param {unknown} data (the caller's: checked here)
 * @param {unknown} dims
 * @returns {[string, unknown, unknown]}
 */
function inferredType(data, dims) {
  const form = 'new Tensor(type, data, dims?) or new Tensor(data, dims?)';
  if (data instanceof Uint8ClampedArray) return ['uint8', new Uint8Array(data.buffer, data.byteOffset, data.length), dims];
  if (ArrayBuffer.isView(data)) {
    const type = TYPED_ARRAY_TYPES.get(data.constructor);
    if (!type) throw invalidArgument(`${form}: a ${data.constructor.name} names no element type; give the type`);
    return [type, data, dims];
  }
  if (Array.isArray(data) && (typeof data[0] === 'string' || typeof data[0] === 'boolean')) return [typeof data[0] === 'string' ? 'string' : 'bool', data, dims];
  throw invalidArgument(Array.isArray(data)
    ? `${form}: the type of an array ${data.length ? `of ${typeof data[0]}s` : 'with no elements'} cannot be inferred (only string[] and boolean[]); give it, as new Tensor('float32', data, dims)`
    : `${form}: the type must be a string such as 'float32', got ${describeValue(data)}`);
}
// (onnxruntime-web's table: float16 data is a Uint16Array of raw halves here, so a Uint16Array is uint16)
const TYPED_ARRAY_TYPES = new Map(/** @type {[Function, string][]} */ ([[Float32Array, 'float32'], [Uint8Array, 'uint8'], [Int8Array, 'int8'],
  [Uint16Array, 'uint16'], [Int16Array, 'int16'], [Int32Array, 'int32'], [Float64Array, 'float64'], [Uint32Array, 'uint32'],
  [BigInt64Array, 'int64'], [BigUint64Array, 'uint64']]));

export class Tensor {
  #ptr = 0;
  /** @type {ElementType} */
  #type;
  /** @type {number[]} */
  #dims;           // kept after dispose, for the messages that name them
  /** @type {WasmView | string[] | null} */
  #view = null;    // the typed array over wasm memory, or the string[] (#stringArray)
  // FROZEN: #dims is frozen (when first read, below); REGISTERED: with the finalizer. (One field
  // for both: each private field costs a run output time to make in V8's first tiers.)
  #flags = 0;

  static {
    handleOf = (t) => t.#ptr || t.handle;   // (t.handle throws the disposed tensor's error)
    registerAll = (list) => {
      for (let i = 0; i < list.length; ++i) {
        const t = list[i];
        if (t.#ptr && !(t.#flags & REGISTERED)) {
          /** @type {FinalizationRegistry<number>} */ (finalizer).register(t, t.#ptr, t);   // (registerLater's callers: only with a finalizer)
          t.#flags |= REGISTERED;
        }
      }
    };
  }

  // new Tensor(type, data, dims?) as in onnxruntime-web; dims default to [data length]. Its
  // new Tensor(data, dims?) too: the type from the typed array (inferredType).
  // (Internal: new Tensor(FROM_HANDLE, address, dims, type) wraps a C++ tensor.)
  /**
   * @overload
   * @param {string} type a TensorType (the caller's: checked here)
   * @param {TensorData | ArrayLike<number | bigint | string | boolean>} data
   * @param {ArrayLike<number | bigint>} [dims]
   */
  /**
   * @overload
   * @param {TensorData | readonly string[] | readonly boolean[] | Uint8ClampedArray} data (the caller's: checked here)
   * @param {ArrayLike<number | bigint>} [dims]
   */
  /**
   * @overload
   * @param {FromHandle} type
   * @param {number} data the C++ tensor's address
   * @param {number[]} dims
   * @param {ElementType} internalType
   */
  /**
   * @param {unknown} type
   * @param {unknown} [data]
   * @param {unknown} [dims]
   * @param {ElementType} [internalType]
   */
  constructor(type, data, dims, internalType) {
    if (type === FROM_HANDLE) {
      this.#adopt(/** @type {number} */ (data), /** @type {number[]} */ (dims), /** @type {ElementType} */ (internalType));
      return;
    }
    if (typeof type !== 'string') [type, data, dims] = inferredType(type, data);
    const t = typeByName(/** @type {string} */ (type));
    const isArray = Array.isArray(data);
    if (!isArray && !(data instanceof arrayClass(t)))
      throw invalidArgument(`${t.name} data must be a ${t.array === 'Array' ? 'string[]' : t.array} or a plain array, got ${/** @type {any} */ (data)?.constructor?.name ?? typeof data}`);
    // (typed arrays or string[]: the checks above; read as a WasmView or string[] by its type below)
    const values = /** @type {TensorData} */ (isArray ? fromPlainArray(t, /** @type {(number | bigint | string | boolean)[]} */ (data)) : data);
    const shape = dims !== undefined ? checkDims(/** @type {ArrayLike<number | bigint>} */ (dims))
      : [t.name === 'string' ? values.length : (values.length * arrayClass(t).BYTES_PER_ELEMENT * 8) / t.bits];
    const size = elementCount(shape);
    const expected = storageLength(t, size);
    if (values.length !== expected)
      throw invalidArgument(`${t.name} tensor of dims [${shape.join(', ')}] (${size} elements) needs ${expected} ${t.array === 'Array' ? 'strings' : `${t.array} entries`}, got ${values.length}`);
    const m = getModule();
    // `values` may itself be a view into wasm memory (another tensor's data). Allocating below can
    // grow memory, which detaches such a view in one-thread builds: keep its place to view it again.
    const inWasm = t.name !== 'string' && /** @type {WasmView} */ (values).buffer === m.HEAPU8.buffer;
    const srcOffset = inWasm ? /** @type {WasmView} */ (values).byteOffset : 0, srcBytes = inWasm ? /** @type {WasmView} */ (values).byteLength : 0;
    // Not zeroed: every byte is written below (zeroing would touch a large tensor's memory twice).
    this.#adopt(createHandle(m, t.id, shape, t.name === 'string'), shape, t);
    Object.freeze(shape);   // (a caller's tensor, whose dims are read)
    this.#flags |= FROZEN;
    if (t.name === 'string') {
      /** @type {string[]} */ (values).forEach((s, i) => m.tensorSetString(this.#ptr, i, s));
    } else if (expected > 0) {
      const src = inWasm ? new Uint8Array(m.HEAPU8.buffer, srcOffset, srcBytes)
        : new Uint8Array(/** @type {WasmView} */ (values).buffer, /** @type {WasmView} */ (values).byteOffset, /** @type {WasmView} */ (values).byteLength);
      const dst = /** @type {WasmView} */ (m.tensorData(this.#ptr));   // (numeric: a view)
      new Uint8Array(dst.buffer, dst.byteOffset, dst.byteLength).set(src);
    }
  }

  // A tensor of zeros (empty strings) allocated in wasm memory, to fill through `data` with no copy.
  /**
   * @param {string} type
   * @param {ArrayLike<number | bigint>} dims
   * @returns {Tensor}
   */
  static alloc(type, dims) {
    const t = typeByName(type), shape = checkDims(dims);
    return new Tensor(FROM_HANDLE, createHandle(getModule(), t.id, shape), shape, t);
  }

  // (internal) A tensor whose numeric storage is not zeroed, for loaders that write every byte
  // (external data read straight into wasm memory).
  /**
   * @param {string} type
   * @param {ArrayLike<number | bigint>} dims
   * @returns {Tensor}
   */
  static [UNINITIALIZED](type, dims) {
    const t = typeByName(type), shape = checkDims(dims);
    return new Tensor(FROM_HANDLE, createHandle(getModule(), t.id, shape, t.name === 'string'), shape, t);
  }

  /**
   * @param {number} ptr
   * @param {number[]} dims
   * @param {ElementType} type
   */
  #adopt(ptr, dims, type) {
    this.#ptr = ptr;
    this.#type = type;
    this.#dims = dims;
    if (finalizer) registerLater(this);
  }

  #live() {
    if (!this.#ptr) throw new DisposedError(`this ${this.#type.name} tensor of dims [${this.dims.join(', ')}] was disposed`);
    return this.#ptr;
  }

  get type() { return this.#type.name; }
  // (Frozen when first read: most run outputs are disposed unread, and Object.freeze is a call
  // into V8's runtime, even in optimized code: docs/performance.md.)
  get dims() {
    if (!(this.#flags & FROZEN)) {
      Object.freeze(this.#dims);
      this.#flags |= FROZEN;
    }
    return this.#dims;
  }

  get size() {
    return elementCount(this.#dims);
  }
  get disposed() { return !this.#ptr; }

  // A view into wasm memory (string[] for strings). Read it again after calls that may grow
  // memory: an old view is detached when memory grows.
  /** @returns {TensorData} */
  get data() {
    const p = this.#live();
    const m = getModule();
    if (this.#type.name === 'string') {
      this.#view ??= this.#stringArray();
      return this.#view;
    }
    // (numeric: #view is a WasmView, and tensorData gives one)
    if (!this.#view || /** @type {WasmView} */ (this.#view).buffer !== m.HEAPU8.buffer) this.#view = /** @type {WasmView} */ (m.tensorData(p));
    return this.#view;
  }

  // A string[] over the tensor's strings in wasm memory, as `data` is for numbers: writes go to
  // wasm (Tensor.alloc('string', ...) is filled through it) and tensors sharing the buffer (Reshape,
  // Flatten) see them. Reads come from a JS copy, read again after any write through any such array.
  /** @returns {string[]} */
  #stringArray() {
    const m = getModule(), size = this.size;
    const live = () => this.#live();
    /** @type {(k: string | symbol) => number} */
    const index = (k) => {
      if (typeof k !== 'string') return -1;
      const i = Number(k);
      return Number.isInteger(i) && i >= 0 && i < size && String(i) === k ? i : -1;
    };
    const target = new Array(size).fill('');
    let seen = -1;   // the stringWrites count the copy reflects
    const refresh = () => {
      const p = live();
      if (seen === stringWrites) return;
      for (let i = 0; i < size; ++i) target[i] = m.tensorString(p, i);
      seen = stringWrites;
    };
    refresh();
    return new Proxy(target, {
      get(t, k, receiver) {
        const i = index(k);
        if (i < 0) return Reflect.get(t, k, receiver);
        refresh();
        return t[i];
      },
      set(t, k, v) {
        const i = index(k);
        if (i < 0) return false;   // the length is fixed (a TypeError in strict code)
        if (typeof v !== 'string') throw invalidArgument(`string data[${i}] is ${describeValue(v)}, not a string`);
        refresh();
        m.tensorSetString(live(), i, v);
        t[i] = v;
        seen = ++stringWrites;     // other copies read again; this one is current
        return true;
      },
      defineProperty: () => false,
      deleteProperty: () => false,
    });
  }

  // onnxruntime-web compatible accessor: a copy of the data.
  /** @returns {Promise<TensorData>} */
  async getData() {
    const d = this.data;
    return Array.isArray(d) ? d.slice() : d.slice();
  }

  // True when both tensors read the same wasm memory (Reshape and Flatten outputs and their input).
  /**
   * @param {Tensor} other (the caller's: checked here)
   * @returns {boolean}
   */
  sharesMemoryWith(other) {
    if (!(other instanceof Tensor)) throw invalidArgument(`sharesMemoryWith takes a Tensor, got ${/** @type {any} */ (other)?.constructor?.name ?? String(other)}`);
    return getModule().tensorSharesBuffer(this.#live(), other.handle);
  }

  // The address of the C++ tensor, for js/ internals.
  get handle() {
    if (!this.#ptr) this.#live();   // (its error)
    return this.#ptr;
  }

  dispose() {
    if (!this.#ptr) return;
    if (this.#flags & REGISTERED) /** @type {FinalizationRegistry<number>} */ (finalizer).unregister(this);
    /** @type {RunCalls} */ (runCalls).tensorDelete(this.#ptr);   // (set: a Tensor exists)
    this.#ptr = 0;
    this.#view = null;
  }
}

// The Tensor of a C++ tensor that a call returned (a run's output), its type and dims read with
// one call (Module.tensorInfoAddress; Module.tensorInfo for a rank above 62 or a dimension above
// 2^31 - 1); or the tensor is freed and the error thrown. Dims above 2^53 - 1 cannot be held
// exactly by JS numbers; only a tensor of zero elements can have one (a Reshape or Gather of an
// empty tensor), and it is refused as new Tensor refuses such dims.
// (loadedModule and runCalls below: set, as a handle exists.)
/**
 * @param {number} h
 * @returns {Tensor}
 */
export function tensorFromHandle(h) {
  const m = /** @type {WasmModule} */ (loadedModule);
  return m.tensorInfoAddress(h) ? tensorFromRun(h) : tensorFromInfo(m, h, m.tensorInfo(h));
}

// The Tensor of a run's output whose info the run wrote (Module.nodeRunHandle), read with no call:
// int32s, so that no read allocates (a rank of -1 sends it to tensorInfo). (They lie in static
// memory: a view of shared memory made before it grew still holds them; one of unshared memory is
// detached by growth, and made again.)
/**
 * @param {number} h
 * @returns {Tensor}
 */
export function tensorFromRun(h) {
  let heap = /** @type {RunCalls} */ (runCalls).info;
  const info = /** @type {RunCalls} */ (runCalls).infoAt;
  /** @type {number | undefined} */
  let rank = heap[info + 1];
  if (rank === undefined) rank = (heap = refreshInfo())[info + 1];   // (a detached view reads undefined)
  if (rank < 0) return tensorFromInfo(/** @type {WasmModule} */ (loadedModule), h, /** @type {WasmModule} */ (loadedModule).tensorInfo(h));
  const dims = new Array(rank);
  for (let i = 0; i < rank; ++i) dims[i] = heap[info + 2 + i];
  return new Tensor(FROM_HANDLE, h, dims, TYPES_BY_ID[heap[info]]);
}

/**
 * @param {WasmModule} m
 * @param {number} h
 * @param {{ type: number, dims: number[] }} info
 * @returns {Tensor}
 */
function tensorFromInfo(m, h, { type, dims }) {
  const i = dims.findIndex((d) => d > Number.MAX_SAFE_INTEGER);
  if (i >= 0) throw dimsTooLarge(m, h, i, dims[i]);
  return new Tensor(FROM_HANDLE, h, dims, /** @type {ElementType} */ (typeById(type)));   // (an id the module gives)
}

/**
 * @param {WasmModule} m
 * @param {number} h
 * @param {number} i
 * @param {number} d
 */
function dimsTooLarge(m, h, i, d) {
  m.tensorDelete(h);
  return new ERROR_CLASSES.ERR_SHAPE(`the output's dimension ${i} is about ${BigInt(d)}, above 2^53 - 1 (the largest integer a JS number holds exactly): onnx-wasm returns no tensor whose dims it cannot report exactly`);
}
