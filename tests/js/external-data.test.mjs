// External data (issue 12): every source form (a file next to the model, a Uint8Array, an
// ArrayBuffer, a Blob, a file path or a URL in onnxruntime-web's [{ path, data }] form, a model
// fetched by URL with its data next to it) in each externalDataMode; every element type a Gather
// table may have, kept in its file or loaded; lazy reads across coalescing and chunk edges; a kept
// table read between two other nodes; progress events; the faults (data shorter than declared, a
// file that shrinks or vanishes under a kept table, an index out of range); tables too large for
// memory; and a soak of lazy runs with the heap flat. Expected rows come from the table's bytes,
// not from the runtime.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { closeSync, mkdtempSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, test } from 'node:test';
import {
  init, memoryStats, InferenceSession, Tensor, ExternalDataError, IndexOutOfRangeError, InvalidArgumentError, ModelError,
  OnnxWasmError, OutOfMemoryError,
} from '../../js/index.mjs';
import { gatherModel, tableBytes } from '../support/external-models.mjs';
import { allowedAt } from '../support/onnx-spec.mjs';

await init(JSON.parse(process.env.ONNXWASM_TEST_INIT ?? '{}'));
const MiB = 2 ** 20, GiB = 2 ** 30;
const tmp = mkdtempSync(join(tmpdir(), 'onnx-wasm-external-'));
after(() => rmSync(tmp, { recursive: true, force: true }));

// A folder with model.onnx and table.bin; returns { dir, model, table, bytes }.
function folder(name, spec, table = tableBytes(spec.type ?? 'float32', spec.dims)) {
  const dir = join(tmp, name);
  mkdirSync(dir, { recursive: true });
  const model = gatherModel(spec);
  writeFileSync(join(dir, 'model.onnx'), model);
  writeFileSync(join(dir, spec.location ?? 'table.bin'), table);
  return { dir, path: join(dir, 'model.onnx'), model, table };
}

// The bytes Gather(table, indices) along axis 0 must give: the rows, in order.
function expectedRows(table, rows, indices) {
  const rowBytes = table.length / rows;
  const out = new Uint8Array(indices.length * rowBytes);
  indices.forEach((i, k) => {
    const r = i < 0 ? i + rows : i;
    out.set(table.subarray(r * rowBytes, (r + 1) * rowBytes), k * rowBytes);
  });
  return out;
}
const bytesOf = (t) => new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength).slice();
const idx = (values, dims = [values.length]) => new Tensor('int64', values.map(BigInt), dims);

// Runs Gather(table, indices) in session `s` and checks the output against the table's rows.
async function checkRows(s, table, rows, indices, label) {
  const feed = idx(indices);
  const { out } = await s.run({ indices: feed });
  assert.deepEqual(out.dims.slice(0, 1), [indices.length], label);
  assert.deepEqual(bytesOf(out), expectedRows(table, rows, indices), label);
  out.dispose();
  feed.dispose();
}

