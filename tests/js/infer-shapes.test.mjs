// inferShapes through the public API: symbolic dims, unknown (null) dims, unknown rank (dims: null),
// Reshape with and without the shape's values, Flatten's products of symbols, Gather's rank
// q + r - 1, refused attributes and shapes, and agreement with runNode on concrete shapes.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  init, Tensor, runNode, inferShapes, AttributeError, ShapeError, TypeConstraintError, InvalidArgumentError,
  InputError, OpsetError, UnsupportedOpError,
} from '../../js/index.mjs';

// ONNXWASM_TEST_INIT='{"threads":false}' (or '{"simd":false}') runs this file on another build.
await init(JSON.parse(process.env.ONNXWASM_TEST_INIT ?? '{}'));

const f32 = (dims) => ({ type: 'float32', dims });
const shape = (value, dims = [value.length]) => ({ type: 'int64', dims, value });

describe('Gather', () => {
  // [name, attributes, data dims, indices dims, output dims, opset]
  const CASES = [
    ['symbols kept around the indices', { axis: 1 }, ['b', 'n', 3], ['k', null], ['b', 'k', null, 3]],
    ['axis 0, 2-D indices', {}, ['n', 'd'], [2, 'k'], [2, 'k', 'd']],
    ['scalar indices drop the axis', {}, [null, 4], [], [4]],
    ['scalar indices on axis 1', { axis: 1 }, ['b', 'n', 'd'], [], ['b', 'd']],
    ['negative axis', { axis: -1 }, ['b', 'n'], [2, 'm'], ['b', 2, 'm']],
    ['axis -r', { axis: -3 }, [5, 'x', 'y'], [7], [7, 'x', 'y']],
    ['unknown dims stay unknown', { axis: 1 }, [null, null], [null], [null, null]],
    ['unknown rank of the indices', {}, ['b', 4], null, null],
    ['unknown rank of the data', {}, null, [2], null],
    ['zero-size indices', {}, ['n', 3], [0], [0, 3]],
    ['Gather-1 keeps symbols too', { axis: 1 }, ['b', 'n', 3], ['k'], ['b', 'k', 3], 1],
    ['Gather-11', { axis: -2 }, ['b', 'n', 3], ['k'], ['b', 'k', 3], 11],
  ];
  for (const [name, attributes, dataDims, indexDims, expected, opset = 28] of CASES) {
    test(name, () => {
      for (const indexType of ['int32', 'int64']) {
        const out = inferShapes({ opType: 'Gather', attributes }, [f32(dataDims), { type: indexType, dims: indexDims }], { opset });
        assert.deepEqual(out, [{ type: 'float32', dims: expected }]);
      }
    });
  }
  test('rank q + r - 1 for q = 0..3 and r = 1..3, every axis', () => {
    for (let r = 1; r <= 3; ++r)
      for (let q = 0; q <= 3; ++q)
        for (let axis = -r; axis < r; ++axis) {
          const data = ['d0', 'd1', 'd2'].slice(0, r);
          const indices = ['i0', 'i1', 'i2'].slice(0, q);
          const a = axis < 0 ? axis + r : axis;
          const [out] = inferShapes({ opType: 'Gather', attributes: { axis } }, [f32(data), { type: 'int64', dims: indices }]);
          assert.equal(out.dims.length, q + r - 1);
          assert.deepEqual(out.dims, [...data.slice(0, a), ...indices, ...data.slice(a + 1)]);
        }
  });
  test('refused: axis out of range, scalar data, float indices', () => {
    assert.throws(() => inferShapes({ opType: 'Gather', attributes: { axis: 2 } }, [f32(['b', 'n']), { type: 'int64', dims: [1] }]),
      (e) => e instanceof AttributeError && e.message === 'Gather-13: axis 2 is outside [-2, 1] for data of rank 2');
    assert.throws(() => inferShapes({ opType: 'Gather', attributes: { axis: -2 } }, [f32(['n']), { type: 'int64', dims: [1] }], { opset: 1 }),
      (e) => e instanceof AttributeError && e.message === 'Gather-1: axis -2 is outside [-1, 0] for data of rank 1');
    assert.throws(() => inferShapes({ opType: 'Gather' }, [f32([]), { type: 'int64', dims: [] }]),
      (e) => e instanceof ShapeError && e.message === 'Gather-13: data must have rank >= 1, got a scalar');
    assert.throws(() => inferShapes({ opType: 'Gather' }, [f32(['n']), { type: 'float32', dims: [1] }]), TypeConstraintError);
    assert.throws(() => inferShapes({ opType: 'Gather' }, [{ type: 'bfloat16', dims: ['n'] }, { type: 'int64', dims: [1] }], { opset: 12 }),
      (e) => e instanceof TypeConstraintError && e.message.startsWith('Gather-11: ') && e.message.endsWith('(tensor(bfloat16) needs opset 13 or later)'));
  });
  test('an output too large for int64 is refused', () => {
    assert.throws(() => inferShapes({ opType: 'Gather' }, [f32([2 ** 40, 2 ** 40]), { type: 'int64', dims: [2 ** 40] }]),
      (e) => e instanceof ShapeError && e.message === `Gather-13: the output shape [${2 ** 40}, ${2 ** 40}] has an element count that overflows int64`);
  });
});

