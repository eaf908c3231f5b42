// runNode through the public API: every version of Gather, Flatten and Reshape reached through
// opsets 1..28, the types each version allows and refuses (lists copied from the ONNX operator
// pages, not from the registry), every attribute rule, index forms, node and input forms, memory
// sharing, and exact bytes for every element type. Expected values come from hand-written tables
// or from the tiny reference implementations below.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { create } from '@bufbuild/protobuf';
import { NodeProtoSchema, AttributeProtoSchema } from 'onnx-buf';
import { Tensor as OrtTensor } from 'onnxruntime-common';
import {
  init, threadsReady, Tensor, runNode, opVersions, TypeConstraintError, AttributeError, ShapeError, InputError,
  IndexOutOfRangeError, OpsetError, InvalidArgumentError, UnsupportedOpError,
} from '../../js/index.mjs';
import {
  SPEC, MAX_OPSET, parseTypes, onnxName, versionAt, allowedAt, opsetsOf, ALL_TYPES, patterned, bytesOf, outputElements, refGather,
} from '../support/onnx-spec.mjs';

// ONNXWASM_TEST_INIT='{"threads":false}' (or '{"simd":false}') runs this file on another build.
await init(JSON.parse(process.env.ONNXWASM_TEST_INIT ?? '{}'));
// In the threads build the workers load in the background after init(); wait for them so that
// the large gathers below take the threaded path (they are checked the same either way).
await threadsReady();

const int64s = (values, dims = [values.length]) => new Tensor('int64', values.map(BigInt), dims);
const int32s = (values, dims = [values.length]) => new Tensor('int32', values, dims);
const f32 = (values, dims) => new Tensor('float32', values, dims);
const values = (t) => Array.from(t.data);

// Inputs that satisfy each version, for the version and type tests.
function inputsFor(op, since, type) {
  const { tensor } = patterned(type, [2, 3]);
  if (op === 'Gather') return { node: { opType: op }, inputs: [tensor, int64s([1, 0])] };
  if (op === 'Flatten') return { node: { opType: op }, inputs: [tensor] };
  if (since === 1) return { node: { opType: op, attributes: { shape: [3, 2] } }, inputs: [tensor] };
  return { node: { opType: op }, inputs: [tensor, int64s([3, 2])] };
}

// ---------------------------------------------------------------------------------------------
describe('the opset selects the newest version whose since is not above it (opsets 1..28)', () => {
  for (const op of Object.keys(SPEC)) {
    test(op, () => {
      for (let opset = 1; opset <= MAX_OPSET; ++opset) {
        const since = versionAt(op, opset);
        const { node, inputs } = inputsFor(op, since, 'float32');
        // An unknown attribute makes the runtime name the version in force.
        const probe = { ...node, attributes: { ...node.attributes, zzz: 1 } };
        assert.throws(() => runNode(probe, inputs, { opset }),
          (e) => e instanceof AttributeError && e.message.startsWith(`${op}-${since} has no attribute 'zzz'`),
          `${op} at opset ${opset} should be ${op}-${since}`);
      }
    });
  }
  test('the default opset is 28', () => {
    assert.throws(() => runNode({ opType: 'Reshape', attributes: { zzz: 1 } }, [f32([1], [1]), int64s([1])]),
      (e) => e instanceof AttributeError && e.message.startsWith('Reshape-25 '));
  });
  test('opsets outside 1..28 are refused for every op', () => {
    for (const op of Object.keys(SPEC))
      for (const opset of [0, -1, 29, 100]) {
        const { node, inputs } = inputsFor(op, 5, 'float32');
        assert.throws(() => runNode(node, inputs, { opset }),
          (e) => e instanceof OpsetError && e.message === `${op}: opset ${opset} is outside the supported range [1, 28]`);
      }
    assert.throws(() => runNode({ opType: 'Flatten' }, [f32([1], [1])], { opset: 13.5 }), InvalidArgumentError);
    assert.throws(() => runNode({ opType: 'Flatten' }, [f32([1], [1])], { opset: '13' }), InvalidArgumentError);
  });
  test('opVersions() matches the spec table (versions, ranges and type lists) in the default domain', () => {
    const table = opVersions().filter((v) => v.domain === '' && v.op in SPEC);
    const expected = [];
    for (const [op, versions] of Object.entries(SPEC))
      versions.forEach(([since, types], i) => expected.push({
        op, since, until: i + 1 < versions.length ? versions[i + 1][0] - 1 : MAX_OPSET, types: parseTypes(types).sort(),
      }));
    assert.deepEqual(table.map((v) => ({ op: v.op, since: v.since, until: v.until, types: [...v.inputs[0].types].sort() })), expected);
  });
});

