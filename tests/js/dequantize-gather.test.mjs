// DequantizeLinear(table) -> Gather in InferenceSession (js/model/fuse.mjs): the session runs the
// gather on the quantized table and dequantizes only the gathered rows. Each form is a model
// checked against onnxruntime-node's output byte for byte, and against the same model with the
// scales fed as a graph input (which the session cannot rewrite: the whole table dequantized, then
// gathered); the session's nodes show which were rewritten. Forms: int8, uint8, int16, uint16 and
// int32 tables, per tensor, per axis and blocked (scales and zero points gathered with the rows),
// gather axes before and after the quantization axis, negative axes, indices of rank 0 to 3 with
// negative entries, two Gathers of one table; int4 and uint4 blocked tables (GatherBlockQuantized);
// float8, float4, int2/uint2 tables and 4-bit ones GatherBlockQuantized cannot say (per axis, block
// 8 or 24), gathered by onnx-wasm's Gather; tables quantized along the gather axis (per row, per
// block of rows), indices flattened and the output reshaped back, and at opset 13 (no allowzero)
// dequantized by DequantizeLinear-13's operations; and the one form left as it is (an int32 table
// with zero points not 0 there), which must still be right. Then a table that would not fit in wasm memory dequantized: an int4 table of 576 MiB
// (4.5 GiB as floats), in memory and kept in its file.
import assert from 'node:assert/strict';
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { create, toBinary } from '@bufbuild/protobuf';
import {
  GraphProtoSchema, ModelProtoSchema, NodeProtoSchema, OperatorSetIdProtoSchema, TensorProtoSchema,
} from 'onnx-buf';
import { init, InferenceSession, Tensor, IndexOutOfRangeError, memoryStats } from '../../js/index.mjs';
import { attribute, valueInfo } from '../support/gen-models.mjs';
import { dataType, externalEntries } from '../support/external-models.mjs';
import { BITS as INT_BITS, bytes, product, tensorProto } from '../support/quantized.mjs';

const require = createRequire(import.meta.url);
const ort = require('onnxruntime-node');
await init();

// Finite scales of both signs: float32, or float16 made from them (exact: multiples of 1/64 in
// [-2, 2) are halves); float8e8m0 (DequantizeLinear-24): powers of 2 from 2^-7 to 2^7.
function scaleBytes(type, count, seed) {
  if (type === 'float8e8m0') return bytes(count, seed).map((b) => 120 + (b % 15));
  const f = Float32Array.from(bytes(count, seed), (b) => (b - 128) / 64);
  if (type === 'float32') return new Uint8Array(f.buffer);
  const h = Uint16Array.from(f, (v) => {
    if (v === 0) return 0;
    const sign = v < 0 ? 0x8000 : 0, a = Math.abs(v), e = Math.floor(Math.log2(a));
    return sign | ((e + 15) << 10) | Math.round((a / 2 ** e - 1) * 1024);
  });
  return new Uint8Array(h.buffer);
}

const BITS = { ...INT_BITS, float8e4m3fn: 8, float8e5m2: 8, float4e2m1: 4 };
// Codes of the table: for float8, bit 6 cleared (an exponent below the top one: no NaN or
// infinity, whose payloads onnxruntime need not keep as this does).
const codes = (type, n, seed) => (type.startsWith('float8') ? bytes(n, seed).map((b) => b & 0xbf) : bytes(n, seed));

