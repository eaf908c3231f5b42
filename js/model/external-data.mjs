// External data: tensors whose bytes are stored beside an ONNX model (TensorProto data_location
// EXTERNAL). Resolves each location to a source (options.externalData in either form, else a
// file next to the model in Node, else a URL next to a model fetched by URL), decides where each
// large table lives (externalDataMode), loads a tensor straight into wasm memory at one copy with
// progress, and keeps tables in their file when they may stay there: a Gather then reads only
// the rows a run needs (LazyTable).
// Memory: loadTensor returns a Tensor the caller owns; a LazyTable owns no wasm memory between
// runs, and each gather's output belongs to the caller.
import { invalidArgument } from '../errors.mjs';
import { ExternalDataError, ModelError, OutOfMemoryError } from '../generated/errors.mjs';
import { Tensor, UNINITIALIZED } from '../tensor.mjs';
import { dimsOf, elementType, tensorFromProto } from './tensor-proto.mjs';
import { BlobSource, BytesSource, FileSource, ShortRead, UrlSource, asPath, asUrl, nodeModules } from './sources.mjs';

const GiB = 2 ** 30;
export const PROGRESS_STEP = 64 * 2 ** 20;
// 'auto' keeps tables in memory while those it keeps there total at most this: half of what
// wasm32 memory (4 GiB) can hold, leaving room for outputs and everything else.
export const AUTO_MEMORY_BYTES = 2 * GiB;
const MODES = ['auto', 'memory', 'lazy'];
const EXTERNAL = 1;   // TensorProto.DataLocation

// The bytes of a numeric tensor (sub-byte types packed).
export const tableBytes = (t, dims) => Math.ceil((dims.reduce((a, b) => a * b, 1) * t.bits) / 8);