describe('Flatten', () => {
  // [input dims, axis, output dims, opset]
  const CASES = [
    [[1, 'n', 1, 3, null], 2, ['n', null]],     // 1 * n * 1 keeps the symbol
    [[1, 'n', 1], 3, ['n', 1]],
    [[1, 'n', 1], 0, [1, 'n']],
    [[1, 1, 'n', 1], 1, [1, 'n']],
    [['n'], 1, ['n', 1]],
    [['n'], 0, [1, 'n']],
    [['batch', 3, 4], 1, ['batch', 12]],
    [['batch', 3, 4], -2, ['batch', 12]],
    [['n', 'm'], 2, [null, 1]],                 // two symbols: unknown
    [['n', 'n'], 1, ['n', 'n']],
    [[2, 'n'], 2, [null, 1]],                   // a number times a symbol: unknown
    [[2, 3, 'n', 4], 2, [6, null]],
    [[2, 3, 'n', 4], -1, [null, 4]],
    [[null, 3], 1, [null, 3]],
    [[null, 'n'], 1, [null, 'n']],
    [[], 0, [1, 1]],
    [null, 1, [null, null]],                     // unknown rank
    [null, 0, [null, null]],
    [null, -3, [null, null], 11],
    [['n', 2], undefined, ['n', 2], 1],          // default axis 1
    [['a', 'b', 'c'], 3, [null, 1], 9],
  ];
  for (const [dims, axis, expected, opset = 28] of CASES) {
    test(`${JSON.stringify(dims)} axis ${axis} at opset ${opset}`, () => {
      const node = { opType: 'Flatten', attributes: axis === undefined ? {} : { axis } };
      assert.deepEqual(inferShapes(node, [f32(dims)], { opset }), [{ type: 'float32', dims: expected }]);
    });
  }
  test('refused axes', () => {
    // [dims, axis, opset, message]
    const CASES = [
      [['n', 'm'], 3, 28, 'Flatten-25: axis 3 is outside [-2, 2] for input of rank 2'],
      [['n', 'm'], -3, 11, 'Flatten-11: axis -3 is outside [-2, 2] for input of rank 2'],
      [['n', 'm'], -1, 10, 'Flatten-9: axis -1 is outside [0, 2] for input of rank 2 (negative axes need opset 11 or later)'],
      [null, -1, 8, 'Flatten-1: axis -1 is negative; Flatten-1 allows axis in [0, r] (negative axes need opset 11 or later)'],
      [null, -2, 9, 'Flatten-9: axis -2 is negative; Flatten-9 allows axis in [0, r] (negative axes need opset 11 or later)'],
      [[], 1, 13, 'Flatten-13: axis 1 is outside [0, 0] for input of rank 0'],
    ];
    for (const [dims, axis, opset, message] of CASES)
      assert.throws(() => inferShapes({ opType: 'Flatten', attributes: { axis } }, [f32(dims)], { opset }),
        (e) => e instanceof AttributeError && e.message === message);
  });
  test('a product too large for int64 is refused', () => {
    assert.throws(() => inferShapes({ opType: 'Flatten', attributes: { axis: 2 } }, [f32([2 ** 40, 2 ** 40, 'n'])]),
      (e) => e instanceof ShapeError && e.message.includes('overflows int64'));
  });
});

