// Tensor through the public API: every element type from its typed array and from a plain array,
// exact conversion (bad values name their index), typed array classes, packed sub-byte lengths,
// properties, Tensor.alloc, dispose, scalars and zero-size dims. Written as tables of cases.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  init, Tensor, runNode, TYPE_NAMES, OnnxWasmError, InvalidArgumentError, DisposedError, prepareNode,
} from '../../js/index.mjs';

// ONNXWASM_TEST_INIT='{"threads":false}' (or '{"simd":false}') runs this file on another build.
await init(JSON.parse(process.env.ONNXWASM_TEST_INIT ?? '{}'));

// Every element type of the README: its storage class, bits per element and a sample of storage
// values (raw bits for float16/bfloat16/float8/float4; packed bytes for sub-byte types, first
// element in the low bits; interleaved real and imaginary parts for complex).
const TYPES = [
  { type: 'float32', Cls: Float32Array, bits: 32, sample: [1.5, -2, 0, 3.25, -0, Infinity] },
  { type: 'float64', Cls: Float64Array, bits: 64, sample: [0.1, -1e300, 5e-324, 7, NaN] },
  { type: 'float16', Cls: Uint16Array, bits: 16, sample: [0x3c00, 0xc000, 0x7c00, 0, 0xffff] },
  { type: 'bfloat16', Cls: Uint16Array, bits: 16, sample: [0x3f80, 0xc000, 0x7f80, 1] },
  { type: 'int8', Cls: Int8Array, bits: 8, sample: [-128, 127, 0, -1, 5] },
  { type: 'int16', Cls: Int16Array, bits: 16, sample: [-32768, 32767, 0, -1] },
  { type: 'int32', Cls: Int32Array, bits: 32, sample: [-2147483648, 2147483647, 0, -1] },
  { type: 'int64', Cls: BigInt64Array, bits: 64, sample: [-(2n ** 63n), 2n ** 63n - 1n, 0n, -1n] },
  { type: 'uint8', Cls: Uint8Array, bits: 8, sample: [0, 255, 1, 128] },
  { type: 'uint16', Cls: Uint16Array, bits: 16, sample: [0, 65535, 1, 32768] },
  { type: 'uint32', Cls: Uint32Array, bits: 32, sample: [0, 4294967295, 1, 2 ** 31] },
  { type: 'uint64', Cls: BigUint64Array, bits: 64, sample: [0n, 2n ** 64n - 1n, 1n, 2n ** 63n] },
  { type: 'bool', Cls: Uint8Array, bits: 8, sample: [1, 0, 0, 1, 1] },
  { type: 'string', Cls: Array, bits: 0, sample: ['', 'a', 'é☃𝄞', 'a longer string than sixteen bytes', 'x\0y'] },
  { type: 'complex64', Cls: Float32Array, bits: 64, sample: [1, -1, 0.5, 2] },
  { type: 'complex128', Cls: Float64Array, bits: 128, sample: [1.1, -1, 0.5, 2, 0, -0] },
  { type: 'float8e4m3fn', Cls: Uint8Array, bits: 8, sample: [0x38, 0xb8, 0x7f, 0] },
  { type: 'float8e4m3fnuz', Cls: Uint8Array, bits: 8, sample: [0x40, 0x80, 0xff] },
  { type: 'float8e5m2', Cls: Uint8Array, bits: 8, sample: [0x3c, 0xbc, 0x7c, 0x7f] },
  { type: 'float8e5m2fnuz', Cls: Uint8Array, bits: 8, sample: [0x40, 0x80] },
  { type: 'float8e8m0', Cls: Uint8Array, bits: 8, sample: [0x7f, 0x80, 0xff, 0] },
  { type: 'int4', Cls: Uint8Array, bits: 4, sample: [0x21, 0xf8] },          // 1, 2, -8, -1
  { type: 'uint4', Cls: Uint8Array, bits: 4, sample: [0x21, 0xf0, 0x0f] },   // 1, 2, 0, 15, 15, 0
  { type: 'float4e2m1', Cls: Uint8Array, bits: 4, sample: [0x72, 0xf9] },
  { type: 'int2', Cls: Uint8Array, bits: 2, sample: [0b11100100] },         // 0, 1, -2, -1
  { type: 'uint2', Cls: Uint8Array, bits: 2, sample: [0b11100100, 0b00011011] },
];

