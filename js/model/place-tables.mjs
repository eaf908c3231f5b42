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
// whole bytes per row (4-bit codes: an even count a row), read only as the table of ops whose
// capabilities in the registry say they read it by rows (a Gather's data, a GatherBlockQuantized's
// data) along axis 0, and neither a graph output nor a graph input (a feed may replace those). 'auto' keeps such a table in memory while the tables in
// memory total at most AUTO_MEMORY_BYTES.
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
  for (const n of graph.node) {
    const facts = registry.get(canonicalDomain(n.domain))?.get(n.opType);
    const rows = facts && facts.rowsInput >= 0 ? facts : undefined;
    const axis = rows ? Number(n.attribute.find((a) => a.name === rows.rowsAxis)?.i ?? 0) : NaN;
    n.input.forEach((x, k) => {
      if (!x) return;
      const rank = tables.get(x)?.dims.length;
      // (rank undefined, for a value that is no table: -rank is NaN, which no axis equals)
      const byRows = rows !== undefined && k === rows.rowsInput && n.input.every((y, j) => j === k || y !== x) && (axis === 0 || axis === -/** @type {number} */ (rank));
      rowReads.set(x, (rowReads.get(x) ?? true) && byRows);
    });
  }
  const outputs = new Set(graph.output.map((o) => o.name));
  /** @type {(name: string, table: import('./table-facts.mjs').TableFacts) => boolean} */
  const keepable = (name, { t, dims, source }) => rowReads.get(name) === true && !outputs.has(name) && !overridable.has(name) &&
    t.name !== 'string' && dims.length >= 1 && (elementCount(dims.slice(1)) * t.bits) % 8 === 0 && source.canKeepTables;
  /** @type {Map<string, 'memory' | 'file'>} */
  const place = new Map();
  let inMemory = 0;
  for (const [name, table] of tables) {
    if (mode === 'memory' || !keepable(name, table)) {
      place.set(name, 'memory');
      inMemory += table.bytes;
    }
  }
  for (const [name, table] of tables) {
    if (place.has(name)) continue;
    const memory = mode === 'auto' && inMemory + table.bytes <= AUTO_MEMORY_BYTES;
    place.set(name, memory ? 'memory' : 'file');
    if (memory) inMemory += table.bytes;
  }
  return place;
}