describe('Reshape', () => {
  // [name, data dims, shape input, attributes, output dims, opset]
  const CASES = [
    ['README example', ['batch', 16, 64], shape([0, 4, -1]), {}, ['batch', 4, 256]],
    ['0 copies a symbol, -1 solved around it', ['b', 2, 3], shape([0, -1]), {}, ['b', 6]],
    ['0 copies a symbol', ['b', 2, 3], shape([0, 6]), {}, ['b', 6]],
    ['symbols on both sides cancel', ['b', 6], shape([0, 2, 3]), {}, ['b', 2, 3]],
    ['-1 against a symbol is unknown', ['b', 2, 3], shape([-1, 6]), {}, [null, 6]],
    ['0 copies an unknown dim', [null, 2, 3], shape([0, -1]), {}, [null, null]],
    ['numbers only', [2, 3, 4], shape([4, -1]), {}, [4, 6]],
    ['empty shape: a scalar', [1, 1], shape([]), {}, []],
    ['unknown rank with values', null, shape([0, 3, -1]), {}, [null, 3, null]],
    ['unknown rank, numbers only', null, shape([2, 3]), {}, [2, 3]],
    ['no values, shape of 3: rank 3', ['b', 12], { type: 'int64', dims: [3] }, {}, [null, null, null]],
    ['no values, shape of 0: a scalar', ['b'], { type: 'int64', dims: [0] }, {}, []],
    ['no values, unknown length: unknown rank', ['b', 12], { type: 'int64', dims: [null] }, {}, null],
    ['no values, symbolic length: unknown rank', ['b', 12], { type: 'int64', dims: ['k'] }, {}, null],
    ['no values, unknown rank of the shape', ['b', 12], { type: 'int64', dims: null }, {}, null],
    ['values without dims', ['b', 12], { type: 'int64', value: [0, 3, 4] }, {}, ['b', 3, 4]],
    ['values as bigints', [2, 6], { type: 'int64', dims: [2], value: new BigInt64Array([3n, -1n]) }, {}, [3, 4]],
    ['allowzero keeps a 0', ['b', 3], shape([0, 3]), { allowzero: 1 }, [0, 3]],
    ['allowzero 0 copies', ['b', 3], shape([0, 3]), { allowzero: 0 }, ['b', 3]],
    ['Reshape-5', ['b', 2, 3], shape([0, -1]), {}, ['b', 6], 5],
    ['Reshape-13', ['b', 2, 3], shape([0, -1]), {}, ['b', 6], 13],
  ];
  for (const [name, dims, shapeInput, attributes, expected, opset = 28] of CASES) {
    test(name, () => {
      assert.deepEqual(inferShapes({ opType: 'Reshape', attributes }, [f32(dims), shapeInput], { opset }),
        [{ type: 'float32', dims: expected }]);
    });
  }
  test('Reshape-1 takes the shape attribute', () => {
    for (const opset of [1, 4]) {
      assert.deepEqual(inferShapes({ opType: 'Reshape', attributes: { shape: [0, -1] } }, [f32(['b', 2, 3])], { opset }),
        [{ type: 'float32', dims: ['b', 6] }]);
      assert.throws(() => inferShapes({ opType: 'Reshape' }, [f32(['b'])], { opset }),
        (e) => e instanceof AttributeError && e.message === "Reshape-1: attribute 'shape' (INTS) is required");
      assert.throws(() => inferShapes({ opType: 'Reshape', attributes: { shape: [1] } }, [f32(['b']), shape([1])], { opset }), InputError);
    }
  });
  test('refused shapes', () => {
    // [data dims, shape input, attributes, message after 'Reshape-25']
    const CASES = [
      [[2, 3], shape([5]), {}, ': cannot reshape [2, 3] to [5]: the element counts differ (6 vs 5)'],
      [['b', 2, 3], shape([0, 7]), {}, ': cannot reshape [b, 2, 3] to [0, 7]: the element counts differ (6 times the shared symbols vs 7)'],
      [[2, 3], shape([]), {}, ': cannot reshape [2, 3] to []: the element counts differ (6 vs 1)'],
      [['b'], shape([-1, -1]), {}, ': shape [-1, -1] has more than one -1; at most one dimension can be inferred'],
      [['b'], shape([-3]), {}, ': shape value -3 at position 0 is invalid; values must be >= -1'],
      [['b'], shape([0, 0]), {}, ': shape value 0 at position 1 copies input dimension 1, but the input [b] has rank 1'],
      [['b', 3], shape([0, -1]), { allowzero: 1 }, ': shape [0, -1] has both 0 and -1, which allowzero=1 forbids (the -1 could not be determined)'],
      [['b'], { type: 'int64', dims: [2], value: [1, 2, 3] }, {}, ": input 'shape' has dims [2] but 3 values"],
      [['b'], { type: 'int64', dims: [1, 2] }, {}, ": input 'shape' must be a 1-D tensor, got shape [1, 2]"],
    ];
    for (const [dims, shapeInput, attributes, message] of CASES)
      assert.throws(() => inferShapes({ opType: 'Reshape', attributes }, [f32(dims), shapeInput]),
        (e) => e instanceof ShapeError && e.message === `Reshape-25${message}`);
    assert.throws(() => inferShapes({ opType: 'Reshape', attributes: { allowzero: 1 } }, [f32(['b']), shape([1])], { opset: 13 }),
      (e) => e instanceof AttributeError && e.message === "Reshape-13 has no attribute 'allowzero'; it allows none");
  });
  test('Tensor inputs: dims and the shape\'s values are read from them, and they are left unchanged', () => {
    const data = new Tensor('float32', [1, 2, 3, 4, 5, 6], [2, 3]);
    const s = new Tensor('int64', [3n, -1n], [2]);
    assert.deepEqual(inferShapes({ opType: 'Reshape' }, [data, s]), [{ type: 'float32', dims: [3, 2] }]);
    assert.deepEqual(Array.from(data.data), [1, 2, 3, 4, 5, 6]);
    assert.deepEqual(Array.from(s.data), [3n, -1n]);
    assert.equal(data.disposed, false);
  });
});