// Elements held by `n` storage entries of a type.
const elementsOf = ({ type, Cls, bits }, n) => (type === 'string' ? n : (n * Cls.BYTES_PER_ELEMENT * 8) / bits);
const sameValues = (actual, expected) => assert.deepEqual(Array.from(actual), Array.from(expected));
const invalid = (re) => (e) => e instanceof InvalidArgumentError && e instanceof OnnxWasmError &&
  e.code === 'ERR_INVALID_ARGUMENT' && re.test(e.message);

test('TYPE_NAMES lists exactly the 26 element types of the README', () => {
  assert.deepEqual([...TYPE_NAMES].sort(), TYPES.map((t) => t.type).sort());
});

describe('every element type from its typed array', () => {
  for (const spec of TYPES) {
    test(spec.type, () => {
      const src = spec.Cls === Array ? spec.sample.slice() : spec.Cls.from(spec.sample);
      const n = elementsOf(spec, src.length);
      const t = new Tensor(spec.type, src);
      assert.equal(t.type, spec.type);
      assert.deepEqual(t.dims, [n]);          // default dims: the element count
      assert.equal(t.size, n);
      assert.equal(t.disposed, false);
      if (spec.Cls === Array) {
        assert.ok(Array.isArray(t.data));
        assert.deepEqual(t.data, spec.sample);
      } else {
        assert.ok(t.data instanceof spec.Cls, `data is a ${spec.Cls.name}`);
        assert.equal(t.data.length, src.length);
        assert.notEqual(t.data.buffer, src.buffer, 'data lives in wasm memory, not in the source');
        // Byte-exact copy (NaN payloads, -0 and raw bits included).
        sameValues(new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength), new Uint8Array(src.buffer));
      }
      // The data was copied: changing the source afterwards changes nothing.
      const before = Array.from(t.data);
      src[0] = spec.Cls === Array ? 'changed' : typeof src[0] === 'bigint' ? 3n : 3;
      assert.deepEqual(Array.from(t.data), before);
      // Explicit dims of the same element count.
      const t2 = new Tensor(spec.type, src, [1, n]);
      assert.deepEqual(t2.dims, [1, n]);
      assert.equal(t2.size, n);
      t.dispose();
      t2.dispose();
    });
  }
});

describe('every element type from a plain array (storage values, converted exactly)', () => {
  for (const spec of TYPES) {
    test(spec.type, () => {
      const t = new Tensor(spec.type, spec.sample.slice());
      assert.equal(t.type, spec.type);
      assert.deepEqual(t.dims, [elementsOf(spec, spec.sample.length)]);
      if (spec.Cls === Array) assert.deepEqual(t.data, spec.sample);
      else {
        assert.ok(t.data instanceof spec.Cls);
        sameValues(t.data, spec.Cls.from(spec.sample));
      }
      t.dispose();
    });
  }
  test('64-bit integers also take safe-integer numbers, and bool takes true/false', () => {
    sameValues(new Tensor('int64', [1, -2, 2 ** 53 - 1]).data, [1n, -2n, 2n ** 53n - 1n]);
    sameValues(new Tensor('uint64', [0, 2 ** 53 - 1]).data, [0n, 2n ** 53n - 1n]);
    sameValues(new Tensor('bool', [true, false, 1, 0]).data, [1, 0, 1, 0]);
  });
});

