// The wasm boundary (bindings/exports.cpp and js/wire.mjs): requests as bytes, answers as text.
// Malformed requests (which js/ never writes, so they are written here by hand) are refused with
// an InvalidArgumentError and the module keeps working; strings and symbols of any content cross
// both ways unchanged; the text answers and large requests leave nothing on the heap.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import {
  init, Tensor, runNode, inferShapes, opVersions, prepareNode, memoryStats, AttributeError,
  UnsupportedOpError,
} from '../../js/index.mjs';
import { getModule } from '../../js/runtime.mjs';
import { nodeRequest, send, takeError } from '../../js/wire.mjs';

const info = await init(JSON.parse(process.env.ONNXWASM_TEST_INIT ?? '{}'));
const m = getModule();

// The bytes of a request as js/wire.mjs writes it.
function request(write) {
  const w = nodeRequest('Gather', 13, []);
  w.length = 0;
  write(w);
  return w;
}

// A Gather run that must still work after each refused request.
function gatherStillWorks() {
  const [y] = runNode({ opType: 'Gather', attributes: { axis: 0 } }, [new Tensor('float32', [1, 2, 3, 4], [2, 2]), new Tensor('int64', [1n], [1])]);
  assert.deepEqual(Array.from(y.data), [3, 4]);
  y.dispose();
}

describe(`the wasm boundary (${info.module})`, () => {
  // [what, request writer, export called with the request's length]
  const malformed = [
    ['an empty request', () => {}, '_ow_prepare_node'],
    ['an op name longer than the request', (w) => w.u32(1000).u8(65), '_ow_prepare_node'],
    ['no opset', (w) => w.str('Gather'), '_ow_prepare_node'],
    ['more attributes than bytes', (w) => w.str('Gather').i32(13).u32(0xffffffff), '_ow_prepare_node'],
    ['an attribute cut short', (w) => w.str('Gather').i32(13).u32(1).str('axis').u8(0).u8(1), '_ow_prepare_node'],
    ['INTS with more values than bytes', (w) => w.str('Gather').i32(13).u32(1).str('axis').u8(1).u32(1 << 30), '_ow_prepare_node'],
    ['run: no input count', (w) => w.str('Gather').i32(13).u32(0), '_ow_run_node'],
    ['run: more inputs than bytes', (w) => w.str('Gather').i32(13).u32(0).u32(5).u32(0), '_ow_run_node'],
    ['infer: an input cut short', (w) => w.str('Gather').i32(13).u32(0).u32(1).i32(1).u8(1), '_ow_infer_node'],
    ['infer: a rank beyond the bytes', (w) => w.str('Gather').i32(13).u32(0).u32(1).i32(1).u8(1).u32(1 << 20).u8(0).u8(0), '_ow_infer_node'],
  ];
  for (const [what, write, fn] of malformed) {
    test(`a malformed request is refused: ${what}`, () => {
      const before = memoryStats().heapUsed;
      const r = m[fn](send(m, request(write)));
      assert.ok(r === 0 || r === -1, `${fn} returned ${r}`);
      const e = takeError(m);
      assert.deepEqual(e, { code: 'ERR_INVALID_ARGUMENT', message: 'malformed request from JS to the wasm module' });
      assert.equal(memoryStats().heapUsed, before);
      gatherStillWorks();
    });
  }

  test('the error is taken once: a second read finds none', () => {
    assert.throws(() => prepareNode({ opType: 'Nope' }), UnsupportedOpError);
    assert.equal(takeError(m).code, 'OK');
  });

  const strings = ['', 'a', 'x\0y', 'é☃𝄞', '"quoted" \\ back\\slash', '\n\t\u0001\u001f', 'ü'.repeat(3000), 'z'.repeat(70000)];
  test('string tensors: any content, short or beyond the 4 KB argument buffer, crosses both ways', () => {
    const round = () => {
      const t = new Tensor('string', strings, [strings.length]);
      assert.deepEqual(Array.from(t.data), strings);
      const indices = new Tensor('int64', [7n, 0n, 3n], [3]);
      const [y] = runNode({ opType: 'Gather' }, [t, indices]);
      assert.deepEqual(Array.from(y.data), [strings[7], strings[0], strings[3]]);
      y.data[1] = strings[6];
      assert.equal(y.data[1], strings[6]);
      for (const x of [t, indices, y]) x.dispose();
    };
    const before = memoryStats().heapUsed;
    round();
    round();
    assert.equal(memoryStats().heapUsed, before);
  });

  test('symbolic dims of any content come back from shape inference unchanged (JSON escaping)', () => {
    const symbols = ['batch', '"q"', 'a\\b', '\n', '\u0000', 'é𝄞', '}]'];
    const [out] = inferShapes({ opType: 'Flatten', attributes: { axis: symbols.length } }, [{ type: 'float32', dims: [...symbols, 1] }]);
    assert.deepEqual(out, { type: 'float32', dims: [null, 1] });
    const [same] = inferShapes({ opType: 'Reshape' }, [{ type: 'float32', dims: symbols }, { type: 'int64', dims: [7], value: [0, 0, 0, 0, 0, 0, 0] }]);
    assert.deepEqual(same, { type: 'float32', dims: symbols });
  });

  test('attribute names and strings of any content reach the C++ errors unchanged', () => {
    assert.throws(() => runNode({ opType: 'Gather', attributes: { 'ax"is\u00e9': 1 } }, [new Tensor('float32', [1], [1]), new Tensor('int64', [0n], [1])]),
      (e) => e instanceof AttributeError && e.message.includes('ax"is\u00e9'));
  });

  test('a request larger than the argument buffer (an INTS of 100,000 values) is read, then its block freed', () => {
    const big = Array.from({ length: 100000 }, (_, i) => i);
    const round = () => {
      const inputs = [new Tensor('float32', [1], [1]), new Tensor('int64', [0n], [1])];
      assert.throws(() => runNode({ opType: 'Gather', attributes: { axis: big } }, inputs), AttributeError);
      inputs.forEach((x) => x.dispose());
    };
    const before = memoryStats().heapUsed;
    round();
    round();
    assert.equal(memoryStats().heapUsed, before);
  });

  test('text answers leave the heap where it was', () => {
    opVersions();
    inferShapes({ opType: 'Flatten' }, [{ type: 'float32', dims: ['n', 3] }]);
    const before = memoryStats().heapUsed;
    for (let i = 0; i < 50; ++i) {
      assert.equal(opVersions().length, 20);
      inferShapes({ opType: 'Flatten' }, [{ type: 'float32', dims: [`n${'x'.repeat(i * 10)}`, 3] }]);
      assert.throws(() => prepareNode({ opType: `Nope${'y'.repeat(i * 10)}` }), UnsupportedOpError);
    }
    assert.equal(memoryStats().heapUsed, before);
  });
});
