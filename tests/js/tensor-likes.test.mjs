// Tensor-likes ({ type, data, dims }) given to runNode and to session.run, one of them a view of
// wasm memory (another tensor's data) listed after a like large enough that copying it grows
// memory. In the one-thread build growth detaches every view of the old memory, so the view must be
// found again where it was: before js/tensor-likes.mjs, session.run read it detached and the feed
// arrived empty. Each case checks that memory did grow, or it would prove nothing.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { create, toBinary } from '@bufbuild/protobuf';
import { GraphProtoSchema, ModelProtoSchema, NodeProtoSchema, OperatorSetIdProtoSchema } from 'onnx-buf';
import { init, InferenceSession, memoryStats, runNode, Tensor } from '../../js/index.mjs';
import { attribute, valueInfo } from '../support/gen-models.mjs';

await init({ threads: false });

// Gather(data, indices) with both as graph inputs.
const model = toBinary(ModelProtoSchema, create(ModelProtoSchema, {
  irVersion: 8n,
  opsetImport: [create(OperatorSetIdProtoSchema, { domain: '', version: 13n })],
  graph: create(GraphProtoSchema, {
    name: 'g',
    node: [create(NodeProtoSchema, { opType: 'Gather', input: ['data', 'indices'], output: ['out'], attribute: [attribute('axis', 0)] })],
    input: [valueInfo('data', 'float32', ['n', 4]), valueInfo('indices', 'int64', ['k'])],
    output: [valueInfo('out', 'float32', null)],
  }),
}));

const cases = [
  ['runNode inputs', (data, indices) => runNode({ opType: 'Gather', attributes: { axis: 0 } }, [data, indices])[0]],
  ['session.run feeds', async (data, indices) => {
    const session = await InferenceSession.create(model);
    try {
      return (await session.run({ data, indices })).out;
    } finally {
      await session.release();
    }
  }],
];

for (const [name, run] of cases) {
  test(`${name}: a view of wasm memory after a like whose copy grows memory arrives whole`, async () => {
    const ids = new Tensor('int64', [3n, 1n], [2]);
    // More float32s than wasm memory holds now: copying them in must grow it.
    const before = memoryStats().memory;
    const rows = before / 16 + 1024;
    const values = new Float32Array(rows * 4);
    for (let r = 0; r < rows; ++r) values[r * 4] = r;
    const out = await run({ type: 'float32', data: values, dims: [rows, 4] }, { type: 'int64', data: ids.data, dims: [2] });
    assert.ok(memoryStats().memory > before, 'wasm memory grew while the likes were copied');
    assert.deepEqual(out.dims, [2, 4]);
    assert.deepEqual(Array.from(out.data), [3, 0, 0, 0, 1, 0, 0, 0]);
    out.dispose();
    ids.dispose();
  });
}
