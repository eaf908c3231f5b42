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
//    - a table quantized along the gather axis (a scale per row, or per block of rows): the
//      indices flattened (Reshape to [-1]; not when the graph gives them rank 1), the rows and
//      their scales gathered by them (blocked: the scales' rows by each index's block, read from
//      an int32 table of i / block_size, which checks and normalizes the index as Gather does),
//      dequantized per axis (blocked: blocks of 1) along that axis, and the output reshaped to
//      the Gather's (Shape of the indices between the table's other dims: a shape subgraph,
//      computed once per indices' dims). At opset 13 (no allowzero to give back an empty dim),
//      per axis: the rows gathered by the indices as they are, then dequantized with Cast, Sub
//      and Mul, the scales and zero points unsqueezed to broadcast (the same bits).
//    Only where the table, its scales and zero points are initializers no feed may replace, and
//    every reader of the dequantized table is a Gather of its rows (input 0). The rewritten Gather
//    keeps the Gather's name, so its errors name the user's node.
// 3. com.microsoft GatherBlockQuantized -> Mul by a constant of one element (onnxruntime-genai's
//    embedding scale): onnx-wasm GatherBlockQuantized with that constant as its multiplier, which
//    computes each output as the Mul would (the same bits) without the gathered tensor in between.
//    Only where the Mul (opset 7 or later; 13 for bfloat16) is the GatherBlockQuantized's one reader, its output no
//    graph output, the constant an initializer no feed may replace, of the scales' type (the
//    scales an initializer too), and of rank 0, or [1] on data of rank 2 or more (the Mul's output
//    then has the gathered dims). The node keeps the GatherBlockQuantized's name.
// rewriteGraph runs the three in that order, each only on a graph that has its op: V8 compiles a
// function whole at its first call, and most models have none of these patterns.
// @ts-check
import { canonicalDomain } from '../node.mjs';

/** @typedef {import('./onnx-proto.mjs').GraphProto} GraphProto */
/** @typedef {import('./onnx-proto.mjs').NodeProto} NodeProto */
/** @typedef {import('./onnx-proto.mjs').TensorProto} TensorProto */
/** @typedef {import('./onnx-proto.mjs').AttributeProto} AttributeProto */

// TensorProto.DataType ids.
const FLOAT = 1, UINT8 = 2, INT8 = 3, UINT16 = 4, INT16 = 5, INT32 = 6, INT64 = 7, FLOAT16 = 10, BFLOAT16 = 16, UINT4 = 21, INT4 = 22;
const GBQ_SCALES = new Set([FLOAT, FLOAT16, BFLOAT16]);
// ONNX's Gather takes the types of ids 1 to 16 (bfloat16 from 13, where DequantizeLinear's
// bfloat16 scales are); onnx-wasm's every other (float8, 4 and 2-bit, float4, float8e8m0).
/** @param {number} dataType */
const gatherDomain = (dataType) => (dataType <= BFLOAT16 ? '' : 'onnx-wasm');

/**
 * @param {string} name
 * @param {number} dataType INT32 or INT64
 * @param {number[]} values
 * @returns {TensorProto}
 */
const intTensor = (name, dataType, values) => ({
  name, dataType, dims: [BigInt(values.length)], floatData: [], int32Data: dataType === INT32 ? values : [], stringData: [],
  int64Data: dataType === INT64 ? values.map(BigInt) : [], rawData: new Uint8Array(0), externalData: [], dataLocation: 0, doubleData: [], uint64Data: [],
});

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

// Whether every value of a tensor stored in the model is 0 (false for one in external data: its
// bytes are not read here).
/** @param {TensorProto} t */
const allZero = (t) => t.dataLocation !== 1 && (t.rawData.length ? t.rawData.every((b) => b === 0) : t.int32Data.every((v) => v === 0));

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

// What the rewrites read of a graph: its constants (initializers no feed may replace), its
// outputs' names, and each value's readers (a node and input index for each time it is read).
/**
 * @param {GraphProto} g
 * @returns {{ constant: Map<string, TensorProto>, outputs: Set<string>, readers: Map<string, { node: NodeProto, input: number }[]> }}
 */
function graphIndex(g) {
  const constant = new Map(g.initializer.map((t) => [t.name, t]));
  for (const i of g.input) constant.delete(i.name);   // (a feed may replace it)
  const outputs = new Set(g.output.map((o) => o.name));
  /** @type {Map<string, { node: NodeProto, input: number }[]>} */
  const readers = new Map();
  for (const n of g.node) {
    n.input.forEach((x, k) => {
      if (!x) return;
      const list = readers.get(x);
      if (list) list.push({ node: n, input: k });
      else readers.set(x, [{ node: n, input: k }]);
    });
  }
  return { constant, outputs, readers };
}

