// Elementwise Add, Sub, Mul, Div of an embedding-sized tensor: Gemma scales its [batch, seq,
// hidden] embedding by a scalar, Mul(x, scalar), in float32 or float16. onnx-wasm (the built
// dist/, one thread, a PreparedNode) against onnxruntime-node (CPU EP, default threads), in one
// process: the median of each, and every output compared byte for byte (tensor op scalar,
// scalar op tensor, tensor op row). A benchmark: nothing asserts a time.
//   node bench/arith.mjs [--dims 1,512,2560]
import { create, toBinary } from '@bufbuild/protobuf';
import { GraphProtoSchema, ModelProtoSchema, NodeProtoSchema, OperatorSetIdProtoSchema, TypeProtoSchema, ValueInfoProtoSchema } from 'onnx-buf';
import ort from 'onnxruntime-node';
import { init, prepareNode, runtime, Tensor } from '../dist/index.mjs';
import { time } from './timing.mjs';

const at = process.argv.indexOf('--dims');
const DIMS = at > 0 ? process.argv[at + 1].split(',').map(Number) : [1, 512, 2560];
const COUNT = DIMS.reduce((a, b) => a * b, 1);
const ONNX = { float32: 1, float16: 10 };

const valueInfo = (name, type, dims) => create(ValueInfoProtoSchema, {
  name, type: create(TypeProtoSchema, { value: { case: 'tensorType', value: { elemType: ONNX[type], shape: { dim: dims.map((d) => ({ value: { case: 'dimValue', value: BigInt(d) } })) } } } }),
});
const model = (op, type, aDims, bDims) => toBinary(ModelProtoSchema, create(ModelProtoSchema, {
  irVersion: 8n, opsetImport: [create(OperatorSetIdProtoSchema, { domain: '', version: 14n })],
  graph: create(GraphProtoSchema, {
    name: 'arith', node: [create(NodeProtoSchema, { opType: op, input: ['a', 'b'], output: ['c'] })],
    input: [valueInfo('a', type, aDims), valueInfo('b', type, bDims)], output: [valueInfo('c', type, DIMS)],
  }),
}));

// Values of an embedding: float32 in about [-4, 4]; halves of the same.
function data(type, n, seed) {
  let x = seed;
  const f = new Float32Array(n);
  for (let i = 0; i < n; ++i) { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; f[i] = ((x >>> 0) / 2 ** 32 - 0.5) * 8; }
  if (type === 'float32') return f;
  const h = new Uint16Array(n);   // float to half by rounding through Math.fround is not exact: use the bits of a few exact halves
  for (let i = 0; i < n; ++i) h[i] = (f[i] < 0 ? 0x8000 : 0) | ((13 + (i % 4)) << 10) | ((i * 37) & 0x3ff);
  return h;
}

await init();
console.log(`onnx-wasm ${runtime().module} (one thread), onnxruntime-node ${ort.env.versions?.node ?? ''} (CPU EP, default threads); dims [${DIMS}]`);
const ortType = { float32: 'float32', float16: 'float16' };
for (const type of ['float32', 'float16']) {
  const big = data(type, COUNT, 0x2545f491);
  const scalar = type === 'float32' ? new Float32Array([Math.sqrt(2560)]) : new Uint16Array([0x5250]);   // ~50.6, as Gemma's sqrt(hidden)
  const row = data(type, DIMS[DIMS.length - 1], 0x9e3779b9);
  const cases = [
    { name: 'tensor op scalar', a: [big, DIMS], b: [scalar, []] },
    { name: 'scalar op tensor', a: [scalar, []], b: [big, DIMS] },
    { name: 'tensor op row', a: [big, DIMS], b: [row, [row.length]] },
  ];
  for (const op of ['Mul', 'Add', 'Sub', 'Div']) {
    for (const c of cases) {
      const a = new Tensor(type, c.a[0], c.a[1]), b = new Tensor(type, c.b[0], c.b[1]);
      const node = prepareNode({ opType: op }, { opset: 14 });
      const session = await ort.InferenceSession.create(model(op, type, c.a[1], c.b[1]));
      const feeds = { a: new ort.Tensor(ortType[type], c.a[0], c.a[1]), b: new ort.Tensor(ortType[type], c.b[0], c.b[1]) };
      const [mine] = node.run([a, b]);
      const theirs = (await session.run(feeds)).c;
      const same = Buffer.compare(Buffer.from(mine.data.buffer, mine.data.byteOffset, mine.data.byteLength),
        Buffer.from(theirs.data.buffer, theirs.data.byteOffset, theirs.data.byteLength)) === 0;
      mine.dispose();
      let line = `${op} ${type} ${c.name}: outputs ${same ? 'equal byte for byte' : 'DIFFER'}`;
      if (op === 'Mul' || c.name === 'tensor op scalar') {
        const w = await time(() => { node.run([a, b])[0].dispose(); }, { warmup: 5, budgetMs: 1500, max: 200 });
        const o = await time(() => session.run(feeds), { warmup: 5, budgetMs: 1500, max: 200 });
        line += `; onnx-wasm ${(w / 1000).toFixed(3)} ms, onnxruntime-node ${(o / 1000).toFixed(3)} ms (medians)`;
      }
      console.log(line);
      node.dispose();
      a.dispose();
      b.dispose();
      await session.release();
    }
  }
}
