// A URL whose response ends early (issue 22, item 3): the download resumes with a Range request
// from the bytes received (or from the start where the server ignores Range), a bounded number
// of times; a download that keeps stopping fails with ExternalDataError "ended after N of M
// bytes", never with "needs X bytes of 'f', which holds X". Responses are cut both ways a client
// sees: a connection reset (Content-Length given) and a clean early end (chunked).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { init, InferenceSession, Tensor, ExternalDataError } from '../../js/index.mjs';
import { gatherModel, tableBytes } from '../support/external-models.mjs';
import { serveFiles } from '../support/file-server.mjs';

await init();
const rows = 2000, dims = [rows, 64];   // 512 000 bytes
const table = tableBytes('float32', dims);
const tmp = mkdtempSync(join(tmpdir(), 'onnx-wasm-url-resume-'));
writeFileSync(join(tmp, 'model.onnx'), gatherModel({ dims }));
writeFileSync(join(tmp, 'table.bin'), table);
let server;
before(async () => { server = await serveFiles(tmp); });
after(async () => { await server.close(); rmSync(tmp, { recursive: true, force: true }); });

const indices = [0, 1, rows - 1, 777, 1500];
async function lookup() {
  const s = await InferenceSession.create(`${server.url}model.onnx`, { externalDataMode: 'memory' });
  const feed = new Tensor('int64', indices.map(BigInt), [indices.length]);
  try {
    const { out } = await s.run({ indices: feed });
    const bytes = new Uint8Array(out.data.buffer, out.data.byteOffset, out.data.byteLength).slice();
    out.dispose();
    return bytes;
  } finally {
    feed.dispose();
    await s.release();
  }
}
const rowBytes = table.length / rows;
const expected = new Uint8Array(indices.flatMap((i) => Array.from(table.subarray(i * rowBytes, (i + 1) * rowBytes))));
const tableRequests = () => server.requests.filter((r) => r.path === '/table.bin');

// [name, server options, the Range headers the table's requests must carry]
const cases = [
  ['reset after 100 000 bytes, Range served: resumed from byte 100 000', { ranges: true, cuts: 1, cutAfter: 100000, how: 'reset' }, ['bytes=0-511999', 'bytes=100000-511999']],
  ['clean early end after 100 000 bytes, Range served: resumed from byte 100 000', { ranges: true, cuts: 1, cutAfter: 100000, how: 'end' }, ['bytes=0-511999', 'bytes=100000-511999']],
  ['reset twice, Range served: resumed twice', { ranges: true, cuts: 2, cutAfter: 50000, how: 'reset' }, ['bytes=0-511999', 'bytes=50000-511999', 'bytes=100000-511999']],
  ['reset, Range ignored: fetched again from the start, the bytes received skipped', { ranges: false, cuts: 1, cutAfter: 100000, how: 'reset' }, ['bytes=0-511999', 'bytes=100000-511999']],
  ['clean early end, Range ignored: fetched again from the start', { ranges: false, cuts: 1, cutAfter: 100000, how: 'end' }, ['bytes=0-511999', 'bytes=100000-511999']],
];
for (const [name, options, ranges] of cases) {
  test(name, async () => {
    server.set({ ...options });
    server.requests.length = 0;
    assert.deepEqual(await lookup(), expected);
    assert.deepEqual(tableRequests().map((r) => r.range), ranges);
  });
}

for (const how of ['reset', 'end']) {
  test(`a download that keeps stopping (${how}): ExternalDataError "ended after N of M bytes", and the module keeps working`, async () => {
    server.set({ ranges: true, cuts: 1000, cutAfter: 10000, how });
    server.requests.length = 0;
    await assert.rejects(lookup(), (e) => {
      assert.ok(e instanceof ExternalDataError, `${e.name}: ${e.message}`);
      assert.match(e.message, /^tensor 'table': the download of http:\/\/127\.0\.0\.1:\d+\/table\.bin ended after 50000 of 512000 bytes \(5 tries/);
      assert.doesNotMatch(e.message, /which holds/);
      return true;
    });
    assert.equal(tableRequests().length, 5);
    server.set({ cuts: 0 });
    assert.deepEqual(await lookup(), expected);
  });
}
