// The benchmark cases as ONNX models, built with onnx-buf, plus their inputs. The same model
// bytes and the same input values go to onnx-wasm, onnxruntime-web and onnxruntime-node.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { create, toBinary } from '@bufbuild/protobuf';
import {
  ModelProtoSchema, GraphProtoSchema, NodeProtoSchema, AttributeProtoSchema, ValueInfoProtoSchema,
  TypeProtoSchema, TensorProtoSchema, OperatorSetIdProtoSchema,
} from 'onnx-buf';

const ONNX = { float32: 1, uint8: 2, int64: 7 };
const ARRAYS = { float32: Float32Array, uint8: Uint8Array, int64: BigInt64Array };

function valueInfo(name, type, dims) {
  return create(ValueInfoProtoSchema, {
    name,
    type: create(TypeProtoSchema, {
      value: { case: 'tensorType', value: { elemType: ONNX[type], shape: { dim: dims.map((d) => ({ value: { case: 'dimValue', value: BigInt(d) } })) } } },
    }),
  });
}

function initializer(name, type, dims, data) {
  return create(TensorProtoSchema, {
    name, dataType: ONNX[type], dims: dims.map(BigInt),
    rawData: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
  });
}

// One-node model: inputs [{ name, type, dims, init? }], attributes { name: int }.
function model(opType, opset, inputs, output, attributes = {}) {
  const graph = create(GraphProtoSchema, {
    name: `bench_${opType}`,
    node: [create(NodeProtoSchema, {
      opType, input: inputs.map((i) => i.name), output: [output.name],
      attribute: Object.entries(attributes).map(([name, i]) => create(AttributeProtoSchema, { name, type: 2, i: BigInt(i) })),
    })],
    input: inputs.filter((i) => !i.init).map((i) => valueInfo(i.name, i.type, i.dims)),
    initializer: inputs.filter((i) => i.init).map((i) => initializer(i.name, i.type, i.dims, i.data)),
    output: [valueInfo(output.name, output.type, output.dims)],
  });
  return toBinary(ModelProtoSchema, create(ModelProtoSchema, {
    irVersion: 8n, producerName: 'onnx-wasm bench', opsetImport: [create(OperatorSetIdProtoSchema, { domain: '', version: BigInt(opset) })], graph,
  }));
}

// Deterministic pseudo-random fill (xorshift32), so every run uses the same values.
function fill(type, n, seed = 1) {
  const a = new ARRAYS[type](n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; ++i) {
    x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    a[i] = type === 'float32' ? (x / 4294967296) * 2 - 1 : type === 'uint8' ? x & 255 : BigInt(x);
  }
  return a;
}

function indices(n, max, seed) {
  const a = new BigInt64Array(n);
  let x = seed;
  for (let i = 0; i < n; ++i) { x = (x * 1103515245 + 12345) % 2147483648; a[i] = BigInt(x % max); }
  return a;
}

const prod = (d) => d.reduce((a, b) => a * b, 1);

function gatherCase({ id, label, type, dims, axis, n, dataAsInitializer = false, ortWebUs, target }) {
  const data = fill(type, prod(dims), 7);
  const idx = indices(n, dims[axis], 11);
  const outDims = [...dims.slice(0, axis), n, ...dims.slice(axis + 1)];
  const inputs = [{ name: 'data', type, dims, init: dataAsInitializer, data }, { name: 'indices', type: 'int64', dims: [n] }];
  return {
    id, label, target, ortWebUs,
    bytes: model('Gather', 13, inputs, { name: 'out', type, dims: outDims }, { axis }),
    feeds: dataAsInitializer ? { indices: { type: 'int64', data: idx, dims: [n] } }
      : { data: { type, data, dims }, indices: { type: 'int64', data: idx, dims: [n] } },
    movedBytes: prod(outDims) * ARRAYS[type].BYTES_PER_ELEMENT,
  };
}