// A server of `dir` on localhost; `ranges` false ignores Range headers (sends whole files).
async function serve(dir, { ranges = true } = {}) {
  const server = createServer((req, res) => {
    let body;
    try { body = readFileSync(join(dir, decodeURIComponent(new URL(req.url, 'http://x').pathname))); } catch { res.writeHead(404).end(); return; }
    const m = ranges && /^bytes=(\d+)-(\d+)$/.exec(req.headers.range ?? '');
    if (!m) { res.writeHead(200, { 'Content-Length': body.length }).end(body); return; }
    const [a, b] = [Number(m[1]), Math.min(Number(m[2]), body.length - 1)];
    if (a >= body.length) { res.writeHead(416, { 'Content-Range': `bytes */${body.length}` }).end(); return; }
    res.writeHead(206, { 'Content-Range': `bytes ${a}-${b}/${body.length}`, 'Content-Length': b - a + 1 }).end(body.subarray(a, b + 1));
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((ok) => server.close(ok)) };
}

describe('every source, in every mode: the same rows; valueInfo says where the table lives', () => {
  const rows = 300, dims = [rows, 40];
  const f = folder('sources', { dims, offset: 8 }, new Uint8Array([...new Uint8Array(8).fill(9), ...tableBytes('float32', dims)]));
  const table = f.table.subarray(8);
  const indices = [0, rows - 1, -1, 5, 6, 7, 5, 150, -rows];
  let ranged, whole;
  before(async () => { ranged = await serve(f.dir); whole = await serve(f.dir, { ranges: false }); });
  after(async () => { await ranged.close(); await whole.close(); });
  // [name, () => [model source, options], whether a table may be kept there]
  const sources = [
    ['a file next to the model (path)', () => [f.path, {}], true],
    ['options.externalData { location: Uint8Array }', () => [f.model, { externalData: { 'table.bin': f.table } }], true],
    ['options.externalData { location: ArrayBuffer }', () => [f.model.slice().buffer, { externalData: { 'table.bin': f.table.slice().buffer } }], true],
    ['options.externalData [{ path, data: Blob }]', () => [f.model, { externalData: [{ path: 'table.bin', data: new Blob([f.table]) }] }], true],
    ['options.externalData [{ path: ./table.bin, data: file path }]', () => [f.model, { externalData: [{ path: './table.bin', data: join(f.dir, 'table.bin') }] }], true],
    ['a file: URL, its data next to it', () => [pathToFileURL(f.path), {}], true],
    ['options.externalData { location: file: URL string }', () => [f.model, { externalData: { 'table.bin': pathToFileURL(join(f.dir, 'table.bin')).href } }], true],
    ['options.externalData [{ path, data: URL }] (Range request)', () => [f.model, { externalData: [{ path: 'table.bin', data: `${ranged.url}table.bin` }] }], false],
    ['a model fetched by URL, its data next to it (server without Range)', () => [`${whole.url}model.onnx`, {}], false],
  ];
  for (const [name, make, keepable] of sources) {
    for (const mode of ['memory', 'lazy', 'auto']) {
      test(`${name}, ${mode}`, async () => {
        const [source, options] = make();
        const s = await InferenceSession.create(source, { ...options, externalDataMode: mode });
        const where = mode === 'lazy' && keepable ? 'file' : 'memory';
        assert.deepEqual(s.valueInfo('table'), { type: 'float32', dims, storage: where, bytes: table.length, ...(where === 'file' ? { location: 'table.bin' } : {}) });
        await checkRows(s, table, rows, indices, name);
        await s.release();
      });
    }
  }
});

describe('every element type of a Gather table: kept in its file and loaded give the same bytes', () => {
  for (const type of [...allowedAt('Gather', 13)].filter((t) => t !== 'string')) {
    test(type, async () => {
      const rows = 37, dims = [rows, 3, 2];
      const f = folder(`type-${type}`, { type, dims });
      const indices = [36, 0, 1, 2, -1, 17, 17, 18];
      for (const mode of ['lazy', 'memory']) {
        const s = await InferenceSession.create(f.path, { externalDataMode: mode });
        assert.equal(s.valueInfo('table').storage, mode === 'lazy' ? 'file' : 'memory');
        const feed = idx(indices);
        const { out } = await s.run({ indices: feed });
        feed.dispose();
        assert.equal(out.type, type);
        assert.deepEqual(out.dims, [indices.length, 3, 2]);
        assert.deepEqual(bytesOf(out), expectedRows(f.table, rows, indices), `${type} ${mode}`);
        out.dispose();
        await s.release();
      }
    });
  }
  test('string tables cannot be external data (raw bytes): they stay in the model', async () => {
    const f = folder('type-string', { type: 'float32', dims: [2, 2] });
    const bytes = gatherModel({ type: 'string', dims: [2, 2] });
    await assert.rejects(InferenceSession.create(bytes, { externalData: { 'table.bin': f.table } }),
      (e) => e instanceof ModelError && /tensor 'table': string tensors cannot use external data/.test(e.message));
  });
});

describe('which tables may stay in their file', () => {
  const dims = [50, 8];
  test('a table also read whole (Flatten) is loaded, even in lazy mode', async () => {
    const f = folder('flatten', { dims, alsoFlatten: true });
    const s = await InferenceSession.create(f.path, { externalDataMode: 'lazy' });
    assert.equal(s.valueInfo('table').storage, 'memory');
    const feed = idx([3]);
    const r = await s.run({ indices: feed });
    assert.deepEqual(bytesOf(r.flat), f.table);
    for (const t of [feed, r.out, r.flat]) t.dispose();
    await s.release();
  });
  test('a Gather along axis 1 loads its table', async () => {
    const f = folder('axis1', { dims, axis: 1 });
    const s = await InferenceSession.create(f.path, { externalDataMode: 'lazy' });
    assert.equal(s.valueInfo('table').storage, 'memory');
    await s.release();
  });
  test('axis -1 of a rank-1 table is axis 0: kept', async () => {
    const f = folder('axis-minus1', { dims: [64], type: 'int32', axis: -1 });
    const s = await InferenceSession.create(f.path, { externalDataMode: 'lazy' });
    assert.equal(s.valueInfo('table').storage, 'file');
    await checkRows(s, f.table, 64, [63, 0, -2], 'rank 1');
    await s.release();
  });
  test('a kept table is not returned by run()', async () => {
    const f = folder('fetch-kept', { dims });
    const s = await InferenceSession.create(f.path, { externalDataMode: 'lazy' });
    const feed = idx([1]);
    await assert.rejects(s.run({ indices: feed }, ['table']),
      (e) => e instanceof InvalidArgumentError && /'table' is a table kept in 'table.bin' \(1600 bytes\), read by rows/.test(e.message));
    feed.dispose();
    await s.release();
  });
});

describe('tables too large for memory: kept in a (sparse) file by default, refused in memory with their size', () => {
  // A [2^21, 1024] float32 table: 8 GiB, a sparse file (no disk used), a few rows written.
  const rows = 2 ** 21, dims = [rows, 1024], rowBytes = 4096;
  let f;
  before(() => {
    f = folder('sparse', { dims }, new Uint8Array(0));
    const fd = openSync(join(f.dir, 'table.bin'), 'r+');
    for (const r of [0, 12345, rows - 1]) writeSync(fd, new Uint8Array(rowBytes).fill((r % 250) + 1), 0, rowBytes, r * rowBytes);
    closeSync(fd);
    truncateSync(join(f.dir, 'table.bin'), rows * rowBytes);
  });
  test('auto keeps it in its file: create and run are quick and the rows right', async () => {
    const before = memoryStats().heapUsed;
    const s = await InferenceSession.create(f.path);
    assert.deepEqual(s.valueInfo('table'), { type: 'float32', dims, storage: 'file', location: 'table.bin', bytes: 8 * GiB });
    const feed = idx([12345, rows - 1, 7]);
    const { out } = await s.run({ indices: feed });
    const b = bytesOf(out);
    assert.ok(b.subarray(0, rowBytes).every((x) => x === (12345 % 250) + 1));
    assert.ok(b.subarray(rowBytes, 2 * rowBytes).every((x) => x === ((rows - 1) % 250) + 1));
    assert.ok(b.subarray(2 * rowBytes).every((x) => x === 0));
    out.dispose();
    feed.dispose();
    await s.release();
    assert.equal(memoryStats().heapUsed, before);
  });
  test('memory mode: OutOfMemoryError naming the table and its size', () => assert.rejects(InferenceSession.create(f.path, { externalDataMode: 'memory' }),
    (e) => e instanceof OutOfMemoryError && /tensor 'table' \(float32 \[2097152, 1024\], 8.59 GB\) does not fit in wasm memory: cannot allocate 8589934592 bytes/.test(e.message)));
  test('read whole by another op: the same error, in any mode', async () => {
    const g = folder('sparse-flatten', { dims, alsoFlatten: true }, new Uint8Array(0));
    truncateSync(join(g.dir, 'table.bin'), rows * rowBytes);
    await assert.rejects(InferenceSession.create(g.path), (e) => e instanceof OutOfMemoryError && /tensor 'table' .*8.59 GB/.test(e.message));
  });
});

describe('lazy reads: adjacent rows coalesced, reads across chunk edges (64 MiB file reads, 16 MiB Blob slices)', () => {
  const rows = 70, dims = [rows, MiB];   // 70 MiB of uint8
  let f, blob;
  before(() => { f = folder('chunks', { type: 'uint8', dims }); blob = new Blob([f.table]); });
  const all = Array.from({ length: rows }, (_, k) => k);
  const patterns = [
    ['every row in order (one read across the 64 MiB edge)', all],
    ['every row, reversed', all.slice().reverse()],
    ['every other row (no two adjacent)', all.filter((k) => k % 2 === 0)],
    ['runs of 3 with repeats and negatives', [10, 11, 12, 11, -1, -2, -3, 40, 41, 42, 10]],
    ['one row', [33]],
    ['no rows', []],
  ];
  for (const [name, indices] of patterns) {
    test(name, async () => {
      for (const [source, options] of [[f.path, {}], [f.model, { externalData: [{ path: 'table.bin', data: blob }] }]]) {
        const s = await InferenceSession.create(source, { ...options, externalDataMode: 'lazy' });
        await checkRows(s, f.table, rows, indices, `${name} (${typeof source === 'string' ? 'file' : 'Blob'})`);
        await s.release();
      }
    });
  }
  test('a scalar index gives one row of rank 1', async () => {
    const g = folder('scalar', { dims: [9, 4], type: 'int16', indexDims: null });
    const s = await InferenceSession.create(g.path, { externalDataMode: 'lazy' });
    const feed = new Tensor('int64', [7n], []);
    const { out } = await s.run({ indices: feed });
    assert.deepEqual(out.dims, [4]);
    assert.deepEqual(bytesOf(out), expectedRows(g.table, 9, [7]));
    out.dispose();
    feed.dispose();
    await s.release();
  });
});

describe('progress: onProgress({ loaded, total }) at least every 64 MiB and once at the end', () => {
  test('a 70 MiB table loaded from a file, from a Blob, and kept in its file', async () => {
    const f = folder('progress', { type: 'uint8', dims: [70, MiB] });
    for (const [mode, options, loadedBytes] of [['memory', {}, 70 * MiB], ['memory', { externalData: [{ path: 'table.bin', data: new Blob([f.table]) }] }, 70 * MiB], ['lazy', {}, 0]]) {
      const events = [];
      const s = await InferenceSession.create(options.externalData ? f.model : f.path, { ...options, externalDataMode: mode, onProgress: (e) => events.push(e) });
      const total = f.model.length + loadedBytes;
      assert.ok(events.length >= (loadedBytes ? 2 : 1), JSON.stringify(events));
      assert.deepEqual(events.at(-1), { loaded: total, total });
      let last = 0;
      for (const e of events) {
        assert.equal(e.total, total);
        assert.ok(e.loaded > last && e.loaded - last <= 64 * MiB + 16 * MiB, JSON.stringify(events));
        last = e.loaded;
      }
      await s.release();
    }
  });
  test('options are checked', async () => {
    const f = folder('options', { dims: [2, 2] });
    await assert.rejects(InferenceSession.create(f.path, { externalDataMode: 'disk' }), (e) => e instanceof InvalidArgumentError && /externalDataMode must be one of 'auto', 'memory', 'lazy', got disk/.test(e.message));
    await assert.rejects(InferenceSession.create(f.path, { onProgress: 3 }), (e) => e instanceof InvalidArgumentError && /onProgress must be a function/.test(e.message));
    await assert.rejects(InferenceSession.create(f.path, { externalData: [{ data: f.table }] }), (e) => e instanceof InvalidArgumentError && /externalData\[0\] must be \{ path, data \}/.test(e.message));
    await assert.rejects(InferenceSession.create(f.path, { cacheRowLayout: true }), (e) => e instanceof InvalidArgumentError && e.message === "options.cacheRowLayout needs options.cache ('opfs')");
    await assert.rejects(InferenceSession.create(f.path, { cache: 'opfs', cacheRowLayout: 1 }), (e) => e instanceof InvalidArgumentError && e.message === 'options.cacheRowLayout must be a boolean, got number');
    await assert.rejects(InferenceSession.create(f.path, { keepPartial: true }), (e) => e instanceof InvalidArgumentError && e.message === "options.keepPartial needs options.cache ('opfs')");
  });
});

describe('faults lose nothing', () => {
  const rows = 100, dims = [rows, 16];   // 6400 bytes at offset 100
  test('data shorter than offset + length: ModelError at create naming the table, the file and both sizes', async () => {
    const f = folder('short', { dims, offset: 100 }, tableBytes('float32', dims).subarray(0, 6000));
    const message = /tensor 'table' \(float32, dims \[100, 16\], 6400 bytes at offset 100\) needs 6500 bytes of 'table.bin', which holds 6000|tensor 'table' \(float32 \[100, 16\], 6400 bytes at offset 100\) needs 6500 bytes of 'table.bin', which holds 6000/;
    let server;
    try {
      server = await serve(f.dir);
      for (const [source, options] of [[f.path, {}], [f.model, { externalData: { 'table.bin': f.table } }], [f.model, { externalData: [{ path: 'table.bin', data: new Blob([f.table]) }] }],
        [f.model, { externalData: [{ path: 'table.bin', data: `${server.url}table.bin` }] }]]) {
        for (const mode of ['memory', 'lazy']) {
          const heap = memoryStats().heapUsed;
          await assert.rejects(InferenceSession.create(source, { ...options, externalDataMode: mode }), (e) => e instanceof ModelError && message.test(e.message), `${mode} ${Object.keys(options)}`);
          assert.equal(memoryStats().heapUsed, heap, 'nothing kept from a failed create');
        }
      }
    } finally { await server?.close(); }
  });
  test('a declared length that is not the tensor\'s size', async () => {
    const f = folder('length', { dims, length: 6000 });
    await assert.rejects(InferenceSession.create(f.path), (e) => e instanceof ModelError && /tensor 'table' \(float32, dims \[100, 16\]\) has 6000 bytes of data, expected 6400/.test(e.message));
  });
  test('a file that shrinks or vanishes under a kept table: ExternalDataError naming it, no output, then working again', async () => {
    const f = folder('vanish', { dims });
    const file = join(f.dir, 'table.bin');
    const s = await InferenceSession.create(f.path, { externalDataMode: 'lazy' });
    await checkRows(s, f.table, rows, [1, 2], 'before');
    const indices = idx([99, 0]);
    const heap = memoryStats().heapUsed;
    const fails = (why) => assert.rejects(s.run({ indices }), (e) => e instanceof ExternalDataError && e instanceof OnnxWasmError && e.code === 'ERR_EXTERNAL_DATA' &&
      e.message.startsWith("table 'table' (6400 bytes) is kept in 'table.bin', which cannot be read: ") && why.test(e.message), why.source);
    truncateSync(file, 3000);
    await fails(/it now holds 3000 bytes, and the table needs 6400/);
    renameSync(file, `${file}.away`);
    await fails(/ENOENT/);
    assert.equal(memoryStats().heapUsed, heap, 'no output, nothing left in memory');
    assert.equal(indices.disposed, false);
    indices.dispose();
    writeFileSync(file, f.table);
    await checkRows(s, f.table, rows, [99, 0], 'after');
    await s.release();
  });
  test('a Blob that can no longer be read (a File changed on disk): ExternalDataError, no output, every read settled, then working again', async () => {
    const f = folder('blob-fault', { dims });
    // Reads of slices after the first fail while `broken` is set, some while others are in flight.
    class FlakyBlob extends Blob {
      broken = false;
      reads = 0;
      slice(a, b) {
        const part = super.slice(a, b);
        const n = ++this.reads;
        return this.broken && n % 3 === 0 ? { arrayBuffer: () => Promise.reject(new DOMException('the file changed', 'NotReadableError')) } : part;
      }
    }
    const blob = new FlakyBlob([f.table]);
    const s = await InferenceSession.create(f.model, { externalDataMode: 'lazy', externalData: [{ path: 'table.bin', data: blob }] });
    await checkRows(s, f.table, rows, [1, 2], 'before');   // (the first run sizes the node's scratch vectors)
    const indices = idx(Array.from({ length: 40 }, (_, k) => k * 2));
    const heap = memoryStats().heapUsed;
    blob.broken = true;
    await assert.rejects(s.run({ indices }), (e) => e instanceof ExternalDataError && /^table 'table' \(6400 bytes\) is kept in 'table.bin', which cannot be read: the file changed$/.test(e.message));
    await new Promise((r) => setTimeout(r, 20));
    assert.equal(memoryStats().heapUsed, heap, 'no output, nothing left in memory');
    blob.broken = false;
    indices.dispose();
    await checkRows(s, f.table, rows, [99, 0, 5], 'after');
    await s.release();
  });
  test('an index out of range: the same IndexOutOfRangeError as in memory', async () => {
    const f = folder('range', { dims });
    const messages = [];
    for (const mode of ['lazy', 'memory']) {
      const s = await InferenceSession.create(f.path, { externalDataMode: mode });
      for (const bad of [[100], [3, -101], [0, 1, 2, 2 ** 40]]) {
        const feed = idx(bad);
        const e = await s.run({ indices: feed }).then(() => null, (x) => x);
        feed.dispose();
        assert.ok(e instanceof IndexOutOfRangeError, String(e));
        messages.push([mode, bad.join(), e.message]);
      }
      await s.release();
    }
    const [lazy, memory] = [messages.slice(0, 3), messages.slice(3)];
    assert.deepEqual(lazy.map((m) => m[2]), memory.map((m) => m[2]));
    assert.match(lazy[0][2], /^node 'lookup' \(Gather\): Gather-13: index 100 at position 0 is outside \[-100, 99\] for axis 0 of size 100$/);
  });
  test('a kept table read between two nodes (Reshape, Gather, Flatten): its rows; a fault in the middle leaves nothing', async () => {
    const f = folder('between', { dims, between: true });
    const s = await InferenceSession.create(f.path, { externalDataMode: 'lazy' });
    for (const indices of [[3, 0, rows - 1, -2], [7]]) {
      const feed = idx(indices);
      const { out } = await s.run({ indices: feed });
      assert.deepEqual(Array.from(out.dims), [1, indices.length * 16]);
      assert.deepEqual(bytesOf(out), expectedRows(f.table, rows, indices));
      out.dispose();
      feed.dispose();
    }
    for (const [bad, fault] of [[[1, rows], IndexOutOfRangeError], [[2], ExternalDataError]]) {
      const feed = idx(bad);
      if (fault === ExternalDataError) truncateSync(join(f.dir, 'table.bin'), 100);
      const heap = memoryStats().heapUsed;
      await assert.rejects(s.run({ indices: feed }), (e) => e instanceof fault, fault.name);
      assert.equal(memoryStats().heapUsed, heap, `${fault.name}: the Reshape's output and the rows freed, no output`);
      feed.dispose();
    }
    writeFileSync(join(f.dir, 'table.bin'), f.table);
    const feed = idx([5, 5]);
    const { out } = await s.run({ indices: feed });
    assert.deepEqual(bytesOf(out), expectedRows(f.table, rows, [5, 5]), 'working again');
    out.dispose();
    feed.dispose();
    await s.release();
  });
});

test('soak: 2,000 lazy runs leave the heap where it was', async () => {
  const rows = 4096, dims = [rows, 32];
  const f = folder('soak', { dims, type: 'float16' });
  const s = await InferenceSession.create(f.path, { externalDataMode: 'lazy' });
  let x = 7;
  const next = () => { x = (x * 1103515245 + 12345) % 2147483648; return x % rows; };
  const runOnce = async () => {
    const indices = Array.from({ length: 1 + next() % 64 }, next);
    const feed = idx(indices);
    const { out } = await s.run({ indices: feed });
    const ok = out.data.length === indices.length * 32;
    out.dispose();
    feed.dispose();
    return ok;
  };
  for (let k = 0; k < 50; ++k) assert.ok(await runOnce());
  const heap = memoryStats().heapUsed;
  for (let k = 0; k < 2000; ++k) assert.ok(await runOnce());
  assert.equal(memoryStats().heapUsed, heap);
  await s.release();
});