describe('bad plain values give InvalidArgumentError naming the index', () => {
  const CASES = [
    ['int32', [0, 2, 1.5], 2],
    ['int32', [NaN], 0],
    ['int32', [2 ** 31], 0],
    ['int32', [Infinity], 0],
    ['int32', [1, '2'], 1],
    ['uint8', [1, 300], 1],
    ['uint8', [-1], 0],
    ['int8', [127, 128], 1],
    ['int8', [-129], 0],
    ['int16', [40000], 0],
    ['uint16', [65536], 0],
    ['uint32', [2 ** 32], 0],
    ['uint32', [-1], 0],
    ['int64', [0, 2 ** 70], 1],
    ['int64', [-(2 ** 70)], 0],
    ['int64', [2n ** 63n], 0],
    ['int64', [1.5], 0],
    ['int64', [null], 0],
    ['uint64', [1n, -1n], 1],
    ['uint64', [2n ** 64n], 0],
    ['uint64', [-1], 0],
    ['bool', [true, 2], 1],
    ['bool', ['true'], 0],
    ['float32', [1, '1'], 1],
    ['float64', [undefined], 0],
    ['complex64', [1, 2, null, 4], 2],
    ['string', ['a', 3], 1],
    ['float16', [0x3c00, 65536], 1],      // raw bits must fit 16 bits
    ['bfloat16', [-1], 0],
    ['float8e4m3fn', [256], 0],
    ['float8e8m0', [0.5], 0],
    ['int4', [0x21, 256], 1],             // raw packed bytes
    ['uint2', [-1], 0],
    ['float4e2m1', [1.5], 0],
  ];
  for (const [type, values, index] of CASES) {
    test(`${type} ${String(values[index])} at index ${index}`, () => {
      assert.throws(() => new Tensor(type, values),
        invalid(new RegExp(`^${type} data\\[${index}\\] is `)));
    });
  }
  // A value of another JS type is shown with its type, so that the message does not read as if
  // the value it stands for (3 for '3') were refused.
  const SHOWN = [
    ['int32', ['3'], "int32 data[0] is the string '3', not a number (an integer in [-2147483648, 2147483647])"],
    ['int32', [1, 3n], 'int32 data[1] is the bigint 3n, not a number (an integer in [-2147483648, 2147483647])'],
    ['int32', [1.5], 'int32 data[0] is 1.5, not an integer in [-2147483648, 2147483647]'],
    ['uint8', [300], 'uint8 data[0] is 300, not an integer in [0, 255]'],
    ['int64', ['3'], "int64 data[0] is the string '3', not a bigint or a number (an integer within int64's range)"],
    ['int64', [0.5], "int64 data[0] is 0.5, not an integer within int64's range"],
    ['float32', ['1.5'], "float32 data[0] is the string '1.5', not a number"],
    ['float64', [undefined], 'float64 data[0] is undefined, not a number'],
    ['bool', ['true'], "bool data[0] is the string 'true', not a boolean (true, false, 1 or 0)"],
    ['string', ['a', 3], 'string data[1] is 3, not a string'],
    ['int8', [{}], 'int8 data[0] is an object (Object), not a number (an integer in [-128, 127])'],
  ];
  for (const [type, values, message] of SHOWN) {
    test(`${type} [${values.map((v) => (typeof v === 'string' ? `'${v}'` : typeof v === 'bigint' ? `${v}n` : String(v))).join(', ')}]: ${message}`, () => {
      assert.throws(() => new Tensor(type, values), (e) => e instanceof InvalidArgumentError && e.message === message);
    });
  }
  test("a string tensor's data set to a number is named as a number", () => {
    const t = new Tensor('string', ['a']);
    assert.throws(() => { t.data[0] = 5; }, (e) => e instanceof InvalidArgumentError && e.message === 'string data[0] is 5, not a string');
    t.dispose();
  });
  test("an opset given as a string is named as a string", () => {
    const x = new Tensor('float32', [1, 2]), i = new Tensor('int64', [0n]);
    assert.throws(() => runNode({ opType: 'Gather' }, [x, i], { opset: '13' }), (e) => e instanceof InvalidArgumentError && e.message === "opset must be an integer, got the string '13'");
    x.dispose(); i.dispose();
  });
});

