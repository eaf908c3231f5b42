// A table that stays in its source (a file, a Blob, caller's bytes or an OPFS copy): a Gather
// along axis 0 reads the rows each run needs, adjacent rows in one read, into a block of just
// those rows, then gathers from the block with indices remapped to it (so the output, and every
// error, is the in-memory Gather's). An op whose other inputs are indexed by the same rows
// (GatherBlockQuantized's scales and zero points: the registry's rowsAlso) gets those rows of
// them: read from their source at the same time when they are kept there too (placeTables),
// else taken in memory.
// With cacheRowLayout, the tables a node reads together have a second copy in the OPFS cache with
// their rows side by side (LazyTable.joint): a run then reads each row of them all in one read,
// each table's part going to its block.
// Memory: a LazyTable owns no wasm memory between runs; each gather's output belongs to the caller.
// @ts-check
import { ExternalDataError } from '../generated/errors.mjs';
import { PreparedNode } from '../prepared.mjs';
import { Tensor, UNINITIALIZED } from '../tensor.mjs';
import { ShortRead } from './sources.mjs';
import { checkRange, sizeText, tableBytes } from './table-facts.mjs';
import { typeByName } from '../types.mjs';

/** @typedef {import('./table-facts.mjs').TableFacts} TableFacts */

// Rows `rows` (int64, ascending) of a tensor in memory, along axis 0: onnx-wasm's Gather, which
// takes every element type (a GatherBlockQuantized's int4 zero points too), prepared once.
/** @type {PreparedNode | null} */
let rowsGather = null;
/**
 * @param {Tensor} t
 * @param {Tensor} rows
 * @returns {Tensor}
 */
function takeRows(t, rows) {
  rowsGather ??= new PreparedNode({ opType: 'Gather', domain: 'onnx-wasm', attributes: { axis: 0 } }, { opset: { domain: 'onnx-wasm', version: 1 } });
  return rowsGather.runTensors([t, rows], null, 2);
}

export class LazyTable {
  /** @param {TableFacts} x the table's facts (table-facts.mjs) */
  constructor({ name, t, dims, source, location, offset, bytes }) {
    this.name = name;
    this.t = t;
    this.dims = dims;
    this.source = source;
    this.location = location;
    this.offset = offset;
    this.bytes = bytes;
    this.rowBytes = tableBytes(t, [1, ...dims.slice(1)]);
    // (set by LazyTable.joint: the copy with these tables' rows side by side, and the tables)
    /** @type {{ rows: LazyTable, members: LazyTable[] } | null} */
    this.joint = null;
  }

  // Gives members[0] (a table a node reads by rows) the copy of `members` (it, then the inputs read
  // with its rows, as many rows each) with their rows side by side in `source` (written by
  // OpfsSource#rowLayout), opened for reading.
  /**
   * @param {LazyTable[]} members
   * @param {import('./opfs-source.mjs').OpfsSource} source
   */
  static async joint(members, source) {
    const width = members.reduce((a, t) => a + t.rowBytes, 0), rows = members[0].dims[0];
    const x = members[0], names = members.map((t) => t.name).join("', '");
    // (facts of a table of no TensorProto: checkRange and open read none of it)
    /** @type {TableFacts} */
    const facts = { name: names, proto: /** @type {any} */ (null), what: `the row layout of '${names}'`, t: typeByName('uint8'), dims: [rows, width], source, location: source.location, offset: 0, bytes: rows * width, length: undefined };
    x.joint = { rows: await LazyTable.open(facts), members };
  }

  // x: the table's facts (table-facts.mjs).
  /**
   * @param {TableFacts} x
   * @returns {Promise<LazyTable>}
   */
  static async open(x) {
    await checkRange(x);
    const table = new LazyTable(x);
    // (a read of no runs opens what runs will read from, so that the first run does not: the
    // read handle of an OPFS file, which Chromium keeps open; docs/notes/2026-11-27-opfs-reads.md)
    try {
      await x.source.readRuns?.([], x.offset + x.bytes);
    } catch (e) {
      throw LazyTable.#cannotRead(table, e);
    }
    return table;
  }

