// js/model/onnx-proto.mjs, the model loader's protobuf decoder:
// - on every model.onnx and input/output .pb of ONNX's backend tests (both suites, all ops, not
//   only ours), the fields it decodes equal what @bufbuild/protobuf with onnx-buf decodes;
// - encodings a generator may use: packed and unpacked repeated fields, negative int32 and int64,
//   64-bit values, unknown fields of every wire type (groups too), fields in any order;
// - malformed bytes: an Error saying what and where, never a hang or a wrong value.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { create, fromBinary, toBinary } from '@bufbuild/protobuf';
import {
  AttributeProtoSchema, GraphProtoSchema, ModelProtoSchema, NodeProtoSchema, OperatorSetIdProtoSchema,
  TensorProtoSchema, TensorShapeProtoSchema, TypeProtoSchema, ValueInfoProtoSchema,
} from 'onnx-buf';
import { decodeModel, decodeTensor } from '../../js/model/onnx-proto.mjs';
import { suiteRoots } from '../support/onnx-test-dir.mjs';

// Fails unless every field of `ours` equals the same field of `theirs` (protobuf-es), recursively.
// A TypeProto that is not a tensor type is compared by its case only (its value is not decoded).
function assertSameFields(ours, theirs, path) {
  if (ours instanceof Uint8Array) {
    assert.ok(theirs instanceof Uint8Array, `${path}: not bytes in protobuf-es`);
    assert.ok(Buffer.from(ours).equals(Buffer.from(theirs)), `${path}: bytes differ`);
  } else if (Array.isArray(ours)) {
    assert.equal(ours.length, theirs?.length, `${path}: lengths differ`);
    ours.forEach((x, i) => assertSameFields(x, theirs[i], `${path}[${i}]`));
  } else if (ours !== null && typeof ours === 'object') {
    assert.ok(theirs !== null && typeof theirs === 'object', `${path}: not a message in protobuf-es`);
    if ('case' in ours && ours.case !== undefined && ours.case !== 'tensorType' && path.endsWith('type.value')) {
      assert.equal(ours.case, theirs.case, `${path}: case`);
      return;
    }
    for (const k of Object.keys(ours)) assertSameFields(ours[k], theirs[k], `${path}.${k}`);
  } else if (!(Number.isNaN(ours) && Number.isNaN(theirs))) {
    assert.equal(ours, theirs, path);
  }
}

function protoFiles(dir, out = []) {
  for (const f of readdirSync(dir)) {
    const p = join(dir, f);
    if (statSync(p).isDirectory()) protoFiles(p, out);
    else if (/\.(onnx|pb)$/.test(f)) out.push(p);
  }
  return out;
}

describe('every file of ONNX\'s backend tests decodes as protobuf-es decodes it', () => {
  for (const [suite, root] of Object.entries(suiteRoots())) {
    test(suite, { skip: root ? false : `${suite} is not on this machine (tests/support/onnx-test-dir.mjs says where it is looked for)` }, () => {
      const files = protoFiles(root);
      assert.ok(files.length >= 50, `only ${files.length} files under ${root}`);
      let models = 0;
      for (const f of files) {
        const bytes = readFileSync(f);
        const isModel = f.endsWith('.onnx');
        // Some .pb files of the suites hold a SequenceProto or OptionalProto (the tests of those
        // types); only what protobuf-es reads as a TensorProto is compared as one.
        let theirs;
        try { theirs = fromBinary(isModel ? ModelProtoSchema : TensorProtoSchema, bytes); } catch { continue; }
        assertSameFields(isModel ? decodeModel(bytes) : decodeTensor(bytes), theirs, f.slice(root.length));
        models += isModel;
      }
      assert.ok(models >= 20, `${models} models compared`);
    });
  }
});