describe('wrong typed array class gives InvalidArgumentError naming both classes', () => {
  const CASES = [
    ['float32', new Float64Array(2)], ['float32', new Int32Array(2)], ['float64', new Float32Array(2)],
    ['float16', new Float32Array(2)], ['float16', new Int16Array(2)], ['bfloat16', new Int16Array(2)],
    ['int8', new Uint8Array(2)], ['uint8', new Int8Array(2)], ['uint8', new Uint8ClampedArray(2)],
    ['int16', new Uint16Array(2)], ['uint16', new Int16Array(2)], ['int32', new Uint32Array(2)],
    ['uint32', new Int32Array(2)], ['int64', new BigUint64Array(2)], ['int64', new Float64Array(2)],
    ['uint64', new BigInt64Array(2)], ['bool', new Int8Array(2)], ['string', new Uint8Array(2)],
    ['complex64', new Float64Array(2)], ['complex128', new Float32Array(2)],
    ['float8e4m3fn', new Int8Array(2)], ['float8e4m3fnuz', new Uint16Array(2)], ['float8e5m2', new Int8Array(2)],
    ['float8e5m2fnuz', new Int8Array(2)], ['float8e8m0', new Int8Array(2)], ['int4', new Int8Array(2)],
    ['uint4', new Uint16Array(2)], ['float4e2m1', new Int8Array(2)], ['int2', new Int8Array(2)], ['uint2', new Float32Array(2)],
    ['float32', 'not an array'], ['float32', undefined], ['int32', 5],
  ];
  for (const [type, data] of CASES) {
    const got = data?.constructor?.name ?? typeof data;
    test(`${type} from ${got}`, () => {
      const expected = TYPES.find((t) => t.type === type).Cls.name;
      assert.throws(() => new Tensor(type, data),
        invalid(new RegExp(`^${type} data must be a ${type === 'string' ? 'string\\[\\]' : expected}.*got ${got}$`)));
    });
  }
  test('an unknown type name lists the known ones', () => {
    assert.throws(() => new Tensor('float128', [1]), invalid(/unknown element type 'float128'.*float32.*uint2/));
    assert.throws(() => Tensor.alloc('tensor(float)', [1]), invalid(/unknown element type/));
  });
});

describe('storage length must match dims (sub-byte types packed)', () => {
  // [type, dims, storage entries]
  const CASES = [
    ['int4', [3], 2], ['int4', [4], 2], ['int4', [5], 3], ['int4', [1], 1], ['int4', [0], 0],
    ['uint4', [2, 3], 3], ['float4e2m1', [7], 4], ['float4e2m1', [1, 1], 1],
    ['int2', [5], 2], ['int2', [4], 1], ['int2', [8], 2], ['int2', [9], 3], ['uint2', [1], 1], ['uint2', [3, 3], 3],
    ['float32', [2, 3], 6], ['complex64', [3], 6], ['complex128', [2, 2], 8], ['string', [2, 2], 4],
    ['int64', [5], 5], ['bool', [7], 7], ['float16', [3], 3],
  ];
  for (const [type, dims, entries] of CASES) {
    test(`${type} ${JSON.stringify(dims)} takes ${entries} entries`, () => {
      const { Cls } = TYPES.find((t) => t.type === type);
      const make = (n) => (Cls === Array ? Array(n).fill('s') : new Cls(n));
      const t = new Tensor(type, make(entries), dims);
      assert.deepEqual(t.dims, dims);
      assert.equal(t.data.length, entries);
      assert.equal(Tensor.alloc(type, dims).data.length, entries);
      const size = dims.reduce((a, b) => a * b, 1);
      for (const wrong of [entries + 1, entries - 1].filter((n) => n >= 0))
        assert.throws(() => new Tensor(type, make(wrong), dims),
          invalid(new RegExp(`^${type} tensor of dims \\[${dims.join(', ')}\\] \\(${size} elements\\) needs ${entries} .*got ${wrong}$`)));
    });
  }
  test('default dims of packed storage count every element the bytes hold', () => {
    assert.deepEqual(new Tensor('int4', new Uint8Array(2)).dims, [4]);
    assert.deepEqual(new Tensor('int2', new Uint8Array(2)).dims, [8]);
    assert.deepEqual(new Tensor('complex128', new Float64Array(6)).dims, [3]);
  });
});

