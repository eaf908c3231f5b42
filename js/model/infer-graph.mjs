// The inference walk of InferenceSession.create: in run order, each Constant made a Tensor once,
// and every other node's output types and shapes inferred (through inferShapes: no shape rules
// here) from what is known of its inputs, then the node prepared (its attributes parsed once).
// @ts-check
import { OnnxWasmError } from '../errors.mjs';
import { canonicalDomain, inferKnown, int64Values } from '../node.mjs';
import { PreparedNode } from '../prepared.mjs';
import { Tensor } from '../tensor.mjs';
import { modelError, tensorFromProto } from './tensor-proto.mjs';

/** @typedef {import('./onnx-proto.mjs').NodeProto} NodeProto */

/**
 * What is known of a value of the graph: its type, its dims (entries a number, a symbol or null;
 * null when the rank is unknown) and, for a small int64 tensor, its values: numbers, a decimal
 * string for one beyond 2^53 (such as the INT64_MAX of a Slice's ends), and for a value computed
 * from symbolic dims, symbols or null.
 * @typedef {{ type: import('../index.js').TensorType, dims: import('../index.js').Dim[] | null, value?: import('../index.js').Dim[] }} Known
 */

/**
 * A node of the run, as inferGraph makes it: `inputs` the names ('' for an omitted one).
 * @typedef {{ prepared: PreparedNode, domain: string, opType: string, inputs: string[], output: string, label: string }} Step
 */

// What inference knows of a session tensor: { type, dims, value? } (value: the entries of a small
// int64 tensor, exactly: int64Values).
/**
 * @param {Tensor} t
 * @returns {Known}
 */
export function constInfo(t) {
  return { type: t.type, dims: Array.from(t.dims), value: t.type === 'int64' && t.size <= 64 ? int64Values(t) : undefined };
}

// The tensor of a Constant node from whichever value attribute it has (`loaded`: its tensor when
// stored in external data, loaded before).
/**
 * @param {NodeProto} node
 * @param {Tensor | undefined} loaded
 * @returns {Tensor}
 */
function constantTensor(node, loaded) {
  const a = node.attribute[0];
  if (node.attribute.length !== 1) throw modelError(`Constant '${node.output[0]}' must have exactly one value attribute, has ${node.attribute.length}`);
  switch (a.name) {
    case 'value':
      if (!a.t) throw modelError(`Constant '${node.output[0]}': attribute 'value' holds no tensor`);
      return loaded ?? tensorFromProto(a.t);
    case 'value_float': return new Tensor('float32', [a.f], []);
    case 'value_floats': return new Tensor('float32', Array.from(a.floats), [a.floats.length]);
    case 'value_int': return new Tensor('int64', [a.i], []);
    case 'value_ints': return new Tensor('int64', Array.from(a.ints), [a.ints.length]);
    case 'value_string': return new Tensor('string', [new TextDecoder().decode(a.s)], []);
    case 'value_strings': return new Tensor('string', a.strings.map((s) => new TextDecoder().decode(s)), [a.strings.length]);
    default: throw modelError(`Constant '${node.output[0]}': attribute '${a.name}' is not supported (sparse_value and others)`);
  }
}

// Walks `order` (graph.mjs). `info`: Map name -> what is known, filled in as it goes; `tensors`:
// the session's tensors by name, to which the Constants are added; `constants`: Map node -> its
// tensor loaded from external data; `opsets`: Map domain -> version; `owned`: what the session
// frees at release(), added to. Returns the steps: { prepared, domain, opType, inputs (names, ''
// for an omitted one), output, label }.
/**
 * @param {import('./onnx-proto.mjs').GraphProto} graph
 * @param {readonly number[]} order
 * @param {{ info: Map<string, Known>, tensors: Map<string, Tensor>, constants: ReadonlyMap<NodeProto, Tensor>, opsets: ReadonlyMap<string, number>, owned: { dispose(): void }[] }} walk
 * @returns {Step[]}
 */
export function inferGraph(graph, order, { info, tensors, constants, opsets, owned }) {
  /** @type {Step[]} */
  const steps = [];
  for (const k of order) {
    const n = graph.node[k];
    const label = `node '${n.name || n.opType}' (${n.opType})`;
    const domain = canonicalDomain(n.domain);
    if (domain === '' && n.opType === 'Constant') {
      const t = constantTensor(n, constants.get(n));
      if (!constants.has(n)) owned.push(t);   // (a loaded one is owned already)
      tensors.set(n.output[0], t);
      info.set(n.output[0], constInfo(t));
      continue;
    }
    // (an empty name: an omitted optional input; the op version says whether it may be omitted)
    const inputs = n.input.map((x) => (x ? info.get(x) : null));
    const opset = { domain, version: opsets.get(domain) };
    let outs, prepared;
    try {
      outs = inferKnown(n, inputs, { opset }, 'unknown');
      if (n.output.length !== 1) throw modelError(`${label} must have 1 output, has ${n.output.length}`);
      prepared = new PreparedNode(n, { opset });
    } catch (e) {
      if (e instanceof OnnxWasmError && !e.message.startsWith(label)) e.message = `${label}: ${e.message}`;
      throw e;
    }
    owned.push(prepared);
    info.set(n.output[0], outs[0]);
    steps.push({ prepared, domain, opType: n.opType, inputs: Array.from(n.input), output: n.output[0], label });
  }
  return steps;
}
