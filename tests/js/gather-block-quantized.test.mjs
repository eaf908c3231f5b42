// com.microsoft GatherBlockQuantized in InferenceSession and runNode, against onnxruntime-node's
// CPU kernel (the reference): one model per form, every output compared byte for byte. The forms:
// uint8 words of 2, 4 and 8-bit codes, int4 and uint4 on either axis, with and without zero points,
// float and float16 scales, negative indices, int32 and int64 indices; then onnxruntime-genai's
// Reshape -> GatherBlockQuantized, and GatherBlockQuantized -> Mul by a constant (run as one
// onnx-wasm GatherBlockQuantized: js/model/fuse.mjs). Kept in the file: the table, and its scales
// and zero points with it. (The oracle of every element, bfloat16 scales included, is
// tests/cpp/gather_block_quantized_test.cpp.)
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import {
  GraphProtoSchema, ModelProtoSchema, NodeProtoSchema, OperatorSetIdProtoSchema, TensorProtoSchema,
} from 'onnx-buf';
import { init, InferenceSession, Tensor, runNode, opVersions, IndexOutOfRangeError, ExternalDataError } from '../../js/index.mjs';
import { attribute, valueInfo } from '../support/gen-models.mjs';
import { dataType, externalEntries } from '../support/external-models.mjs';
import { bytes, tensorProto } from '../support/quantized.mjs';

const require = createRequire(import.meta.url);
const ort = require('onnxruntime-node');
await init();

// Scales of `type` (float32 or float16), finite, of both signs.
function scaleValues(type, count, seed) {
  const f = Float32Array.from(bytes(count, seed), (b) => (b - 128) / 97);
  if (type === 'float32') return new Uint8Array(f.buffer);
  const h = new Uint16Array(count);
  const view = new DataView(new ArrayBuffer(4));
  for (let i = 0; i < count; ++i) {
    // float -> half, round to nearest even (finite, normal range here)
    view.setFloat32(0, f[i]);
    const u = view.getUint32(0), sign = (u >>> 16) & 0x8000, exp = ((u >>> 23) & 0xff) - 127 + 15, man = u & 0x7fffff;
    if (f[i] === 0 || exp <= 0) { h[i] = sign; continue; }
    let r = (exp << 10) | (man >>> 13);
    const rest = man & 0x1fff;
    if (rest > 0x1000 || (rest === 0x1000 && (r & 1))) r += 1;
    h[i] = sign | r;
  }
  return new Uint8Array(h.buffer);
}

// The model: out = GatherBlockQuantized(data, ids, scales[, zero_points]) (reshape: data is first
// Reshape(weight, [rows, -1]), as onnxruntime-genai writes the embedding of a MatMulNBits weight).
function model(c) {
  const codeBits = c.type === 'uint8' ? 8 : 4;
  const dataBytes = Math.ceil((c.dims.reduce((a, b) => a * b, 1) * codeBits) / 8);
  const data = tensorProto(c.reshape ? 'weight' : 'data', c.type, c.reshape ? c.reshape : c.dims, bytes(dataBytes, 1));
  const initializers = [data,
    tensorProto('scales', c.scaleType, c.scaleDims, scaleValues(c.scaleType, c.scaleDims.reduce((a, b) => a * b, 1), 2))];
  const inputs = ['data', 'ids', 'scales'];
  if (c.zeroDims) {
    initializers.push(tensorProto('zero_points', c.type, c.zeroDims, bytes(Math.ceil((c.zeroDims.reduce((a, b) => a * b, 1) * codeBits) / 8), 3)));
    inputs.push('zero_points');
  }
  const nodes = [create(NodeProtoSchema, {
    opType: 'GatherBlockQuantized', domain: 'com.microsoft', name: 'embed', input: inputs, output: ['out'],
    attribute: Object.entries(c.attrs).map(([k, v]) => attribute(k, v)),
  })];
  if (c.reshape) {
    initializers.push(create(TensorProtoSchema, { name: 'shape', dataType: dataType('int64'), dims: [2n], int64Data: [BigInt(c.dims[0]), -1n] }));
    nodes.unshift(create(NodeProtoSchema, { opType: 'Reshape', name: 'unpack', input: ['weight', 'shape'], output: ['data'] }));
  }
  if (c.mul) {
    // out = Mul(the gathered rows, embed_scale) (or Mul(embed_scale, rows): c.mul.first), the
    // constant of the scales' type (c.mul.bits: float32 or float16 bits) and dims c.mul.dims.
    nodes[nodes.length - 1].output = ['gathered'];
    const raw = c.scaleType === 'float32' ? new Uint8Array(Uint32Array.of(c.mul.bits).buffer) : new Uint8Array(Uint16Array.of(c.mul.bits).buffer);
    initializers.push(tensorProto('embed_scale', c.scaleType, c.mul.dims ?? [], raw));
    nodes.push(create(NodeProtoSchema, { opType: 'Mul', name: 'scale', input: c.mul.first ? ['embed_scale', 'gathered'] : ['gathered', 'embed_scale'], output: ['out'] }));
  }
  return toBinary(ModelProtoSchema, create(ModelProtoSchema, {
    irVersion: 10n,
    opsetImport: [create(OperatorSetIdProtoSchema, { domain: '', version: 21n }), create(OperatorSetIdProtoSchema, { domain: 'com.microsoft', version: 1n })],
    graph: create(GraphProtoSchema, {
      name: 'g', node: nodes, input: [valueInfo('ids', c.idType, ['batch', 'seq'])], output: [valueInfo('out', c.scaleType, null)], initializer: initializers,
    }),
  }));
}

