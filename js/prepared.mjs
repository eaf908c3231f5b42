// prepareNode: a node parsed and resolved once (Module.prepareNode), run many times through
// Module.nodeRunHandle (integers in, an integer out, the output's type and dims written where
// tensorFromRun reads them: one crossing a run). InferenceSession runs its nodes this way;
// runNode is the one-off form. A run that gives 0 is made again through Module.nodeRun, which
// returns the output or the failure (binding.mjs).
// Memory: the PreparedNode owns a C++ object freed by dispose() (or when garbage collected); the
// Tensors that run() returns belong to the caller.
import { check } from './binding.mjs';
import { invalidArgument, DisposedError } from './errors.mjs';
import { normalizeNode, opsetOf } from './node.mjs';
import { getModule, loadedModule, runCalls } from './runtime.mjs';
import { Tensor, handleOf, tensorFromHandle, tensorFromRun } from './tensor.mjs';

const finalizer = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry((ptr) => getModule().nodeDelete(ptr))
  : null;

export class PreparedNode {
  #node = 0;
  #arity;
  #label;

  constructor(node, options = {}) {
    const m = getModule();
    const { opType, attrs } = normalizeNode(node);
    const opset = opsetOf(opType, options);
    const prepared = check(m.prepareNode(opType, opset, attrs));
    this.#node = prepared.node;
    this.#arity = prepared.inputs;
    this.#label = `${opType} at opset ${opset}`;
    finalizer?.register(this, prepared.node, this);
  }

  // Inputs: Tensors of this package (used in place, no copy). Returns [output Tensor].
  run(inputs) {
    const n = this.#node;
    if (!n) throw new DisposedError(`this prepared ${this.#label} was disposed`);
    const a = inputs[0], b = inputs[1];
    if (inputs.length !== this.#arity || !(a instanceof Tensor) || (this.#arity === 2 && !(b instanceof Tensor))) {
      if (inputs.length !== this.#arity) throw invalidArgument(`${this.#label} takes ${this.#arity} input(s), got ${inputs.length}`);
      throw invalidArgument(`${this.#label}: inputs must be Tensors of onnx-wasm`);
    }
    return [this.runTensors(a, this.#arity === 2 ? b : undefined)];
  }

  // The same for one or two Tensors, returning the output Tensor: the per-node call of
  // InferenceSession and external-data.mjs, whose values are always Tensors of this package (so
  // no instanceof here: in a session's first runs, before V8 optimizes, each costs a call).
  runTensors(a, b) {
    const n = this.#node;
    if (!n) throw new DisposedError(`this prepared ${this.#label} was disposed`);
    if ((this.#arity === 2) !== (b !== undefined)) return this.run(b === undefined ? [a] : [a, b])[0];   // (its error)
    const bh = b === undefined ? 0 : handleOf(b), ah = handleOf(a);
    const h = runCalls.nodeRunHandle(n, ah, bh, this.#arity);
    return h ? tensorFromRun(h) : tensorFromHandle(check(loadedModule.nodeRun(n, ah, bh, this.#arity)));
  }

  // For a Gather whose data (type id and dims) is a table outside memory: the same checks as a run
  // (the same errors), then { rows, remapped }: int64 Tensors of the distinct rows to read,
  // ascending, and of the indices as positions among them. The caller owns both.
  gatherRows(indices, typeId, dims) {
    const n = this.#node;
    if (!n) throw new DisposedError(`this prepared ${this.#label} was disposed`);
    const { rows, remapped } = check(getModule().nodeGatherRows(n, indices.handle, typeId, dims));
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

export function prepareNode(node, options) {
  return new PreparedNode(node, options);
}
