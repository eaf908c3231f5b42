// Where each external initializer lives: in wasm memory, or kept in its source and read by rows.
// @ts-check
import { canonicalDomain } from '../node.mjs';
import { registryFacts } from '../registry.mjs';
import { elementCount } from '../types.mjs';

const GiB = 2 ** 30;
// 'auto' keeps tables in memory while those it keeps there total at most this: half of what
// wasm32 memory (4 GiB) can hold, leaving room for outputs and everything else.
export const AUTO_MEMORY_BYTES = 2 * GiB;

// Map name -> 'memory' | 'file'. `tables`: Map name -> facts (table-facts.mjs) for each external
// initializer, in graph order. A table may stay in its source ('file') only when the source
// allows it (a file, a Blob, bytes or an OPFS copy; not a URL), it is numeric with rank >= 1 and
// whole bytes per row (4-bit codes: an even count a row), neither a graph output nor a graph
// input (a feed may replace those), and read only
// - as the table of ops whose capabilities in the registry say they read it by rows (a Gather's
//   data, a GatherBlockQuantized's data) along axis 0, or
// - as an input indexed by the same rows as such a table (the registry's rowsAlso: a
//   GatherBlockQuantized's scales and zero points), with as many rows, where that table stays in
//   its source: the run reads those rows of both.
// 'auto' keeps tables in memory while the tables in memory total at most AUTO_MEMORY_BYTES, the
// second kind after the first (a run then reads only the table's rows from its source).
/**
 * @param {import('./onnx-proto.mjs').GraphProto} graph
 * @param {ReadonlyMap<string, import('./table-facts.mjs').TableFacts>} tables
 * @param {ReadonlySet<string>} overridable
 * @param {string} mode 'auto' | 'memory' | 'lazy' (load-options.mjs)
 * @returns {Map<string, 'memory' | 'file'>}
 */
export function placeTables(graph, tables, overridable, mode) {
  // Per op (the same for every version): the input that may be such a table (rowsInput, -1 for
  // none) and the attribute naming the axis its rows are gathered along (rowsAxis).
  const registry = registryFacts();
  /** @type {Map<string, boolean>} */
  const rowReads = new Map();   // name -> whether every read of it is a read of rows
  /** @type {Map<string, string[] | false>} */
  const alsoReads = new Map();   // name -> the tables whose rows every read of it goes with, or false
  for (const n of graph.node) {
    const facts = registry.get(canonicalDomain(n.domain))?.get(n.opType);
    const rows = facts && facts.rowsInput >= 0 ? facts : undefined;
    const axis = rows ? Number(n.attribute.find((a) => a.name === rows.rowsAxis)?.i ?? 0) : NaN;
    const table = rows ? n.input[rows.rowsInput] : '';
    // Whether the node reads its table by rows: along axis 0 (rank undefined, for a value that is
    // no table: -rank is NaN, which no axis equals).
    const alongRows = rows !== undefined && table !== '' && (axis === 0 || axis === -/** @type {number} */ (tables.get(table)?.dims.length));
    n.input.forEach((x, k) => {
      if (!x) return;
      const once = n.input.every((y, j) => j === k || y !== x);
      rowReads.set(x, (rowReads.get(x) ?? true) && alongRows && once && k === rows?.rowsInput);
      const with_ = alsoReads.get(x) ?? [];
      const also = alongRows && once && x !== table && (/** @type {import('../registry.mjs').OpFacts} */ (rows).rowsAlso & (1 << k)) !== 0;
      alsoReads.set(x, with_ && also ? [...with_, table] : false);
    });
  }
  const outputs = new Set(graph.output.map((o) => o.name));
  /** @type {(name: string, table: import('./table-facts.mjs').TableFacts) => boolean} */
  const storable = (name, { t, dims, source }) => mode !== 'memory' && !outputs.has(name) && !overridable.has(name) &&
    t.name !== 'string' && dims.length >= 1 && (elementCount(dims.slice(1)) * t.bits) % 8 === 0 && source.canKeepTables;
  /** @type {Map<string, 'memory' | 'file'>} */
  const place = new Map();
  let inMemory = 0;
  for (const [name, table] of tables) {
    if ((rowReads.get(name) !== true && !alsoReads.get(name)) || !storable(name, table)) {
      place.set(name, 'memory');
      inMemory += table.bytes;
    }
  }
  for (const [name, table] of tables) {
    if (place.has(name) || rowReads.get(name) !== true) continue;
    const memory = mode === 'auto' && inMemory + table.bytes <= AUTO_MEMORY_BYTES;
    place.set(name, memory ? 'memory' : 'file');
    if (memory) inMemory += table.bytes;
  }
  // Inputs read with a table's rows: may stay where every such table stays, with as many rows
  // ('auto': in memory while the budget allows, as a run then reads only the table's rows).
  for (const [name, table] of tables) {
    if (place.has(name)) continue;
    const with_ = /** @type {string[]} */ (alsoReads.get(name));
    const keepable = with_.every((x) => place.get(x) === 'file' && tables.get(x)?.dims[0] === table.dims[0]);
    const memory = !keepable || (mode === 'auto' && inMemory + table.bytes <= AUTO_MEMORY_BYTES);
    place.set(name, memory ? 'memory' : 'file');
    if (memory) inMemory += table.bytes;
  }
  return place;
}

// The tables a node reads by rows together, where they all stay in one source (place 'file'): its
// table (rowsInput) and the inputs read with its rows (rowsAlso), in input order, for each node
// that has at least one such input; a table once (its first node).
/**
 * @param {import('./onnx-proto.mjs').GraphProto} graph
 * @param {ReadonlyMap<string, import('./table-facts.mjs').TableFacts>} tables
 * @param {ReadonlyMap<string, 'memory' | 'file'>} place
 * @returns {string[][]}
 */
export function rowGroups(graph, tables, place) {
  const registry = registryFacts();
  /** @type {Map<string, string[]>} */
  const groups = new Map();
  for (const n of graph.node) {
    const facts = registry.get(canonicalDomain(n.domain))?.get(n.opType);
    if (!facts || facts.rowsInput < 0) continue;
    const table = n.input[facts.rowsInput];
    const source = tables.get(table)?.source;
    if (!table || place.get(table) !== 'file' || groups.has(table)) continue;
    const also = n.input.filter((x, k) => x && (facts.rowsAlso & (1 << k)) !== 0 && place.get(x) === 'file' && tables.get(x)?.source === source);
    if (also.length) groups.set(table, [table, ...also]);
  }
  return [...groups.values()];
}