describe('encodings', () => {
  const tensor = create(TensorProtoSchema, {
    name: 'é t', dims: [0n, 3n, 2n ** 62n, -(2n ** 63n)], dataType: 6, int32Data: [-1, 2 ** 31 - 1, -(2 ** 31), 0],
    int64Data: [-1n, 2n ** 63n - 1n, -(2n ** 63n)], uint64Data: [2n ** 64n - 1n, 0n, 2n ** 53n + 1n],
    floatData: [1.5, -0, Infinity], doubleData: [Math.PI, -1e300], stringData: [new Uint8Array([0, 255]), new Uint8Array(0)],
    rawData: new Uint8Array([1, 2, 3]), dataLocation: 1, externalData: [{ key: 'location', value: 'w.bin' }, { key: 'offset', value: '16' }],
  });
  const packed = toBinary(TensorProtoSchema, tensor);

  test('negative and 64-bit integers, floats, bytes, nested entries (packed repeated fields)', () => {
    assertSameFields(decodeTensor(packed), tensor, 'tensor');
    assert.deepEqual(decodeTensor(packed).int32Data, [-1, 2 ** 31 - 1, -(2 ** 31), 0]);
    assert.deepEqual(decodeTensor(packed).uint64Data, [2n ** 64n - 1n, 0n, 2n ** 53n + 1n]);
  });

  // Hand-encoded: key = field << 3 | wire type.
  const varint = (v) => { const out = []; let x = BigInt.asUintN(64, BigInt(v)); do { const b = Number(x & 127n); x >>= 7n; out.push(x ? b | 128 : b); } while (x); return out; };
  const key = (field, wire) => varint(field * 8 + wire);
  const len = (field, bytes) => [...key(field, 2), ...varint(bytes.length), ...bytes];

  test('repeated scalars not packed, fields out of order, a field given twice (the last wins)', () => {
    const bytes = new Uint8Array([
      ...key(7, 0), ...varint(-5), ...key(1, 0), ...varint(4), ...key(7, 0), ...varint(9),
      ...key(2, 0), ...varint(1), ...key(4, 5), 0, 0, 0xc0, 0x3f, ...key(2, 0), ...varint(7), ...key(1, 0), ...varint(2),
    ]);
    const t = decodeTensor(bytes);
    assert.deepEqual(t.int64Data, [-5n, 9n]);
    assert.deepEqual(t.dims, [4n, 2n]);
    assert.deepEqual(t.floatData, [1.5]);
    assert.equal(t.dataType, 7);
    assertSameFields(t, fromBinary(TensorProtoSchema, bytes), 'tensor');
  });

  // protobuf-es reads a known field by its declared type whatever the wire type says.
  test('a known field with another wire type is skipped as an unknown field (as protobuf\'s C++ parser does)', () => {
    assert.equal(decodeTensor(new Uint8Array([...len(2, [7]), ...key(2, 0), 5])).dataType, 5);
    assert.equal(decodeTensor(new Uint8Array([...len(2, [7])])).dataType, 0);
    assert.deepEqual(decodeTensor(new Uint8Array([...key(8, 0), 3, ...len(8, [104])])).name, 'h');
    assert.deepEqual(decodeTensor(new Uint8Array([...key(1, 5), 1, 0, 0, 0, ...key(1, 0), 4])).dims, [4n]);
    assert.deepEqual(decodeModel(new Uint8Array([...len(7, [...key(1, 0), 1])])).graph.node, []);
  });

  test('unknown fields of every wire type are skipped, groups included', () => {
    const bytes = new Uint8Array([
      ...key(99, 0), ...varint(2n ** 64n - 1n), ...key(98, 1), 1, 2, 3, 4, 5, 6, 7, 8, ...len(97, [1, 2, 3]), ...key(96, 5), 1, 2, 3, 4,
      ...key(95, 3), ...key(1, 0), 5, ...key(94, 3), ...key(94, 4), ...key(95, 4),
      ...key(2, 0), ...varint(3),
    ]);
    assert.equal(decodeTensor(bytes).dataType, 3);
    assert.equal(fromBinary(TensorProtoSchema, bytes).dataType, 3);
  });

  test('a whole model: graph, nodes with every attribute kind the loader reads, types and shapes', () => {
    const model = create(ModelProtoSchema, {
      irVersion: 10n, producerName: 'p', opsetImport: [create(OperatorSetIdProtoSchema, { domain: '', version: 21n })],
      graph: create(GraphProtoSchema, {
        name: 'g',
        node: [create(NodeProtoSchema, {
          opType: 'Gather', input: ['a', ''], output: ['b'], name: 'n', domain: 'ai.onnx',
          attribute: [
            create(AttributeProtoSchema, { name: 'axis', type: 2, i: -1n }),
            create(AttributeProtoSchema, { name: 'f', type: 1, f: 0.25 }),
            create(AttributeProtoSchema, { name: 'fs', type: 6, floats: [1, 2] }),
            create(AttributeProtoSchema, { name: 'is', type: 7, ints: [-(2n ** 40n), 3n] }),
            create(AttributeProtoSchema, { name: 's', type: 3, s: new Uint8Array([104, 105]) }),
            create(AttributeProtoSchema, { name: 'ss', type: 8, strings: [new Uint8Array([120])] }),
            create(AttributeProtoSchema, { name: 't', type: 4, t: tensor }),
            create(AttributeProtoSchema, { name: 'g', type: 5, g: create(GraphProtoSchema, { name: 'body' }) }),
          ],
        })],
        initializer: [tensor],
        input: [create(ValueInfoProtoSchema, {
          name: 'a',
          type: create(TypeProtoSchema, { value: { case: 'tensorType', value: { elemType: 1, shape: create(TensorShapeProtoSchema, { dim: [{ value: { case: 'dimValue', value: 4n } }, { value: { case: 'dimParam', value: 'batch' } }, {}] }) } } }),
        })],
        output: [create(ValueInfoProtoSchema, { name: 'b', type: create(TypeProtoSchema, { value: { case: 'sequenceType', value: {} } }) })],
      }),
    });
    const bytes = toBinary(ModelProtoSchema, model);
    const ours = decodeModel(bytes);
    assertSameFields(ours, fromBinary(ModelProtoSchema, bytes), 'model');
    assert.equal(ours.graph.output[0].type.value.case, 'sequenceType');
    assert.equal(ours.graph.node[0].attribute.length, 8);   // the graph attribute is kept, its body not decoded
  });
});