// out = Gather(DequantizeLinear(table, scales[, zero_points]), ids) (and out2 by a second Gather
// when `twice`); `scalesFed`: the scales are a graph input instead of an initializer; `dir`: the
// table is external data in dir/table.bin.
function model(c, scalesFed = false, dir = '') {
  const tableRaw = codes(c.type, Math.ceil(product(c.dims) * BITS[c.type] / 8), 1);
  const inits = [dir ? externalTensor(dir, 'table', c.type, c.dims, tableRaw) : tensorProto('table', c.type, c.dims, tableRaw)];
  const scaleRaw = scaleBytes(c.scaleType, product(c.scaleDims), 2);
  if (!scalesFed) inits.push(tensorProto('scales', c.scaleType, c.scaleDims, scaleRaw));
  const dqInputs = ['table', 'scales'];
  if (c.zero) {
    const n = Math.ceil(product(c.scaleDims) * BITS[c.type] / 8);
    inits.push(tensorProto('zero_points', c.type, c.scaleDims, c.zero === 'zeros' ? new Uint8Array(n) : bytes(n, 3)));
    dqInputs.push('zero_points');
  }
  const nodes = [
    create(NodeProtoSchema, { opType: 'DequantizeLinear', name: 'dq', input: dqInputs, output: ['dequantized'], attribute: Object.entries(c.dq ?? {}).map(([k, v]) => attribute(k, v)) }),
    create(NodeProtoSchema, { opType: 'Gather', name: 'lookup', input: ['dequantized', 'ids'], output: ['out'], attribute: c.axis === undefined ? [] : [attribute('axis', c.axis)] }),
  ];
  const outType = c.outType ?? (c.opset < 19 ? 'float32' : c.scaleType);
  const outputs = [valueInfo('out', outType, null)];
  if (c.twice) {
    nodes.push(create(NodeProtoSchema, { opType: 'Gather', name: 'lookup2', input: ['dequantized', 'ids2'], output: ['out2'], attribute: c.axis === undefined ? [] : [attribute('axis', c.axis)] }));
    outputs.push(valueInfo('out2', outType, null));
  }
  const inputs = [valueInfo('ids', 'int64', c.declareIds ? c.idDims : null)];
  if (c.twice) inputs.push(valueInfo('ids2', 'int64', null));
  if (scalesFed) inputs.push(valueInfo('scales', c.scaleType, c.scaleDims));
  return {
    bytes: toBinary(ModelProtoSchema, create(ModelProtoSchema, {
      irVersion: 10n, opsetImport: [create(OperatorSetIdProtoSchema, { domain: '', version: BigInt(c.opset) })],
      graph: create(GraphProtoSchema, { name: 'g', node: nodes, input: inputs, output: outputs, initializer: inits }),
    })),
    scaleRaw,
  };
}

// A tensor whose bytes are the whole of dir/<name>.bin.
function externalTensor(dir, name, type, dims, raw) {
  writeFileSync(join(dir, `${name}.bin`), raw);
  return create(TensorProtoSchema, {
    name, dataType: dataType(type), dims: dims.map(BigInt), dataLocation: 1,
    externalData: externalEntries(`${name}.bin`, 0, raw.length),
  });
}

// Indices into the gather axis's `n` entries, every one in range, negatives among them.
function ids(n, dims, seed) {
  return BigInt64Array.from(bytes(product(dims), seed), (b, k) => BigInt(k % 3 === 1 ? (b % n) - n : b % n));
}

// onnxruntime-node 1.30 has no DequantizeLinear kernel for float4e2m1 x ("Failed to find kernel
// for DequantizeLinear(23)"): those cases are checked against the whole table dequantized (this
// runtime's DequantizeLinear, itself checked against ONNX's reference in dequantize-linear tests).
const NO_FLOAT4 = 'onnxruntime-node 1.30 has no DequantizeLinear kernel for float4e2m1';
// ("Could not find an implementation for DequantizeLinear(24)")
const NO_24 = 'onnxruntime-node 1.30 has no DequantizeLinear-24 kernel';

