// CommonJS: require('../../dist/index.cjs') (what require('onnx-wasm') loads) exposes the same API
// as the ES module and runs Gather, Reshape and Flatten.
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const path = require('node:path');
const { pathToFileURL } = require('node:url');
const ow = require('../../dist/index.cjs');

test('the CommonJS bundle exports what the ES module exports', async () => {
  const esm = await import(pathToFileURL(path.join(__dirname, '../../js/index.mjs')).href);
  assert.deepEqual(Object.keys(ow).sort(), Object.keys(esm).sort());
});

test('require works and runs a Gather', async () => {
  const info = await ow.init();
  assert.equal(info.minOpset, 1);
  assert.equal(info.maxOpset, 28);
  const data = new ow.Tensor('float32', [1, 2, 3, 4, 5, 6], [3, 2]);
  const [rows] = ow.runNode({ opType: 'Gather', attributes: { axis: 0 } }, [data, new ow.Tensor('int64', [2n, -3n], [2])], { opset: 13 });
  assert.deepEqual(rows.dims, [2, 2]);
  assert.ok(rows.data instanceof Float32Array);
  assert.deepEqual(Array.from(rows.data), [5, 6, 1, 2]);
  assert.equal(rows.sharesMemoryWith(data), false);

  const [r] = ow.runNode({ opType: 'Reshape' }, [data, new ow.Tensor('int64', [-1n], [1])]);
  assert.deepEqual(r.dims, [6]);
  assert.ok(r.sharesMemoryWith(data));
  const [f] = ow.runNode({ op_type: 'Flatten', attribute: [{ name: 'axis', type: 2, i: 0n }] }, [data], { opset: 9 });
  assert.deepEqual(f.dims, [1, 6]);

  assert.deepEqual(ow.inferShapes({ opType: 'Reshape' },
    [{ type: 'float32', dims: ['batch', 16, 64] }, { type: 'int64', dims: [3], value: [0, 4, -1] }]),
  [{ type: 'float32', dims: ['batch', 4, 256] }]);
});

test('errors from the CommonJS bundle are its OnnxWasmError subclasses', async () => {
  await ow.init();
  const data = new ow.Tensor('float32', [1, 2, 3], [3]);
  assert.throws(() => ow.runNode({ opType: 'Gather' }, [data, new ow.Tensor('int32', [3], [1])]),
    (e) => e instanceof ow.IndexOutOfRangeError && e instanceof ow.OnnxWasmError && e instanceof Error &&
      e.code === 'ERR_INDEX' && e.message === 'Gather-13: index 3 at position 0 is outside [-3, 2] for axis 0 of size 3');
  assert.throws(() => new ow.Tensor('uint8', [300]), (e) => e instanceof ow.InvalidArgumentError && /data\[0\] is 300, not an integer/.test(e.message));
  // Still working afterwards.
  const [g] = ow.runNode({ opType: 'Gather' }, [data, new ow.Tensor('int32', [-1], [])]);
  assert.deepEqual(Array.from(g.data), [3]);
});

test('the bundle has the js/ fixes: a string tensor is filled through data', async () => {
  await ow.init();
  const t = ow.Tensor.alloc('string', [2]);
  t.data[0] = 'x';
  t.data[1] = 'y';
  const [g] = ow.runNode({ opType: 'Gather' }, [t, new ow.Tensor('int64', [1n, 0n], [2])]);
  assert.deepEqual(Array.from(g.data), ['y', 'x']);
});

// A process that both imports and requires the package (an ES module app with a CommonJS
// dependency, say) gets one instance: the same classes and functions, one init(), one memory.
test('import and require in one process share one instance', async () => {
  const esm = await import(pathToFileURL(path.join(__dirname, '../../dist/index.mjs')).href);
  for (const name of Object.keys(esm)) assert.equal(ow[name], esm[name], name);
  await ow.init();
  assert.notEqual(esm.runtime(), null, 'init() through require is init() for import');
  const t = new esm.Tensor('float32', [1, 2, 3], [3]);
  const [g] = ow.runNode({ opType: 'Gather' }, [t, new ow.Tensor('int64', [2n], [1])]);
  assert.ok(g instanceof esm.Tensor);
  assert.deepEqual(Array.from(g.data), [3]);
  assert.throws(() => esm.runNode({ opType: 'Gather' }, [t, new ow.Tensor('int64', [3n], [1])]), (e) => e instanceof ow.IndexOutOfRangeError && e instanceof ow.OnnxWasmError);
});
