// runNode and inferShapes: normalize a node (plain or NodeProto-shaped) and its inputs, call the
// C++ entry points through Embind (Module.runNode, Module.inferNode), and turn a failure into a
// typed Error (binding.mjs). No shape rules live here.
// Memory: runNode's output Tensors belong to the caller; its temporary input copies are freed here.
// @ts-check
import { check } from './binding.mjs';
import { describeValue, invalidArgument } from './errors.mjs';
import { OpsetError, ShapeError } from './generated/errors.mjs';
import { registryFacts } from './registry.mjs';
import { getModule, opsetRange } from './runtime.mjs';
import { Tensor, tensorFromHandle } from './tensor.mjs';
import { tensorsFromLikes } from './tensor-likes.mjs';
import { tensorDataFromProto } from './model/tensor-proto.mjs';
import { typeById, typeByName } from './types.mjs';

/** @typedef {import('./wasm-module.mjs').WasmAttribute} WasmAttribute */
/** @typedef {import('./wasm-module.mjs').WasmValueInfo} WasmValueInfo */
/** @typedef {import('./types.mjs').ElementType} ElementType */
/** @typedef {import('./index.js').AttributeValue} AttributeValue */

/**
 * An AttributeProto-shaped attribute: as the public API declares it, or as the model loader
 * decodes it (js/model/onnx-proto.mjs).
 * @typedef {import('./index.js').AttributeProtoLike | import('./model/onnx-proto.mjs').AttributeProto} AttributeLike
 */

/**
 * An attribute read for display (attributeFromProto with `exact` false): an int64 beyond 2^53
 * stays a bigint.
 * @typedef {{ name: string, kind: WasmAttribute['kind'], value: WasmAttribute['value'] | bigint | (number | bigint | string)[] }} DisplayAttribute
 */

/**
 * A node as normalizeNode takes it: a NodeLike of the public API (js/index.d.ts) or a decoded
 * NodeProto (the caller's: checked there).
 * @typedef {object} NodeInput
 * @property {string} [opType]
 * @property {string} [op_type]
 * @property {string} [domain]
 * @property {readonly AttributeLike[]} [attribute]
 * @property {Readonly<Record<string, AttributeValue>> | ReadonlyMap<string, AttributeValue>} [attributes]
 */

/**
 * The options of a node: the opset, a number, or { domain, version } (the session's nodes).
 * @typedef {{ opset?: number | { domain?: string, version: number | undefined } }} NodeOptions
 */

// AttributeProto.AttributeType numbers, for NodeProto-shaped nodes.
/** @type {Readonly<Record<number, WasmAttribute['kind'] | undefined>>} */
export const ATTR_TYPE_NAMES = { 1: 'FLOAT', 2: 'INT', 3: 'STRING', 4: 'TENSOR', 6: 'FLOATS', 7: 'INTS', 8: 'STRINGS' };
const utf8 = new TextDecoder();

/**
 * @param {unknown} v (the caller's: checked here)
 * @param {string} what
 * @returns {number}
 */
function toInt(v, what) {
  const n = typeof v === 'bigint' ? Number(v) : v;
  if (!Number.isSafeInteger(n)) throw invalidArgument(`${what} = ${String(v)} is not a safe integer`);
  return /** @type {number} */ (n);
}

// An int64 value: a number, a bigint, or a decimal string (the proto3 JSON mapping writes int64
// so). A safe integer comes back as a number; beyond 2^53 and within int64, as a bigint (torch's
// Slice ends = INT64_MAX); anything else is an InvalidArgumentError that names it.
/** @type {(v: unknown, what: string) => number | bigint} */
const int64 = (v, what) => {
  const big = typeof v === 'bigint' ? v : typeof v === 'string' && /^-?[0-9]+$/.test(v) ? BigInt(v) : null;
  if (big === null) return toInt(v, what);
  if (BigInt.asIntN(64, big) !== big) throw invalidArgument(`${what} = ${big} is outside int64`);
  return Number.isSafeInteger(Number(big)) ? Number(big) : big;
};

// An integer attribute value for the module: beyond 2^53, a decimal string, which the module reads
// exactly (Embind carries numbers as doubles).
/** @type {(v: unknown, what: string) => number | string} */
const intValue = (v, what) => {
  const n = int64(v, what);
  return typeof n === 'bigint' ? String(n) : n;
};

/** @type {(v: string | Uint8Array) => string} */
const toStr = (v) => (typeof v === 'string' ? v : utf8.decode(v));

// A TENSOR attribute's value as the binding reads it: the ONNX type id, the dims and the storage's
// little-endian bytes (strings as strings). Only small tensors are attributes of the ops here
// (ConstantOfShape's one-element value), so the copy into a plain array costs nothing.
/**
 * @param {ElementType} type
 * @param {import('./index.js').TensorData} data
 * @param {readonly number[]} dims
 * @returns {import('./wasm-module.mjs').WasmTensorValue}
 */
