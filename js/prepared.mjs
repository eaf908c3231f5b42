// prepareNode: a node parsed and resolved once (Module.prepareNode: its attributes parsed into the
// op version's parameters), run many times through Module.nodeRunHandle: the input handles are
// written to the binding's input area in wasm memory, then one call with integers in and an
// integer out, the output's type and dims written where tensorFromRun reads them. Any number of
// inputs; an omitted optional input is handle 0. InferenceSession runs its nodes this way; runNode
// is the one-off form. A run that gives 0 is made again through Module.nodeRun, which returns the
// output or the failure (binding.mjs).
// Memory: the PreparedNode owns a C++ object freed by dispose() (or when garbage collected); the
// Tensors that run() returns belong to the caller.
// @ts-check
import { check } from './binding.mjs';
import { invalidArgument, DisposedError } from './errors.mjs';
import { normalizeNode, opsetOf } from './node.mjs';
import { getModule, loadedModule, refreshInfo, runCalls } from './runtime.mjs';
import { Tensor, handleOf, tensorFromHandle, tensorFromRun } from './tensor.mjs';

/** @typedef {import('./wasm-module.mjs').WasmModule} WasmModule */
/** @typedef {import('./runtime.mjs').RunCalls} RunCalls */
/** @typedef {import('./node.mjs').NodeInput} NodeInput */
/** @typedef {import('./node.mjs').NodeOptions} NodeOptions */

const finalizer = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry((/** @type {number} */ ptr) => getModule().nodeDelete(ptr))
  : null;

// The binding's input area: its index in runCalls.info (an Int32Array over wasm memory) and how
// many handles it holds. Asked for once, and again when a node takes more inputs.
let inputsAt = 0, inputsRoom = 0;

// (loadedModule and runCalls, here and in runTensors: set, as a PreparedNode exists.)
/** @param {number} n */
function makeRoom(n) {
  const address = /** @type {WasmModule} */ (loadedModule).inputsAddress(Math.max(n, 8));
  if (!address) throw invalidArgument(`cannot make room for ${n} input handles in wasm memory`);
  inputsAt = address / 4;
  inputsRoom = Math.max(n, 8);
  refreshInfo();   // (the area may lie beyond the view a threads build made before it grew)
}

// Writes the handles of values[at[0]], values[at[1]], ... (n of them; -1 in `at`, or an
// undefined or null value: 0, omitted; `at` null: values[0..n)) to the binding's input area.
/**
 * @param {readonly (Tensor | null | undefined)[]} values
 * @param {readonly number[] | null} at
 * @param {number} n
 */
function writeInputs(values, at, n) {
  if (n > inputsRoom) makeRoom(n);
  let heap = /** @type {RunCalls} */ (runCalls).info;
  if (heap.length === 0) heap = refreshInfo();   // (memory growth detached the view)
  for (let k = 0; k < n; ++k) {
    const i = at === null ? k : at[k];
    const t = i < 0 ? undefined : values[i];
    heap[inputsAt + k] = t === undefined || t === null ? 0 : handleOf(t);
  }
}

export class PreparedNode {
  #node = 0;
  /** @type {string} */
  #label;

  /**
   * @param {NodeInput} node
   * @param {NodeOptions} [options]
   */
  constructor(node, options = {}) {
    const m = getModule();
    const { domain, opType, attrs } = normalizeNode(node);
    const opset = opsetOf(domain, opType, options);
    const prepared = check(m.prepareNode(domain, opType, opset, attrs));
    this.#node = prepared.node;
    this.#label = `${domain ? `${domain}.` : ''}${opType} at opset ${opset}`;
    finalizer?.register(this, prepared.node, this);
  }

  // Inputs: Tensors of this package (used in place, no copy), null or undefined for an omitted
  // optional input. Returns [output Tensor]. The op version checks the count.
  /**
   * @param {readonly (Tensor | null | undefined)[]} inputs (the caller's: checked here)
   * @returns {Tensor[]}
   */
  run(inputs) {
    if (!this.#node) throw new DisposedError(`this prepared ${this.#label} was disposed`);
    if (!Array.isArray(inputs)) throw invalidArgument(`${this.#label}: inputs must be an array of Tensors`);
    for (let k = 0; k < inputs.length; ++k) {
      const t = inputs[k];
      if (t !== null && t !== undefined && !(t instanceof Tensor)) throw invalidArgument(`${this.#label}: inputs must be Tensors of onnx-wasm`);
    }
    return [this.runTensors(inputs, null, inputs.length)];
  }

  // The same for values[at[0]], values[at[1]], ... (n of them; -1 in `at` or an undefined value:
  // omitted), returning the output Tensor: the per-node call of InferenceSession (values: its
  // slots) and external-data.mjs, whose values are always Tensors of this package (so no
  // instanceof here: in a session's first runs, before V8 optimizes, each costs a call). `at`
  // null: values[0..n). Writes the handles to the input area, then one call runs the node.
  /**
   * @param {readonly (Tensor | null | undefined)[]} values
   * @param {readonly number[] | null} at
   * @param {number} n
   * @returns {Tensor}
   */
  runTensors(values, at, n) {
    const node = this.#node;
    if (!node) throw new DisposedError(`this prepared ${this.#label} was disposed`);
    writeInputs(values, at, n);
    const h = /** @type {RunCalls} */ (runCalls).nodeRunHandle(node, n);
    return h ? tensorFromRun(h) : tensorFromHandle(check(/** @type {WasmModule} */ (loadedModule).nodeRun(node, n)));
  }

  // For an op whose capabilities say it reads a table by rows (a Gather, a GatherBlockQuantized),
  // with its data (input 0: type id and dims) a table outside memory and its other inputs
  // values[at[1]] (the indices) ... (n in all; values[at[0]] unused; `outside`: others kept
  // outside memory with the table, by type id and dims): the same checks as a run (the same
  // errors), then { rows, remapped }: int64 Tensors of the distinct rows to read, ascending, and of
  // the indices as positions among them. The caller owns both.
  /**
   * @param {readonly (Tensor | null | undefined)[]} values
   * @param {readonly number[]} at
   * @param {number} n
   * @param {number} typeId
   * @param {readonly number[]} dims
   * @param {readonly { input: number, typeId: number, dims: readonly number[] }[]} [outside]
   * @returns {{ rows: Tensor, remapped: Tensor }}
   */
  gatherRows(values, at, n, typeId, dims, outside = []) {
    const node = this.#node;
    if (!node) throw new DisposedError(`this prepared ${this.#label} was disposed`);
    writeInputs(values, at, n);
    const flat = outside.flatMap((o) => [o.input, o.typeId, o.dims.length, ...o.dims]);
    const { rows, remapped } = check(getModule().nodeGatherRows(node, n, typeId, dims, flat));
    const r = tensorFromHandle(rows);   // (frees `rows` itself when it throws)
    try {
      return { rows: r, remapped: tensorFromHandle(remapped) };
    } catch (e) {
      r.dispose();
      throw e;
    }
  }

  dispose() {
    if (!this.#node) return;
    finalizer?.unregister(this);
    getModule().nodeDelete(this.#node);
    this.#node = 0;
  }
}

/**
 * @param {NodeInput} node
 * @param {NodeOptions} [options]
 * @returns {PreparedNode}
 */
export function prepareNode(node, options) {
  return new PreparedNode(node, options);
}
