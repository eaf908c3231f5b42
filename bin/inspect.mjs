// `onnx-wasm inspect`: what a model holds and what onnx-wasm infers of it, without running it and
// without reading any table's bytes. The model is parsed (js/model/onnx-proto.mjs) and walked as
// InferenceSession.create walks it (js/model/infer-graph.mjs), but no initializer is loaded: types
// and dims come from the protos, and only small inline tensors are decoded (the int64 ones are
// the shapes and axes that shape inference reads by value). So a model whose external data file is missing, or
// that uses ops onnx-wasm does not run, still inspects: such nodes are marked, and what follows
// from them is shown as unknown. Small inline tensors (initializers and tensor attributes, such as
// a Constant's value) are decoded to show their values.
// @ts-check
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { OnnxWasmError } from '../js/errors.mjs';
import { preview } from './compare.mjs';
import { ModelError } from '../js/generated/errors.mjs';
import { canonicalDomain, inferShapes } from '../js/node.mjs';
import { PreparedNode } from '../js/prepared.mjs';
import { registryFacts } from '../js/registry.mjs';
import { constInfo } from '../js/model/infer-graph.mjs';
import { importedOpsets, topologicalOrder } from '../js/model/graph.mjs';
import { decodeModel } from '../js/model/onnx-proto.mjs';
import { plainAttributes } from '../js/model/session.mjs';
import { tableBytes } from '../js/model/table-facts.mjs';
import { tensorFromProto } from '../js/model/tensor-proto.mjs';
import { elementCount, typeById } from '../js/types.mjs';

/** @typedef {import('../js/model/infer-graph.mjs').Known} Known */
/** @typedef {import('../js/model/onnx-proto.mjs').TensorProto} TensorProto */
/** @typedef {import('../js/model/onnx-proto.mjs').ValueInfoProto} ValueInfoProto */
/** @typedef {import('../js/index.js').Dim} Dim */

const EXTERNAL = 1;   // TensorProto.DataLocation
const SMALL = 64;     // inline tensors of at most this many entries are decoded (int64 ones inferred from)
const SHOWN = 8;      // entries shown of a decoded tensor that is not int64 (an int64 one: all)

/** @param {readonly Dim[] | null} dims */
export const shapeText = (dims) => (dims ? `[${dims.map((d) => (d === null ? '?' : d)).join(', ')}]` : '[unknown rank]');

/** @param {Known | undefined} k */
const knownText = (k) => (k ? `${k.type} ${shapeText(k.dims)}` : '?');

// A declared graph value: { type, dims } or null when it is not a tensor of a known type.
/**
 * @param {ValueInfoProto} vi
 * @returns {Known | null}
 */
function declared(vi) {
  const tt = vi.type?.value?.case === 'tensorType' ? vi.type.value.value : null;
  const t = tt ? typeById(tt.elemType) : undefined;
  if (!tt || !t) return null;
  const dims = tt.shape ? tt.shape.dim.map((d) => {
    if (d.value.case === 'dimValue') return Number(d.value.value);
    return d.value.case === 'dimParam' && d.value.value !== '' ? d.value.value : null;
  }) : null;
  return { type: t.name, dims };
}

// What a TensorProto is without reading external bytes: { info, text } where text says its type,
// dims, bytes and where they are, and a small inline tensor's values; info is what inference
// knows (values only for a small inline int64 tensor; undefined when the proto is invalid).
/**
 * @param {TensorProto} proto
 * @param {string} modelDir resolves external locations, to say whether the file is there
 * @returns {{ info: Known | undefined, text: string }}
 */
