// Every error class and code, thrown where it should be: an OnnxWasmError and an Error, with a
// message naming the op, the version in force and the offending value with the allowed range.
// After each error the module keeps working, the inputs are unchanged and no memory is left behind.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  init, Tensor, runNode, inferShapes, prepareNode, opVersions, memoryStats, OnnxWasmError, UnsupportedOpError, OpsetError,
  TypeConstraintError, AttributeError, InputError, ShapeError, IndexOutOfRangeError, InvalidArgumentError,
  DisposedError, OutOfMemoryError, ModelError,
} from '../../js/index.mjs';

// ONNXWASM_TEST_INIT='{"threads":false}' (or '{"simd":false}') runs this file on another build.
await init(JSON.parse(process.env.ONNXWASM_TEST_INIT ?? '{}'));

test('every class has its stable code and name, and extends OnnxWasmError and Error', () => {
  const CLASSES = [
    [UnsupportedOpError, 'ERR_UNSUPPORTED_OP'], [OpsetError, 'ERR_OPSET'], [TypeConstraintError, 'ERR_TYPE'],
    [AttributeError, 'ERR_ATTRIBUTE'], [InputError, 'ERR_INPUT'], [ShapeError, 'ERR_SHAPE'],
    [IndexOutOfRangeError, 'ERR_INDEX'], [OutOfMemoryError, 'ERR_OUT_OF_MEMORY'],
    [InvalidArgumentError, 'ERR_INVALID_ARGUMENT'], [DisposedError, 'ERR_DISPOSED'], [ModelError, 'ERR_MODEL'],
  ];
  const codes = new Set();
  for (const [Cls, code] of CLASSES) {
    const e = new Cls('message');
    assert.ok(e instanceof OnnxWasmError && e instanceof Error);
    assert.equal(e.code, code);
    assert.equal(e.name, Cls.name);
    assert.equal(e.message, 'message');
    codes.add(code);
  }
  assert.equal(codes.size, CLASSES.length);
});

// Fixtures shared by the cases; the follow-up run checks they are unchanged.
const data = new Tensor('float32', [1, 2, 3, 4, 5, 6], [3, 2]);
const indices = new Tensor('int64', [2n, -3n], [2]);
const names = new Tensor('string', ['a', 'b', 'c'], [3]);
const snapshot = () => [data, indices, names].map((t) => ({ dims: [...t.dims], data: Array.from(t.data) }));
const initial = snapshot();

function checkStillWorking() {
  const [g] = runNode({ opType: 'Gather' }, [data, indices]);
  assert.deepEqual(g.dims, [2, 2]);
  assert.deepEqual(Array.from(g.data), [5, 6, 1, 2]);
  const [r] = runNode({ opType: 'Reshape' }, [data, new Tensor('int64', [-1n], [1])]);
  assert.deepEqual(Array.from(r.data), [1, 2, 3, 4, 5, 6]);
  const [s] = runNode({ opType: 'Gather' }, [names, indices]);
  assert.deepEqual(s.data, ['c', 'a']);
  assert.deepEqual(inferShapes({ opType: 'Flatten' }, [{ type: 'float32', dims: ['n', 2, 3] }]), [{ type: 'float32', dims: ['n', 6] }]);
  g.dispose(); r.dispose(); s.dispose();
  assert.deepEqual(snapshot(), initial);
}

const disposedTensor = () => { const t = new Tensor('float32', [1, 2], [2]); t.dispose(); return t; };
const int32s = (v, dims = [v.length]) => new Tensor('int32', v, dims);
const int64s = (v, dims = [v.length]) => new Tensor('int64', v.map(BigInt), dims);

// The default domain's ops, in the registry's order, as an UnsupportedOpError lists them.
const DEFAULT_OPS = [...new Set(opVersions().filter((v) => v.domain === '').map((v) => v.op))].join(', ');