// ---------------------------------------------------------------------------------------------
describe('allowed and refused element types, version by version, at every opset in its range', () => {
  for (const op of Object.keys(SPEC)) {
    for (const [since] of SPEC[op]) {
      test(`${op}-${since} (opsets ${opsetsOf(op, since).join(', ')})`, () => {
        const allowed = allowedAt(op, since);
        for (const opset of opsetsOf(op, since)) {
          for (const type of ALL_TYPES) {
            const { node, inputs } = inputsFor(op, since, type);
            const [data] = inputs;
            if (allowed.has(type)) {
              const [out] = runNode(node, inputs, { opset });
              assert.equal(out.type, type);
              if (op === 'Gather') {
                assert.deepEqual(out.dims, [2, 3]);
                const input = patterned(type, [2, 3]);
                const ref = refGather(input.elements, [2, 3], [1, 0], [2], 0);
                assert.deepEqual(outputElements(out), ref.elements, `${op}-${since} ${type}`);
              } else {
                assert.deepEqual(out.dims, op === 'Flatten' ? [2, 3] : [3, 2]);
                assert.ok(out.sharesMemoryWith(data));
                if (type === 'string') assert.deepEqual(out.data, data.data);
                else assert.deepEqual(bytesOf(out), bytesOf(data));
              }
              out.dispose();
            } else {
              // The first later version that allows the type, as the message should suggest.
              const later = SPEC[op].find(([s, list]) => s > since && parseTypes(list).includes(type));
              assert.throws(() => runNode(node, inputs, { opset }), (e) => {
                assert.ok(e instanceof TypeConstraintError, `${type} at opset ${opset}: ${e}`);
                assert.equal(e.code, 'ERR_TYPE');
                assert.ok(e.message.startsWith(`${op}-${since}: input 0 ('${op === 'Flatten' ? 'input' : 'data'}') has type tensor(${onnxName(type)}), which ${op}-${since} does not allow; T must be one of `), e.message);
                for (const t of allowed) assert.ok(e.message.includes(`tensor(${onnxName(t)})`), `lists ${t}`);
                if (later) assert.ok(e.message.endsWith(`(tensor(${onnxName(type)}) needs opset ${later[0]} or later)`), e.message);
                else assert.ok(!e.message.includes('needs opset'), e.message);
                return true;
              });
            }
            inputs.forEach((t) => t.dispose());
          }
        }
      });
    }
  }
  test('Gather indices must be int32 or int64 (Tind), at every version', () => {
    for (const opset of [1, 11, 13, 28])
      for (const type of ALL_TYPES) {
        const { tensor: idx } = patterned(type, [0]);
        const run = () => runNode({ opType: 'Gather' }, [f32([1, 2], [2]), idx], { opset });
        if (type === 'int32' || type === 'int64') assert.deepEqual(run()[0].dims, [0]);
        else assert.throws(run, (e) => e instanceof TypeConstraintError &&
          e.message.includes(`input 1 ('indices') has type tensor(${onnxName(type)})`) &&
          e.message.includes('Tind must be one of tensor(int32), tensor(int64)'));
      }
  });
  test('Reshape shape must be int64, at every version from 5', () => {
    for (const opset of [5, 13, 14, 19, 21, 23, 24, 25, 28])
      for (const type of ALL_TYPES.filter((t) => t !== 'int64')) {
        const { tensor: shape } = patterned(type, [1]);
        assert.throws(() => runNode({ opType: 'Reshape' }, [f32([1, 2], [2]), shape], { opset }),
          (e) => e instanceof TypeConstraintError && e.message.includes(`input 1 ('shape') has type tensor(${onnxName(type)})`));
      }
  });
});

