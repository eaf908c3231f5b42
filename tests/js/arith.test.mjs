// Add, Sub, Mul and Div in InferenceSession and runNode, against onnxruntime-node's CPU kernels
// (the reference): every type onnxruntime-node runs at opset 14 (all but bfloat16) over broadcast
// shapes, every output compared byte for byte; the integer Div refusal; the values inference
// gives a shape subgraph (torch's x.view(x.size(0), x.size(1) * x.size(2))). (The oracle of every
// element, every version and bfloat16 included, is tests/cpp/arith_test.cpp.)
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { create, toBinary } from '@bufbuild/protobuf';
import { GraphProtoSchema, ModelProtoSchema, NodeProtoSchema, OperatorSetIdProtoSchema, TensorProtoSchema } from 'onnx-buf';
import { init, InferenceSession, Tensor, runNode, inferShapes, InvalidArgumentError } from '../../js/index.mjs';
import { attribute, valueInfo } from '../support/gen-models.mjs';
import { dataType } from '../support/external-models.mjs';

const require = createRequire(import.meta.url);
const ort = require('onnxruntime-node');
await init();

const ARRAYS = {
  float32: Float32Array, float64: Float64Array, float16: Uint16Array, int8: Int8Array, uint8: Uint8Array, int16: Int16Array,
  uint16: Uint16Array, int32: Int32Array, uint32: Uint32Array, int64: BigInt64Array, uint64: BigUint64Array,
};
const count = (dims) => dims.reduce((a, b) => a * b, 1);

// Values of `type`: integers over their whole range (Div's divisors never 0 nor -1), floats finite
// and of both signs (halves: exponents 1..30, so no NaN payloads to compare).
function values(type, n, seed, divisor) {
  let x = (seed * 2654435761) >>> 0;
  const next = () => { x ^= x << 13; x ^= x >>> 17; x ^= x << 5; return x >>> 0; };
  const A = ARRAYS[type];
  const out = new A(n);
  for (let i = 0; i < n; ++i) {
    const r = next();
    if (type === 'float32' || type === 'float64') out[i] = ((r % 20001) - 10000) / 64;
    else if (type === 'float16') out[i] = (r & 0x8000) | ((1 + (r % 30)) << 10) | ((r >>> 5) & 0x3ff);
    else if (A === BigInt64Array || A === BigUint64Array) out[i] = BigInt.asIntN(64, (BigInt(r) << 32n) | BigInt(next()));
    else out[i] = r;
    if (divisor && !type.startsWith('float')) {
      const v = typeof out[i] === 'bigint' ? Number(BigInt.asIntN(64, out[i])) : out[i];
      const bad = v === 0 || (type.startsWith('int') && v === -1);
      if (bad) out[i] = typeof out[i] === 'bigint' ? 3n : 3;
    }
  }
  return out;
}

function model(op, type, aDims, bDims, outDims) {
  return toBinary(ModelProtoSchema, create(ModelProtoSchema, {
    irVersion: 8n, opsetImport: [create(OperatorSetIdProtoSchema, { domain: '', version: 14n })],
    graph: create(GraphProtoSchema, {
      name: 'arith', node: [create(NodeProtoSchema, { opType: op, input: ['a', 'b'], output: ['c'] })],
      input: [valueInfo('a', type, aDims), valueInfo('b', type, bDims)], output: [valueInfo('c', type, outDims)],
    }),
  }));
}

const bytesOf = (data) => Buffer.from(data.buffer, data.byteOffset, data.byteLength);
const SHAPES = [[[2, 3, 4], [4], [2, 3, 4]], [[3, 1], [1, 37], [3, 37]], [[2, 19], [], [2, 19]], [[], [2, 19], [2, 19]], [[5, 40], [5, 40], [5, 40]]];

for (const op of ['Add', 'Sub', 'Mul', 'Div']) {
  test(`${op}-14: every type onnxruntime-node runs, over broadcast shapes, equal to its output byte for byte`, async () => {
    for (const type of Object.keys(ARRAYS)) {
      for (const [aDims, bDims, outDims] of SHAPES) {
        const a = values(type, count(aDims), 1, false), b = values(type, count(bDims), 2, op === 'Div');
        const bytes = model(op, type, aDims, bDims, outDims);
        const mine = await InferenceSession.create(bytes);
        const theirs = await ort.InferenceSession.create(bytes);
        const got = (await mine.run({ a: new Tensor(type, a, aDims), b: new Tensor(type, b, bDims) })).c;
        const want = (await theirs.run({ a: new ort.Tensor(type, a, aDims), b: new ort.Tensor(type, b, bDims) })).c;
        assert.deepEqual(got.dims, want.dims, `${type} [${aDims}] ${op} [${bDims}]`);
        assert.ok(bytesOf(got.data).equals(bytesOf(want.data)), `${type} [${aDims}] ${op} [${bDims}]: outputs differ`);
        got.dispose();
        await mine.release();
        await theirs.release();
      }
    }
  });
}

