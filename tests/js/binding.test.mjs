// The wasm boundary itself (bindings/embind.cpp), called as js/ calls it, with values of the wrong
// kind: each call returns the failure { code, message } (no abort, nothing thrown through C++
// frames), leaves nothing allocated, and the module keeps working. Also: a failure is never
// mistaken for a result by js/binding.mjs's check(), and the per-run integer calls agree with the
// val calls that report their failures.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { init, memoryStats } from '../../js/index.mjs';
import { check } from '../../js/binding.mjs';
import { getModule } from '../../js/runtime.mjs';

await init();
const m = getModule();
const axis0 = [{ name: 'axis', kind: 'INT', value: 0 }];
const handle = (r) => { assert.equal(typeof r, 'number', JSON.stringify(r)); return r; };
// Writes a prepared node's input handles where nodeRun and nodeRunHandle read them.
const setInputs = (...handles) => new Uint32Array(m.HEAPU8.buffer, m.inputsAddress(handles.length), handles.length).set(handles);

const malformed = [
  ['an op type that is not a string', () => m.prepareNode('', 5, 13, axis0)],
  ['a domain that is not a string', () => m.prepareNode(null, 'Gather', 13, axis0)],
  ['a run of an op type that is not a string', () => m.runNode('', 5, 13, axis0, [])],
  ['an inference of a domain that is not a string', () => m.inferNode(0, 'Gather', 13, axis0, [])],
  ['attributes not an array', () => m.prepareNode('', 'Gather', 13, 'axis')],
  ['an attribute without a string name', () => m.prepareNode('', 'Gather', 13, [{ name: 1, kind: 'INT', value: 0 }])],
  ['an attribute of an unknown kind', () => m.prepareNode('', 'Gather', 13, [{ name: 'axis', kind: 'GRAPH', value: 0 }])],
  ['a TENSOR that is not an object', () => m.prepareNode('', 'ConstantOfShape', 25, [{ name: 'value', kind: 'TENSOR', value: 0 }])],
  ['a TENSOR of an unknown type id', () => m.prepareNode('', 'ConstantOfShape', 25, [{ name: 'value', kind: 'TENSOR', value: { type: 99, dims: [1], bytes: [0] } }])],
  ['a TENSOR whose bytes do not fit its dims', () => m.prepareNode('', 'ConstantOfShape', 25, [{ name: 'value', kind: 'TENSOR', value: { type: 1, dims: [1], bytes: [0, 0] } }])],
  ['a TENSOR byte beyond 255', () => m.prepareNode('', 'ConstantOfShape', 25, [{ name: 'value', kind: 'TENSOR', value: { type: 2, dims: [1], bytes: [256] } }])],
  ['a string TENSOR without its strings', () => m.prepareNode('', 'ConstantOfShape', 25, [{ name: 'value', kind: 'TENSOR', value: { type: 8, dims: [1], bytes: [0] } }])],
  ['an INT that is a string, not a decimal integer', () => m.prepareNode('', 'Gather', 13, [{ name: 'axis', kind: 'INT', value: 'x' }])],
  ['an INT beyond int64', () => m.prepareNode('', 'Gather', 13, [{ name: 'axis', kind: 'INT', value: '9223372036854775808' }])],
  ['an INT that is not an integer', () => m.prepareNode('', 'Gather', 13, [{ name: 'axis', kind: 'INT', value: 0.5 }])],
  ['an INT beyond 2^53', () => m.prepareNode('', 'Gather', 13, [{ name: 'axis', kind: 'INT', value: 2 ** 60 }])],
  ['INTS with a string', () => m.prepareNode('', 'Reshape', 13, [{ name: 'shape', kind: 'INTS', value: [1, 'a'] }])],
  ['STRINGS with a number', () => m.prepareNode('', 'Gather', 13, [{ name: 'names', kind: 'STRINGS', value: ['a', 2] }])],
  ['dims not an array', () => m.tensorCreate(1, 4, true)],
  ['dims with a fraction', () => m.tensorCreate(1, [2, 1.5], true)],
  ['dims with a string', () => m.tensorCreate(1, [2, '3'], true)],
  ['run inputs not an array', () => m.runNode('', 'Gather', 13, axis0, 7)],
  ['run inputs with a string', () => m.runNode('', 'Gather', 13, axis0, ['a', 0])],
  ['infer inputs not an array', () => m.inferNode('', 'Gather', 13, axis0, {})],
  ['infer input without a numeric type', () => m.inferNode('', 'Gather', 13, axis0, [{ type: 'float32', dims: [2] }])],
  ['infer dims with an object', () => m.inferNode('', 'Gather', 13, axis0, [{ type: 1, dims: [{}] }, { type: 7, dims: [] }])],
  ['infer value with an object', () => m.inferNode('', 'Reshape', 13, [], [{ type: 1, dims: [4] }, { type: 7, dims: [1], value: [{}] }])],
  ['infer value with a decimal beyond int64', () => m.inferNode('', 'Reshape', 13, [], [{ type: 1, dims: [4] }, { type: 7, dims: [1], value: ['9223372036854775808'] }])],
];