// The model with the named initializers' bytes moved to one external file, 'all.bin', one after
// another from offset 16: { model, file }.
function externalize(modelBytes, names) {
  const m = fromBinary(ModelProtoSchema, modelBytes);
  const file = [];
  let at = 16;
  for (const t of /** @type {any} */ (m.graph).initializer) {
    if (!names.includes(t.name)) continue;
    file.push([at, t.rawData]);
    t.externalData = externalEntries('all.bin', at, t.rawData.length);
    t.dataLocation = 1;
    at += t.rawData.length;
    t.rawData = new Uint8Array(0);
  }
  const bytesOut = new Uint8Array(at);
  for (const [o, raw] of file) bytesOut.set(raw, o);
  return { model: toBinary(ModelProtoSchema, m), file: bytesOut };
}

const CASES = [
  { name: 'uint8 4-bit, 3 blocks a row, zero points', type: 'uint8', dims: [9, 20], scaleDims: [9, 3], zeroDims: [9, 2], scaleType: 'float32', attrs: { block_size: 16, bits: 4 }, idType: 'int64' },
  { name: 'uint8 4-bit, default zero point, float16 scales', type: 'uint8', dims: [9, 20], scaleDims: [9, 3], scaleType: 'float16', attrs: { block_size: 16 }, idType: 'int32' },
  { name: 'uint8 2-bit, zero points four a byte', type: 'uint8', dims: [7, 9], scaleDims: [7, 3], zeroDims: [7, 1], scaleType: 'float32', attrs: { block_size: 16, bits: 2 }, idType: 'int64' },
  { name: 'uint8 8-bit', type: 'uint8', dims: [6, 33], scaleDims: [6, 3], zeroDims: [6, 3], scaleType: 'float16', attrs: { block_size: 16, bits: 8 }, idType: 'int64' },
  { name: 'uint8 4-bit of rank 3', type: 'uint8', dims: [5, 2, 24], scaleDims: [5, 2, 2], zeroDims: [5, 2, 1], scaleType: 'float32', attrs: { block_size: 32, quantize_axis: 2 }, idType: 'int64' },
  { name: 'int4, zero points', type: 'int4', dims: [8, 40], scaleDims: [8, 3], zeroDims: [8, 3], scaleType: 'float32', attrs: { block_size: 16 }, idType: 'int64' },
  { name: 'uint4, no zero points, float16 scales', type: 'uint4', dims: [8, 40], scaleDims: [8, 3], scaleType: 'float16', attrs: { block_size: 16 }, idType: 'int32' },
  { name: 'int4 with an odd count of codes a row (rows do not start on a byte), zero points', type: 'int4', dims: [7, 33], scaleDims: [7, 3], zeroDims: [7, 3], scaleType: 'float32', attrs: { block_size: 16 }, idType: 'int64' },
  { name: 'int4 gathered along axis 1, quantized along axis 0', type: 'int4', dims: [40, 6], scaleDims: [3, 6], zeroDims: [3, 6], scaleType: 'float32', attrs: { block_size: 16, gather_axis: 1, quantize_axis: 0 }, idType: 'int64' },
  // (a block longer than the row, 2^40: one block a row; the kernels divided by it cut to 32 bits, 0: a trap)
  { name: 'uint4, block_size 2^40, float16 scales, no zero points', type: 'uint4', dims: [8, 40], scaleDims: [8, 1], scaleType: 'float16', attrs: { block_size: 2 ** 40 }, idType: 'int64' },
  { name: "onnxruntime-genai's Reshape of a MatMulNBits weight, then GatherBlockQuantized", type: 'uint8', dims: [6, 32], reshape: [6, 2, 16], scaleDims: [6, 2], zeroDims: [6, 1], scaleType: 'float16', attrs: { block_size: 32, bits: 4 }, idType: 'int64' },
  // Then a Mul by a constant (Gemma's embedding scale 50.6: float16 0x5253), through each of the
  // kernel's paths: the row kernel, the table kernel with zero points, floats, the float scratch.
  { name: "onnxruntime-genai's Reshape -> GatherBlockQuantized -> Mul by Gemma's scale (float16)", type: 'uint8', dims: [6, 64], reshape: [6, 2, 32], scaleDims: [6, 4], scaleType: 'float16', attrs: { block_size: 32, bits: 4 }, idType: 'int64', mul: { bits: 0x5253 } },
  { name: 'uint8 4-bit with zero points, float16 scales, then Mul(constant, rows)', type: 'uint8', dims: [9, 20], scaleDims: [9, 3], zeroDims: [9, 2], scaleType: 'float16', attrs: { block_size: 16 }, idType: 'int64', mul: { bits: 0xB500, first: true } },
  { name: 'uint8 4-bit, float32 scales, then Mul by a constant of dims [1]', type: 'uint8', dims: [9, 20], scaleDims: [9, 3], zeroDims: [9, 2], scaleType: 'float32', attrs: { block_size: 16 }, idType: 'int64', mul: { bits: 0x424A6666, dims: [1] } },
  { name: 'uint8 2-bit, float16 scales (through floats), then Mul', type: 'uint8', dims: [7, 9], scaleDims: [7, 3], zeroDims: [7, 1], scaleType: 'float16', attrs: { block_size: 16, bits: 2 }, idType: 'int32', mul: { bits: 0x5253 } },
];