export const sizeText = (bytes) => (bytes >= 1e9 ? `${(bytes / 1e9).toFixed(2)} GB` : bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${bytes} bytes`);

// The options of create() that concern loading, checked: { mode, onProgress }.
export function loadingOptions(options) {
  const mode = options.externalDataMode ?? 'auto';
  if (!MODES.includes(mode)) throw invalidArgument(`options.externalDataMode must be one of ${MODES.map((m) => `'${m}'`).join(', ')}, got ${String(mode)}`);
  const onProgress = options.onProgress;
  if (onProgress !== undefined && typeof onProgress !== 'function') throw invalidArgument(`options.onProgress must be a function, got ${typeof onProgress}`);
  return { mode, onProgress };
}

// onProgress({ loaded, total }) in bytes: whenever PROGRESS_STEP more have come in, and once at
// the end with loaded === total.
export class Progress {
  #callback; #reported = -1;
  constructor(callback, total) { this.#callback = callback; this.total = total; this.loaded = 0; }
  add(n) {
    this.loaded += n;
    if (this.#callback && this.loaded - this.#reported >= PROGRESS_STEP && this.loaded < this.total) this.#report();
  }
  #report() {
    this.#reported = this.loaded;
    this.#callback({ loaded: this.loaded, total: this.total });
  }
  finish() { if (this.#callback) { this.loaded = this.total; this.#report(); } }
}

// The source of data the caller gave for a location ({ path } for a file path in Node), or null.
function sourceOf(data) {
  if (data instanceof Uint8Array || data instanceof ArrayBuffer) return new BytesSource(data);
  if (typeof Blob === 'function' && data instanceof Blob) return new BlobSource(data);
  if (data instanceof URL || typeof data === 'string') {
    const path = asPath(data);
    if (path !== null) return { path };   // a file path (Node), made a FileSource later
    const url = asUrl(data);
    if (url) return new UrlSource(url);
  }
  return null;
}

const kindOf = (x) => x?.constructor?.name ?? typeof x;

// options.externalData as a Map location -> data: { location: data } or onnxruntime-web's
// [{ path, data }]. Own entries only: a location named '__proto__' must not find Object's.
function givenData(externalData) {
  const given = new Map();
  if (externalData === undefined) return given;
  const add = (location, data, label) => {
    const source = sourceOf(data);
    if (!source) throw invalidArgument(`${label} must be a Uint8Array, ArrayBuffer, Blob, File or URL string, got ${kindOf(data)}`);
    given.set(location.replace(/^\.\//, ''), source);
  };
  if (Array.isArray(externalData)) {
    externalData.forEach((e, i) => {
      if (!e || typeof e.path !== 'string') throw invalidArgument(`options.externalData[${i}] must be { path, data }`);
      add(e.path, e.data, `options.externalData[${i}].data ('${e.path}')`);
    });
  } else if (externalData && typeof externalData === 'object') {
    for (const location of Object.keys(externalData)) add(location, externalData[location], `options.externalData['${location}']`);
  } else {
    throw invalidArgument(`options.externalData must be an object { location: data } or an array [{ path, data }], got ${kindOf(externalData)}`);
  }
  return given;
}

// The sources of one model's external data, each resolved once.
export class ExternalData {
  #given; #baseDir; #baseUrl; #node; #sources = new Map();

  static async create(options, { baseDir, baseUrl }) {
    const store = new ExternalData();
    store.#given = givenData(options.externalData);
    store.#baseDir = baseDir;
    store.#baseUrl = baseUrl;
    store.#node = await nodeModules();
    return store;
  }

  // The source of `location`, or a ModelError saying where it was looked for.
  source(location, what) {
    const key = location.replace(/^\.\//, '');
    if (this.#sources.has(key)) return this.#sources.get(key);
    let source = this.#given.get(key);
    if (source?.path !== undefined) source = new FileSource(this.#node.fs, this.#node.path.resolve(source.path));
    if (!source && this.#baseDir && this.#node) {
      const { path } = this.#node;
      const full = path.resolve(this.#baseDir, location);
      const rel = path.relative(this.#baseDir, full);
      if (rel.startsWith('..') || path.isAbsolute(rel) || path.isAbsolute(location))
        throw new ModelError(`${what}: external data path '${location}' leaves the model's folder`);
      source = new FileSource(this.#node.fs, full);
    }
    if (!source && this.#baseUrl) source = new UrlSource(new URL(location, this.#baseUrl));
    if (!source) throw new ModelError(`${what} is stored in external file '${location}': pass its bytes in options.externalData`);
    this.#sources.set(key, source);
    return source;
  }
}

// Where a TensorProto's external bytes are: { location, offset, length } (length: as declared,
// or undefined when the data runs to the end of the file).
export function externalRange(proto, what) {
  const entry = (k) => proto.externalData.find((e) => e.key === k)?.value;
  const location = entry('location');
  if (!location) throw new ModelError(`${what} is stored externally but names no location`);
  const number = (k) => {
    const v = entry(k);
    if (v === undefined) return undefined;
    const n = Number(v);
    if (!/^\d+$/.test(v.trim()) || !Number.isSafeInteger(n)) throw new ModelError(`${what}: external data ${k} '${v}' is not an integer >= 0`);
    return n;
  };
  return { location, offset: number('offset') ?? 0, length: number('length') };
}

// The bytes [offset, offset + bytes) of the table's source, checked against the declared length
// and the source's size (when known before reading).
async function checkedRange(source, range, bytes, what, t, dims) {
  const { location, offset, length } = range;
  const shape = `${t.name}, dims [${dims.join(', ')}]`;
  if (length !== undefined && length !== bytes)
    throw new ModelError(`${what} (${shape}) has ${length} bytes of data, expected ${bytes}`);
  let size;
  try {
    size = await source.size();
  } catch (e) {
    throw new ModelError(`${what}: cannot read external data '${location}': ${e.message}`);
  }
  if (size !== null) {
    if (offset + bytes > size)
      throw new ModelError(`${what} (${shape}, ${bytes} bytes at offset ${offset}) needs ${offset + bytes} bytes of '${location}', which holds ${size}`);
    if (length === undefined && size - offset !== bytes)
      throw new ModelError(`${what} (${shape}) has ${size - offset} bytes of data, expected ${bytes}`);
  }
  return { offset, bytes };
}