// ---------------------------------------------------------------------------------------------
describe('Gather values', () => {
  // From the spec page's examples, expected output written by hand.
  test('spec example 1 (axis 0) and example 2 (axis 1), every version', () => {
    for (const opset of [1, 10, 11, 12, 13, 28]) {
      const data = f32([1.0, 1.2, 2.3, 3.4, 4.5, 5.7], [3, 2]);
      const [a] = runNode({ opType: 'Gather' }, [data, int64s([0, 1, 1, 2], [2, 2])], { opset });
      assert.deepEqual(a.dims, [2, 2, 2]);
      assert.deepEqual(values(a), [1.0, 1.2, 2.3, 3.4, 2.3, 3.4, 4.5, 5.7].map(Math.fround));
      const data2 = f32([1.0, 1.2, 1.9, 2.3, 3.4, 3.9, 4.5, 5.7, 5.9], [3, 3]);
      const [b] = runNode({ opType: 'Gather', attributes: { axis: 1 } }, [data2, int32s([0, 2], [1, 2])], { opset });
      assert.deepEqual(b.dims, [3, 1, 2]);
      assert.deepEqual(values(b), [1.0, 1.9, 2.3, 3.9, 4.5, 5.9].map(Math.fround));
    }
  });

  const rand = (seed) => () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
  const randomIndices = (n, size, seed) => { const r = rand(seed); return Array.from({ length: n }, () => Math.floor(r() * 2 * size) - size); };
  // [name, data dims, indices, indices dims, axis]
  const CASES = [
    ['scalar index, axis 0 of (P, Q)', [3, 4], [2], [], 0],
    ['scalar index, axis 1 of (P, Q, R)', [2, 3, 4], [-1], [], 1],
    ['(R, S) indices, axis 0', [3, 2], [0, 1, 1, 2], [2, 2], 0],
    ['(R, S) indices, axis 1', [2, 3], [0, 2, -1, -3], [2, 2], 1],
    ['negative indices', [5], [-1, -5, 0, 4, -2], [5], 0],
    ['repeated indices', [3], [1, 1, 1, 0], [4], 0],
    ['axis -1 of rank 3', [2, 3, 4], [3, 0], [2], -1],
    ['axis -r of rank 3', [2, 3, 4], [1], [1], -3],
    ['axis 2 of rank 4 with 2-D indices', [2, 2, 3, 2], [2, 0, 1, 1, 0, 2], [3, 2], 2],
    ['axis r-1 of rank 1', [4], [3, 2], [2], 0],
    ['empty indices', [3, 2], [], [0], 0],
    ['empty indices of dims (2, 0)', [3, 2], [], [2, 0], 1],
    ['data with a zero dimension before the axis', [0, 3], [2, -3], [2], 1],
    ['data with a zero dimension after the axis', [3, 0], [2, 0, 1], [3], 0],
    ['3-D indices', [4, 2], [0, 1, 2, 3, -1, -2, -3, -4], [2, 2, 2], 0],
    ['100 random indices (more than 64)', [50, 3], randomIndices(100, 50, 7), [100], 0],
    ['100 random indices on axis 1', [3, 50], randomIndices(100, 50, 9), [10, 10], 1],
    // Outputs over 256 KiB (split across threads in the threads build): by rows, then by indices.
    ['large element gather by rows', [300, 500], randomIndices(300, 500, 3), [300], 1],
    ['large element gather by indices', [100000], randomIndices(90000, 100000, 5), [90000], 0],
    ['large slice gather', [1000, 100], randomIndices(1000, 1000, 11), [1000], 0],
  ];
  for (const [name, dims, indices, indexDims, axis] of CASES) {
    test(name, () => {
      const { tensor: data, elements } = patterned('int32', dims, 3);
      const ref = refGather(elements, dims, indices, indexDims, axis);
      for (const makeIndices of [int32s, int64s])
        for (const opset of [1, 11, 13, 28]) {
          const idx = makeIndices(indices, indexDims);
          const [out] = runNode({ opType: 'Gather', attributes: { axis } }, [data, idx], { opset });
          assert.deepEqual(out.dims, ref.dims);
          assert.equal(out.type, 'int32');
          assert.deepEqual(outputElements(out), ref.elements);
          assert.equal(out.sharesMemoryWith(data), false);
          out.dispose();
          idx.dispose();
        }
    });
  }

  test('axis accepted in [-r, r-1] and refused outside, for ranks 1 to 4', () => {
    for (const r of [1, 2, 3, 4])
      for (const opset of [1, 11, 13]) {
        const dims = [2, 3, 2, 2].slice(0, r);
        const { tensor: data, elements } = patterned('float64', dims);
        for (let axis = -r - 2; axis <= r + 1; ++axis) {
          const run = () => runNode({ opType: 'Gather', attributes: { axis } }, [data, int64s([1])], { opset });
          if (axis >= -r && axis <= r - 1) {
            const [out] = run();
            const ref = refGather(elements, dims, [1], [1], axis);
            assert.deepEqual(out.dims, ref.dims);
            assert.deepEqual(outputElements(out), ref.elements);
          } else {
            assert.throws(run, (e) => e instanceof AttributeError &&
              e.message === `Gather-${versionAt('Gather', opset)}: axis ${axis} is outside [${-r}, ${r - 1}] for data of rank ${r}`);
          }
        }
      }
  });

  test('indices outside [-s, s-1] are refused, int32 and int64, naming position and range', () => {
    // [dims, axis, indices, bad position, bad value, axis size]
    const CASES = [
      [[3, 2], 0, [0, 3], 1, 3, 3],
      [[3, 2], 0, [-4], 0, -4, 3],
      [[3, 2], 1, [1, 0, 2], 2, 2, 2],
      [[3, 2], -1, [-3], 0, -3, 2],
      [[0, 4], 0, [0], 0, 0, 0],
      [[5], 0, [...Array(70).fill(1), 5], 70, 5, 5],   // past the 64 indices held without allocation
    ];
    for (const [dims, axis, indices, pos, value, size] of CASES)
      for (const make of [int32s, int64s])
        for (const opset of [1, 11, 13]) {
          const data = patterned('uint8', dims).tensor;
          const a = axis < 0 ? axis + dims.length : axis;
          assert.throws(() => runNode({ opType: 'Gather', attributes: { axis } }, [data, make(indices)], { opset }),
            (e) => e instanceof IndexOutOfRangeError && e.code === 'ERR_INDEX' && e.message ===
              `Gather-${versionAt('Gather', opset)}: index ${value} at position ${pos} is outside [${-size}, ${size - 1}] for axis ${a} of size ${size}`);
        }
  });

  test('int64 indices beyond 32 bits are refused, not wrapped', () => {
    const data = f32([1, 2, 3], [3]);
    for (const big of [2n ** 32n, 2n ** 32n + 1n, -(2n ** 32n), 2n ** 62n])
      assert.throws(() => runNode({ opType: 'Gather' }, [data, new Tensor('int64', [big], [1])]),
        (e) => e instanceof IndexOutOfRangeError && e.message.includes(`index ${big} at position 0`));
  });

  test('data must have rank >= 1', () => {
    assert.throws(() => runNode({ opType: 'Gather' }, [f32([1], []), int64s([0], [])]),
      (e) => e instanceof ShapeError && e.message === 'Gather-13: data must have rank >= 1, got a scalar');
  });

  test('strings through Gather', () => {
    const data = new Tensor('string', ['zero', 'one', 'two', 'three', 'four', 'five'], [3, 2]);
    const [a] = runNode({ opType: 'Gather' }, [data, int64s([2, -3], [2])], { opset: 1 });
    assert.deepEqual(a.dims, [2, 2]);
    assert.deepEqual(a.data, ['four', 'five', 'zero', 'one']);
    const [b] = runNode({ opType: 'Gather', attributes: { axis: 1 } }, [data, int32s([1], [])], { opset: 13 });
    assert.deepEqual(b.dims, [3]);
    assert.deepEqual(b.data, ['one', 'three', 'five']);
    assert.equal(b.sharesMemoryWith(data), false);
  });
});