describe('every element type keeps its type', () => {
  const TYPES = ['float32', 'float64', 'float16', 'bfloat16', 'int8', 'int16', 'int32', 'int64', 'uint8', 'uint16',
    'uint32', 'uint64', 'bool', 'string', 'complex64', 'complex128', 'float8e4m3fn', 'float8e4m3fnuz', 'float8e5m2',
    'float8e5m2fnuz', 'float8e8m0', 'int4', 'uint4', 'float4e2m1', 'int2', 'uint2'];
  for (const type of TYPES) {
    test(type, () => {
      assert.deepEqual(inferShapes({ opType: 'Reshape' }, [{ type, dims: ['n', 4] }, shape([0, 2, 2])]), [{ type, dims: ['n', 2, 2] }]);
      assert.deepEqual(inferShapes({ opType: 'Flatten' }, [{ type, dims: ['n', 4] }]), [{ type, dims: ['n', 4] }]);
    });
  }
});

describe('agreement with runNode on concrete shapes', () => {
  // [node, data dims, second input (values for Reshape, indices dims for Gather)]
  const CASES = [
    [{ opType: 'Gather', attributes: { axis: 1 } }, [2, 3, 4], { indices: [2, 2] }],
    [{ opType: 'Gather', attributes: { axis: -1 } }, [2, 3, 4], { indices: [] }],
    [{ opType: 'Gather' }, [5, 0], { indices: [3, 1] }],
    [{ opType: 'Flatten', attributes: { axis: 2 } }, [2, 3, 4, 5], {}],
    [{ opType: 'Flatten', attributes: { axis: 0 } }, [], {}],
    [{ opType: 'Flatten', attributes: { axis: -3 } }, [2, 0, 4], {}],
    [{ opType: 'Reshape' }, [2, 3, 4], { shape: [0, -1, 2] }],
    [{ opType: 'Reshape', attributes: { allowzero: 1 } }, [0, 4], { shape: [2, 0, 2] }],
    [{ opType: 'Reshape' }, [1], { shape: [] }],
  ];
  for (const [node, dims, extra] of CASES) {
    test(`${node.opType} ${JSON.stringify(dims)} ${JSON.stringify(extra)}`, () => {
      const n = dims.reduce((a, b) => a * b, 1);
      const data = new Tensor('float32', new Float32Array(n), dims);
      const second = extra.indices ? new Tensor('int64', new BigInt64Array(extra.indices.reduce((a, b) => a * b, 1)), extra.indices)
        : extra.shape ? new Tensor('int64', extra.shape.map(BigInt), [extra.shape.length]) : null;
      const inputs = second ? [data, second] : [data];
      const infos = [{ type: 'float32', dims }];
      if (extra.indices) infos.push({ type: 'int64', dims: extra.indices });
      if (extra.shape) infos.push(shape(extra.shape));
      const [run] = runNode(node, inputs);
      assert.deepEqual(inferShapes(node, infos), [{ type: 'float32', dims: Array.from(run.dims) }]);
    });
  }
});

