// prepareNode: a node parsed and resolved once, run many times through the binding's
// PreparedNode (no JS objects crossing into wasm per call). InferenceSession runs its nodes this
// way; runNode is the one-off form. Memory: the PreparedNode owns a C++ object freed by dispose()
// (or when garbage collected); the Tensors that run() returns belong to the caller.
import { errorFromStatus, invalidArgument, DisposedError } from './errors.mjs';
import { normalizeNode, opsetOf } from './node.mjs';
import { getModule, loadedModule } from './runtime.mjs';
import { Tensor, tensorFromHandle, writeDims } from './tensor.mjs';
import { nodeRequest, send, takeError } from './wire.mjs';

const finalizer = typeof FinalizationRegistry === 'function'
  ? new FinalizationRegistry((ptr) => getModule()._ow_node_delete(ptr))
  : null;

export class PreparedNode {
  #node = 0;
  #arity;
  #label;

  constructor(node, options = {}) {
    const m = getModule();
    const { opType, attrs } = normalizeNode(node);
    const opset = opsetOf(opType, options);
    const ptr = m._ow_prepare_node(send(m, nodeRequest(opType, opset, attrs))) >>> 0;
    if (!ptr) throw errorFromStatus(takeError(m));
    this.#node = ptr;
    this.#arity = m._ow_node_inputs(ptr);
    this.#label = `${opType} at opset ${opset}`;
    finalizer?.register(this, ptr, this);
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
    const m = getModule();
    const h = (this.#arity === 2 ? m._ow_node_run2(n, a.handle, b.handle) : m._ow_node_run1(n, a.handle)) >>> 0;
    if (h === 0) throw errorFromStatus(takeError(m));
    return [tensorFromHandle(h)];
  }

  // The same for one or two Tensors, returning the output Tensor: the per-node call of
  // InferenceSession and external-data.mjs, whose values are always Tensors of this package (so
  // no instanceof here: in a session's first runs, before V8 optimizes, each costs a call).
  runTensors(a, b) {
    const n = this.#node;
    if (!n) throw new DisposedError(`this prepared ${this.#label} was disposed`);
    if ((this.#arity === 2) !== (b !== undefined)) return this.run(b === undefined ? [a] : [a, b])[0];   // (its error)
    const m = loadedModule;
    const h = (b === undefined ? m._ow_node_run1(n, a.handle) : m._ow_node_run2(n, a.handle, b.handle)) >>> 0;
    if (h === 0) throw errorFromStatus(takeError(m));
    return tensorFromHandle(h);
  }

  // For a Gather whose data (type id and dims) is a table outside memory: the same checks as a run
  // (the same errors), then { rows, remapped }: int64 Tensors of the distinct rows to read,
  // ascending, and of the indices as positions among them. The caller owns both.
  gatherRows(indices, typeId, dims) {
    const n = this.#node;
    if (!n) throw new DisposedError(`this prepared ${this.#label} was disposed`);
    const m = getModule();
    writeDims(m, dims);
    const h = m._ow_node_gather_rows(n, indices.handle, typeId, dims.length) >>> 0;
    if (h === 0) throw errorFromStatus(takeError(m));
    const rows = tensorFromHandle(h);
    return { rows, remapped: tensorFromHandle(m._ow_take_remapped() >>> 0) };
  }

  dispose() {
    if (!this.#node) return;
    finalizer?.unregister(this);
    getModule()._ow_node_delete(this.#node);
    this.#node = 0;
  }
}

export function prepareNode(node, options) {
  return new PreparedNode(node, options);
}