// The graph after 1, 2 and 3 above (the same graph when none applies), and the opsets its new
// nodes need beyond the model's. A pass is called only when the graph has its op (this scan is
// the one check of that: each pass, called on a graph without its op, finds nothing to rewrite).
/**
 * @param {GraphProto} g
 * @param {ReadonlyMap<string, number>} opsets the model's: domain -> version
 * @returns {{ graph: GraphProto, opsets: Map<string, number> }}
 */
export function rewriteGraph(g, opsets) {
  let reshape = false, dequantize = false, gbq = false;
  for (const n of g.node) {
    if (n.opType === 'Reshape') reshape = true;
    else if (n.opType === 'DequantizeLinear') dequantize = true;
    else if (n.opType === 'GatherBlockQuantized') gbq = true;
  }
  let out = { graph: reshape && g.initializer.length ? foldReshapedInitializers(g) : g, opsets: new Map(opsets) };
  if (dequantize) out = fuseDequantizeGather(out.graph, out.opsets);
  // (fuseDequantizeGather may have made GatherBlockQuantized nodes)
  if (gbq || dequantize) out = fuseGatherBlockQuantizedMul(out.graph, out.opsets);
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
  const { constant, outputs, readers } = graphIndex(g);
  /** @type {Map<string, TensorProto>} */
  const folded = new Map();   // initializer name -> the initializer it becomes
  /** @type {Set<NodeProto>} */
  const gone = new Set();
  for (const n of g.node) {
    if (canonicalDomain(n.domain) !== '' || n.opType !== 'Reshape' || n.output.length !== 1 || outputs.has(n.input[0])) continue;
    const x = constant.get(n.input[0]);
    if (!x || readers.get(x.name)?.length !== 1 || folded.has(x.name) || outputs.has(x.name)) continue;
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
  const { constant, outputs, readers } = graphIndex(g);
  /** @type {Map<string, number>} */
  const rankOf = new Map();   // the rank of each value the graph declares with a shape
  for (const v of [...g.input, ...g.valueInfo]) {
    const t = v.type?.value;
    if (t?.case === 'tensorType' && t.value.shape) rankOf.set(v.name, t.value.shape.dim.length);
  }
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
  /** @type {TensorProto[]} */
  const initializers = [];   // constants the new nodes read
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
    /** @type {TensorProto[]} */
    const tensors = [];
    for (const { node: gather } of uses) {
      const ga = intOf(gather, 'axis', 0), a = ga < 0 ? ga + rank : ga;
      if (a < 0 || a >= rank) break;
      const ids = gather.input[1], out = gather.output[0];
      if ((blocked || perAxis) && qa === a) {
        // (indices of rank 1 as they are; others flattened, which needs Reshape's allowzero
        // (14) to give back an empty dim; before it, per axis, dequantized by its operations)
        const idsRank = rankOf.get(ids);
        if (idsRank !== 1 && (opsets.get('') ?? 0) < 14) {
          // (an int32 table's difference from its zero point wraps in int32 where floats would
          // round: zero points of 0 are left out, others leave the form as it is)
          if (!perAxis || (zName && x.dataType === INT32 && !allZero(/** @type {TensorProto} */ (z)))) break;
          const ops = alongGatherAxisByOps({ d, gather, a, rank, xName, sName, zName: x.dataType === INT32 ? '' : zName, fresh });
          rewrites.push(ops.nodes);
          tensors.push(...ops.tensors);
          continue;
        }
        const along = alongGatherAxis({ d, gather, a, rank, blocked, blockSize, xName, sName, zName, x, s, fresh, flatten: idsRank !== 1 });
        rewrites.push(along.nodes);
        tensors.push(...along.tensors);
        if (gatherDomain(x.dataType) || gatherDomain(s.dataType)) added.set('onnx-wasm', 1);
        continue;
      }
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
      const domain = gatherDomain(x.dataType), sDomain = gatherDomain(s.dataType);
      if (domain || (blocked && sDomain)) added.set('onnx-wasm', 1);
      const gatherAxis = [intAttribute('axis', BigInt(a))];
      const rows = fresh(`${table}/rows`);
      /** @type {NodeProto[]} */
      const nodes = [node(gather.name, 'Gather', domain, [xName, ids], rows, gatherAxis)];
      let sIn = sName, zIn = zName;
      if (blocked) {
        sIn = fresh(`${sName}/rows`);
        nodes.push(node(`${gather.name}/scales`, 'Gather', sDomain, [sName, ids], sIn, gatherAxis));
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
    initializers.push(...tensors);
  }
  if (!replaced.size) return { graph: g, opsets: new Map(opsets) };
  return {
    graph: { ...g, node: g.node.flatMap((n) => replaced.get(n) ?? [n]), initializer: [...g.initializer, ...initializers] },
    opsets: new Map([...added, ...opsets]),
  };
}

// Gather(DequantizeLinear(x, s, z), ids) per axis along the gather axis `a`, at opset 13 (the
// versions of DequantizeLinear 13 to 18, and a Reshape without allowzero): the rows gathered by
// the indices as they are, then DequantizeLinear-13's operations, float(x) - float(z) (exact for
// 8-bit codes, as its int32 difference is; an int32 table comes here without zero points or with
// zero points of 0, left out) times the scale, the gathered scales and zero
// points unsqueezed to broadcast over the dims after `a`: the same bits as DequantizeLinear, with
// Cast, Sub, Mul and Unsqueeze.
/**
 * @param {{ d: NodeProto, gather: NodeProto, a: number, rank: number, xName: string, sName: string, zName: string,
 *   fresh: (base: string) => string }} p
 * @returns {{ nodes: NodeProto[], tensors: TensorProto[] }}
 */
function alongGatherAxisByOps({ d, gather, a, rank, xName, sName, zName, fresh }) {
  const ids = gather.input[1], out = gather.output[0], base = gather.name || out;
  /** @type {TensorProto[]} */
  const tensors = [];
  const after = rank - 1 - a;
  const axes = after > 0 ? fresh(`${base}/axes_after`) : '';
  if (axes) tensors.push(intTensor(axes, INT64, Array.from({ length: after }, (_, k) => -1 - k)));
  const rows = fresh(`${base}/rows`), value = fresh(`${base}/rows_as_float`), sRows = fresh(`${base}/scale_rows`);
  /** @type {NodeProto[]} */
  const nodes = [
    node(gather.name, 'Gather', '', [xName, ids], rows, [intAttribute('axis', BigInt(a))]),
    node(`${base}/scales`, 'Gather', '', [sName, ids], sRows, []),
    node(`${base}/rows_as_float`, 'Cast', '', [rows], value, [intAttribute('to', BigInt(FLOAT))]),
  ];
  // (a gathered scale or zero point [..ids] as [..ids, 1, .., 1], one 1 a dim after a)
  /** @param {string} v @param {string} what */
  const spread = (v, what) => {
    if (!axes) return v;
    const o = fresh(`${base}/${what}_spread`);
    nodes.push(node(`${base}/${what}_spread`, 'Unsqueeze', '', [v, axes], o, []));
    return o;
  };
  let diff = value;
  if (zName) {
    const zRows = fresh(`${base}/zero_point_rows`), zFloat = fresh(`${base}/zero_points_as_float`);
    diff = fresh(`${base}/differences`);
    nodes.push(node(`${base}/zero_points`, 'Gather', '', [zName, ids], zRows, []));
    nodes.push(node(`${base}/zero_points_as_float`, 'Cast', '', [zRows], zFloat, [intAttribute('to', BigInt(FLOAT))]));
    nodes.push(node(`${base}/differences`, 'Sub', '', [value, spread(zFloat, 'zero_points')], diff, []));
  }
  nodes.push(node(d.name ? `${d.name}/${base}` : '', 'Mul', '', [diff, spread(sRows, 'scales')], out, []));
  return { nodes, tensors };
}

// Gather(DequantizeLinear(x, s, z), ids) where the quantization axis is the gather axis `a`: the
// nodes that compute it from the gathered rows, and the constants they read (see the header).
/**
 * @param {{ d: NodeProto, gather: NodeProto, a: number, rank: number, blocked: boolean, blockSize: number,
 *   xName: string, sName: string, zName: string, x: TensorProto, s: TensorProto,
 *   fresh: (base: string) => string, flatten: boolean }} p
 * @returns {{ nodes: NodeProto[], tensors: TensorProto[] }}
 */
function alongGatherAxis({ d, gather, a, rank, blocked, blockSize, xName, sName, zName, x, s, fresh, flatten }) {
  const ids = gather.input[1], out = gather.output[0], base = gather.name || out;
  const axis = [intAttribute('axis', BigInt(a))];
  /** @type {TensorProto[]} */
  const tensors = [];
  /** @param {TensorProto} t */
  const add = (t) => { tensors.push(t); return t.name; };
  const flat = flatten ? fresh(`${base}/flat_indices`) : ids;
  const rows = fresh(`${base}/rows`), sRows = fresh(`${base}/scale_rows`), zRows = zName ? fresh(`${base}/zero_point_rows`) : '';
  const deq = flatten ? fresh(`${base}/dequantized`) : out;
  const dims = x.dims.map(Number), n = dims[a];
  /** @type {NodeProto[]} */
  const nodes = [];
  if (flatten) nodes.push(node(`${base}/flatten_indices`, 'Reshape', '', [ids, add(intTensor(fresh(`${base}/minus_one`), INT64, [-1]))], flat, []));
  nodes.push(node(gather.name, 'Gather', gatherDomain(x.dataType), [xName, flat], rows, axis));
  let scaleIds = flat;
  if (blocked) {
    scaleIds = fresh(`${base}/blocks`);
    const blockOf = add(intTensor(fresh(`${base}/block_of_row`), INT32, Array.from({ length: n }, (_, i) => Math.floor(i / blockSize))));
    nodes.push(node(`${base}/blocks`, 'Gather', '', [blockOf, flat], scaleIds, []));
  }
  // (per axis: 1-D scales, gathered along their only axis; blocked: x's rank, along a)
  const scaleAxis = blocked ? axis : [];
  nodes.push(node(`${base}/scales`, 'Gather', gatherDomain(s.dataType), [sName, scaleIds], sRows, scaleAxis));
  if (zName) nodes.push(node(`${base}/zero_points`, 'Gather', gatherDomain(x.dataType), [zName, scaleIds], zRows, scaleAxis));
  const attrs = d.attribute.filter((t) => t.name !== 'axis' && t.name !== 'block_size');
  attrs.push(intAttribute('axis', BigInt(a)));
  if (blocked) attrs.push(intAttribute('block_size', 1n));
  nodes.push(node(d.name ? `${d.name}/${base}` : '', 'DequantizeLinear', d.domain, [rows, sRows, ...(zName ? [zRows] : [])], deq, attrs));
  if (!flatten) return { nodes, tensors };
  // The Gather's output dims: x's before a, the indices', x's after a.
  const shapeOfIds = fresh(`${base}/indices_shape`), outShape = fresh(`${base}/shape`);
  const parts = [];
  if (a > 0) parts.push(add(intTensor(fresh(`${base}/dims_before`), INT64, dims.slice(0, a))));
  parts.push(shapeOfIds);
  if (a < rank - 1) parts.push(add(intTensor(fresh(`${base}/dims_after`), INT64, dims.slice(a + 1))));
  nodes.push(node(`${base}/indices_shape`, 'Shape', '', [ids], shapeOfIds, []));
  nodes.push(node(`${base}/shape`, 'Concat', '', parts, outShape, [intAttribute('axis', 0n)]));
  nodes.push(node(`${base}/unflatten`, 'Reshape', '', [deq, outShape], out, [intAttribute('allowzero', 1n)]));
  return { nodes, tensors };
}

// 3 above: GatherBlockQuantized -> Mul(constant) as onnx-wasm GatherBlockQuantized.
/**
 * @param {GraphProto} g
 * @param {ReadonlyMap<string, number>} opsets the model's (after fuseDequantizeGather): domain -> version
 * @returns {{ graph: GraphProto, opsets: Map<string, number> }}
 */
export function fuseGatherBlockQuantizedMul(g, opsets) {
  const isGbq = (/** @type {NodeProto} */ n) => n.opType === 'GatherBlockQuantized' && canonicalDomain(n.domain) === 'com.microsoft';
  if ((opsets.get('') ?? 0) < 7) return { graph: g, opsets: new Map(opsets) };
  const { constant, outputs, readers } = graphIndex(g);
  /** @type {Map<NodeProto, NodeProto | null>} */
  const replaced = new Map();   // node -> its replacement (null: fused away)
  for (const q of g.node) {
    if (!isGbq(q) || q.output.length !== 1 || q.input.length > 4 || outputs.has(q.output[0])) continue;
    const uses = readers.get(q.output[0]) ?? [];
    const m = uses[0]?.node;
    if (uses.length !== 1 || m.opType !== 'Mul' || canonicalDomain(m.domain) !== '' || m.input.length !== 2 || m.output.length !== 1) continue;
    const k = m.input.indexOf(q.output[0]);
    const c = constant.get(m.input[1 - k]), scales = constant.get(q.input[2]), data = constant.get(q.input[0]);
    if (m.input[1 - k] === q.output[0] || !c || !scales || c.dataType !== scales.dataType || !GBQ_SCALES.has(c.dataType)) continue;
    if (c.dataType === BFLOAT16 && /** @type {number} */ (opsets.get('')) < 13) continue;   // (Mul takes bfloat16 from 13: left to refuse it)
    if (!(c.dims.length === 0 || (c.dims.length === 1 && c.dims[0] === 1n && (data?.dims.length ?? 0) >= 2))) continue;
    const [dataName, ids, sName, zName = ''] = q.input;
    replaced.set(q, null);
    replaced.set(m, node(q.name, 'GatherBlockQuantized', 'onnx-wasm', [dataName, ids, sName, zName, c.name], m.output[0], q.attribute));
  }
  if (!replaced.size) return { graph: g, opsets: new Map(opsets) };
  return {
    graph: { ...g, node: g.node.flatMap((n) => (replaced.has(n) ? (replaced.get(n) ? [/** @type {NodeProto} */ (replaced.get(n))] : []) : [n])) },
    opsets: new Map([['onnx-wasm', 1], ...opsets]),
  };
}