describe('dims validation', () => {
  const BAD = [[-1], [1.5], [NaN], ['2'], [2 ** 53], [Infinity], [null], 'dims', 7];
  for (const dims of BAD) {
    test(`dims ${JSON.stringify(dims)} refused`, () => {
      assert.throws(() => new Tensor('float32', [1], dims), InvalidArgumentError);
      assert.throws(() => Tensor.alloc('float32', dims), InvalidArgumentError);
    });
  }
  test('a zero dimension makes 0 elements even when the other dims multiply past int64', () => {
    const t = Tensor.alloc('float32', [2 ** 40, 2 ** 40, 0]);
    assert.equal(t.size, 0);
    assert.equal(t.data.length, 0);
  });
  test('dims as bigints or a typed array are accepted, and the caller\'s array is not kept', () => {
    const dims = [2, 3];
    const t = new Tensor('float32', new Float32Array(6), dims);
    dims[0] = 99;
    assert.deepEqual(t.dims, [2, 3]);
    assert.deepEqual(new Tensor('int8', new Int8Array(6), [2n, 3n]).dims, [2, 3]);
    assert.deepEqual(Tensor.alloc('int8', new Int32Array([3, 2])).dims, [3, 2]);
  });
  // Dims cross as numbers up to rank 4, as an array above; an output's dims come back through the
  // binding's info int32s up to rank 62, through tensorInfo above: both sides of each edge.
  for (const rank of [3, 4, 5, 62, 63, 64, 65, 200]) {
    test(`rank ${rank}: dims kept exactly, through a Reshape and a prepared Reshape too`, () => {
      const dims = Array.from({ length: rank }, (_, i) => (i === 0 ? 3 : i === rank - 2 ? 2 : 1));
      const t = new Tensor('int16', Int16Array.from([1, 2, 3, 4, 5, 6]), dims);
      assert.deepEqual(t.dims, dims);
      assert.deepEqual(Tensor.alloc('uint8', dims).dims, dims);
      const [r] = runNode({ opType: 'Reshape' }, [t, new Tensor('int64', dims.map(BigInt), [rank])]);
      assert.deepEqual(r.dims, dims);
      assert.deepEqual(Array.from(r.data), [1, 2, 3, 4, 5, 6]);
      const [p] = prepareNode({ opType: 'Reshape' }).run([t, new Tensor('int64', dims.map(BigInt), [rank])]);
      assert.deepEqual(p.dims, dims);
      assert.throws(() => new Tensor('float32', [1], [...dims.slice(1), -1]), InvalidArgumentError);
    });
  }
});

describe('an output dimension at and above 2^31 - 1 (the largest the run path\'s info int32s hold)', () => {
  // Zero-element tensors, so that no memory is needed: a Reshape, one-off and prepared (as a
  // session runs its nodes), returns them through the info (up to 2^31 - 1) or through tensorInfo
  // (above), with the dims exact.
  for (const dims of [[0, 2 ** 31 - 1], [2 ** 31 - 1, 0, 3], [0, 2 ** 31], [2 ** 31 + 1, 0], [0, 2 ** 40], [2 ** 53 - 1, 0]]) {
    test(`[${dims.join(', ')}]`, () => {
      const t = Tensor.alloc('float32', dims);
      const shape = new Tensor('int64', dims.map(BigInt), [dims.length]);
      const [r] = runNode({ opType: 'Reshape' }, [t, shape]);
      assert.deepEqual(r.dims, dims);
      const [p] = prepareNode({ opType: 'Reshape' }).run([t, shape]);
      assert.deepEqual(p.dims, dims);
      for (const x of [t, shape, r, p]) x.dispose();
    });
  }
});

