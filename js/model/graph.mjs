// The graph checks of InferenceSession.create that need no tensors: the opsets a model imports
// (every opset_import, by domain), the ops it uses against the registry, and the order its nodes
// run in.
// @ts-check
import { UnsupportedOpError } from '../generated/errors.mjs';
import { canonicalDomain } from '../node.mjs';
import { registryFacts } from '../registry.mjs';
import { modelError } from './tensor-proto.mjs';

/** @typedef {import('./onnx-proto.mjs').GraphProto} GraphProto */

// Map domain ('' for the default one) -> the opset the model imports.
/**
 * @param {import('./onnx-proto.mjs').ModelProto} model
 * @returns {Map<string, number>}
 */
export function importedOpsets(model) {
  /** @type {Map<string, number>} */
  const opsets = new Map();
  for (const o of model.opsetImport) opsets.set(canonicalDomain(o.domain), Number(o.version));
  if (!opsets.has('')) throw modelError('the model imports no opset of the default ONNX domain');
  return opsets;
}

// Every node's (domain, op) must be one the registry has (or a Constant, which the session makes
// itself), in a domain the model imports.
/**
 * @param {GraphProto} graph
 * @param {ReadonlyMap<string, number>} opsets
 */
export function checkOps(graph, opsets) {
  const runnable = registryFacts();   // domain -> op -> facts
  const unsupported = new Set();
  for (const n of graph.node) {
    const domain = canonicalDomain(n.domain);
    if (domain === '' && n.opType === 'Constant') continue;
    if (!runnable.get(domain)?.has(n.opType)) unsupported.add(domain === '' ? n.opType : `${n.opType} (domain '${n.domain}')`);
    else if (!opsets.has(domain)) throw modelError(`node '${n.name || n.opType}' is in domain '${domain}', which the model does not import (opset_import)`);
  }
  if (!unsupported.size) return;
  const others = [...runnable].filter(([d]) => d !== '').map(([d, ops]) => `; in domain '${d}', ${[...ops.keys()].join(', ')}`).join('');
  throw new UnsupportedOpError(`the model uses ops onnx-wasm does not run: ${[...unsupported].join(', ')}; it runs ${[...(runnable.get('')?.keys() ?? [])].join(', ')} and Constant in the default domain${others}`);
}

// The nodes' indices in an order where each runs after those it reads, with a clear error for a
// missing value or a cycle. `known(name)`: a graph input, initializer or other value given before
// any node runs. Every value is assigned once (ONNX graphs are in SSA form): a second producer
// is refused.
/**
 * @param {GraphProto} graph
 * @param {(name: string) => boolean} known
 * @param {ReadonlyMap<string, unknown>} initializers
 * @returns {number[]} the nodes' indices in run order
 */
export function topologicalOrder(graph, known, initializers) {
  /** @type {Map<string, number>} */
  const producer = new Map();
  const nodeName = (/** @type {number} */ k) => `node '${graph.node[k].name || graph.node[k].opType}'`;
  graph.node.forEach((n, k) => n.output.forEach((o) => {
    if (!o) return;
    const earlier = producer.has(o) ? nodeName(/** @type {number} */ (producer.get(o))) : initializers.has(o) ? 'an initializer' : known(o) ? 'a graph input' : null;
    if (earlier) throw modelError(`value '${o}' is assigned twice: by ${earlier} and by ${nodeName(k)}`);
    producer.set(o, k);
  }));
  // Depth-first with an explicit stack: a chain of any length neither overflows the call stack
  // nor copies its path at every step. Entries: [node, next input, value that led here].
  /** @type {number[]} */
  const order = [];
  const state = new Uint8Array(graph.node.length);   // 0 unvisited, 1 on the stack, 2 done
  for (let root = 0; root < graph.node.length; ++root) {
    if (state[root]) continue;
    state[root] = 1;
    /** @type {[number, number, string][]} */
    const stack = [[root, 0, graph.node[root].output[0] ?? '']];
    while (stack.length) {
      const top = stack[stack.length - 1];
      const inputs = graph.node[top[0]].input;
      if (top[1] === inputs.length) {
        state[top[0]] = 2;
        order.push(top[0]);
        stack.pop();
        continue;
      }
      const input = inputs[top[1]++];
      if (!input || known(input)) continue;
      if (!producer.has(input)) throw modelError(`${nodeName(top[0])} reads '${input}', which no input, initializer or node provides`);
      const p = /** @type {number} */ (producer.get(input));   // (it has one: checked above)
      if (state[p] === 2) continue;
      if (state[p] === 1) {
        const path = stack.map((e) => e[2]).concat(input);
        throw modelError(`the graph has a cycle through ${nodeName(p)} (${path.length > 32 ? ['...', ...path.slice(-32)].join(' -> ') : path.join(' -> ')})`);
      }
      state[p] = 1;
      stack.push([p, 0, input]);
    }
  }
  return order;
}
