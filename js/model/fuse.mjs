// Rewrites of the graph at create() so that a run reads only the rows of a table it needs.
// 1. Reshape of an initializer by a constant shape (onnxruntime-genai's Reshape of a MatMulNBits
//    weight into the table of its GatherBlockQuantized): the initializer itself, with the new dims
//    (the same bytes; in its file, they stay there). Without it the Reshape reads the whole table,
//    which must then be loaded.
// 2. DequantizeLinear(table) -> Gather: run as Gather(table) -> DequantizeLinear, each element
//    computed as before (a gather moves elements; the dequantization is elementwise), so outputs
//    are byte for byte the same. Without it a run would dequantize the whole table (a float copy
//    2 to 8 times its quantized size, made again on every run), then gather a few rows of it.
//    - x of a type Gather takes (int8, uint8, int16, uint16, int32): Gather(x) ->
//      DequantizeLinear, the scales and zero points gathered too when blocked (same rank as x),
//      the quantization axis renumbered for the gathered rank;
//    - int4/uint4 x, blocked: com.microsoft GatherBlockQuantized, which gathers 4-bit codes and
//      dequantizes them as DequantizeLinear does (when its attributes can say the same thing: a
//      block size that is a power of 2 and at least 16, float, float16 or bfloat16 scales, the
//      scales' type as output);
//    - any other x (float8, float4, int2/uint2, int4/uint4 in other blocks, per axis or per
//      tensor): as the first form, gathered by onnx-wasm's Gather-1, which takes every element
//      type (ONNX's Gather takes none of these), the scales and zero points with it;
//    - a table quantized along the gather axis is left as it is (its scales would be gathered by
//      the indices' blocks, which no Gather says).
//    Only where the table, its scales and zero points are initializers no feed may replace, and
//    every reader of the dequantized table is a Gather of its rows (input 0). The rewritten Gather
//    keeps the Gather's name, so its errors name the user's node.
// @ts-check
import { canonicalDomain } from '../node.mjs';

/** @typedef {import('./onnx-proto.mjs').GraphProto} GraphProto */
/** @typedef {import('./onnx-proto.mjs').NodeProto} NodeProto */
/** @typedef {import('./onnx-proto.mjs').TensorProto} TensorProto */
/** @typedef {import('./onnx-proto.mjs').AttributeProto} AttributeProto */

// TensorProto.DataType ids.
const FLOAT = 1, UINT8 = 2, INT8 = 3, UINT16 = 4, INT16 = 5, INT32 = 6, INT64 = 7, FLOAT16 = 10, BFLOAT16 = 16, UINT4 = 21, INT4 = 22;
const GATHERED = new Set([INT8, UINT8, INT16, UINT16, INT32]);
const GBQ_SCALES = new Set([FLOAT, FLOAT16, BFLOAT16]);

/**
 * @param {string} name
 * @param {bigint} i
 * @returns {AttributeProto}
 */
const intAttribute = (name, i) => ({
  name, refAttrName: '', docString: '', type: 2, f: 0, i, s: new Uint8Array(0), t: undefined, floats: [], ints: [], strings: [], tensors: [],
});

/**
 * @param {NodeProto} n
 * @param {string} name
 * @param {number} fallback
 * @returns {number}
 */
const intOf = (n, name, fallback) => {
  const a = n.attribute.find((x) => x.name === name);
  return a ? Number(a.i) : fallback;
};

/**
 * @param {string} name
 * @param {string} opType
 * @param {string} domain
 * @param {string[]} input
 * @param {string} output
 * @param {AttributeProto[]} attribute
 * @returns {NodeProto}
 */
const node = (name, opType, domain, input, output, attribute) => ({ name, opType, domain, input, output: [output], attribute, docString: '' });

// Reshape's output dims from the input's and the shape's entries (0 copies the input's dim unless
// allowzero, -1 takes the rest), or null when they do not fit (the Reshape is left to say why).
/**
 * @param {readonly number[]} dims
 * @param {readonly number[]} shape
 * @param {boolean} allowZero
 * @returns {number[] | null}
 */