describe('scalars (dims []) and zero-size dims for every type', () => {
  for (const spec of TYPES) {
    test(spec.type, () => {
      const one = spec.Cls === Array ? 1 : Math.ceil(spec.bits / 8) / spec.Cls.BYTES_PER_ELEMENT;
      const s = Tensor.alloc(spec.type, []);
      assert.deepEqual(s.dims, []);
      assert.equal(s.size, 1);
      assert.equal(s.data.length, one);
      const scalar = new Tensor(spec.type, spec.sample.slice(0, one), []);
      assert.deepEqual(scalar.dims, []);
      assert.deepEqual(Array.from(scalar.data), Array.from(spec.Cls === Array ? spec.sample.slice(0, 1) : spec.Cls.from(spec.sample.slice(0, one))));
      for (const dims of [[0], [2, 0, 3], [0, 0]]) {
        const z = new Tensor(spec.type, [], dims);
        assert.deepEqual(z.dims, dims);
        assert.equal(z.size, 0);
        assert.equal(z.data.length, 0);
        assert.equal(Tensor.alloc(spec.type, dims).data.length, 0);
        assert.throws(() => new Tensor(spec.type, spec.sample.slice(0, one), dims), InvalidArgumentError);
      }
    });
  }
});

describe('Tensor.alloc: zeroed, filled in place through data', () => {
  for (const spec of TYPES) {
    test(spec.type, () => {
      const n = elementsOf(spec, spec.sample.length);
      const t = Tensor.alloc(spec.type, [n]);
      assert.equal(t.type, spec.type);
      assert.deepEqual(t.dims, [n]);
      const zero = spec.Cls === Array ? '' : spec.Cls === BigInt64Array || spec.Cls === BigUint64Array ? 0n : 0;
      assert.deepEqual(Array.from(t.data), Array(spec.sample.length).fill(zero));
      // Fill in place, then read the values back through an op's output (no copy in between).
      for (let i = 0; i < spec.sample.length; ++i) t.data[i] = spec.sample[i];
      const expected = spec.Cls === Array ? spec.sample : Array.from(spec.Cls.from(spec.sample));
      assert.deepEqual(Array.from(t.data), expected);
      if (spec.type === 'string') {
        const [g] = runNode({ opType: 'Gather' }, [t, new Tensor('int64', [1n, 0n], [2])]);
        assert.deepEqual(g.data, [spec.sample[1], spec.sample[0]]);
      }
    });
  }
  test('string data refuses non-strings and a length change', () => {
    const t = Tensor.alloc('string', [2]);
    assert.throws(() => { t.data[0] = 5; }, InvalidArgumentError);
    assert.throws(() => { t.data.push('x'); }, TypeError);
    assert.deepEqual(t.data, ['', '']);
  });
  test('getData() returns a copy', async () => {
    const t = new Tensor('int32', [1, 2, 3]);
    const copy = await t.getData();
    copy[0] = 9;
    sameValues(t.data, [1, 2, 3]);
    const s = new Tensor('string', ['a', 'b']);
    const sc = await s.getData();
    sc[0] = 'z';
    assert.deepEqual(s.data, ['a', 'b']);
  });
});

