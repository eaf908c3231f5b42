// The pthreads build in Node: chosen by default, its workers load after init() in the
// background, large element gathers then split over threads and give the same bytes as the
// one-thread path, and a script that used threads still exits by itself.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const index = join(dirname(fileURLToPath(import.meta.url)), '../../js/index.mjs');
const script = `
const o = await import(${JSON.stringify(index)});
const info = await o.init();
const before = o.runtime().threadsActive;
const ready = await o.threadsReady();
const n = 2048;
const data = new o.Tensor('uint8', Uint8Array.from({ length: n * n }, (_, i) => (i * 2654435761) >>> 24), [n, n]);
const idx = new o.Tensor('int32', Int32Array.from({ length: 700 }, (_, i) => (i * 7919) % n - (i % 3 ? 0 : n)), [700]);
const [y] = o.runNode({ opType: 'Gather', attributes: { axis: 1 } }, [data, idx]);
let same = true;
const d = data.data, out = y.data, ix = idx.data;
for (let r = 0; r < n && same; ++r) for (let k = 0; k < 700; ++k) {
  const j = ix[k] < 0 ? ix[k] + n : ix[k];
  if (out[r * 700 + k] !== d[r * n + j]) { same = false; break; }
}
console.log(JSON.stringify({ module: info.module, threads: info.threads, before, ready, active: o.runtime().threadsActive, same }));
`;

test('threads build: default in Node, workers ready in the background, split gather exact, process exits', () => {
  const t0 = Date.now();
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20000 });
  const r = JSON.parse(out);
  assert.equal(r.module, 'onnx-wasm-threads');
  assert.ok(r.threads >= 2, `planned threads: ${r.threads}`);
  assert.equal(r.before, false, 'init() does not wait for the workers');
  assert.equal(r.ready, true, 'threadsReady() resolved to true');
  assert.equal(r.active, true, 'workers became ready');
  assert.equal(r.same, true, 'split gather equals the reference');
  assert.ok(Date.now() - t0 < 20000, 'the process exited by itself');
});