function reshaped(dims, shape, allowZero) {
  const count = dims.reduce((a, b) => a * b, 1);
  const out = shape.map((d, k) => (d === 0 && !allowZero ? dims[k] : d));
  if (out.some((d) => d === undefined || d < -1) || out.filter((d) => d === -1).length > 1) return null;
  const known = out.reduce((a, d) => (d === -1 ? a : a * d), 1);
  if (out.includes(-1)) {
    if (known === 0 || count % known !== 0) return null;
    out[out.indexOf(-1)] = count / known;
  } else if (known !== count) return null;
  return out;
}

// The graph with each Reshape of an initializer that nothing else reads, by a constant shape (an
// int64 initializer, or Reshape-1's attribute), replaced by the initializer with the new dims under
// the Reshape's output name.
/**
 * @param {GraphProto} g
 * @returns {GraphProto}
 */
export function foldReshapedInitializers(g) {
  /** @type {Map<string, TensorProto>} */
  const constant = new Map(g.initializer.map((t) => [t.name, t]));
  for (const i of g.input) constant.delete(i.name);   // (a feed may replace it)
  const outputs = new Set(g.output.map((o) => o.name));
  /** @type {Map<string, number>} */
  const reads = new Map();
  for (const n of g.node) for (const x of n.input) if (x) reads.set(x, (reads.get(x) ?? 0) + 1);
  /** @type {Map<string, TensorProto>} */
  const folded = new Map();   // initializer name -> the initializer it becomes
  /** @type {Set<NodeProto>} */
  const gone = new Set();
  for (const n of g.node) {
    if (canonicalDomain(n.domain) !== '' || n.opType !== 'Reshape' || n.output.length !== 1 || outputs.has(n.input[0])) continue;
    const x = constant.get(n.input[0]);
    if (!x || reads.get(x.name) !== 1 || folded.has(x.name) || outputs.has(x.name)) continue;
    let shape;
    if (n.input.length >= 2) {
      const s = constant.get(n.input[1]);
      if (!s || s.dataType !== INT64 || s.dims.length !== 1 || s.dataLocation === 1) continue;
      shape = s.int64Data.length ? s.int64Data.map(Number)
        : Array.from({ length: s.rawData.length / 8 }, (_, k) => Number(new DataView(s.rawData.buffer, s.rawData.byteOffset + 8 * k, 8).getBigInt64(0, true)));
    } else {
      shape = n.attribute.find((a) => a.name === 'shape')?.ints.map(Number);
      if (!shape) continue;
    }
    const dims = reshaped(x.dims.map(Number), shape, intOf(n, 'allowzero', 0) === 1);
    if (!dims) continue;
    folded.set(x.name, { ...x, name: n.output[0], dims: dims.map(BigInt) });
    gone.add(n);
  }
  if (!gone.size) return g;
  return { ...g, node: g.node.filter((n) => !gone.has(n)), initializer: g.initializer.map((t) => folded.get(t.name) ?? t) };
}

// The graph with each such pair rewritten (the same graph when there is none), and the opsets its
// new nodes need beyond the model's (com.microsoft 1 for GatherBlockQuantized, onnx-wasm 1 for its Gather).
/**
 * @param {GraphProto} g
 * @param {ReadonlyMap<string, number>} opsets the model's: domain -> version
 * @returns {{ graph: GraphProto, opsets: Map<string, number> }}
 */