// fused: the rewrite is expected (the session's nodes: no DequantizeLinear before a Gather).
const CASES = [
  { name: 'uint8 per tensor (a scalar scale and zero point), opset 13', opset: 13, type: 'uint8', dims: [50, 40], scaleType: 'float32', scaleDims: [], zero: true, idDims: [2, 3], fused: true },
  { name: 'int8 per tensor, no zero point, opset 10', opset: 10, type: 'int8', dims: [9, 17], scaleType: 'float32', scaleDims: [], idDims: [4], fused: true },
  { name: 'int32 per tensor, a scalar index (rank 0), opset 10', opset: 10, type: 'int32', dims: [6, 5], scaleType: 'float32', scaleDims: [], zero: true, idDims: [], fused: true },
  { name: 'uint8 per axis 1, gathered on axis 0', opset: 13, type: 'uint8', dims: [20, 7], scaleType: 'float32', scaleDims: [7], zero: true, idDims: [3, 2], fused: true },
  { name: 'int8 per axis 0, gathered on axis 1 (indices of rank 3)', opset: 13, type: 'int8', dims: [5, 11], scaleType: 'float32', scaleDims: [5], zero: true, dq: { axis: 0 }, axis: 1, idDims: [2, 2, 2], fused: true },
  { name: 'int16 per axis -1, gathered on axis -3 of a rank-3 table, float16 scales', opset: 21, type: 'int16', dims: [6, 4, 9], scaleType: 'float16', scaleDims: [9], zero: true, dq: { axis: -1 }, axis: -3, idDims: [5], fused: true },
  { name: 'uint16 blocked along the last axis (block 4), scales and zero points gathered with the rows', opset: 21, type: 'uint16', dims: [12, 10], scaleType: 'float32', scaleDims: [12, 3], zero: true, dq: { block_size: 4 }, idDims: [2, 4], fused: true },
  { name: 'uint8 blocked along axis 0, gathered on axis 1 (the axis after: counted from the end)', opset: 21, type: 'uint8', dims: [9, 6, 4], scaleType: 'float16', scaleDims: [3, 6, 4], zero: true, dq: { axis: 0, block_size: 3 }, axis: 1, idDims: [3], fused: true },
  { name: 'int8 blocked along the last axis, two Gathers of one table', opset: 21, type: 'int8', dims: [30, 64], scaleType: 'float16', scaleDims: [30, 4], zero: true, dq: { block_size: 16 }, idDims: [5], twice: true, fused: true },
  { name: 'int4 blocked along the last axis (block 16, 5 blocks a row, the last partial): GatherBlockQuantized', opset: 21, type: 'int4', dims: [40, 70], scaleType: 'float32', scaleDims: [40, 5], zero: true, dq: { block_size: 16 }, idDims: [2, 3], fused: true },
  { name: 'uint4 blocked (block 32), no zero point, float16 scales: GatherBlockQuantized', opset: 21, type: 'uint4', dims: [64, 64], scaleType: 'float16', scaleDims: [64, 2], dq: { block_size: 32 }, idDims: [7], fused: true },
  { name: 'int4 blocked along axis 0, gathered on axis 1: GatherBlockQuantized', opset: 23, type: 'int4', dims: [33, 8], scaleType: 'float32', scaleDims: [3, 8], zero: true, dq: { axis: 0, block_size: 16 }, axis: 1, idDims: [4], fused: true },
  // Types and blocks ONNX's Gather and GatherBlockQuantized do not take: onnx-wasm's Gather.
  { name: 'int4 blocked with block 8 (GatherBlockQuantized needs 16 or more): onnx-wasm Gather, zero points of 12 bits a row', opset: 21, type: 'int4', dims: [10, 24], scaleType: 'float32', scaleDims: [10, 3], zero: true, dq: { block_size: 8 }, idDims: [3], fused: true },
  { name: 'int4 blocked with block 48, no zero point, float16 scales, rows of 101 codes (starting within a byte): the 4-bit row kernel', opset: 21, type: 'int4', dims: [9, 101], scaleType: 'float16', scaleDims: [9, 3], dq: { block_size: 48 }, idDims: [2, 3], fused: true },
  { name: 'uint4 blocked with block 24 (not a power of 2), 3 blocks a row, the last partial, float16 scales', opset: 21, type: 'uint4', dims: [9, 70], scaleType: 'float16', scaleDims: [9, 3], zero: true, dq: { block_size: 24 }, idDims: [2, 2], fused: true },
  { name: 'int4 per axis 1 (not blocked), rows of 5 codes', opset: 21, type: 'int4', dims: [12, 5], scaleType: 'float32', scaleDims: [5], zero: true, idDims: [4], fused: true },
  { name: 'uint2 per tensor', opset: 25, type: 'uint2', dims: [10, 12], scaleType: 'float32', scaleDims: [], zero: true, idDims: [3], fused: true },
  { name: 'int2 blocked (block 4), 3 blocks a row: zero points of 6 bits a row', opset: 25, type: 'int2', dims: [11, 12], scaleType: 'float16', scaleDims: [11, 3], zero: true, dq: { block_size: 4 }, idDims: [5], fused: true },
  { name: 'uint2 per axis 0, gathered on axis 1', opset: 25, type: 'uint2', dims: [6, 9], scaleType: 'float32', scaleDims: [6], zero: true, dq: { axis: 0 }, axis: 1, idDims: [2, 3], fused: true },
  { name: 'float8e4m3fn per tensor, opset 19', opset: 19, type: 'float8e4m3fn', dims: [16, 8], scaleType: 'float32', scaleDims: [], idDims: [2, 3], fused: true },
  { name: 'float8e5m2 per axis 1, float16 scales, opset 19', opset: 19, type: 'float8e5m2', dims: [16, 8], scaleType: 'float16', scaleDims: [8], idDims: [5], fused: true },
  { name: 'float8e4m3fn blocked (block 4), opset 21', opset: 21, type: 'float8e4m3fn', dims: [10, 12], scaleType: 'float32', scaleDims: [10, 3], dq: { block_size: 4 }, idDims: [4], fused: true },
  { name: 'float4e2m1 blocked (block 16), rows of 40 codes, opset 23', noOrt: NO_FLOAT4, opset: 23, type: 'float4e2m1', dims: [12, 40], scaleType: 'float32', scaleDims: [12, 3], dq: { block_size: 16 }, idDims: [3], fused: true },
  { name: 'float4e2m1 per tensor, rows of 5 codes (not whole bytes), opset 23', noOrt: NO_FLOAT4, opset: 23, type: 'float4e2m1', dims: [9, 5], scaleType: 'float16', scaleDims: [], idDims: [4], fused: true },
  // Quantized along the gather axis (a scale per row, or per block of rows): the indices
  // flattened, rows and scales gathered by them (blocked: by each index's block), dequantized,
  // reshaped back; indices the graph declares of rank 1 as they are.
  { name: 'uint8 per axis 0, gathered on axis 0 (a scale per row), indices declared [3], opset 13', opset: 13, type: 'uint8', dims: [8, 5], scaleType: 'float32', scaleDims: [8], zero: true, dq: { axis: 0 }, idDims: [3], declareIds: true, fused: true },
  { name: 'int8 per axis 0, gathered on axis 0, indices [2, 3] flattened and reshaped back, float16 scales, opset 21', opset: 21, type: 'int8', dims: [9, 6], scaleType: 'float16', scaleDims: [9], zero: true, dq: { axis: 0 }, idDims: [2, 3], fused: true },
  { name: 'int8 blocked along the gather axis (block 4, the last block partial), opset 21', opset: 21, type: 'int8', dims: [10, 5], scaleType: 'float32', scaleDims: [3, 5], zero: true, dq: { axis: 0, block_size: 4 }, idDims: [4], fused: true },
  { name: 'int4 blocked along axis 1 of a rank-3 table, gathered on axis 1 by indices of rank 3 (onnx-wasm Gather)', opset: 21, type: 'int4', dims: [4, 7, 6], scaleType: 'float32', scaleDims: [4, 3, 6], zero: true, dq: { axis: 1, block_size: 3 }, axis: 1, idDims: [2, 2, 2], fused: true },
  { name: 'uint8 per axis 1, gathered on axis 1 by a scalar index', opset: 21, type: 'uint8', dims: [5, 6], scaleType: 'float16', scaleDims: [6], zero: true, dq: { axis: 1 }, axis: 1, idDims: [], fused: true },
  { name: 'uint16 per axis 0, gathered on axis 0 by empty indices [2, 0]', opset: 21, type: 'uint16', dims: [6, 3], scaleType: 'float32', scaleDims: [6], zero: true, dq: { axis: 0 }, idDims: [2, 0], fused: true },
  { name: 'float8e4m3fn per axis 0, gathered on axis 0 (onnx-wasm Gather)', opset: 21, type: 'float8e4m3fn', dims: [12, 4], scaleType: 'float32', scaleDims: [12], dq: { axis: 0 }, idDims: [5], fused: true },
  // float8e8m0 scales (DequantizeLinear-24, output_dtype given): gathered by onnx-wasm's Gather.
  { name: 'int8 blocked (block 4), float8e8m0 scales, output float16, opset 24', noOrt: NO_24, opset: 24, type: 'int8', dims: [9, 12], scaleType: 'float8e8m0', scaleDims: [9, 3], zero: true, dq: { block_size: 4, output_dtype: 10 }, outType: 'float16', idDims: [2, 2], fused: true },
  { name: 'uint8 per axis 0 along the gather axis, float8e8m0 scales, output float32, opset 24', noOrt: NO_24, opset: 24, type: 'uint8', dims: [7, 5], scaleType: 'float8e8m0', scaleDims: [7], zero: true, dq: { axis: 0, output_dtype: 1 }, outType: 'float32', idDims: [3], fused: true },
  // Left as it is (the whole table dequantized, then gathered): still right.
  // At opset 13 (no Reshape with allowzero to give back an empty dim), indices not declared of
  // rank 1: the rows gathered by the indices as they are, dequantized with Cast, Sub and Mul.
  { name: 'uint8 per axis 0, gathered on axis 0, indices of undeclared rank [2, 3] at opset 13 (Cast, Sub, Mul)', opset: 13, type: 'uint8', dims: [8, 5], scaleType: 'float32', scaleDims: [8], zero: true, dq: { axis: 0 }, idDims: [2, 3], fused: true },
  { name: 'int8 per axis 1 of a rank-3 table, gathered on axis 1, indices [2, 2] at opset 13 (scales unsqueezed over the last dim)', opset: 13, type: 'int8', dims: [3, 6, 4], scaleType: 'float32', scaleDims: [6], zero: true, dq: { axis: 1 }, axis: 1, idDims: [2, 2], fused: true },
  { name: 'int32 per axis 0 (no zero point), gathered on axis 0, indices [3, 2] at opset 13', opset: 13, type: 'int32', dims: [7, 3], scaleType: 'float32', scaleDims: [7], dq: { axis: 0 }, idDims: [3, 2], fused: true },
  { name: 'int32 per axis 0 with zero points of 0 (left out), indices [3, 2] at opset 13', opset: 13, type: 'int32', dims: [7, 3], scaleType: 'float32', scaleDims: [7], zero: 'zeros', dq: { axis: 0 }, idDims: [3, 2], fused: true },
  { name: 'int32 per axis 0 with zero points not 0, indices [3, 2] at opset 13: left as it is (its int32 difference wraps where floats would round)', opset: 13, type: 'int32', dims: [7, 3], scaleType: 'float32', scaleDims: [7], zero: true, dq: { axis: 0 }, idDims: [3, 2], fused: false },
  { name: 'int8 per axis 0 of a rank-1 table (nothing to unsqueeze), indices [2, 2] at opset 13', opset: 13, type: 'int8', dims: [9], scaleType: 'float32', scaleDims: [9], zero: true, dq: { axis: 0 }, idDims: [2, 2], fused: true },
  { name: 'uint8 per axis 0, gathered on axis 0, indices [2, 0] (empty) at opset 13', opset: 13, type: 'uint8', dims: [8, 5], scaleType: 'float32', scaleDims: [8], zero: true, dq: { axis: 0 }, idDims: [2, 0], fused: true },
];