// ---------------------------------------------------------------------------------------------
describe('Flatten', () => {
  // [input dims, axis (undefined: the default 1), output dims]
  const CASES = [
    [[2, 3, 4], undefined, [2, 12]],
    [[2, 3, 4], 0, [1, 24]],
    [[2, 3, 4], 1, [2, 12]],
    [[2, 3, 4], 2, [6, 4]],
    [[2, 3, 4], 3, [24, 1]],
    [[5], 0, [1, 5]],
    [[5], 1, [5, 1]],
    [[], 0, [1, 1]],
    [[2, 0, 3], 1, [2, 0]],
    [[2, 0, 3], 2, [0, 3]],
    [[5, 4, 3, 2], undefined, [5, 24]],
  ];
  const NEGATIVE = [
    [[2, 3, 4], -1, [6, 4]],
    [[2, 3, 4], -2, [2, 12]],
    [[2, 3, 4], -3, [1, 24]],
    [[2, 3, 4, 5], -4, [1, 120]],
    [[2, 3, 4, 5], -1, [24, 5]],
    [[5], -1, [1, 5]],
  ];
  for (const [since] of SPEC.Flatten) {
    test(`Flatten-${since}: values, and axis in ${since < 11 ? '[0, r]' : '[-r, r]'}`, () => {
      const cases = since < 11 ? CASES : [...CASES, ...NEGATIVE];
      for (const opset of opsetsOf('Flatten', since)) {
        for (const [dims, axis, expected] of cases) {
          const { tensor } = patterned('float32', dims);
          const [out] = runNode({ opType: 'Flatten', attributes: axis === undefined ? {} : { axis } }, [tensor], { opset });
          assert.deepEqual(out.dims, expected, `dims ${dims} axis ${axis}`);
          assert.ok(out.sharesMemoryWith(tensor));
          assert.equal(out.data.byteOffset, tensor.data.byteOffset);
          assert.deepEqual(values(out), values(tensor));
        }
        // Refused axes: beyond r, below -r, and any negative axis before version 11.
        for (const [dims, axis] of [[[2, 3], 3], [[2, 3], -3], [[2, 3], -1], [[], 1], [[], -1], [[4], 2], [[2, 3, 4], -4]]) {
          const r = dims.length;
          if (since >= 11 && axis >= -r && axis <= r) continue;
          const lo = since < 11 ? 0 : -r;
          const { tensor } = patterned('float32', dims);
          assert.throws(() => runNode({ opType: 'Flatten', attributes: { axis } }, [tensor], { opset }),
            (e) => e instanceof AttributeError && e.message ===
              `Flatten-${since}: axis ${axis} is outside [${lo}, ${r}] for input of rank ${r}${since < 11 && axis < 0 ? ' (negative axes need opset 11 or later)' : ''}`);
        }
      }
    });
  }
  test('strings through Flatten', () => {
    const t = new Tensor('string', ['a', 'b', 'c', 'd', 'e', 'f'], [1, 2, 3]);
    const [out] = runNode({ opType: 'Flatten', attributes: { axis: 2 } }, [t], { opset: 9 });
    assert.deepEqual(out.dims, [2, 3]);
    assert.deepEqual(out.data, ['a', 'b', 'c', 'd', 'e', 'f']);
    assert.ok(out.sharesMemoryWith(t));
  });
});

