// Generated inputs for a model, shared by `onnx-wasm run` (bin/) and the playground: symbolic
// dims take their value from `symbols` (default 2, unknown 1); an int input that is a Gather's
// indices gets values within its axis, one that is a Reshape's shape [1, ..., 1, -1]; any other
// input gets `fill(type, size)`, the data array for `new Tensor(type, data, dims)`.
// Not part of the public API. The Tensors returned belong to the caller.
import { Tensor } from './tensor.mjs';

// `inputs`: the inputs to generate, as in session.inputMetadata ({ name, type, shape }).
export function generateFeeds(session, inputs, symbols, fill) {
  const concrete = (dims) => (dims ?? []).map((d) => (typeof d === 'number' ? d : d === null ? 1 : symbols[d] ?? 2));
  const resolved = new Map(session.inputMetadata.map((i) => [i.name, concrete(i.shape)]));
  const consumer = (name) => session.nodes.find((n) => n.inputs[1] === name && (n.opType === 'Gather' || n.opType === 'Reshape'));
  const feeds = {};
  for (const { name, type } of inputs) {
    const dims = resolved.get(name);
    const size = dims.reduce((a, b) => a * b, 1);
    const use = consumer(name);
    let data;
    if (use?.opType === 'Reshape' && type === 'int64') {
      data = BigInt64Array.from({ length: size }, (_, i) => (i === size - 1 ? -1n : 1n));
    } else if (use?.opType === 'Gather' && (type === 'int64' || type === 'int32')) {
      const dataDims = resolved.get(use.inputs[0]) ?? concrete(session.valueInfo(use.inputs[0])?.dims);
      const axis = use.attributes.axis ?? 0;
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