const raw = (t) => new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength);

for (const c of CASES) {
  const against = c.noOrt ? `equal to the whole table dequantized (not to onnxruntime-node: ${c.noOrt})` : 'equal to onnxruntime-node and to the whole table dequantized';
  test(`DequantizeLinear -> Gather, ${c.name}: ${c.fused ? 'rewritten, ' : ''}${against}`, async () => {
    const { bytes: modelBytes, scaleRaw } = model(c);
    const axis = c.axis === undefined ? 0 : (c.axis + c.dims.length) % c.dims.length;
    const feedIds = { ids: ids(c.dims[axis], c.idDims, 5), ids2: ids(c.dims[axis], [3], 6) };
    const feeds = (T) => (c.twice ? { ids: new T('int64', feedIds.ids, c.idDims), ids2: new T('int64', feedIds.ids2, [3]) } : { ids: new T('int64', feedIds.ids, c.idDims) });
    const reference = c.noOrt ? null : await ort.InferenceSession.create(modelBytes);
    const want = reference ? await reference.run(feeds(ort.Tensor)) : null;
    const session = await InferenceSession.create(modelBytes);
    const got = await session.run(feeds(Tensor));
    const unfused = await InferenceSession.create(model(c, true).bytes);
    const scaleTensor = new Tensor(c.scaleType, c.scaleType === 'float32' ? new Float32Array(scaleRaw.buffer) : c.scaleType === 'float8e8m0' ? scaleRaw : new Uint16Array(scaleRaw.buffer), c.scaleDims);
    const whole = await unfused.run({ ...feeds(Tensor), scales: scaleTensor });
    const ops = session.nodes.map((n) => n.opType);
    if (c.fused) {
      assert.ok(!ops.includes('DequantizeLinear') || ops.indexOf('DequantizeLinear') > ops.indexOf(ops.find((o) => o.startsWith('Gather'))), `rewritten: ${ops.join(', ')}`);
      assert.equal(session.valueInfo('dequantized'), undefined, 'no dequantized table');
    } else {
      assert.deepEqual(ops.slice(0, 2), ['DequantizeLinear', 'Gather'], 'left as it is');
    }
    assert.deepEqual(unfused.nodes.map((n) => n.opType).slice(0, 2), ['DequantizeLinear', 'Gather'], 'scales fed: not rewritten');
    for (const name of c.twice ? ['out', 'out2'] : ['out']) {
      if (want) {
        assert.equal(got[name].type, want[name].type);
        assert.deepEqual(got[name].dims, want[name].dims.map(Number));
        assert.deepEqual(raw(got[name]), raw(want[name]), `${name}: onnxruntime-node's bytes`);
      }
      assert.equal(got[name].type, whole[name].type);
      assert.deepEqual(got[name].dims, whole[name].dims);
      assert.deepEqual(raw(got[name]), raw(whole[name]), `${name}: the whole table's bytes`);
      got[name].dispose();
      whole[name].dispose();
    }
    scaleTensor.dispose();
    await Promise.all([session.release(), unfused.release(), reference?.release()]);
  });
}

