// Loading and running an .onnx model with the onnxruntime-web-style API: an embedding lookup
// (Gather from an initializer table) followed by a Reshape, with a symbolic batch dimension.
// The model is built here with onnx-buf so the example needs no files; InferenceSession.create
// takes a path (in Node), a Uint8Array or an ArrayBuffer alike.
import { create, toBinary } from '@bufbuild/protobuf';
import { ModelProtoSchema } from 'onnx-buf';
import { InferenceSession, Tensor } from '../js/index.mjs';

const dim = (d) => ({ value: typeof d === 'string' ? { case: 'dimParam', value: d } : { case: 'dimValue', value: BigInt(d) } });
const tensorType = (elemType, dims) => ({ value: { case: 'tensorType', value: { elemType, shape: { dim: dims.map(dim) } } } });
const table = Float32Array.from({ length: 10 * 4 }, (_, i) => i / 10);
const modelBytes = toBinary(ModelProtoSchema, create(ModelProtoSchema, {
  irVersion: 8n,
  opsetImport: [{ domain: '', version: 21n }],
  graph: {
    name: 'embed',
    node: [
      { opType: 'Gather', input: ['table', 'ids'], output: ['vectors'], attribute: [{ name: 'axis', type: 2, i: 0n }] },
      { opType: 'Reshape', input: ['vectors', 'shape'], output: ['flat'] },
    ],
    initializer: [
      { name: 'table', dataType: 1, dims: [10n, 4n], rawData: new Uint8Array(table.buffer) },
      { name: 'shape', dataType: 7, dims: [2n], int64Data: [0n, -1n] },
    ],
    input: [{ name: 'ids', type: tensorType(7, ['batch', 'seq']) }],
    output: [{ name: 'flat', type: tensorType(1, []) }],
  },
}));

const session = await InferenceSession.create(modelBytes);
console.log('inputs ', session.inputMetadata.map((i) => `${i.name}: ${i.type} [${i.shape}]`).join(', '));
console.log('outputs', session.outputMetadata.map((o) => `${o.name}: ${o.type} [${o.shape.map((d) => d ?? '?')}] (inferred)`).join(', '));

const ids = new Tensor('int64', [1n, 9n, 2n, 0n], [2, 2]);
const { flat } = await session.run({ ids });
console.log('run    ', `flat: [${flat.dims}]`, Array.from(flat.data, (v) => +v.toFixed(1)).join(' '));

// A feed that contradicts the model is refused before anything runs: an int32 feed on purpose.
try {
  await session.run({ ids: new Tensor('int32', [1, 2], [1, 2]) });
} catch (e) {
  console.log(`intended error (a feed of the wrong type, to show the message): ${e.name} (${e.code}): ${e.message}`);
}
for (const t of [ids, flat]) t.dispose();
await session.release();