function tensorValue(type, data, dims) {
  if (type.name === 'string') return { type: type.id, dims: Array.from(dims), strings: Array.from(/** @type {string[]} */ (data)) };
  const view = /** @type {ArrayBufferView} */ (data);
  return { type: type.id, dims: Array.from(dims), bytes: Array.from(new Uint8Array(view.buffer, view.byteOffset, view.byteLength)) };
}

/**
 * @param {string} name
 * @param {unknown} value (the caller's: checked here)
 * @returns {WasmAttribute}
 */
function attributeFromValue(name, value) {
  const what = `attribute '${name}'`;
  if (value instanceof Tensor) return { name, kind: 'TENSOR', value: tensorValue(typeByName(value.type), value.data, value.dims) };
  if (typeof value === 'bigint') return { name, kind: 'INT', value: intValue(value, what) };
  if (typeof value === 'number') return Number.isInteger(value) ? { name, kind: 'INT', value } : { name, kind: 'FLOAT', value };
  if (typeof value === 'string') return { name, kind: 'STRING', value };
  if (Array.isArray(value) || ArrayBuffer.isView(value)) {
    const list = Array.from(/** @type {ArrayLike<unknown>} */ (value));
    if (list.every((x) => typeof x === 'string')) return list.length ? { name, kind: 'STRINGS', value: list } : { name, kind: 'INTS', value: [] };
    if (list.every((x) => typeof x === 'bigint' || Number.isInteger(x)))
      return { name, kind: 'INTS', value: list.map((x, i) => intValue(x, `${what}[${i}]`)) };
    if (list.every((x) => typeof x === 'number')) return { name, kind: 'FLOATS', value: list };
  }
  throw invalidArgument(`${what} has a value onnx-wasm cannot read: ${String(value)}`);
}

// An AttributeProto-shaped attribute as { name, kind, value }. `exact` false (for display) keeps
// an int64 beyond 2^53 as a bigint instead of refusing it.
/**
 * @overload
 * @param {AttributeLike} a
 * @param {true} [exact]
 * @returns {WasmAttribute}
 */
/**
 * @overload
 * @param {AttributeLike} a
 * @param {boolean} exact
 * @returns {DisplayAttribute}
 */
/**
 * @param {AttributeLike} a
 * @param {boolean} [exact]
 * @returns {DisplayAttribute}
 */
export function attributeFromProto(a, exact = true) {
  const kind = typeof a.type === 'string' ? a.type : ATTR_TYPE_NAMES[a.type];
  const what = `attribute '${a.name}'`;
  // An absent int64 field is the proto default 0; for display, one beyond 2^53 stays a bigint.
  /** @type {(v: unknown, what: string) => number | bigint | string} */
  const int = (v, what) => (exact ? intValue : int64)(v ?? 0, what);
  switch (kind) {
    case 'INT': return { name: a.name, kind, value: int(a.i, what) };
    case 'INTS': return { name: a.name, kind, value: Array.from(a.ints ?? [], (x, i) => int(x, `${what}[${i}]`)) };
    case 'FLOAT': return { name: a.name, kind, value: a.f ?? 0 };
    case 'FLOATS': return { name: a.name, kind, value: Array.from(a.floats ?? []) };
    case 'STRING': return { name: a.name, kind, value: toStr(a.s ?? '') };
    case 'STRINGS': return { name: a.name, kind, value: Array.from(a.strings ?? [], toStr) };
    case 'TENSOR': {
      // A Tensor of this package, or a TensorProto as the model loader decodes it.
      const t = /** @type {{ t?: unknown }} */ (a).t;
      if (t instanceof Tensor) return { name: a.name, kind, value: tensorValue(typeByName(t.type), t.data, t.dims) };
      if (!t || typeof t !== 'object') throw invalidArgument(`${what} is a TENSOR but holds no tensor (t)`);
      const { type, data, dims } = tensorDataFromProto(/** @type {import('./model/onnx-proto.mjs').TensorProto} */ (t));
      return { name: a.name, kind, value: tensorValue(type, data, dims) };
    }
    default: throw invalidArgument(`${what} has type ${String(a.type)}, which no op onnx-wasm runs takes`);
  }
}

// 'ai.onnx' is the default domain, ''.
/** @type {(domain: string) => string} */
export const canonicalDomain = (domain) => (domain === 'ai.onnx' ? '' : domain);

// { opType, domain?, attributes: { axis: 1 } } or a NodeProto-shaped { opType | op_type, domain?,
// attribute: [...] }. Returns { domain, opType, attrs } (domain '' for the default ONNX domain;
// the registry says which domains and ops run).
/**
 * @param {NodeInput} node (the caller's: checked here)
 * @returns {{ domain: string, opType: string, attrs: WasmAttribute[] }}
 */