// ---------------------------------------------------------------------------------------------
describe('Reshape', () => {
  // [input dims, shape, output dims] for allowzero = 0 (every version).
  const CASES = [
    [[2, 3], [3, 2], [3, 2]],
    [[2, 3], [6], [6]],
    [[2, 3], [-1], [6]],
    [[2, 3], [0, -1], [2, 3]],
    [[2, 3], [-1, 0], [2, 3]],
    [[2, 3, 4], [0, 0, -1], [2, 3, 4]],
    [[2, 3, 4], [0, -1], [2, 12]],
    [[2, 3, 4], [4, 0, 2], [4, 3, 2]],
    [[2, 3], [1, -1, 1], [1, 6, 1]],
    [[2, 3], [1, 2, 1, 3], [1, 2, 1, 3]],
    [[1, 1], [], []],
    [[], [], []],
    [[], [1, 1, 1], [1, 1, 1]],
    [[], [-1], [1]],
    [[0, 3], [-1, 3], [0, 3]],
    [[2, 0], [0, 0], [2, 0]],
    [[0, 3], [0, 3], [0, 3]],
    [[4, 6], [2, -1, 3], [2, 4, 3]],
  ];
  // [input dims, shape, allowzero, message after the label]
  const REFUSED = [
    [[2, 3], [-1, -1], 0, ': shape [-1, -1] has more than one -1; at most one dimension can be inferred'],
    [[2, 3], [2, -2], 0, ': shape value -2 at position 1 is invalid; values must be >= -1'],
    [[2, 3], [4], 0, ': cannot reshape [2, 3] to [4]: the element counts differ (6 vs 4)'],
    [[2, 3], [4, -1], 0, ': cannot reshape [2, 3] to [4, -1]: 6 elements do not divide into the known dimensions\' product 4'],
    [[2, 3], [0, 0, 0], 0, ': shape value 0 at position 2 copies input dimension 2, but the input [2, 3] has rank 2'],
    [[2], [], 0, ': cannot reshape [2] to []: the element counts differ (2 vs 1)'],
    [[0, 3], [3, 0], 0, ': cannot reshape [0, 3] to [3, 0]: the element counts differ (0 vs 9)'],
    [[2, 0], [-1, 0], 0, ': cannot reshape [2, 0] to [-1, 0]: the -1 cannot be inferred when the other dimensions multiply to 0'],
  ];
  // allowzero = 1 (version 14 and later): a 0 is a zero dimension.
  const ALLOWZERO = [
    [[0, 3], [3, 0], [3, 0]],
    [[0, 3], [0, 3], [0, 3]],
    [[2, 3], [3, 2], [3, 2]],
    [[2, 3], [-1], [6]],
    [[0], [0, 5, 0], [0, 5, 0]],
  ];
  const ALLOWZERO_REFUSED = [
    [[0, 3], [0, -1], ': shape [0, -1] has both 0 and -1, which allowzero=1 forbids (the -1 could not be determined)'],
    [[2, 3], [-1, 0], ': shape [-1, 0] has both 0 and -1, which allowzero=1 forbids (the -1 could not be determined)'],
    [[2, 3], [0, 6], ': cannot reshape [2, 3] to [0, 6]: the element counts differ (6 vs 0)'],
  ];

  for (const [since] of SPEC.Reshape) {
    test(`Reshape-${since}: values and refused shapes`, () => {
      for (const opset of opsetsOf('Reshape', since)) {
        const run = (tensor, shape, attrs = {}) => (since === 1
          ? runNode({ opType: 'Reshape', attributes: { shape, ...attrs } }, [tensor], { opset })
          : runNode({ opType: 'Reshape', attributes: attrs }, [tensor, int64s(shape)], { opset }));
        for (const [dims, shape, expected] of CASES) {
          const { tensor } = patterned('float16', dims);
          const [out] = run(tensor, shape);
          assert.deepEqual(out.dims, expected, `${dims} -> ${shape}`);
          assert.equal(out.type, 'float16');
          assert.ok(out.sharesMemoryWith(tensor));
          assert.deepEqual(values(out), values(tensor));
        }
        for (const [dims, shape, , message] of REFUSED) {
          const { tensor } = patterned('float16', dims);
          assert.throws(() => run(tensor, shape), (e) => e instanceof ShapeError && e.message === `Reshape-${since}${message}`);
        }
        if (since >= 14) {
          for (const [dims, shape, expected] of ALLOWZERO) {
            const { tensor } = patterned('float16', dims);
            const [out] = run(tensor, shape, { allowzero: 1 });
            assert.deepEqual(out.dims, expected);
            // allowzero: 0 behaves as without it
            const [plain] = run(tensor, dims.length ? dims.map(() => 0) : [], { allowzero: 0 });
            assert.deepEqual(plain.dims, dims);
          }
          for (const [dims, shape, message] of ALLOWZERO_REFUSED) {
            const { tensor } = patterned('float16', dims);
            assert.throws(() => run(tensor, shape, { allowzero: 1 }), (e) => e instanceof ShapeError && e.message === `Reshape-${since}${message}`);
          }
          // Without allowzero, [0, -1] is fine: the 0 copies.
          const [ok] = run(patterned('float16', [2, 3]).tensor, [0, -1], { allowzero: 0 });
          assert.deepEqual(ok.dims, [2, 3]);
        } else {
          const { tensor } = patterned('float16', [2, 3]);
          assert.throws(() => run(tensor, [3, 2], { allowzero: 1 }), (e) => e instanceof AttributeError &&
            e.message === `Reshape-${since} has no attribute 'allowzero'; it allows ${since === 1 ? 'shape, consumed_inputs' : 'none'}`);
        }
      }
    });
  }

  test('Reshape-1 takes its shape as an attribute only', () => {
    for (const opset of [1, 2, 3, 4]) {
      const t = f32([1, 2, 3, 4, 5, 6], [2, 3]);
      const [a] = runNode({ opType: 'Reshape', attributes: { shape: [3, -1], consumed_inputs: [0] } }, [t], { opset });
      assert.deepEqual(a.dims, [3, 2]);
      assert.throws(() => runNode({ opType: 'Reshape' }, [t], { opset }),
        (e) => e instanceof AttributeError && e.message === "Reshape-1: attribute 'shape' (INTS) is required");
      assert.throws(() => runNode({ opType: 'Reshape', attributes: { shape: [6] } }, [t, int64s([6])], { opset }),
        (e) => e instanceof InputError && e.message === 'Reshape-1 takes 1 input, got 2');
      assert.throws(() => runNode({ opType: 'Reshape', attributes: { shape: 6 } }, [t], { opset }),
        (e) => e instanceof AttributeError && e.message === "Reshape-1: attribute 'shape' must be INTS, got INT");
    }
    for (const opset of [5, 28]) {
      const t = f32([1, 2], [2]);
      assert.throws(() => runNode({ opType: 'Reshape', attributes: { shape: [2] } }, [t, int64s([2])], { opset }),
        (e) => e instanceof AttributeError && e.message.includes("has no attribute 'shape'"));
      assert.throws(() => runNode({ opType: 'Reshape', attributes: { shape: [2] } }, [t], { opset }),
        (e) => e instanceof InputError && e.message.endsWith('takes 2 inputs, got 1'));
    }
  });

  test('the shape input must be 1-D', () => {
    const t = f32([1, 2], [2]);
    for (const [shape, text] of [[new Tensor('int64', [2n], []), '[]'], [new Tensor('int64', [2n], [1, 1]), '[1, 1]']])
      assert.throws(() => runNode({ opType: 'Reshape' }, [t, shape]),
        (e) => e instanceof ShapeError && e.message === `Reshape-25: input 'shape' must be a 1-D tensor, got shape ${text}`);
  });

  test('strings through Reshape', () => {
    const t = new Tensor('string', ['a', 'bb', 'ccc', 'dddd'], [4]);
    const [out] = runNode({ opType: 'Reshape' }, [t, int64s([2, 2])], { opset: 5 });
    assert.deepEqual(out.dims, [2, 2]);
    assert.deepEqual(out.data, ['a', 'bb', 'ccc', 'dddd']);
    assert.ok(out.sharesMemoryWith(t));
  });
});