const ids = [[0, -1, 3], [2, 2, -4]];

for (const c of CASES) {
  test(`${c.name}: the session's output equals onnxruntime-node's, byte for byte`, async () => {
    const bytesOfModel = model(c);
    const reference = await ort.InferenceSession.create(bytesOfModel);
    const feed = c.idType === 'int64' ? BigInt64Array.from(ids.flat(), BigInt) : Int32Array.from(ids.flat());
    const want = (await reference.run({ ids: new ort.Tensor(c.idType, feed, [2, 3]) })).out;
    const session = await InferenceSession.create(bytesOfModel);
    if (c.mul) assert.deepEqual(session.nodes.map((n) => `${n.domain}:${n.opType}`), ['onnx-wasm:GatherBlockQuantized'], 'the Mul fused');
    const { out } = await session.run({ ids: new Tensor(c.idType, feed, [2, 3]) });
    assert.equal(out.type, c.scaleType);
    assert.deepEqual(out.dims, want.dims.map(Number));
    const axis = c.attrs.gather_axis ?? 0;
    assert.deepEqual(session.outputMetadata[0].shape, want.dims.map((d, i) => (i === axis ? 'batch' : i === axis + 1 ? 'seq' : Number(d))),
      'inference: the output shape with the symbols of the ids');
    assert.deepEqual(new Uint8Array(out.data.buffer, out.data.byteOffset, out.data.byteLength),
      new Uint8Array(want.data.buffer, want.data.byteOffset, want.data.byteLength));
    out.dispose();
    await session.release();
    await reference.release();
  });
}