export function normalizeNode(node) {
  if (!node || typeof node !== 'object') throw invalidArgument('node must be an object such as { opType, attributes }');
  const opType = node.opType ?? node.op_type;
  if (typeof opType !== 'string') throw invalidArgument('node.opType must be a string');
  const domain = canonicalDomain(node.domain ?? '');
  if (typeof domain !== 'string') throw invalidArgument(`node ${opType}: domain must be a string, got ${String(domain)}`);
  const attrs = Array.isArray(node.attribute)
    ? node.attribute.map((a) => attributeFromProto(a))
    : Array.from(node.attributes instanceof Map ? node.attributes : Object.entries(node.attributes ?? {}),
      ([k, v]) => attributeFromValue(k, v));
  return { domain, opType, attrs };
}

// The opset of the node's domain to pass to the binding. options.opset is that domain's version:
// a number, or { domain, version } as in onnxruntime-web's op tests (its domain must be the
// node's). Default: the newest the registry has for the domain. The binding takes an int32: an
// opset beyond that range (a model may import opset 2^32 + 13) would wrap around to a supported
// one, so it is refused here (for an op the registry has; of an unknown op the binding reports
// the op first, as for any opset).
/**
 * @param {string} domain
 * @param {string} opType
 * @param {NodeOptions | undefined} options (the caller's: checked here)
 * @returns {number}
 */
export function opsetOf(domain, opType, options) {
  getModule();   // (its error before init)
  // (a domain the registry does not have: the default one's range; the binding names the domain)
  const [minOpset, maxOpset] = opsetRange(domain) ?? /** @type {[number, number]} */ (opsetRange(''));
  /** @type {NodeOptions['opset']} */
  let opset = options?.opset ?? maxOpset;
  if (typeof opset === 'object' && opset !== null) {
    const given = canonicalDomain(opset.domain ?? '');
    if (given !== domain)
      throw invalidArgument(`options.opset is for domain '${given}', but node ${opType} is in domain '${domain}'`);
    opset = opset.version;
  }
  if (!Number.isInteger(opset)) throw invalidArgument(`opset must be an integer, got ${describeValue(opset)}`);
  // (opset: a number from here, as Number.isInteger says)
  if (/** @type {number} */ (opset) > 0x7fffffff || /** @type {number} */ (opset) < -0x80000000) {
    if (!registryFacts().get(domain)?.has(opType)) return 0;
    const name = domain ? `${domain}.${opType}` : opType;
    throw new OpsetError(`${name}: opset ${opset} is outside the supported range [${minOpset}, ${maxOpset}]${domain ? ` of domain '${domain}'` : ''}`);
  }
  return /** @type {number} */ (opset);
}

// Runs one node. Inputs are Tensors of this package (used in place) or tensor-like objects
// { type, data, dims } (copied in for the call). Returns new Tensors; the caller disposes them.
/**
 * @param {NodeInput} node
 * @param {readonly (import('./index.js').TensorLike | null | undefined)[]} inputs (the caller's: checked here)
 * @param {NodeOptions} [options]
 * @returns {Tensor[]}
 */
export function runNode(node, inputs, options = {}) {
  const m = getModule();
  const { domain, opType, attrs } = normalizeNode(node);
  const opset = opsetOf(domain, opType, options);
  if (!Array.isArray(inputs)) throw invalidArgument('inputs must be an array of tensors');
  const { tensors: given, made } = tensorsFromLikes(inputs, (i) => `inputs[${i}]`);
  try {
    const handles = given.map((t) => (t ? t.handle : 0));
    const outputs = check(m.runNode(domain, opType, opset, attrs, handles));
    /** @type {Tensor[]} */
    const tensors = [];
    try {
      for (const h of outputs) tensors.push(tensorFromHandle(h));   // (frees h itself when it throws)
    } catch (e) {
      tensors.forEach((t) => t.dispose());
      outputs.slice(tensors.length + 1).forEach((h) => m.tensorDelete(h));
      throw e;
    }
    return tensors;
  } finally {
    made.forEach((t) => t.dispose());
  }
}

// (null or undefined: an omitted optional input, type 0)
/**
 * @param {import('./index.js').ValueInfo | Tensor | null | undefined} x (the caller's: checked here)
 * @param {number} i
 * @returns {WasmValueInfo}
 */
