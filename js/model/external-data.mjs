// External data: tensors whose bytes are stored beside an ONNX model (TensorProto data_location
// EXTERNAL). This module walks one graph's tables through the loader; each step has its home:
// the facts of a table (table-facts.mjs), which source holds it (resolve-sources.mjs), where it
// lives (place-tables.mjs), loading it into wasm memory (load-tensor.mjs) or keeping it in its
// source for Gathers (lazy-table.mjs), with progress (progress.mjs).
// @ts-check
import { LazyTable } from './lazy-table.mjs';
import { loadTensor } from './load-tensor.mjs';
import { OpfsSource } from './opfs-source.mjs';
import { placeTables, rowGroups } from './place-tables.mjs';
import { Progress } from './progress.mjs';
import { tableFacts } from './table-facts.mjs';
import { tensorFromProto } from './tensor-proto.mjs';

/** @typedef {import('../tensor.mjs').Tensor} Tensor */
/** @typedef {import('./onnx-proto.mjs').NodeProto} NodeProto */
/** @typedef {import('./table-facts.mjs').TableFacts} TableFacts */

const EXTERNAL = 1;   // TensorProto.DataLocation

// Every initializer of graph `g` as a Tensor in `tensors` (Map name -> Tensor), or kept in its
// source, and the tensors of Constants stored in external data. Where each table lives is decided
// first (placeTables), then each is loaded at one copy (onProgress counts the model, the bytes
// sources fetch before they can be read, and every byte loaded) or opened where it is. Each Tensor
// made is pushed onto `owned` at once, so the caller frees them all if anything fails. A model
// without external data (most small ones) takes none of the placement and loading code, which V8
// would otherwise compile at its first create.
// Returns { kept: Map name -> LazyTable, constants: Map node -> Tensor }.
/**
 * @param {import('./onnx-proto.mjs').GraphProto} g
 * @param {import('./resolve-sources.mjs').ExternalData} sources
 * @param {Loading} loading
 * @param {number} modelBytes
 * @param {{ dispose(): void }[]} owned
 * @param {Map<string, Tensor>} tensors
 * @returns {Promise<{ kept: Map<string, LazyTable>, constants: Map<NodeProto, Tensor> }>}
 */
export async function loadInitializers(g, sources, loading, modelBytes, owned, tensors) {
  const tables = /** @type {Map<string, TableFacts>} */ (new Map()), external = /** @type {Map<NodeProto, TableFacts>} */ (new Map());
  for (const init of g.initializer) if (init.dataLocation === EXTERNAL) tables.set(init.name, tableFacts(init, sources));
  for (const n of g.node) {
    const t = n.opType === 'Constant' && n.attribute.length === 1 && n.attribute[0].name === 'value' ? n.attribute[0].t : null;
    if (t?.dataLocation === EXTERNAL) external.set(n, tableFacts(t, sources));
  }
  if (tables.size || external.size) return loadWithExternal(g, tables, external, loading, modelBytes, owned, tensors);
  const progress = new Progress(loading.onProgress, modelBytes);
  progress.add(modelBytes);
  for (const init of g.initializer) own(owned, tensors, init.name, tensorFromProto(init));
  progress.finish();
  return { kept: new Map(), constants: new Map() };
}

// A Tensor made for `key`: owned at once, then filed under it.
/**
 * @template K
 * @param {{ dispose(): void }[]} owned
 * @param {Map<K, Tensor>} map
 * @param {K} key
 * @param {Tensor} t
 */
function own(owned, map, key, t) {
  owned.push(t);
  map.set(key, t);
}

/**
 * @typedef {{ mode: string, onProgress?: import('./progress.mjs').OnProgress, cacheRowLayout?: boolean }} Loading (load-options.mjs)
 */

// loadInitializers for a graph with external tables (`tables`: initializers by name) or Constants
// (`external`): placed, fetched, loaded or kept.
/**
 * @param {import('./onnx-proto.mjs').GraphProto} g
 * @param {Map<string, TableFacts>} tables
 * @param {Map<NodeProto, TableFacts>} external
 * @param {Loading} loading
 * @param {number} modelBytes
 * @param {{ dispose(): void }[]} owned
 * @param {Map<string, Tensor>} tensors
 * @returns {Promise<{ kept: Map<string, LazyTable>, constants: Map<NodeProto, Tensor> }>}
 */
async function loadWithExternal(g, tables, external, { mode, onProgress, cacheRowLayout = false }, modelBytes, owned, tensors) {
  const place = placeTables(g, tables, new Set(g.input.map((i) => i.name)), mode);
  const all = [...tables.values(), ...external.values()];
  // Sources that fetch before they are read (the OPFS cache's downloads), each once.
  const fetching = [...new Set(all.map((x) => x.source))].filter((s) => s.fetch);
  let total = modelBytes;
  // (pendingBytes: a source that fetches has it)
  for (const s of fetching) total += await /** @type {Required<import('./sources.mjs').Source>} */ (s).pendingBytes(all.filter((x) => x.source === s));
  for (const [name, x] of tables) if (place.get(name) === 'memory') total += x.bytes;
  // (cacheRowLayout: the tables a node reads by rows together, kept in one OPFS file, get their
  // rows side by side in a second file of the cache, written once: one read a row)
  const joint = cacheRowLayout ? rowGroups(g, tables, place).map((names) => names.map((n) => /** @type {TableFacts} */ (tables.get(n)))).filter((xs) => xs[0].source instanceof OpfsSource) : [];
  for (const xs of joint) total += await /** @type {OpfsSource} */ (xs[0].source).rowLayoutPending(xs);
  for (const x of external.values()) total += x.bytes;
  const progress = new Progress(onProgress, total);
  progress.add(modelBytes);
  for (const s of fetching) await /** @type {Required<import('./sources.mjs').Source>} */ (s).fetch(progress);
  const layouts = [];
  for (const xs of joint) layouts.push({ names: xs.map((x) => x.name), source: await /** @type {OpfsSource} */ (xs[0].source).rowLayout(xs, progress) });
  const kept = /** @type {Map<string, LazyTable>} */ (new Map()), constants = /** @type {Map<NodeProto, Tensor>} */ (new Map());
  for (const init of g.initializer) {
    const x = tables.get(init.name);
    if (x && place.get(init.name) === 'file') {
      kept.set(init.name, await LazyTable.open(x));
      continue;
    }
    own(owned, tensors, init.name, x ? await loadTensor(x, progress) : tensorFromProto(init));
  }
  for (const { names, source } of layouts) await LazyTable.joint(names.map((n) => /** @type {LazyTable} */ (kept.get(n))), source);
  for (const [n, x] of external) own(owned, constants, n, await loadTensor(x, progress));
  progress.finish();
  return { kept, constants };
}