describe('refused arguments', () => {
  const CASES = [
    [{ opType: 'Flatten' }, 'not an array', InvalidArgumentError, /inputs must be an array/],
    [{ opType: 'Flatten' }, [7], InvalidArgumentError, /inputs\[0\] must be \{ type, dims \} or a Tensor/],
    [{ opType: 'Flatten' }, [null], TypeConstraintError, /^Flatten-25: input 0 \('input'\) has type tensor\(undefined\) \(it was omitted\), which Flatten-25 does not allow; T must be one of /],
    [{ opType: 'Flatten' }, [{ type: 'float32', dims: '2' }], InvalidArgumentError, /inputs\[0\]\.dims must be an array or null/],
    [{ opType: 'Flatten' }, [{ type: 'float32', dims: [2, -1] }], InvalidArgumentError, /inputs\[0\]\.dims\[1\] is -1/],
    [{ opType: 'Flatten' }, [{ type: 'float32', dims: [1.5] }], InvalidArgumentError, /inputs\[0\]\.dims\[0\] = 1\.5/],
    [{ opType: 'Flatten' }, [{ type: 'float128', dims: [1] }], InvalidArgumentError, /unknown element type 'float128'/],
    [{ opType: 'Reshape' }, [f32([2]), { type: 'int64', dims: [1], value: [0.5] }], InvalidArgumentError, /inputs\[1\]\.value\[0\] = 0\.5/],
    [{ opType: 'Flatten' }, [], InputError, /^Flatten-25 takes 1 input, got 0$/],
    [{ opType: 'Conv' }, [f32([1])], UnsupportedOpError, /^op 'Conv' is not supported; onnx-wasm runs Gather, Flatten, Reshape, /],
    [{ opType: 'Flatten' }, [f32([1])], OpsetError, /^Flatten: opset 29 is outside the supported range \[1, 28\]$/, 29],
  ];
  for (const [node, inputs, cls, re, opset] of CASES) {
    test(`${node.opType} ${JSON.stringify(inputs)} -> ${cls.name}`, () => {
      assert.throws(() => inferShapes(node, inputs, opset ? { opset } : {}), (e) => e instanceof cls && re.test(e.message));
    });
  }
  test('an empty string dim is unknown', () => {
    assert.deepEqual(inferShapes({ opType: 'Flatten' }, [f32(['', 3])]), [{ type: 'float32', dims: [null, 3] }]);
  });
});