// [name, Error class, what throws, exact message or strings it must contain]
const CASES = [
  [UnsupportedOpError, 'an op onnx-wasm does not run', () => runNode({ opType: 'Conv' }, [data]),
    `op 'Conv' is not supported; onnx-wasm runs ${DEFAULT_OPS}`],
  [UnsupportedOpError, 'op names are case-sensitive', () => runNode({ opType: 'gather' }, [data, indices]),
    `op 'gather' is not supported; onnx-wasm runs ${DEFAULT_OPS}`],
  [UnsupportedOpError, 'inferShapes of an unknown op', () => inferShapes({ opType: 'Loop' }, [{ type: 'float32', dims: [1] }]),
    `op 'Loop' is not supported; onnx-wasm runs ${DEFAULT_OPS}`],
  [UnsupportedOpError, 'prepareNode of an unknown op', () => prepareNode({ opType: 'Conv' }),
    `op 'Conv' is not supported; onnx-wasm runs ${DEFAULT_OPS}`],
  [OpsetError, 'opset above 28', () => runNode({ opType: 'Gather' }, [data, indices], { opset: 29 }),
    'Gather: opset 29 is outside the supported range [1, 28]'],
  [OpsetError, 'opset 0', () => runNode({ opType: 'Reshape' }, [data, indices], { opset: 0 }),
    'Reshape: opset 0 is outside the supported range [1, 28]'],
  [OpsetError, 'opset in inferShapes', () => inferShapes({ opType: 'Flatten' }, [{ type: 'float32', dims: [1] }], { opset: -5 }),
    'Flatten: opset -5 is outside the supported range [1, 28]'],
  [TypeConstraintError, 'bfloat16 before Gather-13', () => runNode({ opType: 'Gather' }, [new Tensor('bfloat16', [1, 2]), indices], { opset: 12 }),
    ["Gather-11: input 0 ('data') has type tensor(bfloat16), which Gather-11 does not allow; T must be one of tensor(bool), ",
      'tensor(uint8)', '(tensor(bfloat16) needs opset 13 or later)']],
  [TypeConstraintError, 'int32 in Flatten-1', () => runNode({ opType: 'Flatten' }, [int32s([1, 2])], { opset: 8 }),
    "Flatten-1: input 0 ('input') has type tensor(int32), which Flatten-1 does not allow; T must be one of tensor(double), tensor(float), tensor(float16) (tensor(int32) needs opset 9 or later)"],
  [TypeConstraintError, 'float indices', () => runNode({ opType: 'Gather' }, [data, new Tensor('float32', [0])], { opset: 13 }),
    "Gather-13: input 1 ('indices') has type tensor(float), which Gather-13 does not allow; Tind must be one of tensor(int32), tensor(int64)"],
  [TypeConstraintError, 'int4 in Gather (no version allows it)', () => runNode({ opType: 'Gather' }, [new Tensor('int4', [0x21]), indices]),
    ["Gather-13: input 0 ('data') has type tensor(int4), which Gather-13 does not allow"]],
  [TypeConstraintError, 'int2 before Reshape-25', () => runNode({ opType: 'Reshape' }, [new Tensor('int2', [0xff]), int64s([4])], { opset: 24 }),
    ["Reshape-24: input 0 ('data') has type tensor(int2)", 'tensor(float8e8m0)', '(tensor(int2) needs opset 25 or later)']],
  [TypeConstraintError, 'float8e8m0 before Flatten-24', () => runNode({ opType: 'Flatten' }, [new Tensor('float8e8m0', [1, 2])], { opset: 23 }),
    ["Flatten-23: input 0 ('input') has type tensor(float8e8m0)", '(tensor(float8e8m0) needs opset 24 or later)']],
  [AttributeError, 'Gather axis beyond r-1', () => runNode({ opType: 'Gather', attributes: { axis: 2 } }, [data, indices], { opset: 11 }),
    'Gather-11: axis 2 is outside [-2, 1] for data of rank 2'],
  [AttributeError, 'Gather axis below -r', () => runNode({ opType: 'Gather', attributes: { axis: -3 } }, [data, indices], { opset: 1 }),
    'Gather-1: axis -3 is outside [-2, 1] for data of rank 2'],
  [AttributeError, 'negative Flatten axis before opset 11', () => runNode({ opType: 'Flatten', attributes: { axis: -1 } }, [data], { opset: 10 }),
    'Flatten-9: axis -1 is outside [0, 2] for input of rank 2 (negative axes need opset 11 or later)'],
  [AttributeError, 'Flatten axis beyond r', () => runNode({ opType: 'Flatten', attributes: { axis: 3 } }, [data], { opset: 21 }),
    'Flatten-21: axis 3 is outside [-2, 2] for input of rank 2'],
  [AttributeError, 'an attribute the version does not have', () => runNode({ opType: 'Reshape', attributes: { allowzero: 1 } }, [data, int64s([6])], { opset: 13 }),
    "Reshape-13 has no attribute 'allowzero'; it allows none"],
  [AttributeError, 'an attribute of the wrong kind', () => runNode({ opType: 'Gather', attributes: { axis: [1] } }, [data, indices], { opset: 13 }),
    "Gather-13: attribute 'axis' must be INT, got INTS"],
  [AttributeError, 'a required attribute missing', () => runNode({ opType: 'Reshape' }, [data], { opset: 4 }),
    "Reshape-1: attribute 'shape' (INTS) is required"],
  [InputError, 'too few inputs', () => runNode({ opType: 'Gather' }, [data], { opset: 13 }), 'Gather-13 takes 2 inputs, got 1'],
  [InputError, 'too many inputs', () => runNode({ opType: 'Reshape', attributes: { shape: [6] } }, [data, indices], { opset: 1 }),
    'Reshape-1 takes 1 input, got 2'],
  [InputError, 'a missing input', () => runNode({ opType: 'Reshape' }, [data, null], { opset: 14 }), 'Reshape-14: input 1 is missing'],
  [ShapeError, 'Reshape count mismatch', () => runNode({ opType: 'Reshape' }, [data, int64s([4])], { opset: 19 }),
    'Reshape-19: cannot reshape [3, 2] to [4]: the element counts differ (6 vs 4)'],
  [ShapeError, 'two -1 in a shape', () => runNode({ opType: 'Reshape' }, [data, int64s([-1, -1])], { opset: 5 }),
    'Reshape-5: shape [-1, -1] has more than one -1; at most one dimension can be inferred'],
  [ShapeError, 'allowzero with 0 and -1', () => runNode({ opType: 'Reshape', attributes: { allowzero: 1 } }, [data, int64s([0, -1])], { opset: 21 }),
    'Reshape-21: shape [0, -1] has both 0 and -1, which allowzero=1 forbids (the -1 could not be determined)'],
  [ShapeError, 'Gather of a scalar', () => runNode({ opType: 'Gather' }, [new Tensor('float32', [1], []), indices], { opset: 1 }),
    'Gather-1: data must have rank >= 1, got a scalar'],
  [ShapeError, 'a tensor whose element count overflows int64', () => Tensor.alloc('float32', [2 ** 40, 2 ** 40]),
    `the element count of shape [${2 ** 40}, ${2 ** 40}] overflows int64`],
  [IndexOutOfRangeError, 'index past the end', () => runNode({ opType: 'Gather' }, [data, int64s([0, 3])], { opset: 13 }),
    'Gather-13: index 3 at position 1 is outside [-3, 2] for axis 0 of size 3'],
  [IndexOutOfRangeError, 'index below -s, int32, axis 1', () => runNode({ opType: 'Gather', attributes: { axis: 1 } }, [data, int32s([1, 0, -3])], { opset: 11 }),
    'Gather-11: index -3 at position 2 is outside [-2, 1] for axis 1 of size 2'],
  [IndexOutOfRangeError, 'through a prepared node', () => prepareNode({ opType: 'Gather' }, { opset: 1 }).run([data, int64s([7])]),
    'Gather-1: index 7 at position 0 is outside [-3, 2] for axis 0 of size 3'],
  [InvalidArgumentError, 'a value that does not fit the type', () => new Tensor('int32', [1, 2, 1.5]),
    'int32 data[2] is 1.5, not an integer in [-2147483648, 2147483647]'],
  [InvalidArgumentError, 'uint8 out of range', () => new Tensor('uint8', [0, 300]), 'uint8 data[1] is 300, not an integer in [0, 255]'],
  [InvalidArgumentError, 'int64 out of range', () => new Tensor('int64', [2 ** 70]), ['int64 data[0] is ', ", not an integer within int64's range"]],
  [InvalidArgumentError, 'a foreign input with bad data', () => runNode({ opType: 'Gather' }, [data, { type: 'int64', data: [0.5], dims: [1] }]),
    'int64 data[0] is 0.5, not an integer within int64\'s range'],
  [InvalidArgumentError, 'an opset that is not an integer', () => runNode({ opType: 'Gather' }, [data, indices], { opset: '13' }),
    "opset must be an integer, got the string '13'"],
  [DisposedError, 'a disposed tensor as input', () => runNode({ opType: 'Gather' }, [data, (() => { const t = int64s([0]); t.dispose(); return t; })()]),
    'this int64 tensor of dims [1] was disposed'],
  [DisposedError, 'data of a disposed tensor', () => disposedTensor().data, 'this float32 tensor of dims [2] was disposed'],
  [DisposedError, 'a disposed prepared node', () => { const p = prepareNode({ opType: 'Flatten' }); p.dispose(); p.run([data]); },
    'this prepared Flatten at opset 28 was disposed'],
  [OutOfMemoryError, 'a tensor larger than wasm32 memory', () => Tensor.alloc('float32', [2 ** 20, 2 ** 20, 16]),
    ['cannot allocate 70368744177664 bytes for a tensor']],
  [OutOfMemoryError, 'a string tensor larger than wasm32 memory', () => Tensor.alloc('string', [2 ** 31]),
    ['cannot allocate 2147483648 strings']],
  [OutOfMemoryError, 'a tensor just over 4 GiB', () => Tensor.alloc('uint8', [2 ** 32 + 1]), ['cannot allocate 4294967297 bytes for a tensor']],
];

