// The graph rewrites of js/model/fuse.mjs on their own, as tables of graphs: which Reshapes of an
// initializer fold into it (and the dims they give), and which are left to run; which
// GatherBlockQuantized -> Mul pairs become one onnx-wasm GatherBlockQuantized. (The rewrites in
// sessions, against onnxruntime-node: tests/js/dequantize-gather.test.mjs and
// gather-block-quantized.test.mjs.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { foldReshapedInitializers, fuseGatherBlockQuantizedMul } from '../../js/model/fuse.mjs';

const tensor = (name, dims, extra = {}) => ({
  name, dims: dims.map(BigInt), dataType: 1, floatData: [], int32Data: [], stringData: [], int64Data: [], rawData: new Uint8Array(0),
  externalData: [], dataLocation: 0, doubleData: [], uint64Data: [], ...extra,
});
const shapeTensor = (name, values) => tensor(name, [values.length], { dataType: 7, int64Data: values.map(BigInt) });
const rawShapeTensor = (name, values) => tensor(name, [values.length], { dataType: 7, rawData: new Uint8Array(BigInt64Array.from(values, BigInt).buffer) });
const attr = (name, value) => ({ name, refAttrName: '', docString: '', type: Array.isArray(value) ? 7 : 2, f: 0, i: Array.isArray(value) ? 0n : BigInt(value), s: new Uint8Array(0), t: undefined, floats: [], ints: Array.isArray(value) ? value.map(BigInt) : [], strings: [], tensors: [] });
const node = (opType, input, output, attribute = []) => ({ name: `${opType}_${output}`, opType, domain: '', input, output: [output], attribute, docString: '' });
const graph = (nodes, initializer, { inputs = [], outputs = ['y'] } = {}) => ({
  name: 'g', node: nodes, initializer, docString: '', valueInfo: [],
  input: inputs.map((name) => ({ name, type: undefined, docString: '' })), output: outputs.map((name) => ({ name, type: undefined, docString: '' })),
});
const gather = node('Gather', ['t', 'ids'], 'y');

const CASES = [
  { name: 'a constant shape with -1', g: graph([node('Reshape', ['w', 's'], 't'), gather], [tensor('w', [6, 2, 8]), shapeTensor('s', [6, -1])]), dims: [6, 16] },
  { name: 'a shape in raw bytes', g: graph([node('Reshape', ['w', 's'], 't'), gather], [tensor('w', [4, 6]), rawShapeTensor('s', [2, 12])]), dims: [2, 12] },
  { name: '0 copies the dim', g: graph([node('Reshape', ['w', 's'], 't'), gather], [tensor('w', [5, 2, 3]), shapeTensor('s', [0, 6])]), dims: [5, 6] },
  { name: '0 with allowzero is a zero dim: the counts differ, left to run', g: graph([node('Reshape', ['w', 's'], 't', [attr('allowzero', 1)]), gather], [tensor('w', [5, 6]), shapeTensor('s', [0, 30])]), dims: null },
  { name: "Reshape-1's shape attribute", g: graph([node('Reshape', ['w'], 't', [attr('shape', [3, -1])]), gather], [tensor('w', [6, 2])]), dims: [3, 4] },
  { name: 'counts that differ: left to Reshape, which says why', g: graph([node('Reshape', ['w', 's'], 't'), gather], [tensor('w', [6, 2]), shapeTensor('s', [5, -1])]), dims: null },
  { name: 'two -1: left to run', g: graph([node('Reshape', ['w', 's'], 't'), gather], [tensor('w', [6, 2]), shapeTensor('s', [-1, -1])]), dims: null },
  { name: 'an initializer another node reads too: left', g: graph([node('Reshape', ['w', 's'], 't'), gather, node('Identity', ['w'], 'z')], [tensor('w', [6, 2]), shapeTensor('s', [12])], { outputs: ['y', 'z'] }), dims: null },
  { name: 'an initializer a feed may replace (a graph input): left', g: graph([node('Reshape', ['w', 's'], 't'), gather], [tensor('w', [6, 2]), shapeTensor('s', [12])], { inputs: ['w', 'ids'] }), dims: null },
  { name: 'a shape a feed may replace: left', g: graph([node('Reshape', ['w', 's'], 't'), gather], [tensor('w', [6, 2]), shapeTensor('s', [12])], { inputs: ['s', 'ids'] }), dims: null },
  { name: 'a shape computed by a node: left', g: graph([node('Shape', ['v'], 's'), node('Reshape', ['w', 's'], 't'), gather], [tensor('w', [6, 2])], { inputs: ['v', 'ids'] }), dims: null },
];

for (const c of CASES) {
  test(`a Reshape of an initializer, ${c.name}`, () => {
    const out = foldReshapedInitializers(c.g);
    const t = out.initializer.find((x) => x.name === 't');
    if (c.dims === null) {
      assert.equal(out, c.g, 'the graph as it was');
      return;
    }
    assert.deepEqual(out.node.map((n) => n.opType), ['Gather']);
    assert.deepEqual(t?.dims.map(Number), c.dims);
    assert.equal(out.initializer.find((x) => x.name === 'w'), undefined, "the weight's name is gone");
    assert.deepEqual(c.g.node.map((n) => n.opType).includes('Reshape'), true, 'the graph given is not changed');
  });
}