// ---------------------------------------------------------------------------------------------
describe('every element type with exact bytes', () => {
  for (const type of ALL_TYPES) {
    test(type, () => {
      // Reshape and Flatten at the newest opset (every type allowed): same bytes, same memory.
      const { tensor, bytes } = patterned(type, [3, 2, 5], 17);
      const [r] = runNode({ opType: 'Reshape' }, [tensor, int64s([5, -1])]);
      const [f] = runNode({ opType: 'Flatten', attributes: { axis: -1 } }, [r]);
      assert.deepEqual(r.dims, [5, 6]);
      assert.deepEqual(f.dims, [5, 6]);
      for (const out of [r, f]) {
        assert.equal(out.type, type);
        assert.ok(out.sharesMemoryWith(tensor));
        if (type === 'string') assert.deepEqual(out.data, Array.from({ length: 30 }, (_, k) => `s${k + 17}`));
        else assert.deepEqual(bytesOf(out), bytes);
      }
      // Gather where Gather-13 allows the type.
      if (allowedAt('Gather', 13).has(type)) {
        const input = patterned(type, [3, 2, 5], 17);
        for (const axis of [0, 1, 2]) {
          const idx = [[2, 0, -1], [1, -2], [4, 0, 4, -5]][axis];
          const [g] = runNode({ opType: 'Gather', attributes: { axis } }, [input.tensor, int64s(idx)]);
          const ref = refGather(input.elements, [3, 2, 5], idx, [idx.length], axis);
          assert.deepEqual(g.dims, ref.dims);
          assert.deepEqual(outputElements(g), ref.elements);
        }
      }
    });
  }
});