function valueInfoOf(x, i) {
  if (x === null || x === undefined) return { type: 0, dims: null };
  if (x instanceof Tensor) {
    const value = x.type === 'int64' && x.size <= 64 ? int64Values(x) : undefined;
    return { type: typeByName(x.type).id, dims: Array.from(x.dims), value };
  }
  if (!x || typeof x !== 'object') throw invalidArgument(`inputs[${i}] must be { type, dims } or a Tensor`);
  const type = typeByName(x.type).id;
  let dims = null;
  if (x.dims !== null && x.dims !== undefined) {
    if (!Array.isArray(x.dims)) throw invalidArgument(`inputs[${i}].dims must be an array or null`);
    dims = x.dims.map((d, j) => {
      if (d === null || d === undefined) return null;
      if (typeof d === 'string') return d === '' ? null : d;
      const n = toInt(d, `inputs[${i}].dims[${j}]`);
      if (n < 0) throw invalidArgument(`inputs[${i}].dims[${j}] is ${n}; dimensions must be >= 0`);
      return n;
    });
  }
  // (value entries: numbers, a decimal string for an int64 beyond 2^53, as inference gives them,
  // or for a value computed from symbolic dims a symbol or null)
  const value = x.value === undefined || x.value === null ? undefined
    : Array.from(/** @type {ArrayLike<unknown>} */ (x.value), (v, j) => (v === null || typeof v === 'string' ? v : toInt(v, `inputs[${i}].value[${j}]`)));
  return { type, dims, value };
}

// The values of an int64 tensor as inference takes them, exactly: numbers, and a decimal string
// for each beyond 2^53 (torch exports slices to the end with ends = INT64_MAX).
/**
 * @param {Tensor} t
 * @returns {(number | string)[]}
 */
export function int64Values(t) {
  return Array.from(/** @type {BigInt64Array} */ (t.data), (b) => {
    const n = Number(b);
    return Number.isSafeInteger(n) ? n : String(b);
  });
}

// Output types and shapes of one node, without running it. Inputs: { type, dims, value? } with
// dims entries a number, a symbolic name or null (unknown); dims null for an unknown rank; null
// for an omitted optional input.
/**
 * @param {NodeInput} node
 * @param {readonly (import('./index.js').ValueInfo | Tensor | null | undefined)[]} inputs (the caller's: checked here)
 * @param {NodeOptions} [options]
 * @returns {import('./index.js').InferredShape[]}
 */
export function inferShapes(node, inputs, options = {}) {
  // Values JS numbers hold exactly, or symbols and nulls (a value with an int64 beyond 2^53, a
  // decimal string here, is left out: InferredShape.value entries are Dims).
  return inferKnown(node, inputs, options).map(({ value, ...shape }) => (value?.every((v) => typeof v !== 'string' || !/^-?[0-9]+$/.test(v)) ? { ...shape, value } : shape));
}

// inferShapes, with values beyond 2^53 as decimal strings (a session's inference passes them on).
// `unsafeDims` 'unknown' (a session's create) makes a dim beyond 2^53 unknown instead of refusing
// it: the run that would make such a tensor refuses it (tensorFromHandle), as when the values it
// came from were not known.
/**
 * @param {NodeInput} node
 * @param {readonly (import('./index.js').ValueInfo | import('./model/infer-graph.mjs').Known | Tensor | null | undefined)[]} inputs
 * @param {NodeOptions} [options]
 * @param {'refuse' | 'unknown'} [unsafeDims]
 * @returns {(Omit<import('./index.js').InferredShape, 'value'> & { value?: import('./index.js').Dim[] })[]}
 */
export function inferKnown(node, inputs, options = {}, unsafeDims = 'refuse') {
  const m = getModule();
  const { domain, opType, attrs } = normalizeNode(node);
  const opset = opsetOf(domain, opType, options);
  if (!Array.isArray(inputs)) throw invalidArgument('inputs must be an array');
  const infos = Array.from(inputs, valueInfoOf);
  return check(m.inferNode(domain, opType, opset, attrs, infos)).map((o) => {
    // As for run outputs (tensorFromHandle): no dims that JS numbers cannot hold exactly.
    if (unsafeDims === 'unknown' && o.dims) o.dims = o.dims.map((d) => (typeof d === 'number' && !Number.isSafeInteger(d) ? null : d));
    const i = o.dims ? o.dims.findIndex((d) => typeof d === 'number' && !Number.isSafeInteger(d)) : -1;
    // (o.dims[i]: a number, found above; o.type: an id the module gives)
    if (i >= 0) throw new ShapeError(`${opType}: dimension ${i} of the inferred output shape is about ${BigInt(/** @type {number[]} */ (o.dims)[i])}, above 2^53 - 1 (the largest integer a JS number holds exactly)`);
    const shape = { type: /** @type {ElementType} */ (typeById(o.type)).name, dims: o.dims };
    return o.value ? { ...shape, value: o.value } : shape;
  });
}

// The registry table: every op version with its domain, opset range, input types, attributes and
// capabilities.
/** @returns {import('./wasm-module.mjs').WasmOpVersion[]} */
export function opVersions() {
  return getModule().opVersions();
}