// A Tensor in wasm memory with the external bytes of `proto` (type record t, dims), read from
// its source at one copy.
export async function loadTensor(store, proto, t, dims, what, progress) {
  const range = externalRange(proto, what);
  const source = store.source(range.location, what);
  const bytes = tableBytes(t, dims);
  const { offset } = await checkedRange(source, range, bytes, what, t, dims);
  let tensor;
  try {
    tensor = Tensor[UNINITIALIZED](t.name, dims);
  } catch (e) {
    if (e instanceof OutOfMemoryError) throw new OutOfMemoryError(`${what} (${t.name} [${dims.join(', ')}], ${sizeText(bytes)}) does not fit in wasm memory: ${e.message}`);
    throw e;
  }
  try {
    await source.readInto(offset, bytes, tensor.data.byteOffset, progress);
  } catch (e) {
    tensor.dispose();
    if (e instanceof ShortRead)
      throw new ModelError(`${what} (${t.name} [${dims.join(', ')}], ${bytes} bytes at offset ${offset}) needs ${offset + bytes} bytes of '${range.location}', which holds ${e.size}`);
    if (e instanceof ModelError) throw e;
    throw new ModelError(`${what}: cannot read external data '${range.location}': ${e.message}`);
  }
  return tensor;
}

// A table that stays in its source (a file, a Blob or caller's bytes): a Gather along axis 0 reads
// the rows each run needs, adjacent rows in one read, into a block of just those rows, then
// gathers from the block with indices remapped to it (so the output, and every error, is the
// in-memory Gather's).
export class LazyTable {
  constructor({ name, t, dims, source, location, offset, bytes }) {
    Object.assign(this, { name, t, dims, source, location, offset, bytes });
    this.rowBytes = tableBytes(t, [1, ...dims.slice(1)]);
  }

  static async open(store, proto, t, dims, what) {
    const range = externalRange(proto, what);
    const source = store.source(range.location, what);
    const bytes = tableBytes(t, dims);
    const { offset } = await checkedRange(source, range, bytes, what, t, dims);
    return new LazyTable({ name: proto.name, t, dims, source, location: range.location, offset, bytes });
  }

  // Gather(table, indices) through a prepared Gather node: an output Tensor the caller owns.
  async gather(prepared, indices) {
    const { rows, remapped } = prepared.gatherRows(indices, this.t.id, this.dims);
    let block = null;
    try {
      // (copied out first: allocating the block may grow memory, which detaches rows.data's view)
      const ids = Array.from(rows.data, Number), u = ids.length;
      block = Tensor[UNINITIALIZED](this.t.name, [u, ...this.dims.slice(1)]);
      if (u > 0 && this.rowBytes > 0) {
        const base = block.data.byteOffset;
        const runs = [];
        for (let i = 0; i < u;) {
          let j = i + 1;
          while (j < u && ids[j] === ids[j - 1] + 1) ++j;
          runs.push({ at: this.offset + ids[i] * this.rowBytes, length: (j - i) * this.rowBytes, addr: base + i * this.rowBytes });
          i = j;
        }
        try {
          await this.source.readRuns(runs, this.offset + this.bytes);
        } catch (e) {
          const why = e instanceof ShortRead ? `it now holds ${e.size} bytes, and the table needs ${this.offset + this.bytes}` : e.message;
          throw new ExternalDataError(`table '${this.name}' (${sizeText(this.bytes)}) is kept in '${this.location}', which cannot be read: ${why}`);
        }
      }
      return prepared.runTensors(block, remapped);
    } finally {
      block?.dispose();
      rows.dispose();
      remapped.dispose();
    }
  }
}