function describeProto(proto, modelDir) {
  const t = typeById(proto.dataType);
  if (!t) return { info: undefined, text: `element type ${proto.dataType}, which ONNX does not define` };
  const dims = Array.from(proto.dims, Number);
  if (dims.some((d) => !Number.isSafeInteger(d) || d < 0)) return { info: undefined, text: `${t.name} [${proto.dims.join(', ')}]: invalid dims` };
  const head = `${t.name} ${shapeText(dims)}, ${t.name === 'string' ? `${elementCount(dims)} strings` : `${tableBytes(t, dims)} bytes`}`;
  if (proto.dataLocation === EXTERNAL) {
    const entry = (/** @type {string} */ k) => proto.externalData.find((e) => e.key === k)?.value;
    const location = entry('location');
    if (!location) return { info: { type: t.name, dims }, text: `${head}, external, but names no location` };
    const length = entry('length');
    const missing = existsSync(resolve(modelDir, location)) ? '' : ' (the file is missing)';
    return { info: { type: t.name, dims }, text: `${head}, external '${location}' offset ${entry('offset') ?? 0}${length === undefined ? ' to the end of the file' : ` length ${length}`}${missing}` };
  }
  if (elementCount(dims) > SMALL) return { info: { type: t.name, dims }, text: `${head}, inline` };
  // A small inline tensor: decoded as a session decodes it (which checks its byte count).
  let tensor;
  try {
    tensor = tensorFromProto(proto);
  } catch (e) {
    if (!(e instanceof OnnxWasmError)) throw e;
    return { info: undefined, text: `${head}, inline, invalid: ${e.message}` };
  }
  try {
    const info = constInfo(tensor);
    return { info, text: `${head}, inline, values ${preview(tensor, t.name === 'int64' ? SMALL : SHOWN)}` };
  } finally {
    tensor.dispose();
  }
}

// What inference knows of a Constant node's output, from its one value attribute (a tensor in
// external data by its proto alone), or a reason it is not known.
/**
 * @param {import('../js/model/onnx-proto.mjs').NodeProto} n
 * @param {string} modelDir
 * @returns {Known | string}
 */
function constantInfo(n, modelDir) {
  if (n.attribute.length !== 1) return `a Constant must have exactly one value attribute, has ${n.attribute.length}`;
  const a = n.attribute[0];
  switch (a.name) {
    case 'value': return (a.t && describeProto(a.t, modelDir).info) ?? 'its tensor is invalid';
    case 'value_int': return { type: 'int64', dims: [], value: Number.isSafeInteger(Number(a.i)) ? [Number(a.i)] : undefined };
    case 'value_ints': {
      const v = Array.from(a.ints, Number);
      return { type: 'int64', dims: [v.length], value: v.length <= SMALL && v.every(Number.isSafeInteger) ? v : undefined };
    }
    case 'value_float': return { type: 'float32', dims: [] };
    case 'value_floats': return { type: 'float32', dims: [a.floats.length] };
    case 'value_string': return { type: 'string', dims: [] };
    case 'value_strings': return { type: 'string', dims: [a.strings.length] };
    default: return `attribute '${a.name}' is not supported`;
  }
}

// The lines `onnx-wasm inspect` prints for a model's bytes. `path` names the model and resolves
// its external data locations.
/**
 * @param {Uint8Array} bytes
 * @param {string} path
 * @returns {string[]}
 */