test('DequantizeLinear -> Gather, rewritten: an index out of range is an IndexOutOfRangeError naming the Gather node, and the session keeps working', async () => {
  // (along the last axis; along the gather axis, blocked, the indices flattened)
  for (const c of [CASES[6], CASES.find((k) => k.name.startsWith('int8 blocked along the gather axis'))]) {
    const session = await InferenceSession.create(model(c).bytes);
    const n = c.dims[0];
    await assert.rejects(session.run({ ids: new Tensor('int64', [0n, BigInt(n)], [2]) }),
      (e) => e instanceof IndexOutOfRangeError && new RegExp(`^node 'lookup' \\(Gather\\): .*index ${n} `).test(e.message), c.name);
    const { out } = await session.run({ ids: new Tensor('int64', [BigInt(n - 1), BigInt(-n)], [2]) });
    assert.deepEqual(out.dims, [2, c.dims[1]]);
    out.dispose();
    await session.release();
  }
});

test('DequantizeLinear -> Gather kept in its file: float8, 2-bit and 4-bit tables gathered by onnx-wasm Gather read by rows, the same bytes as in memory', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'onnx-wasm-dq-file-'));
  try {
    const names = ['int2 blocked (block 4)', 'float8e4m3fn blocked (block 4), opset 21', 'uint4 blocked with block 24'];
    const chosen = CASES.filter((k) => names.some((n) => k.name.startsWith(n)));
    assert.equal(chosen.length, names.length);
    for (const c of chosen) {
      const path = join(dir, 'model.onnx');
      writeFileSync(path, model(c, false, dir).bytes);
      const feeds = () => ({ ids: new Tensor('int64', ids(c.dims[0], [2, 3], 7), [2, 3]) });
      const inMemory = await InferenceSession.create(path, { externalDataMode: 'memory' });
      const inFile = await InferenceSession.create(path, { externalDataMode: 'lazy' });
      assert.equal(inFile.valueInfo('table')?.storage, 'file', c.name);
      assert.ok(!inFile.nodes.slice(0, 1).some((n) => n.opType === 'DequantizeLinear'), `${c.name}: rewritten`);
      const [a, b] = [await inMemory.run(feeds()), await inFile.run(feeds())];
      assert.deepEqual(b.out.dims, a.out.dims);
      assert.deepEqual(raw(b.out), raw(a.out), c.name);
      a.out.dispose();
      b.out.dispose();
      await Promise.all([inMemory.release(), inFile.release()]);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// 262,144 x 4,608 int4 codes (576 MiB) with float32 scales, block 128 (36 MiB): as floats the table
// would be 4.5 GiB, more than wasm32 memory holds. The codes and scales are external data in a
// sparse file (zeros but for the rows written below), so the test writes 4 rows, not 612 MiB.
const BIG = { rows: 262144, cols: 4608, block: 128 };
test('a blocked int4 table that would not fit in wasm memory dequantized (576 MiB, 4.5 GiB as floats): DequantizeLinear -> Gather runs in memory at its quantized size, and kept in its file', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'onnx-wasm-dq-big-'));
  try {
    const rowBytes = BIG.cols / 2, blocks = BIG.cols / BIG.block, codesBytes = BIG.rows * rowBytes;
    const file = openSync(join(dir, 'table.bin'), 'w');
    const written = [0, 77777, BIG.rows - 1];   // (the last row's scales end the file)
    for (const [k, r] of written.entries()) {
      writeSync(file, bytes(rowBytes, 10 + k), 0, rowBytes, r * rowBytes);
      writeSync(file, scaleBytes('float32', blocks, 20 + k), 0, blocks * 4, codesBytes + r * blocks * 4);
    }
    closeSync(file);
    const external = (name, type, dims, offset, length) => create(TensorProtoSchema, {
      name, dataType: dataType(type), dims: dims.map(BigInt), dataLocation: 1,
      externalData: externalEntries('table.bin', offset, length),
    });
    const modelBytes = toBinary(ModelProtoSchema, create(ModelProtoSchema, {
      irVersion: 10n, opsetImport: [create(OperatorSetIdProtoSchema, { domain: '', version: 21n })],
      graph: create(GraphProtoSchema, {
        name: 'g',
        node: [
          create(NodeProtoSchema, { opType: 'DequantizeLinear', name: 'dq', input: ['table', 'scales'], output: ['dequantized'], attribute: [attribute('block_size', BIG.block)] }),
          create(NodeProtoSchema, { opType: 'Gather', name: 'embed', input: ['dequantized', 'ids'], output: ['out'] }),
        ],
        input: [valueInfo('ids', 'int64', [1, 'seq'])], output: [valueInfo('out', 'float32', null)],
        initializer: [external('table', 'int4', [BIG.rows, BIG.cols], 0, codesBytes), external('scales', 'float32', [BIG.rows, blocks], codesBytes, BIG.rows * blocks * 4)],
      }),
    }));
    const path = join(dir, 'model.onnx');
    writeFileSync(path, modelBytes);
    // The oracle: the rows written, each code (int4, low nibble first) times its block's scale.
    const expected = (r) => {
      const k = written.indexOf(r);
      if (k < 0) return new Float32Array(BIG.cols);
      const codes = bytes(rowBytes, 10 + k), s = new Float32Array(scaleBytes('float32', blocks, 20 + k).buffer);
      return Float32Array.from({ length: BIG.cols }, (_, j) => {
        const nibble = (codes[j >> 1] >> ((j & 1) * 4)) & 15;
        return (nibble >= 8 ? nibble - 16 : nibble) * s[Math.floor(j / BIG.block)];
      });
    };
    const rows = [77777, 0, 5, BIG.rows - 1, -1];
    const want = new Float32Array(rows.length * BIG.cols);
    rows.forEach((r, k) => want.set(expected(r < 0 ? r + BIG.rows : r), k * BIG.cols));
    for (const mode of ['memory', 'lazy']) {
      const before = memoryStats().heapUsed;
      const session = await InferenceSession.create(path, { externalDataMode: mode });
      const held = memoryStats().heapUsed - before;
      assert.deepEqual(session.nodes.map((n) => n.opType), ['GatherBlockQuantized'], 'rewritten');
      const { out } = await session.run({ ids: new Tensor('int64', BigInt64Array.from(rows, BigInt), [1, rows.length]) });
      assert.deepEqual(out.dims, [1, rows.length, BIG.cols]);
      assert.deepEqual(new Uint8Array(out.data.buffer, out.data.byteOffset, out.data.byteLength), new Uint8Array(want.buffer), `${mode}: the rows`);
      out.dispose();
      // What the session holds in wasm memory: the codes and scales as stored, and no more than a
      // megabyte else; kept in its file (the scales too, read with the rows), nothing but that.
      const quantized = codesBytes + BIG.rows * blocks * 4;
      assert.equal(session.valueInfo('table')?.storage, mode === 'memory' ? 'memory' : 'file');
      assert.equal(session.valueInfo('scales')?.storage, mode === 'memory' ? 'memory' : 'file');
      const kept = mode === 'memory' ? quantized : 0;
      assert.ok(held >= kept && held <= kept + 2 ** 20, `${mode}: the session holds ${held} bytes of wasm memory; the quantized table and scales are ${quantized}`);
      assert.ok(memoryStats().memory < 2 ** 30, `wasm memory: ${memoryStats().memory} bytes`);
      await session.release();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