// Where each external initializer lives: Map name -> 'memory' | 'file'. `tables`: Map name ->
// { t, dims, bytes, source } for each external initializer, in graph order. A table may stay in
// its source ('file') only when the source allows it (a file, a Blob or bytes; not a URL), it is
// numeric with rank >= 1 (Gather's types have whole bytes per row), read only as the data of
// Gathers along axis 0,
// and neither a graph output nor a graph input (a feed may replace those). 'auto' keeps such a
// table in memory while the tables in memory total at most AUTO_MEMORY_BYTES.
export function placeTables(graph, tables, overridable, mode) {
  const rowReads = new Map();   // name -> whether every read of it is a Gather of rows
  for (const n of graph.node) {
    const gather = n.opType === 'Gather' && (n.domain === '' || n.domain === 'ai.onnx');
    const axis = gather ? Number(n.attribute.find((a) => a.name === 'axis')?.i ?? 0) : NaN;
    n.input.forEach((x, k) => {
      if (!x) return;
      const rank = tables.get(x)?.dims.length;
      const rows = gather && k === 0 && n.input[1] !== x && (axis === 0 || axis === -rank);
      rowReads.set(x, (rowReads.get(x) ?? true) && rows);
    });
  }
  const outputs = new Set(graph.output.map((o) => o.name));
  const keepable = (name, { t, dims, source }) => rowReads.get(name) === true && !outputs.has(name) && !overridable.has(name) &&
    t.name !== 'string' && dims.length >= 1 && source.canKeepTables;
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

// Every initializer of graph `g` as a Tensor in `tensors` (Map name -> Tensor), or kept in its
// source, and the tensors of Constants stored in external data. Where each table lives is decided
// first (placeTables), then each is loaded at one copy (onProgress counts the model and every byte
// loaded) or opened where it is. Each Tensor made is pushed onto `owned` at once, so the caller
// frees them all if anything fails. Returns { kept: Map name -> LazyTable, constants: Map node -> Tensor }.
export async function loadInitializers(g, store, { mode, onProgress }, modelBytes, owned, tensors) {
  const tables = new Map(), external = new Map();
  const describe = (proto, what) => {
    const t = elementType(proto.dataType, what), dims = dimsOf(proto, what);
    if (t.name === 'string') throw new ModelError(`${what}: string tensors cannot use external data (raw bytes); keep them in the model`);
    return { proto, t, dims, what, bytes: tableBytes(t, dims), source: store.source(externalRange(proto, what).location, what) };
  };
  for (const init of g.initializer) if (init.dataLocation === EXTERNAL) tables.set(init.name, describe(init, `tensor '${init.name}'`));
  for (const n of g.node) {
    const t = n.opType === 'Constant' && n.attribute.length === 1 && n.attribute[0].name === 'value' ? n.attribute[0].t : null;
    if (t?.dataLocation === EXTERNAL) external.set(n, describe(t, `tensor '${t.name}'`));
  }
  const place = placeTables(g, tables, new Set(g.input.map((i) => i.name)), mode);
  let total = modelBytes;
  for (const [name, x] of tables) if (place.get(name) === 'memory') total += x.bytes;
  for (const x of external.values()) total += x.bytes;
  const progress = new Progress(onProgress, total);
  progress.add(modelBytes);
  const kept = new Map(), constants = new Map();
  for (const init of g.initializer) {
    const x = tables.get(init.name);
    if (x && place.get(init.name) === 'file') {
      kept.set(init.name, await LazyTable.open(store, init, x.t, x.dims, x.what));
      continue;
    }
    const t = x ? await loadTensor(store, init, x.t, x.dims, x.what, progress) : tensorFromProto(init);
    owned.push(t);
    tensors.set(init.name, t);
  }
  for (const [n, x] of external) {
    const t = await loadTensor(store, x.proto, x.t, x.dims, x.what, progress);
    owned.push(t);
    constants.set(n, t);
  }
  progress.finish();
  return { kept, constants };
}