// Each case: the ORT-web 1-thread time on this kind of machine and the speed-up target.
export function benchCases({ small = false } = {}) {
  const s = (full, reduced) => (small ? reduced : full);
  const cases = [
    gatherCase({ id: 'embedding-init', label: 'Gather axis 0, f32 [50000,768] initializer, 512 idx', type: 'float32', dims: [s(50000, 500), 768], axis: 0, n: 512, dataAsInitializer: true, ortWebUs: 494, target: 3.5 }),
    gatherCase({ id: 'embedding-input', label: 'Gather axis 0, f32 [50000,768] as input, 512 idx', type: 'float32', dims: [s(50000, 500), 768], axis: 0, n: 512, ortWebUs: 27459, target: 50 }),
    gatherCase({ id: 'axis1-1024', label: 'Gather axis 1, f32 [1024,1024], 512 idx', type: 'float32', dims: [1024, 1024], axis: 1, n: 512, ortWebUs: 4312, target: 6 }),
    gatherCase({ id: 'axis1-3d', label: 'Gather axis 1, f32 [64,1000,64], 200 idx', type: 'float32', dims: [64, 1000, 64], axis: 1, n: 200, ortWebUs: 2857, target: 6 }),
    gatherCase({ id: 'int64-rows', label: 'Gather axis 0, i64 [100000,16], 4096 idx', type: 'int64', dims: [s(100000, 5000), 16], axis: 0, n: 4096, ortWebUs: 1299, target: 10 }),
    gatherCase({ id: 'uint8-axis1', label: 'Gather axis 1, u8 [4096,4096], 1000 idx', type: 'uint8', dims: [4096, 4096], axis: 1, n: 1000, ortWebUs: 32502, target: 8 }),
    gatherCase({ id: 'tiny', label: 'Gather axis 0, f32 [10,10], 3 idx', type: 'float32', dims: [10, 10], axis: 0, n: 3, ortWebUs: 18.8, target: 8 }),
  ];
  const rdims = s([64, 1024, 1024], [4, 1024, 1024]);
  const rdata = fill('float32', prod(rdims), 3);
  const shape = BigInt64Array.from([BigInt(prod(rdims) / 1024), 1024n]);
  cases.push({
    id: 'reshape', label: `Reshape f32 [${rdims}] to [${prod(rdims) / 1024},1024]`, ortWebUs: 185929, targetUs: 20,
    bytes: model('Reshape', 14, [{ name: 'data', type: 'float32', dims: rdims }, { name: 'shape', type: 'int64', dims: [2], init: true, data: shape }],
      { name: 'out', type: 'float32', dims: [prod(rdims) / 1024, 1024] }),
    feeds: { data: { type: 'float32', data: rdata, dims: rdims } }, movedBytes: 0,
  });
  const fdims = s([8, 64, 256, 256], [2, 8, 256, 256]);
  cases.push({
    id: 'flatten', label: `Flatten axis 2 on f32 [${fdims}]`, ortWebUs: 103648, targetUs: 20,
    bytes: model('Flatten', 13, [{ name: 'data', type: 'float32', dims: fdims }], { name: 'out', type: 'float32', dims: [fdims[0] * fdims[1], fdims[2] * fdims[3]] }, { axis: 2 }),
    feeds: { data: { type: 'float32', data: fill('float32', prod(fdims), 5), dims: fdims } }, movedBytes: 0,
  });
  return cases;
}

// A case as files in `dir` (made if missing), for a reader that must not build the cases itself
// (a browser page: bench/browser-cases.mjs; a fresh child process: bench/cold-runs.mjs):
// model.onnx, one <feed>.bin of raw little-endian data per feed, and meta.json listing the feeds.
export function writeCaseFiles(dir, c) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'model.onnx'), c.bytes);
  for (const [name, f] of Object.entries(c.feeds)) writeFileSync(join(dir, `${name}.bin`), new Uint8Array(f.data.buffer, f.data.byteOffset, f.data.byteLength));
  writeFileSync(join(dir, 'meta.json'), JSON.stringify({ feeds: Object.entries(c.feeds).map(([name, f]) => ({ name, type: f.type, dims: f.dims })) }));
}