test('runNode takes the node\'s domain, and options.opset as { domain, version }', () => {
  // Codes 1..15, 0 in both rows, packed two a byte, the first in the low bits.
  const data = new Tensor('uint4', Uint8Array.from({ length: 16 }, (_, k) => ((2 * k + 1) & 15) | (((2 * k + 2) & 15) << 4)), [2, 16]);
  const scales = new Tensor('float32', [0.5, 2], [2, 1]);
  const node = { opType: 'GatherBlockQuantized', domain: 'com.microsoft', attributes: { block_size: 16 } };
  const [out] = runNode(node, [data, new Tensor('int64', [1n], [1]), scales], { opset: { domain: 'com.microsoft', version: 1 } });
  assert.deepEqual(Array.from(out.data), [2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, 0]);
  const [same] = runNode(node, [data, new Tensor('int64', [1n], [1]), scales, null]);   // an omitted zero point
  assert.deepEqual(Array.from(same.data), Array.from(out.data));
  assert.throws(() => runNode(node, [data, new Tensor('int64', [2n], [1]), scales]),
    (e) => e instanceof IndexOutOfRangeError && e.message === 'com.microsoft.GatherBlockQuantized-1: index 2 at position 0 is outside [-2, 1] for axis 0 of size 2');
  assert.throws(() => runNode(node, [data, new Tensor('int64', [0n], [1]), scales], { opset: { domain: '', version: 13 } }),
    /options\.opset is for domain '', but node GatherBlockQuantized is in domain 'com.microsoft'/);
  for (const t of [data, scales, out, same]) t.dispose();
  const row = opVersions().find((v) => v.domain === 'com.microsoft' && v.op === 'GatherBlockQuantized');
  assert.deepEqual(row.inputs.map((i) => [i.name, i.constraint, i.optional]),
    [['data', 'T1', false], ['indices', 'Tind', false], ['scales', 'T2', false], ['zero_points', 'T1', true]]);
});

// The table kept in its file (externalDataMode 'lazy'): a run reads the rows the ids name, with
// their scales and zero points taken at the same rows (int4 zero points of 3 codes a row, which
// start mid-byte); outputs and errors are the in-memory session's. A table whose rows do not
// start on a byte (33 int4 codes a row) or gathered along axis 1 stays in memory. onnxruntime-genai's
// Reshape of a MatMulNBits weight is folded into the weight, which then stays in its file too.
// Whether case c's table can be read by rows: gathered along axis 0, rows starting on a byte.
const byRows = (c) => (c.attrs.gather_axis ?? 0) === 0 && (c.type === 'uint8' || c.dims[1] % 2 === 0);

// `session` against `inMemory` (the same model, all in memory) for case c: three sets of ids, the
// outputs byte for byte, and an index out of range, the same IndexOutOfRangeError.
async function assertRunsAsInMemory(c, inMemory, session) {
  for (const idsNow of [ids, [[1, 1, 0], [-1, 0, 1]], [[4, 4, 4], [4, 4, 4]]]) {
    const feed = c.idType === 'int64' ? BigInt64Array.from(idsNow.flat(), BigInt) : Int32Array.from(idsNow.flat());
    const a = (await inMemory.run({ ids: new Tensor(c.idType, feed, [2, 3]) })).out;
    const b = (await session.run({ ids: new Tensor(c.idType, feed, [2, 3]) })).out;
    assert.deepEqual(b.dims, a.dims, c.name);
    assert.deepEqual(new Uint8Array(b.data.buffer, b.data.byteOffset, b.data.byteLength), new Uint8Array(a.data.buffer, a.data.byteOffset, a.data.byteLength), c.name);
    a.dispose();
    b.dispose();
  }
  const badFeed = c.idType === 'int64' ? new Tensor('int64', [0n, 99n], [1, 2]) : new Tensor('int32', [0, 99], [1, 2]);
  const want = await inMemory.run({ ids: badFeed }).catch((e) => e);
  const got = await session.run({ ids: badFeed }).catch((e) => e);
  assert.ok(want instanceof IndexOutOfRangeError && got instanceof IndexOutOfRangeError, c.name);
  assert.equal(got.message, want.message, c.name);
  badFeed.dispose();
}