export function fuseDequantizeGather(g, opsets) {
  const added = new Map();
  /** @type {Map<string, TensorProto>} */
  const constant = new Map(g.initializer.map((t) => [t.name, t]));
  for (const i of g.input) constant.delete(i.name);   // (a feed may replace it)
  const outputs = new Set(g.output.map((o) => o.name));
  /** @type {Map<string, { node: NodeProto, input: number }[]>} */
  const readers = new Map();
  for (const n of g.node) n.input.forEach((x, k) => { if (x) readers.set(x, [...(readers.get(x) ?? []), { node: n, input: k }]); });
  const names = new Set([...constant.keys(), ...g.input.map((i) => i.name), ...g.node.flatMap((n) => [...n.input, ...n.output])]);
  /** @param {string} base */
  const fresh = (base) => {
    let name = base;
    for (let k = 1; names.has(name); ++k) name = `${base}_${k}`;
    names.add(name);
    return name;
  };

  /** @type {Map<NodeProto, NodeProto[]>} */
  const replaced = new Map();   // node -> the nodes in its place ([] for a DequantizeLinear fused away)
  for (const d of g.node) {
    if (canonicalDomain(d.domain) !== '' || d.opType !== 'DequantizeLinear' || d.output.length !== 1) continue;
    const [xName, sName, zName = ''] = d.input;
    const x = constant.get(xName), s = constant.get(sName), z = zName ? constant.get(zName) : undefined;
    const table = d.output[0];
    const uses = readers.get(table) ?? [];
    if (!x || !s || (zName && !z) || d.input.length > 3 || outputs.has(table) || !uses.length) continue;
    if (!uses.every((u) => canonicalDomain(u.node.domain) === '' && u.node.opType === 'Gather' && u.input === 0 && u.node.input[1] !== table && u.node.output.length === 1)) continue;
    const rank = x.dims.length, blockSize = intOf(d, 'block_size', 0), outputType = intOf(d, 'output_dtype', 0);
    const blocked = blockSize > 0 && s.dims.length === rank;
    const perAxis = !blocked && s.dims.length === 1 && (opsets.get('') ?? 0) >= 13;
    const axis = intOf(d, 'axis', 1), qa = axis < 0 ? axis + rank : axis;
    if ((blocked || perAxis) && (qa < 0 || qa >= rank)) continue;
    /** @type {NodeProto[][]} */
    const rewrites = [];
    for (const { node: gather } of uses) {
      const ga = intOf(gather, 'axis', 0), a = ga < 0 ? ga + rank : ga;
      if (a < 0 || a >= rank || ((blocked || perAxis) && qa === a)) break;
      const ids = gather.input[1], out = gather.output[0];
      // The quantization axis in the gathered rank: as it was before the gather axis, counted
      // from the end after it (the dims after the gather axis end the output).
      const newAxis = BigInt(qa < a ? qa : qa - rank);
      if (x.dataType === UINT4 || x.dataType === INT4) {
        const pow2 = blockSize >= 16 && (blockSize & (blockSize - 1)) === 0;
        if (blocked && pow2 && GBQ_SCALES.has(s.dataType) && (outputType === 0 || outputType === s.dataType)) {
          added.set('com.microsoft', 1);
          rewrites.push([node(gather.name, 'GatherBlockQuantized', 'com.microsoft', [xName, ids, sName, ...(zName ? [zName] : [])], out, [
            intAttribute('gather_axis', BigInt(a)), intAttribute('quantize_axis', BigInt(qa)), intAttribute('block_size', BigInt(blockSize)), intAttribute('bits', 4n)])]);
          continue;
        }
      }
      // ONNX's Gather where it takes the types, else onnx-wasm's (every type).
      const domain = GATHERED.has(x.dataType) ? '' : 'onnx-wasm';
      if (domain) added.set(domain, 1);
      const gatherAxis = [intAttribute('axis', BigInt(a))];
      const rows = fresh(`${table}/rows`);
      /** @type {NodeProto[]} */
      const nodes = [node(gather.name, 'Gather', domain, [xName, ids], rows, gatherAxis)];
      let sIn = sName, zIn = zName;
      if (blocked) {
        sIn = fresh(`${sName}/rows`);
        nodes.push(node(`${gather.name}/scales`, 'Gather', domain, [sName, ids], sIn, gatherAxis));
        if (zName) {
          zIn = fresh(`${zName}/rows`);
          nodes.push(node(`${gather.name}/zero_points`, 'Gather', domain, [zName, ids], zIn, gatherAxis));
        }
      }
      const attrs = d.attribute.filter((t) => t.name !== 'axis');
      if (blocked || perAxis) attrs.push(intAttribute('axis', newAxis));
      nodes.push(node(d.name ? `${d.name}/${gather.name || 'Gather'}` : '', 'DequantizeLinear', d.domain, [rows, sIn, ...(zName ? [zIn] : [])], out, attrs));
      rewrites.push(nodes);
    }
    if (rewrites.length !== uses.length) continue;   // (one Gather it cannot rewrite: none is)
    replaced.set(d, []);
    uses.forEach((u, k) => replaced.set(u.node, rewrites[k]));
  }
  if (!replaced.size) return { graph: g, opsets: new Map(opsets) };
  return {
    graph: { ...g, node: g.node.flatMap((n) => replaced.get(n) ?? [n]) },
    opsets: new Map([...added, ...opsets]),
  };
}