// ---------------------------------------------------------------------------------------------
describe('node forms', () => {
  const data = () => f32([1, 2, 3, 4, 5, 6], [2, 3]);
  const CASES = [
    ['plain { opType, attributes }', { opType: 'Gather', attributes: { axis: 1 } }],
    ['plain, bigint attribute', { opType: 'Gather', attributes: { axis: 1n } }],
    ['NodeProto-shaped with op_type', { op_type: 'Gather', attribute: [{ name: 'axis', type: 2, i: 1n }] }],
    ['NodeProto-shaped with opType', { opType: 'Gather', attribute: [{ name: 'axis', type: 2, i: 1n }] }],
    ['NodeProto-shaped, number i and type name', { opType: 'Gather', attribute: [{ name: 'axis', type: 'INT', i: 1 }] }],
    ['NodeProto-shaped, domain ai.onnx', { opType: 'Gather', domain: 'ai.onnx', attribute: [{ name: 'axis', type: 2, i: 1n }] }],
    ['plain, attributes as a Map', { opType: 'Gather', attributes: new Map([['axis', 1]]) }],
    ['proto3 JSON NodeProto: int64 as a decimal string', { opType: 'Gather', attribute: [{ name: 'axis', type: 'INT', i: '1' }] }],
    ['protobuf-es NodeProto (onnx-buf)', create(NodeProtoSchema, {
      opType: 'Gather', input: ['d', 'i'], output: ['o'],
      attribute: [create(AttributeProtoSchema, { name: 'axis', type: 2, i: 1n })],
    })],
  ];
  for (const [name, node] of CASES) {
    test(name, () => {
      const [out] = runNode(node, [data(), int64s([2, 0])], { opset: 13 });
      assert.deepEqual(out.dims, [2, 2]);
      assert.deepEqual(values(out), [3, 1, 6, 4]);
    });
  }
  test('a NodeProto INT attribute without i is the proto default 0', () => {
    const [out] = runNode({ opType: 'Gather', attribute: [{ name: 'axis', type: 'INT' }] }, [data(), int64s([1])]);
    assert.deepEqual(out.dims, [1, 3]);
    assert.deepEqual(values(out), [4, 5, 6]);
    const [flat] = runNode({ op_type: 'Flatten', attribute: [{ name: 'axis', type: 2, i: null }] }, [data()]);
    assert.deepEqual(flat.dims, [1, 6]);
  });
  test('NodeProto-shaped INTS attribute (Reshape-1) and protobuf-es INTS', () => {
    const [a] = runNode({ op_type: 'Reshape', attribute: [{ name: 'shape', type: 7, ints: [3n, -1n] }] }, [data()], { opset: 1 });
    assert.deepEqual(a.dims, [3, 2]);
    const node = create(NodeProtoSchema, { opType: 'Reshape', attribute: [create(AttributeProtoSchema, { name: 'shape', type: 7, ints: [6n] })] });
    const [b] = runNode(node, [data()], { opset: 4 });
    assert.deepEqual(b.dims, [6]);
    assert.deepEqual(values(b), [1, 2, 3, 4, 5, 6]);
  });
  test('refused node forms', () => {
    const inputs = [data(), int64s([0])];
    const CASES = [
      [null, InvalidArgumentError, /node must be an object/],
      [{ attributes: {} }, InvalidArgumentError, /opType must be a string/],
      [{ opType: 'Gather', domain: 'com.microsoft' }, UnsupportedOpError, /^op 'Gather' of domain 'com.microsoft' is not supported; onnx-wasm runs GatherBlockQuantized there$/],
      [{ opType: 'Gather', domain: 'com.example' }, UnsupportedOpError, /^op 'Gather' of domain 'com.example' is not supported; onnx-wasm runs the domains '' \(ai\.onnx\), 'com.microsoft', 'onnx-wasm'$/],
      [{ opType: 'Gather', domain: 7 }, InvalidArgumentError, /domain must be a string, got 7/],
      [{ opType: 'Gather', attribute: [{ name: 'axis', type: 5 }] }, InvalidArgumentError, /attribute 'axis' has type 5/],
      [{ opType: 'Gather', attribute: [{ name: 'axis', type: 4 }] }, InvalidArgumentError, /^attribute 'axis' is a TENSOR but holds no tensor \(t\)$/],
      [{ opType: 'Gather', attributes: { axis: new Tensor('int64', [0n], [1]) } }, AttributeError, /^Gather-13: attribute 'axis' must be INT, got TENSOR$/],
      // (an int64 beyond 2^53 crosses exactly, as torch's Slice ends = INT64_MAX: the op's rule names it)
      [{ opType: 'Gather', attribute: [{ name: 'axis', type: 2, i: 2n ** 60n }] }, AttributeError, /^Gather-13: axis 1152921504606846976 is outside \[-2, 1\] for data of rank 2$/],
      [{ opType: 'Gather', attributes: { axis: {} } }, InvalidArgumentError, /attribute 'axis' has a value/],
      [{ opType: 'Gather', attributes: { axis: 0.5 } }, AttributeError, /^Gather-13: attribute 'axis' must be INT, got FLOAT$/],
      [{ opType: 'Gather', attributes: { axis: 'x' } }, AttributeError, /^Gather-13: attribute 'axis' must be INT, got STRING$/],
      [{ opType: 'Gather', attributes: { axis: [0] } }, AttributeError, /^Gather-13: attribute 'axis' must be INT, got INTS$/],
      [{ opType: 'Gather', attribute: [{ name: 'axis', type: 1, f: 0 }] }, AttributeError, /must be INT, got FLOAT$/],
    ];
    for (const [node, cls, re] of CASES)
      assert.throws(() => runNode(node, inputs, { opset: 13 }), (e) => e instanceof cls && re.test(e.message), JSON.stringify(node, (k, v) => typeof v === 'bigint' ? `${v}n` : v));
  });
});