describe('malformed bytes: an Error naming what is wrong and where', () => {
  const CASES = [
    ['a truncated varint', [0x08, 0x80], /truncated varint at byte 2/],
    ['a varint of 11 bytes', [0x08, ...Array(10).fill(0x80), 0x01], /varint longer than 10 bytes/],
    ['a length beyond the end', [0x4a, 0x05, 1, 2], /length 5 beyond the end of the data at byte 2/],
    ['a huge length', [0x4a, 0xff, 0xff, 0xff, 0xff, 0x0f], /beyond the end of the data/],
    ['a truncated fixed32 float', [0x25, 0, 0], /truncated float/],
    ['a truncated fixed64 of an unknown field', [0x81, 0x06, 1, 2], /truncated fixed64/],
    ['wire type 6 (an unknown field)', [0x9e, 0x06], /invalid wire type 6/],
    ['field number 0', [0x00, 0x01], /field number 0/],
    ['an unterminated group', [0x1b, 0x08, 0x01], /unterminated group 3/],
    ['a group closed by another group\'s end', [0x1b, 0x24], /end of group 4 inside group 3/],
    ['a packed field cut inside', [0x0a, 0x02, 0x80, 0x80], /truncated varint/],
  ];
  for (const [what, bytes, message] of CASES) {
    test(what, () => {
      assert.throws(() => decodeTensor(new Uint8Array(bytes)), message);
      assert.throws(() => fromBinary(TensorProtoSchema, new Uint8Array(bytes)), 'protobuf-es refuses it too');
    });
  }
  test('groups nested past 32 levels', () => {
    const open = Array.from({ length: 40 }, () => [0x1b]).flat(), close = Array.from({ length: 40 }, () => [0x1c]).flat();
    assert.throws(() => decodeTensor(new Uint8Array([...open, ...close])), /groups nested too deeply/);
  });
  test('a model whose graph is not a message', () => {
    assert.throws(() => decodeModel(new Uint8Array([0x3a, 0x02, 0x18, 0x80])), /truncated varint at byte 4/);
  });
});