// GatherBlockQuantized(data, ids, scales) -> Mul(·, c): data uint8 [8, 16], float16 scales [8, 1].
const gbq = (output = 'q', extra = {}) => ({ ...node('GatherBlockQuantized', ['data', 'ids', 'scales'], output, [attr('block_size', 32)]), domain: 'com.microsoft', name: 'embed', ...extra });
const half = (name, dims) => tensor(name, dims, { dataType: 10, rawData: new Uint8Array(2) });
const gbqTables = [tensor('data', [8, 16], { dataType: 2 }), half('scales', [8, 1])];
const mulGraph = ({ c = half('c', []), order = ['q', 'c'], more = [], inputs = ['ids'], outputs = ['y'], gbqNode = gbq() } = {}) =>
  graph([gbqNode, node('Mul', order, 'y'), ...more], [...gbqTables, c], { inputs, outputs });
const MUL_CASES = [
  { name: 'a float16 scalar', g: mulGraph(), fused: true },
  { name: 'the constant first: Mul(c, q)', g: mulGraph({ order: ['c', 'q'] }), fused: true },
  { name: 'a constant of dims [1] (data of rank 2)', g: mulGraph({ c: half('c', [1]) }), fused: true },
  { name: 'with zero points', g: mulGraph({ gbqNode: gbq('q', { input: ['data', 'ids', 'scales', 'zp'] }) }), fused: true, zp: 'zp' },
  { name: 'a constant of two elements: left', g: mulGraph({ c: half('c', [2]) }), fused: false },
  { name: 'a constant of dims [1, 1] (it would add a dim): left', g: mulGraph({ c: half('c', [1, 1]) }), fused: false },
  { name: 'a float32 constant with float16 scales: left to Mul, which refuses it', g: mulGraph({ c: tensor('c', []) }), fused: false },
  { name: 'a constant a feed may replace: left', g: mulGraph({ inputs: ['ids', 'c'] }), fused: false },
  { name: 'the gathered rows read by another node too: left', g: mulGraph({ more: [node('Identity', ['q'], 'z')], outputs: ['y', 'z'] }), fused: false },
  { name: 'the gathered rows a graph output too: left', g: mulGraph({ outputs: ['y', 'q'] }), fused: false },
  { name: 'a Mul of the rows by themselves: left', g: mulGraph({ order: ['q', 'q'] }), fused: false },
  { name: 'a GatherBlockQuantized of the default domain (not the contrib op): left', g: mulGraph({ gbqNode: gbq('q', { domain: '' }) }), fused: false },
];

for (const c of MUL_CASES) {
  test(`GatherBlockQuantized -> Mul, ${c.name}`, () => {
    const out = fuseGatherBlockQuantizedMul(c.g, new Map([['', 21], ['com.microsoft', 1]]));
    if (!c.fused) {
      assert.equal(out.graph, c.g, 'the graph as it was');
      assert.equal(out.opsets.has('onnx-wasm'), false);
      return;
    }
    assert.equal(out.graph.node.length, 1);
    const [n] = out.graph.node;
    assert.deepEqual({ opType: n.opType, domain: n.domain, name: n.name, input: n.input, output: n.output, attribute: n.attribute },
      { opType: 'GatherBlockQuantized', domain: 'onnx-wasm', name: 'embed', input: ['data', 'ids', 'scales', c.zp ?? '', 'c'], output: ['y'], attribute: c.g.node[0].attribute });
    assert.equal(out.opsets.get('onnx-wasm'), 1);
    assert.equal(c.g.node.length, 2, 'the graph given is not changed');
  });
}

test('GatherBlockQuantized -> Mul at opset 6 (Mul with a broadcast attribute): left', () => {
  const g = mulGraph();
  assert.equal(fuseGatherBlockQuantizedMul(g, new Map([['', 6], ['com.microsoft', 1]])).graph, g);
});

test('GatherBlockQuantized -> Mul of bfloat16: fused from opset 13, left before (where Mul refuses bfloat16)', () => {
  const bf16 = (name, dims) => tensor(name, dims, { dataType: 16, rawData: new Uint8Array(2) });
  const g = graph([gbq(), node('Mul', ['q', 'c'], 'y')], [tensor('data', [8, 16], { dataType: 2 }), bf16('scales', [8, 1]), bf16('c', [])], { inputs: ['ids'] });
  assert.equal(fuseGatherBlockQuantizedMul(g, new Map([['', 12], ['com.microsoft', 1]])).graph, g);
  assert.deepEqual(fuseGatherBlockQuantizedMul(g, new Map([['', 13], ['com.microsoft', 1]])).graph.node.map((n) => `${n.domain}:${n.opType}`), ['onnx-wasm:GatherBlockQuantized']);
});