for (const [name, call] of malformed) {
  test(`malformed call: ${name} → { code, message }, nothing left allocated`, () => {
    const before = memoryStats().heapUsed;
    const r = call();
    assert.equal(r.code, 'ERR_INVALID_ARGUMENT', JSON.stringify(r));
    assert.match(r.message, /^malformed call from JS to the wasm module: /);
    assert.throws(() => check(r), (e) => e.name === 'InvalidArgumentError' && e.code === 'ERR_INVALID_ARGUMENT' && e.message === r.message);
    assert.equal(memoryStats().heapUsed, before, 'heap in use after the call');
  });
}

test("a JS value Embind itself cannot convert (a string element that is not a string) is Embind's error, thrown before C++ runs", () => {
  const s = handle(m.tensorCreate(8, [1], true));
  const before = memoryStats().heapUsed;
  assert.throws(() => m.tensorSetString(s, 0, 5), (e) => e.name === 'BindingError' && /Cannot pass non-string to std::string/.test(e.message));
  assert.equal(memoryStats().heapUsed, before);
  m.tensorDelete(s);
});

test('int64 values beyond 2^53 cross inferNode exactly, as decimal strings, both ways', () => {
  const starts = { type: 7, dims: [1], value: ['-9223372036854775808'] };
  const ends = { type: 7, dims: [1], value: ['9223372036854775807'] };
  const r = check(m.inferNode('', 'Slice', 13, [], [{ type: 7, dims: [3], value: [4, 5, 6] }, { type: 7, dims: [1], value: [1] }, ends]));
  assert.deepEqual(r, [{ type: 7, dims: [2], value: [5, 6] }]);
  const c = check(m.inferNode('', 'Concat', 13, axis0, [starts, ends]));
  assert.deepEqual(c, [{ type: 7, dims: [2], value: ['-9223372036854775808', '9223372036854775807'] }]);
});

test('the module keeps working after every malformed call', () => {
  const data = handle(m.tensorCreate(1, [3, 2], true));
  const ids = handle(m.tensorCreate(7, [1], true));
  m.tensorData(data).set([1, 2, 3, 4, 5, 6]);
  m.tensorData(ids)[0] = 2n;
  const { node } = check(m.prepareNode('', 'Gather', 13, axis0));
  setInputs(data, ids);
  const out = handle(check(m.nodeRun(node, 2)));
  assert.deepEqual(Array.from(m.tensorData(out)), [5, 6]);
  assert.deepEqual(m.tensorInfo(out), { type: 1, dims: [1, 2] });
  for (const h of [out, data, ids]) m.tensorDelete(h);
  m.nodeDelete(node);
});

test('the per-run integer calls give 0 where the val calls give the failure, and the same output otherwise', () => {
  const data = handle(m.tensorCreate(1, [3, 2], true));
  const bad = handle(m.tensorCreate(7, [1], true));
  m.tensorData(bad)[0] = 3n;   // out of [-3, 2]
  const { node } = check(m.prepareNode('', 'Gather', 13, axis0));
  setInputs(data, bad);
  assert.equal(m.nodeRunHandle(node, 2), 0);
  const failure = m.nodeRun(node, 2);
  assert.equal(failure.code, 'ERR_INDEX');
  assert.match(failure.message, /index 3 at position 0 is outside \[-3, 2\]/);
  m.tensorData(bad)[0] = -1n;
  const h = m.nodeRunHandle(node, 2);
  assert.ok(h > 0);
  const at = m.infoAddress();
  assert.deepEqual(Array.from(new Int32Array(m.HEAPU8.buffer, at, 4)), [1, 2, 1, 2], 'the run wrote its output\'s info');
  new Int32Array(m.HEAPU8.buffer, at, 4).fill(0);
  assert.equal(m.tensorInfoAddress(h), at);
  assert.deepEqual(Array.from(new Int32Array(m.HEAPU8.buffer, at, 4)), [1, 2, 1, 2]);
  assert.deepEqual(m.tensorInfo(h), { type: 1, dims: [1, 2] });
  for (const x of [h, data, bad]) m.tensorDelete(x);
  m.nodeDelete(node);
});