test('a uint8, int4 or uint4 table kept in its file: the in-memory outputs and errors, byte for byte; one whose rows do not start on a byte stays in memory', async () => {
  for (const c of CASES) {
    const inMemory = await InferenceSession.create(model(c));
    // The same model with the data's bytes in an external file, at an offset.
    const { model: external, file } = externalize(model(c), [c.reshape ? 'weight' : 'data']);
    const session = await InferenceSession.create(external, { externalData: { 'all.bin': file }, externalDataMode: 'lazy' });
    assert.equal(session.valueInfo('data')?.storage, byRows(c) ? 'file' : 'memory', c.name);
    // (onnxruntime-genai's Reshape of the weight: the weight itself with the table's dims)
    if (c.reshape) assert.deepEqual(session.nodes.map((n) => n.opType), ['GatherBlockQuantized'], c.name);
    await assertRunsAsInMemory(c, inMemory, session);
    await Promise.all([session.release(), inMemory.release()]);
  }
});

// The scales and zero points external too: kept in the file with the table (when their rows start
// on a byte) and read by the same rows at the same time; outputs and errors are the in-memory
// session's. A file cut short in the scales fails the run with an ExternalDataError naming them,
// and the session works once the file is whole again.
test('scales and zero points kept in the file with the table: read by the same rows, the in-memory outputs and errors, byte for byte', async () => {
  let kept = 0;
  for (const c of CASES.filter((k) => !k.reshape)) {
    const inMemory = await InferenceSession.create(model(c));
    const { model: external, file } = externalize(model(c), ['data', 'scales', 'zero_points']);
    const session = await InferenceSession.create(external, { externalData: { 'all.bin': file }, externalDataMode: 'lazy' });
    const rows = byRows(c), codeBits = c.type === 'uint8' ? 8 : 4;
    assert.equal(session.valueInfo('data')?.storage, rows ? 'file' : 'memory', c.name);
    assert.equal(session.valueInfo('scales')?.storage, rows ? 'file' : 'memory', c.name);
    if (c.zeroDims) {
      const whole = (c.zeroDims.slice(1).reduce((a, b) => a * b, 1) * codeBits) % 8 === 0;
      assert.equal(session.valueInfo('zero_points')?.storage, rows && whole ? 'file' : 'memory', c.name);
    }
    if (rows) ++kept;
    await assertRunsAsInMemory(c, inMemory, session);
    await Promise.all([session.release(), inMemory.release()]);
  }
  assert.ok(kept >= 6, `${kept} cases kept their tables in the file`);

  // A file that loses its last two bytes (the end of the scales) between runs.
  const c = CASES[1];
  const { model: external, file } = externalize(model(c), ['data', 'scales']);
  const dir = mkdtempSync(join(tmpdir(), 'onnx-wasm-gbq-'));
  try {
    writeFileSync(join(dir, 'model.onnx'), external);
    writeFileSync(join(dir, 'all.bin'), file);
    const session = await InferenceSession.create(join(dir, 'model.onnx'), { externalDataMode: 'lazy' });
    assert.equal(session.valueInfo('scales')?.storage, 'file');
    const last = new Tensor('int32', [8], [1, 1]);
    (await session.run({ ids: last })).out.dispose();
    truncateSync(join(dir, 'all.bin'), file.length - 2);
    await assert.rejects(session.run({ ids: last }), (e) => e instanceof ExternalDataError && /table 'scales' .* is kept in 'all\.bin', which cannot be read/.test(e.message));
    writeFileSync(join(dir, 'all.bin'), file);
    (await session.run({ ids: last })).out.dispose();
    last.dispose();
    await session.release();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
