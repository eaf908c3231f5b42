// init({ wasmModule }): the .wasm compiled by the caller (or a promise of it), as a page's inline
// script starts it before the entry arrives (README, "First result"). Each refused call leaves
// init() free to be called again; the last one loads the module and runs. One process: init()
// loads once, so this file has the module to itself.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { test } from 'node:test';
import { init, InvalidArgumentError, runNode, runtime, Tensor } from '../../js/index.mjs';

const dist = new URL('../../dist/', import.meta.url);
const bytes = (name) => readFileSync(new URL(name, dist));

const refusals = [
  {
    name: 'the threads build where init() chose the one-thread build',
    options: () => ({ threads: false, wasmModule: new WebAssembly.Module(bytes('threads/onnx-wasm-threads.wasm')) }),
    message: /^init\(\{ wasmModule \}\): the module passed is the threads build \(onnx-wasm-threads\.wasm\), but init\(\) chose onnx-wasm \(.*threads disabled by the caller/,
  },
  {
    name: 'a one-thread build where init() chose the threads build',
    options: () => ({ wasmModule: new WebAssembly.Module(bytes('onnx-wasm.wasm')) }),
    message: /^init\(\{ wasmModule \}\): the module passed is a one-thread build, but init\(\) chose onnx-wasm-threads \(/,
    skip: availableParallelism() < 2 && 'one core: init() chooses the one-thread build here',
  },
  {
    name: 'a promise that rejects (the caller\'s fetch failed)',
    options: () => ({ threads: false, wasmModule: Promise.reject(new TypeError('Failed to fetch')) }),
    message: /^init\(\{ wasmModule \}\): the promise passed was rejected: Failed to fetch$/,
    cause: TypeError,
  },
  {
    name: 'something other than a WebAssembly.Module',
    options: () => ({ threads: false, wasmModule: bytes('onnx-wasm.wasm') }),
    message: /^init\(\{ wasmModule \}\): expected a WebAssembly\.Module or a promise of one, got Buffer$/,
  },
  {
    name: 'wasmModule with wasmBinary',
    options: () => ({ threads: false, wasmModule: new WebAssembly.Module(bytes('onnx-wasm.wasm')), wasmBinary: bytes('onnx-wasm.wasm') }),
    message: /^init\(\): pass one of wasmModule, wasmBinary and wasmUrl, not several$/,
  },
];

for (const c of refusals) {
  test(`init({ wasmModule }) refuses ${c.name}, and init() can be called again`, { skip: c.skip }, async () => {
    await assert.rejects(init(c.options()), (e) => {
      assert.ok(e instanceof InvalidArgumentError, `${e?.name}: ${e?.message}`);
      assert.equal(e.code, 'ERR_INVALID_ARGUMENT');
      assert.match(e.message, c.message);
      if (c.cause) assert.ok(e.cause instanceof c.cause);
      return true;
    });
    assert.equal(runtime(), null);
  });
}

test('init({ wasmModule: promise }) instantiates the caller\'s module and Gather runs', async () => {
  const info = await init({ threads: false, wasmModule: WebAssembly.compile(bytes('onnx-wasm.wasm')) });
  assert.equal(info.module, 'onnx-wasm');
  assert.equal(info.loadedFrom, 'WebAssembly.Module passed by the caller');
  const [g] = runNode({ opType: 'Gather', attributes: { axis: 0 } }, [new Tensor('float32', [1, 2, 3, 4, 5, 6], [3, 2]), new Tensor('int64', [2n, -3n], [2])], { opset: 13 });
  assert.deepEqual(Array.from(g.data), [5, 6, 1, 2]);
});