  // The error of a read of table t that failed with e (ShortRead: the source is too short).
  /**
   * @param {LazyTable} t
   * @param {any} e
   */
  static #cannotRead(t, e) {
    const why = e instanceof ShortRead ? `it now holds ${e.size} bytes, and the table needs ${t.offset + t.bytes}` : e.message;
    return new ExternalDataError(`table '${t.name}' (${sizeText(t.bytes)}) is kept in '${t.location}', which cannot be read: ${why}`);
  }

  // A block of `count` rows, to be filled by #readAll.
  /**
   * @param {number} count
   * @returns {Tensor}
   */
  #block(count) {
    return Tensor[UNINITIALIZED](this.t.name, [count, ...this.dims.slice(1)]);
  }

  // The reads of rows `ids` (ascending, distinct) into `block` (#block(ids.length)): adjacent
  // rows in one read.
  /**
   * @param {readonly number[]} ids
   * @param {Tensor} block
   * @returns {import('./sources.mjs').ReadRun[]}
   */
  #runs(ids, block) {
    const u = ids.length;
    if (u === 0 || this.rowBytes === 0) return [];
    const base = /** @type {import('../wasm-module.mjs').WasmView} */ (block.data).byteOffset;   // (numeric: a view)
    /** @type {import('./sources.mjs').ReadRun[]} */
    const runs = [];
    for (let i = 0; i < u;) {
      let j = i + 1;
      while (j < u && ids[j] === ids[j - 1] + 1) ++j;
      runs.push({ at: this.offset + ids[i] * this.rowBytes, length: (j - i) * this.rowBytes, addr: base + i * this.rowBytes });
      i = j;
    }
    return runs;
  }

  // Rows `ids` of each table into its block, the tables of one source in one readRuns (one open
  // of a file, one message to OPFS's reader worker), the sources at the same time. A source too
  // short for a table fails with that table's name.
  /**
   * @param {readonly number[]} ids
   * @param {readonly [LazyTable, Tensor][]} reads
   */
  static async #readAll(ids, reads) {
    /** @type {Map<import('./sources.mjs').Source, [LazyTable, Tensor][]>} */
    const bySource = new Map();
    for (const r of reads) bySource.set(r[0].source, [...(bySource.get(r[0].source) ?? []), r]);
    // (settled, every one: no read may still write into a block freed after a failure)
    const done = await Promise.allSettled([...bySource].map(async ([source, group]) => {
      const runs = group.flatMap(([table, into]) => table.#runs(ids, into));
      if (!runs.length) return;
      const end = Math.max(...group.map(([t]) => t.offset + t.bytes));
      try {
        // (readRuns: of every source that can keep tables, the only ones a LazyTable reads)
        await /** @type {Required<import('./sources.mjs').Source>} */ (source).readRuns(runs, end);
      } catch (e) {
        const short = e instanceof ShortRead ? group.find(([t]) => t.offset + t.bytes > e.size) : undefined;
        throw LazyTable.#cannotRead((short ?? group[0])[0], e);
      }
    }));
    for (const r of done) if (r.status === 'rejected') throw r.reason;
  }

  // Rows `ids` of the tables of `reads` (in order) from their copy side by side, `rows`: a read a
  // row, its parts into the blocks.
  /**
   * @param {readonly number[]} ids
   * @param {LazyTable} rows
   * @param {readonly [LazyTable, Tensor][]} reads
   */
  static async #readJoint(ids, rows, reads) {
    const width = rows.rowBytes;
    const base = reads.map(([, block]) => /** @type {import('../wasm-module.mjs').WasmView} */ (block.data).byteOffset);   // (numeric: views)
    const runs = ids.map((id, i) => ({ at: rows.offset + id * width, length: width, addr: 0, parts: reads.map(([t], k) => ({ length: t.rowBytes, addr: base[k] + i * t.rowBytes })) }));
    if (!runs.length || width === 0) return;
    try {
      await /** @type {Required<import('./sources.mjs').Source>} */ (rows.source).readRuns(runs, rows.offset + rows.bytes);
    } catch (e) {
      throw LazyTable.#cannotRead(rows, e);
    }
  }

  // The node's run with this table as its input 0, through a prepared node that reads its table by
  // rows (a Gather, a GatherBlockQuantized: their capabilities say so), its other inputs
  // values[at[1]] (the indices) ... (n in all); `rowsAlso`: a bit per input indexed by the same
  // rows, `also[k]` that input when it is kept in its source too. An output Tensor the caller owns.
  /**
   * @param {PreparedNode} prepared
   * @param {readonly (Tensor | undefined)[]} values
   * @param {readonly number[]} at
   * @param {number} n
   * @param {number} rowsAlso
   * @param {readonly (LazyTable | undefined)[]} [also]
   * @returns {Promise<Tensor>}
   */
  async gather(prepared, values, at, n, rowsAlso, also = []) {
    // (by input: the ones read with these rows, kept in their source too)
    const kept = Array.from({ length: n }, (_, k) => (k >= 2 && rowsAlso & (1 << k) ? also[k] : undefined));
    const outside = kept.flatMap((x, k) => (x ? [{ input: k, typeId: x.t.id, dims: x.dims }] : []));
    const { rows, remapped } = prepared.gatherRows(values, at, n, this.t.id, this.dims, outside);
    /** @type {Tensor[]} */
    const taken = [];
    try {
      // (copied out first: allocating the blocks may grow memory, which detaches rows.data's view;
      // every block is allocated before any read takes its address)
      const ids = Array.from(rows.data, Number);
      const block = this.#block(ids.length);
      taken.push(block);
      /** @type {(Tensor | null)[]} */
      const inputs = [block, remapped];
      /** @type {[LazyTable, Tensor][]} */
      const reads = [[this, block]];
      for (let k = 2; k < n; ++k) {
        const t = at[k] < 0 ? undefined : values[at[k]];
        const table = kept[k];
        if (table) {
          const part = table.#block(ids.length);
          taken.push(part);
          inputs.push(part);
          reads.push([table, part]);
        } else if (t && rowsAlso & (1 << k)) {
          const part = takeRows(t, rows);
          taken.push(part);
          inputs.push(part);
        } else {
          inputs.push(t ?? null);
        }
      }
      const joint = this.joint;
      if (joint && joint.members.length === reads.length && joint.members.every((t, k) => reads[k][0] === t)) await LazyTable.#readJoint(ids, joint.rows, reads);
      else await LazyTable.#readAll(ids, reads);
      return prepared.runTensors(inputs, null, n);
    } finally {
      for (const t of taken) t.dispose();
      rows.dispose();
      remapped.dispose();
    }
  }
}