describe('dispose and use after dispose', () => {
  for (const type of ['float32', 'string', 'int4', 'complex128']) {
    test(type, () => {
      const spec = TYPES.find((t) => t.type === type);
      const t = new Tensor(type, spec.sample.slice());
      const dims = t.dims;
      t.dispose();
      assert.equal(t.disposed, true);
      assert.equal(t.type, type);                // type and dims stay readable
      assert.deepEqual(t.dims, dims);
      const disposed = (e) => e instanceof DisposedError && e.code === 'ERR_DISPOSED' && e instanceof OnnxWasmError &&
        e.message.includes(type) && e.message.includes(`[${dims.join(', ')}]`);
      assert.throws(() => t.data, disposed);
      assert.throws(() => t.handle, disposed);
      assert.throws(() => t.sharesMemoryWith(t), disposed);
      assert.throws(() => runNode({ opType: 'Flatten' }, [t]), disposed);
      t.dispose();                               // a second dispose is a no-op
      assert.equal(t.disposed, true);
    });
  }
  test('a string data array read before dispose throws after it', () => {
    const t = new Tensor('string', ['a']);
    const d = t.data;
    t.dispose();
    assert.throws(() => d[0], DisposedError);
  });
  test('an output disposed before its dims were read keeps them, frozen, for its messages', () => {
    const t = new Tensor('float32', [1, 2, 3, 4, 5, 6], [3, 2]);
    const [g] = runNode({ opType: 'Gather', attributes: { axis: 1 } }, [t, new Tensor('int64', [1n, 0n, 1n], [3])]);
    g.dispose();
    assert.deepEqual(g.dims, [3, 3]);
    assert.ok(Object.isFrozen(g.dims) && Object.isFrozen(t.dims), 'dims are frozen');
    assert.throws(() => g.data, (e) => e instanceof DisposedError && e.message.includes('float32 tensor of dims [3, 3]'));
    t.dispose();
  });
  test('an output sharing the input\'s memory stays valid after the input is disposed', () => {
    const t = new Tensor('float32', [1, 2, 3, 4], [2, 2]);
    const [flat] = runNode({ opType: 'Flatten', attributes: { axis: 0 } }, [t]);
    t.dispose();
    assert.deepEqual(flat.dims, [1, 4]);
    sameValues(flat.data, [1, 2, 3, 4]);
    flat.dispose();
  });
});

test("new Tensor(data, dims?), onnxruntime-web's form: the type each typed array, string[] and boolean[] gives onnxruntime-common's Tensor; the rest refused", async () => {
  // (the data was read as the type's name: "unknown element type '0,0,0,0'")
  const { Tensor: OrtTensor } = await import('onnxruntime-common');
  const datas = [Float32Array.of(1.5, -2), Uint8Array.of(1, 255), Int8Array.of(-1, 2), Uint16Array.of(7, 65535), Int16Array.of(-3, 4),
    Int32Array.of(-5, 6), Float64Array.of(0.1, 2), Uint32Array.of(2 ** 32 - 1, 0), BigInt64Array.of(-1n, 2n), BigUint64Array.of(2n ** 64n - 1n, 0n),
    Uint8ClampedArray.of(0, 255), ['a', 'bc'], [true, false]];
  for (const data of datas) {
    const ort = new OrtTensor(data, [2, 1]);
    const t = new Tensor(data, [2, 1]);
    assert.deepEqual([t.type, t.dims, Array.from(t.data)], [ort.type, [2, 1], Array.from(ort.data)], data.constructor.name);
    const flat = new Tensor(data);
    assert.deepEqual(flat.dims, [2], `${data.constructor.name} without dims`);
    t.dispose();
    flat.dispose();
  }
  const form = 'new Tensor(type, data, dims?) or new Tensor(data, dims?)';
  const refused = [
    [[[1, 2]], `${form}: the type of an array of numbers cannot be inferred (only string[] and boolean[]); give it, as new Tensor('float32', data, dims)`],
    [[[]], `${form}: the type of an array with no elements cannot be inferred (only string[] and boolean[]); give it, as new Tensor('float32', data, dims)`],
    [[new DataView(new ArrayBuffer(4))], `${form}: a DataView names no element type; give the type`],
    [[7, [1]], `${form}: the type must be a string such as 'float32', got 7`],
    [[Float32Array.of(1, 2), [3]], 'float32 tensor of dims [3] (3 elements) needs 3 Float32Array entries, got 2'],
  ];
  for (const [args, message] of refused) assert.throws(() => new Tensor(...args), (e) => e instanceof InvalidArgumentError && e.message === message, message);
});