// ---------------------------------------------------------------------------------------------
describe('input forms', () => {
  test('foreign tensor-like { type, data, dims } objects, typed or plain data', () => {
    const CASES = [
      [{ type: 'float32', data: new Float32Array([1, 2, 3, 4]), dims: [2, 2] }, { type: 'int64', data: new BigInt64Array([1n]), dims: [1] }, [1, 2], [3, 4]],
      [{ type: 'int32', data: [1, 2, 3, 4], dims: [4] }, { type: 'int32', data: [-1, 0], dims: [2] }, [2], [4, 1]],
      [{ type: 'uint8', data: [7, 8, 9] }, { type: 'int64', data: [2n], dims: [] }, [], [9]],   // dims omitted: 1-D
      [{ type: 'bool', data: [true, false], dims: [2] }, { type: 'int32', data: new Int32Array([1, 1]), dims: [1, 2] }, [1, 2], [0, 0]],
    ];
    for (const [data, indices, dims, expected] of CASES) {
      const dataCopy = structuredClone(data), indicesCopy = structuredClone(indices);
      const [out] = runNode({ opType: 'Gather' }, [data, indices]);
      assert.deepEqual(out.dims, dims);
      assert.deepEqual(values(out), expected);
      assert.deepEqual(data, dataCopy, 'the foreign input is not changed');
      assert.deepEqual(indices, indicesCopy);
    }
  });
  test('onnxruntime Tensor objects as inputs', () => {
    const data = new OrtTensor('float32', new Float32Array([1, 2, 3, 4, 5, 6]), [3, 2]);
    const indices = new OrtTensor('int64', new BigInt64Array([2n, 0n]), [2]);
    const [out] = runNode({ opType: 'Gather' }, [data, indices]);
    assert.deepEqual(out.dims, [2, 2]);
    assert.deepEqual(values(out), [5, 6, 1, 2]);
    const [r] = runNode({ opType: 'Reshape' }, [data, new OrtTensor('int64', new BigInt64Array([-1n]), [1])]);
    assert.deepEqual(r.dims, [6]);
    assert.deepEqual(values(r), [1, 2, 3, 4, 5, 6]);
  });
  test('a Reshape of a foreign input stays valid after the call frees its copy', () => {
    const [r] = runNode({ opType: 'Reshape' }, [{ type: 'float64', data: [1, 2, 3, 4], dims: [4] }, { type: 'int64', data: [2, 2], dims: [2] }]);
    new Tensor('float64', [9, 9, 9, 9]);   // reuse of freed memory would show here
    assert.deepEqual(r.dims, [2, 2]);
    assert.deepEqual(values(r), [1, 2, 3, 4]);
  });
  test('refused inputs', () => {
    const t = f32([1, 2], [2]);
    const CASES = [
      [() => runNode({ opType: 'Gather' }, t), InvalidArgumentError, /inputs must be an array/],
      [() => runNode({ opType: 'Gather' }, [t, 3]), InvalidArgumentError, /^inputs\[1\] is not a tensor$/],
      [() => runNode({ opType: 'Gather' }, [t, { type: 'int64', data: [1.5] }]), InvalidArgumentError, /int64 data\[0\] is 1.5, not an integer/],
      [() => runNode({ opType: 'Gather' }, [t, { type: 'int64', data: [1n], dims: [2] }]), InvalidArgumentError, /needs 2 BigInt64Array entries, got 1/],
      [() => runNode({ opType: 'Gather' }, [t]), InputError, /^Gather-13 takes 2 inputs, got 1$/],
      [() => runNode({ opType: 'Gather' }, [t, null]), InputError, /^Gather-13: input 1 is missing$/],
      [() => runNode({ opType: 'Flatten' }, [t, t]), InputError, /^Flatten-25 takes 1 input, got 2$/],
      [() => runNode({ opType: 'Flatten' }, []), InputError, /^Flatten-25 takes 1 input, got 0$/],
      [() => runNode({ opType: 'Reshape' }, [undefined, int64s([1])]), InputError, /^Reshape-25: input 0 is missing$/],
    ];
    for (const [run, cls, re] of CASES) assert.throws(run, (e) => e instanceof cls && re.test(e.message));
  });
});

// ---------------------------------------------------------------------------------------------
describe('memory sharing', () => {
  test('Reshape and Flatten outputs share the input\'s memory; Gather\'s output does not', () => {
    const t = f32([1, 2, 3, 4, 5, 6], [2, 3]);
    const [r] = runNode({ opType: 'Reshape' }, [t, int64s([3, 2])]);
    const [f] = runNode({ opType: 'Flatten', attributes: { axis: 0 } }, [r]);
    const [g] = runNode({ opType: 'Gather' }, [t, int64s([0, 1])]);
    assert.ok(r.sharesMemoryWith(t));
    assert.ok(t.sharesMemoryWith(r));
    assert.ok(f.sharesMemoryWith(t));
    assert.equal(g.sharesMemoryWith(t), false);
    assert.equal(t.sharesMemoryWith(f32([1, 2, 3, 4, 5, 6], [2, 3])), false);
    assert.equal(r.data.byteOffset, t.data.byteOffset);
    assert.notEqual(g.data.byteOffset, t.data.byteOffset);
    // A write through the input shows in the views, not in the Gather output.
    t.data[0] = 100;
    assert.equal(r.data[0], 100);
    assert.equal(f.data[0], 100);
    assert.equal(g.data[0], 1);
  });
  test('string outputs of Reshape see writes through the input', () => {
    const t = new Tensor('string', ['a', 'b'], [2]);
    const [r] = runNode({ opType: 'Reshape' }, [t, int64s([1, 2])]);
    assert.deepEqual(r.data, ['a', 'b']);
    t.data[1] = 'changed';
    assert.deepEqual(r.data, ['a', 'changed']);
  });
  test('sharesMemoryWith takes a Tensor', () => {
    const t = f32([1], [1]);
    for (const other of [null, undefined, {}, { handle: 8 }, t.data])
      assert.throws(() => t.sharesMemoryWith(other), (e) => e instanceof InvalidArgumentError && /sharesMemoryWith takes a Tensor/.test(e.message));
  });
});
