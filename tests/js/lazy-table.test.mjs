// A table kept in its source (js/model/lazy-table.mjs) is opened for reading when it is placed,
// as a session is created: a read of no runs up to the table's end. A source that cannot be read
// then fails the create with the error a run gets (ExternalDataError naming the table, its size
// and its location, and why), not an untyped one.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ExternalDataError, init } from '../../js/index.mjs';
import { LazyTable } from '../../js/model/lazy-table.mjs';
import { ShortRead } from '../../js/model/sources.mjs';
import { tableBytes } from '../../js/model/table-facts.mjs';
import { typeByName } from '../../js/types.mjs';

await init();

// The facts of a float32 [100, 8] table at offset 64 of 'table.bin' in `source`.
function facts(source) {
  const t = typeByName('float32'), dims = [100, 8];
  return { name: 'emb', what: "tensor 'emb'", t, dims, bytes: tableBytes(t, dims), location: 'table.bin', offset: 64, length: undefined, source };
}
// A source of `size` bytes whose readRuns calls `read` (and records its arguments).
function source(size, read) {
  const calls = [];
  return { calls, canKeepTables: true, size: async () => size, readRuns: async (runs, end) => { calls.push([runs, end]); await read(); } };
}

const CASES = [
  { name: 'a source that reads', read: async () => {}, want: null },
  { name: 'a source that fails (an OPFS file open in another page)', read: async () => { throw Object.assign(new Error("'table.bin' is open in another page"), { kind: 'busy' }); },
    want: /^table 'emb' \(3200 bytes\) is kept in 'table\.bin', which cannot be read: 'table\.bin' is open in another page$/ },
  { name: 'a source found shorter than when its size was read', read: async () => { throw new ShortRead(100); },
    want: /^table 'emb' \(3200 bytes\) is kept in 'table\.bin', which cannot be read: it now holds 100 bytes, and the table needs 3264$/ },
];

for (const c of CASES) {
  test(`LazyTable.open: ${c.name}`, async () => {
    const s = source(64 + 3200, c.read);
    if (!c.want) {
      const table = await LazyTable.open(facts(s));
      assert.equal(table.name, 'emb');
    } else {
      await assert.rejects(LazyTable.open(facts(s)), (e) => e instanceof ExternalDataError && e.code === 'ERR_EXTERNAL_DATA' && c.want.test(e.message));
    }
    assert.deepEqual(s.calls, [[[], 64 + 3200]]);   // one read of no runs, up to the table's end
  });
}