test('the input area: any count of handles, 0 for an omitted input; more than it has room for is a malformed call', () => {
  const data = handle(m.tensorCreate(1, [3, 2], true));
  const { node } = check(m.prepareNode('', 'Flatten', 13, []));
  const before = m.inputsAddress(0);
  const room = m.inputsAddress(300);
  assert.ok(room > 0);
  new Uint32Array(m.HEAPU8.buffer, room, 300).fill(data);
  const many = m.nodeRun(node, 300);
  assert.equal(many.code, 'ERR_INPUT');
  assert.equal(many.message, 'Flatten-13 takes 1 input, got 300');
  const beyond = m.nodeRun(node, 301);
  assert.equal(beyond.code, 'ERR_INVALID_ARGUMENT');
  assert.match(beyond.message, /^malformed call from JS to the wasm module: /);
  setInputs(0);
  assert.equal(m.nodeRun(node, 1).message, 'Flatten-13: input 0 is missing');
  setInputs(data);
  const out = handle(check(m.nodeRun(node, 1)));
  assert.deepEqual(m.tensorInfo(out), { type: 1, dims: [3, 2] });
  assert.ok(before > 0);
  for (const x of [out, data]) m.tensorDelete(x);
  m.nodeDelete(node);
});

// The info int32s hold ranks up to 62 and dimensions up to 2^31 - 1; beyond either, the run path
// reads rank -1 and asks tensorInfo (both sides of each edge).
for (const [what, dims, held] of [
  ['rank 62', new Array(62).fill(1), true],
  ['a rank above 62', new Array(70).fill(1), false],
  ['a dimension of 2^31 - 1', [0, 2 ** 31 - 1], true],
  ['a dimension of 2^31', [0, 2 ** 31], false],
  ['a dimension of 2^40', [2 ** 40, 0], false],
]) {
  test(`${what}: tensorInfoAddress gives ${held ? 'the info' : '0 and tensorInfo the dims'}`, () => {
    const h = handle(m.tensorCreate(1, dims, true));
    const info = () => new Int32Array(m.HEAPU8.buffer, m.infoAddress(), 2 + dims.length);
    if (held) {
      assert.equal(m.tensorInfoAddress(h), m.infoAddress());
      assert.deepEqual(Array.from(info()), [1, dims.length, ...dims]);
    } else {
      assert.equal(m.tensorInfoAddress(h), 0);
      assert.equal(info()[1], -1, 'rank -1 where the run path reads it');
    }
    assert.deepEqual(m.tensorInfo(h), { type: 1, dims });
    m.tensorDelete(h);
  });
}

test('memory views of every storage class, 64-bit integers included', () => {
  const classes = { 1: Float32Array, 2: Uint8Array, 3: Int8Array, 4: Uint16Array, 5: Int16Array, 6: Int32Array, 7: BigInt64Array,
    9: Uint8Array, 10: Uint16Array, 11: Float64Array, 12: Uint32Array, 13: BigUint64Array, 21: Uint8Array };
  for (const [type, Cls] of Object.entries(classes)) {
    const h = handle(m.tensorCreate(Number(type), [4], true));
    const view = m.tensorData(h);
    assert.ok(view instanceof Cls, `type ${type}: ${view?.constructor?.name}`);
    assert.equal(view.buffer, m.HEAPU8.buffer);
    m.tensorDelete(h);
  }
  const s = handle(m.tensorCreate(8, [1], true));
  assert.equal(m.tensorData(s), undefined, 'a string tensor has no memory view');
  m.tensorSetString(s, 0, 'naïve ✓');
  assert.equal(m.tensorString(s, 0), 'naïve ✓');
  m.tensorDelete(s);
});
