// Generated inputs for a model, shared by `onnx-wasm run` (bin/) and the playground: symbolic
// dims take their value from `symbols` (default 2, unknown 1); an int input that is a Gather's or
// GatherElements' indices gets values within its axis, one that is a Reshape's shape [1, ..., 1,
// -1], a Slice's axes 0, 1, ... and its steps 1s, a ConstantOfShape's shape 2s, a Range's start,
// limit and delta 0, 3 and 1, a GatherND's indices 0s and a Div's divisor 1s (types that hold
// them exactly as numbers); any other input gets
// `fill(type, size)`, the data array for `new Tensor(type, data, dims)`.
// Not part of the public API. The Tensors returned belong to the caller.
// @ts-check
import { Tensor } from './tensor.mjs';
import { elementCount } from './types.mjs';

/** @typedef {import('./index.js').Dim} Dim */

// `inputs`: the inputs to generate, as in session.inputMetadata ({ name, type, shape }).
// (`session`: what is read of it, so that a session typed by js/index.d.ts, the CLI's, passes too.)
/**
 * @param {Pick<import('./index.js').InferenceSession, 'inputMetadata' | 'nodes' | 'valueInfo'>} session
 * @param {readonly { name: string, type: string }[]} inputs
 * @param {Readonly<Record<string, number>>} symbols
 * @param {(type: string, size: number) => import('./index.js').TensorData} fill
 * @returns {Record<string, Tensor>}
 */
export function generateFeeds(session, inputs, symbols, fill) {
  /** @type {(dims: readonly Dim[] | null | undefined) => number[]} */
  const concrete = (dims) => (dims ?? []).map((d) => (typeof d === 'number' ? d : d === null ? 1 : symbols[d] ?? 2));
  const resolved = new Map(session.inputMetadata.map((i) => [i.name, concrete(i.shape)]));
  const consumer = (/** @type {string} */ name) => session.nodes.find((n) => n.inputs[1] === name && (n.opType === 'Gather' || n.opType === 'GatherElements' || n.opType === 'Reshape'));
  // The value a Slice, Range, ConstantOfShape, GatherND or Div input must hold for a run to
  // succeed, if any (GatherND's indices 0: the first slice of each batch; Div's divisor 1: no
  // integer division by zero).
  /** @type {(name: string) => number | 'iota' | undefined} */
  const valueFor = (name) => {
    for (const n of session.nodes) {
      const k = n.inputs.indexOf(name);
      if (n.opType === 'Slice' && k === 3) return 'iota';
      if (n.opType === 'Slice' && k === 4) return 1;
      if (n.opType === 'ConstantOfShape' && k === 0) return 2;
      if (n.opType === 'Range' && k >= 0) return [0, 3, 1][k];
      if (n.opType === 'GatherND' && k === 1) return 0;
      if (n.opType === 'Div' && k === 1) return 1;
    }
    return undefined;
  };
  const ARRAYS = {
    int64: BigInt64Array, uint64: BigUint64Array, int32: Int32Array, uint32: Uint32Array, int16: Int16Array, uint16: Uint16Array,
    int8: Int8Array, uint8: Uint8Array, float32: Float32Array, float64: Float64Array,
  };
  /** @type {Record<string, Tensor>} */
  const feeds = {};
  for (const { name, type } of inputs) {
    const dims = /** @type {number[]} */ (resolved.get(name));   // (inputs: the session's)
    const size = elementCount(dims);
    const use = consumer(name);
    const value = valueFor(name);
    const Cls = /** @type {any} */ (ARRAYS)[type];
    let data;
    if (value !== undefined && Cls) {
      const vals = Array.from({ length: size }, (_, i) => (value === 'iota' ? i : value));
      data = Cls === BigInt64Array || Cls === BigUint64Array ? Cls.from(vals, BigInt) : Cls.from(vals);
    } else if (use?.opType === 'Reshape' && type === 'int64') {
      data = BigInt64Array.from({ length: size }, (_, i) => (i === size - 1 ? -1n : 1n));
    } else if ((use?.opType === 'Gather' || use?.opType === 'GatherElements') && (type === 'int64' || type === 'int32')) {
      const dataDims = resolved.get(use.inputs[0]) ?? concrete(session.valueInfo(use.inputs[0])?.dims);
      const axis = /** @type {number} */ (use.attributes.axis ?? 0);   // (a Gather's axis: an INT)
      const n = dataDims[axis < 0 ? axis + dataDims.length : axis] ?? 1;
      const vals = Array.from({ length: size }, (_, i) => (n > 0 ? (i * 7) % n : 0));
      data = type === 'int64' ? BigInt64Array.from(vals, BigInt) : Int32Array.from(vals);
    } else {
      data = fill(type, size);
    }
    feeds[name] = new Tensor(type, data, dims);
  }
  return feeds;
}