describe('each error is thrown where it should be, and the module keeps working after it', () => {
  for (const [Cls, name, run, expected] of CASES) {
    test(`${Cls.name}: ${name}`, () => {
      const heapBefore = memoryStats().heapUsed;
      let thrown;
      assert.throws(run, (e) => { thrown = e; return true; });
      assert.ok(thrown instanceof Cls, `${thrown?.name}: ${thrown?.message}`);
      assert.ok(thrown instanceof OnnxWasmError);
      assert.ok(thrown instanceof Error);
      assert.equal(thrown.name, Cls.name);
      assert.equal(thrown.code, new Cls('').code);
      assert.equal(typeof thrown.stack, 'string');
      if (typeof expected === 'string') assert.equal(thrown.message, expected);
      else for (const part of expected) assert.ok(thrown.message.includes(part), `"${thrown.message}" should include "${part}"`);
      checkStillWorking();
      // Nothing partial is kept: after the follow-up run's outputs are disposed, the allocator holds
      // no more than before (the fixtures built inside `run` are garbage to collect, not leaks).
      assert.ok(memoryStats().heapUsed <= heapBefore + 4096, `heap grew from ${heapBefore} to ${memoryStats().heapUsed}`);
    });
  }
});

test('a failing call repeated many times leaks nothing', () => {
  const bad = int64s([5]);
  const before = memoryStats().heapUsed;
  for (let i = 0; i < 2000; ++i) {
    assert.throws(() => runNode({ opType: 'Gather' }, [data, bad]), IndexOutOfRangeError);
    assert.throws(() => runNode({ opType: 'Reshape' }, [data, bad]), ShapeError);
    assert.throws(() => runNode({ opType: 'Gather' }, [data, { type: 'int64', data: [9n], dims: [1] }]), IndexOutOfRangeError);
  }
  assert.equal(memoryStats().heapUsed, before);
  checkStillWorking();
});
