// Where a session keeps each external initializer (js/model/place-tables.mjs), as a table of
// cases: a GatherBlockQuantized's table, scales and zero points, in each externalDataMode, with
// the rules that keep an input in memory (rows not on a byte, another reader, other row counts,
// another gather axis, a source that cannot keep tables, the 'auto' budget), and the tables a
// node reads by rows together in one source (rowGroups: those cacheRowLayout lays side by side).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { init } from '../../js/index.mjs';
import { AUTO_MEMORY_BYTES, placeTables, rowGroups } from '../../js/model/place-tables.mjs';
import { tableBytes } from '../../js/model/table-facts.mjs';
import { typeByName } from '../../js/types.mjs';

await init();

const FILE = { canKeepTables: true }, OTHER_FILE = { canKeepTables: true }, URL_SOURCE = { canKeepTables: false };
const attribute = (name, i) => ({ name, i: BigInt(i) });
const gbq = (inputs, gatherAxis = 0) => ({ opType: 'GatherBlockQuantized', domain: 'com.microsoft', input: inputs, output: ['out'], attribute: [attribute('gather_axis', gatherAxis)] });
const facts = (name, type, dims, source = FILE) => {
  const t = typeByName(type);
  return [name, { name, t, dims, source, bytes: tableBytes(t, dims) }];
};
// A 4-bit table of `rows` rows of 64 codes (32 bytes), float16 scales of 2 blocks, uint4 zero
// points of `zeroCols` a row.
const tables = ({ rows = 1000, zeroCols = 2, source = FILE, scaleRows = rows, scaleSource = source } = {}) => new Map([
  facts('data', 'uint4', [rows, 64], source), facts('scales', 'float16', [scaleRows, 2], scaleSource), facts('zero_points', 'uint4', [rows, zeroCols], source),
]);

const CASES = [
  { name: "'lazy': the table, its scales and zero points in the file", mode: 'lazy', want: { data: 'file', scales: 'file', zero_points: 'file' }, rows: [['data', 'scales', 'zero_points']] },
  { name: "'lazy', zero points of 3 codes a row (not on a byte): in memory", mode: 'lazy', tables: { zeroCols: 3 }, want: { data: 'file', scales: 'file', zero_points: 'memory' }, rows: [['data', 'scales']] },
  { name: "'memory': all in memory", mode: 'memory', want: { data: 'memory', scales: 'memory', zero_points: 'memory' }, rows: [] },
  { name: "'auto', small: all in memory", mode: 'auto', want: { data: 'memory', scales: 'memory', zero_points: 'memory' }, rows: [] },
  { name: "'auto', a table beyond the budget: it in the file, its scales and zero points in memory", mode: 'auto', tables: { rows: AUTO_MEMORY_BYTES / 32 + 1 }, want: { data: 'file', scales: 'memory', zero_points: 'memory' }, rows: [] },
  { name: "'lazy', scales also read by a Flatten: in memory", mode: 'lazy', extra: [{ opType: 'Flatten', domain: '', input: ['scales'], output: ['f'], attribute: [] }], want: { data: 'file', scales: 'memory', zero_points: 'file' }, rows: [['data', 'zero_points']] },
  { name: "'lazy', scales of another row count (blocks along the rows): in memory", mode: 'lazy', tables: { scaleRows: 500 }, want: { data: 'file', scales: 'memory', zero_points: 'file' }, rows: [['data', 'zero_points']] },
  { name: "'lazy', gathered along axis 1: all in memory", mode: 'lazy', gatherAxis: 1, want: { data: 'memory', scales: 'memory', zero_points: 'memory' }, rows: [] },
  { name: "'lazy', a source that cannot keep tables (a URL): all in memory", mode: 'lazy', tables: { source: URL_SOURCE }, want: { data: 'memory', scales: 'memory', zero_points: 'memory' }, rows: [] },
  { name: "'lazy', scales in another file: each kept in its own, the scales read apart", mode: 'lazy', tables: { scaleSource: OTHER_FILE }, want: { data: 'file', scales: 'file', zero_points: 'file' }, rows: [['data', 'zero_points']] },
  { name: "'lazy', scales fed as a graph input (a feed may replace them): in memory", mode: 'lazy', overridable: ['scales'], want: { data: 'file', scales: 'memory', zero_points: 'file' }, rows: [['data', 'zero_points']] },
];

for (const c of CASES) {
  test(`placeTables: ${c.name}`, () => {
    const graph = /** @type {any} */ ({ node: [gbq(['data', 'ids', 'scales', 'zero_points'], c.gatherAxis), ...(c.extra ?? [])], output: [{ name: 'out' }] });
    const facts = tables(c.tables);
    const place = placeTables(graph, facts, new Set(c.overridable ?? []), c.mode);
    assert.deepEqual(Object.fromEntries(place), c.want);
    assert.deepEqual(rowGroups(graph, facts, place), c.rows);
  });
}