export function inspectModel(bytes, path) {
  let model;
  try {
    model = decodeModel(bytes);
  } catch (e) {
    throw new ModelError(`cannot parse the ONNX model (${bytes.length} bytes): ${e.message}`);
  }
  const g = model.graph;
  if (!g) throw new ModelError('the model has no graph');
  const opsets = importedOpsets(model);
  const modelDir = dirname(path);
  const out = [
    `model: ${path}`,
    `ir_version: ${model.irVersion}`,
    `opset imports: ${model.opsetImport.map((o) => `${o.domain || 'ai.onnx'} ${o.version}`).join(', ')}`,
  ];
  const initLines = [];

  /** @type {Map<string, Known>} */
  const info = new Map();
  const inputs = new Map(g.input.map((vi) => [vi.name, declared(vi)]));
  for (const [name, k] of inputs) if (k) info.set(name, k);
  /** @type {Map<string, TensorProto>} */
  const initializers = new Map();
  for (const proto of g.initializer) {
    initializers.set(proto.name, proto);
    const { info: k, text } = describeProto(proto, modelDir);
    // A graph input that is also an initializer may be fed: inference knows its declaration.
    const fed = inputs.has(proto.name);
    if (k && !fed) info.set(proto.name, k);
    initLines.push(`  ${proto.name}: ${text}${fed ? ' (also a graph input, which a feed may replace)' : ''}`);
  }
  out.push('inputs:');
  for (const [name, k] of inputs) if (!initializers.has(name)) out.push(`  ${name}: ${k ? knownText(k) : 'not a tensor onnx-wasm knows'}`);

  const known = (/** @type {string} */ name) => inputs.has(name) || initializers.has(name);
  const order = topologicalOrder(g, known, initializers);
  const runnable = registryFacts();
  const nodeLines = [];
  let cannot = 0;
  for (const [k, i] of order.entries()) {
    const n = g.node[i];
    const domain = canonicalDomain(n.domain);
    let mark = '';
    if (domain === '' && n.opType === 'Constant') {
      const c = constantInfo(n, modelDir);
      if (typeof c === 'string') mark = `cannot run: ${c}`;
      else info.set(n.output[0], c);
    } else if (!runnable.get(domain)?.has(n.opType)) {
      mark = `cannot run: onnx-wasm does not run ${n.opType}${domain ? ` in domain '${domain}'` : ''}`;
    } else if (!opsets.has(domain)) {
      mark = `cannot run: domain '${domain}' is not imported (opset_import)`;
    } else {
      const unknown = n.input.find((x) => x && !info.has(x));
      if (unknown !== undefined) {
        mark = `not inferred: input '${unknown}' is unknown`;
      } else {
        const opset = { domain, version: opsets.get(domain) };
        try {
          if (n.output.length !== 1) throw new ModelError(`${n.opType} must have 1 output, has ${n.output.length}`);
          const outs = inferShapes(n, n.input.map((x) => (x ? info.get(x) : null)), { opset });
          new PreparedNode(n, { opset }).dispose();   // (its attributes parsed as a session parses them)
          info.set(n.output[0], outs[0]);
        } catch (e) {
          if (!(e instanceof OnnxWasmError)) throw e;
          mark = `cannot run: ${e.name}: ${e.message}`;
        }
      }
    }
    if (mark.startsWith('cannot run')) ++cannot;
    const attrs = plainAttributes(n);
    // (a tensor attribute by what it holds, where a session's `nodes` give only its name)
    for (const a of n.attribute) if (a.type === 4 && a.t) attrs[a.name] = `<tensor ${a.t.name ? `'${a.t.name}': ` : ''}${describeProto(a.t, modelDir).text}>`;
    const attrText = Object.keys(attrs).length ? ` ${JSON.stringify(attrs, (_, v) => (typeof v === 'bigint' ? String(v) : v))}` : '';
    const outs = n.output.map((o) => `${o}: ${knownText(info.get(o))}`).join(', ');
    nodeLines.push(`  ${k} ${domain ? `${domain}.` : ''}${n.opType}${n.name ? ` '${n.name}'` : ''}(${n.input.join(', ')})${attrText} -> ${outs}${mark ? `  [${mark}]` : ''}`);
  }

  out.push('outputs (inferred):');
  for (const o of g.output) {
    const k = info.get(o.name), d = declared(o);
    out.push(`  ${o.name}: ${k ? knownText(k) : d ? `${knownText(d)} (declared)` : '?'}`);
  }
  out.push(`initializers (${g.initializer.length}):`, ...initLines, `nodes (${g.node.length}, in run order):`, ...nodeLines);
  if (cannot) out.push(`${cannot} node${cannot > 1 ? 's' : ''} of ${g.node.length} cannot run; run would fail.`);
  return out;
}