test('Div of integers by zero is an InvalidArgumentError naming the element; the module keeps working', () => {
  const a = new Tensor('int32', [1, 2, 3, 4, 5, 6], [2, 3]);
  assert.throws(() => runNode({ opType: 'Div' }, [a, new Tensor('int32', [1, 0, 1], [3])]),
    (e) => e instanceof InvalidArgumentError && e.message === "Div-14: input 1 ('B') element 1 is 0: integer division by zero (tensor(int32))");
  assert.throws(() => runNode({ opType: 'Div' }, [new Tensor('int64', [-(2n ** 63n)], [1]), new Tensor('int64', [-1n], [])]),
    (e) => e instanceof InvalidArgumentError && /the quotient, 9223372036854775808, does not fit tensor\(int64\)$/.test(e.message));
  const [q] = runNode({ opType: 'Div' }, [a, new Tensor('int32', [2], [])]);
  assert.deepEqual(Array.from(q.data), [0, 1, 1, 2, 2, 3]);
  const [f] = runNode({ opType: 'Div' }, [new Tensor('float32', [1, -1, 0], [3]), new Tensor('float32', [0], [])]);
  assert.deepEqual(Array.from(f.data), [Infinity, -Infinity, NaN]);
});

test("inference gives the values of Mul's product of known dims: x.view(x.size(0), x.size(1) * x.size(2))", async () => {
  const [p] = inferShapes({ opType: 'Mul' }, [{ type: 'int64', dims: [], value: [6] }, { type: 'int64', dims: [], value: [5] }]);
  assert.deepEqual(p, { type: 'int64', dims: [], value: [30] });
  // The exported graph, run through a session: Shape -> Gather x3 -> Mul -> Unsqueeze -> Concat -> Reshape.
  const i64 = (name, v) => create(TensorProtoSchema, { name, dataType: dataType('int64'), dims: [BigInt(v.length)], rawData: new Uint8Array(BigInt64Array.from(v, BigInt).buffer) });
  const scalar = (name, v) => create(TensorProtoSchema, { name, dataType: dataType('int64'), dims: [], rawData: new Uint8Array(BigInt64Array.from([BigInt(v)]).buffer) });
  const n = (opType, input, output, attrs = []) => create(NodeProtoSchema, { opType, input, output, attribute: attrs });
  const bytes = toBinary(ModelProtoSchema, create(ModelProtoSchema, {
    irVersion: 8n, opsetImport: [create(OperatorSetIdProtoSchema, { domain: '', version: 14n })],
    graph: create(GraphProtoSchema, {
      name: 'view',
      node: [n('Shape', ['x'], ['s']), n('Gather', ['s', 'i0'], ['d0'], [attribute('axis', 0)]), n('Gather', ['s', 'i1'], ['d1']),
        n('Gather', ['s', 'i2'], ['d2']), n('Mul', ['d1', 'd2'], ['p']), n('Unsqueeze', ['d0', 'axes'], ['u0']),
        n('Unsqueeze', ['p', 'axes'], ['u1']), n('Concat', ['u0', 'u1'], ['shape'], [attribute('axis', 0)]), n('Reshape', ['x', 'shape'], ['y'])],
      initializer: [scalar('i0', 0), scalar('i1', 1), scalar('i2', 2), i64('axes', [0])],
      input: [valueInfo('x', 'float32', [4, 6, 5])], output: [valueInfo('y', 'float32', null)],
    }),
  }));
  const session = await InferenceSession.create(bytes);
  const x = Float32Array.from({ length: 120 }, (_, i) => i);
  const { y } = await session.run({ x: new Tensor('float32', x, [4, 6, 5]) });
  assert.deepEqual(y.dims, [4, 30]);
  assert.deepEqual(Array.from(y.data), Array.from(x));
  await session.release();
});
