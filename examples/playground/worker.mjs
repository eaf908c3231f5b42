// The playground's Web Worker: every call into onnx-wasm happens here, off the page's main thread.
// Messages in: { id, kind, ...args }; out: { id, result } or { id, error }, plus unsolicited
// { kind: 'runtime' } (when the threads pool becomes ready) and { id, progress } (model loads,
// benchmark).
// The OPFS model cache ("keep in this browser") is used from here too, listing and deleting
// included: this dedicated worker reads OPFS through sync access handles itself (no reader worker
// is started), and deleting an entry here closes the read handles this worker's session keeps on it.
import {
  init, runtime, threadsReady, Tensor, runNode, inferShapes, opVersions, prepareNode, InferenceSession, TYPE_NAMES, OnnxWasmError, modelCache,
} from '../../js/index.mjs';
// The CLI reads test_data_set tensors the same way (bin/onnx-wasm.mjs); not part of the public API.
import { tensorFromProtoBytes } from '../../js/model/tensor-proto.mjs';
// Generated inputs as `onnx-wasm run` makes them (symbols from the page), with patterned values.
import { generateFeeds } from '../../js/generate-feeds.mjs';
import { FieldError, formatElements, nest, parseDims, parseElements, sizeOf, toStorage } from './values.mjs';
import { attributesFrom } from './attributes.mjs';
import { BENCH_OPS } from './presets.mjs';

const SHOWN = 1000;   // values shown per tensor
let versions = [];

const errorInfo = (e) => ({ name: e?.name ?? 'Error', code: e?.code ?? null, message: e?.message ?? String(e) });

function versionFor(domain, op, opset) {
  return versions.find((v) => v.domain === domain && v.op === op && v.since <= opset && opset <= v.until) ?? null;
}

// The spec of input slot k: the last input of a version repeats when it is variadic (Concat's).
function slotSpec(version, k) {
  const last = version.inputs.at(-1);
  return k < version.inputs.length ? version.inputs[k] : last?.variadic ? last : null;
}

// The field an error of the library concerns: 'input:K', 'attr:NAME', 'opset' or 'general'.
// slots: the number of input slots (a variadic input has several).
function fieldOf(e, version, slots) {
  const msg = e.message ?? '';
  const inputIndex = (name) => version.inputs.findIndex((i) => i.name === name);
  // An input the message names: "input 1", "inputs[1]", or its name as a word ("ends [2, 3] has
  // 2 values but starts has 1": the first named); an axis out of range with an `axes` input, that one.
  const named = () => {
    const k = /\binput (\d+)/.exec(msg)?.[1] ?? /inputs\[(\d+)\]/.exec(msg)?.[1];
    if (k !== undefined && Number(k) < slots) return `input:${k}`;
    if (inputIndex('axes') >= 0 && /\baxis\b/.test(msg)) return `input:${inputIndex('axes')}`;
    let first = null;
    version.inputs.forEach((spec, j) => {
      const at = new RegExp(`(^|[^\\w'])'?${spec.name}'?\\b`).exec(msg.replace(/^\S+: /, ''))?.index;
      if (at !== undefined && (first === null || at < first.at)) first = { at, j };
    });
    return first ? `input:${first.j}` : null;
  };
  switch (e.code) {
    case 'ERR_OPSET': return 'opset';
    case 'ERR_INDEX': return inputIndex('indices') >= 0 ? `input:${inputIndex('indices')}` : named() ?? 'general';
    case 'ERR_ATTRIBUTE': {
      const attr = /attribute '(\w+)'/.exec(msg)?.[1] ?? (/\baxis\b/.test(msg) ? 'axis' : null);
      if (attr && version.attributes.some((a) => a.name === attr)) return `attr:${attr}`;
      return version.attributes.length ? `attr:${version.attributes[0].name}` : 'general';
    }
    case 'ERR_SHAPE': {
      if (version.op === 'Reshape' && /reshape|shape \[|allowzero/i.test(msg))
        return inputIndex('shape') >= 0 ? `input:${inputIndex('shape')}` : 'attr:shape';
      return named() ?? 'input:0';
    }
    default: return named() ?? 'general';
  }
}

// Symbol values typed as "batch=2, seq=3".
function parseSymbols(text) {
  const out = new Map();
  for (const part of String(text ?? '').split(/[\s,;]+/).filter(Boolean)) {
    const m = /^([A-Za-z_][\w.]*)=(\d+)$/.exec(part);
    if (!m) throw new FieldError('symbols', `'${part}' is not name=N`);
    out.set(m[1], Number(m[2]));
  }
  return out;
}

function describeTensor(t, { limit = SHOWN } = {}) {
  const dims = Array.from(t.dims);
  const size = sizeOf(dims);
  const strings = formatElements(t.type, t.data, size, limit);
  return { type: t.type, dims, size, text: nest(strings, dims, size), values: strings };
}

// One request of the Op panel: parse, infer shapes (symbols kept), run (symbols resolved), time.
// domain: '' for ONNX's own ops, else e.g. 'com.microsoft', whose version `opset` then is.
// inputs: one per input slot (a variadic input has one or more), null for an optional input left out.
function opRequest({ domain = '', op, opset, inputs, attributes, symbols: symbolText }) {
  const version = versionFor(domain, op, opset);
  if (!version) {
    const known = versions.filter((v) => v.domain === domain && v.op === op);
    const range = known.length ? `${op} has versions at ${domain || 'ai.onnx'} opsets ${known[0].since} to ${known.at(-1).until}` : `onnx-wasm has no ${op} in domain '${domain}'`;
    return { version: null, errors: { opset: `${op} has no version at ${domain ? `${domain} ` : ''}opset ${opset}; ${range}` } };
  }
  const errors = {};
  const fail = (field, message) => { errors[field] ??= message; };
  // The opset as runNode takes it for a node of another domain: { domain, version }.
  const options = { opset: domain ? { domain, version: opset } : opset };
  const node = { opType: op, ...(domain ? { domain } : {}), attributes: {} };
  const a = attributesFrom(version, attributes);
  Object.assign(errors, a.errors);
  const attrTensors = [];
  for (const [name, value] of Object.entries(a.attrs)) {
    if (!value?.tensor) { node.attributes[name] = value; continue; }
    try {
      const t = new Tensor(value.tensor.type, toStorage(value.tensor.type, value.tensor.elements), [1]);
      attrTensors.push(t);
      node.attributes[name] = t;
    } catch (e) {
      fail(`attr:${name}`, `${name}: ${e.message}`);
    }
  }

  let symbols = new Map();
  try { symbols = parseSymbols(symbolText); } catch (e) { fail(e.field, e.message); }

  // Parse every input slot: dims (with symbols) and elements; null for one left out.
  const slots = version.inputs.at(-1)?.variadic ? Math.max(version.inputs.length, inputs.length) : version.inputs.length;
  const specs = Array.from({ length: slots }, (_, k) => slotSpec(version, k));
  const parsed = specs.map((spec, k) => {
    const field = `input:${k}`;
    const given = inputs[k] ?? {};
    if (inputs[k] === null && spec.optional) return null;
    const type = given.type ?? spec.types[0];
    const out = { type, dims: undefined, elements: undefined };
    if (!TYPE_NAMES.includes(type)) { fail(field, `unknown type '${type}'`); return out; }
    try { out.dims = parseDims(given.dims ?? '', field); } catch (e) { fail(field, e.message); }
    try { out.elements = parseElements(type, given.values ?? '', field); } catch (e) { fail(field, e.message); }
    return out;
  });

  // Shape inference, without running: symbolic dims as typed; the values of small int64 inputs
  // given too (as constants of a model: Reshape's shape, Slice's starts, Unsqueeze's axes...).
  let inferred = null;
  const attrBroken = version.attributes.some((x) => errors[`attr:${x.name}`]);
  if (parsed.every((p) => p === null || p.dims !== undefined) && !attrBroken) {
    const infos = parsed.map((p) => {
      if (p === null) return null;
      const info = { type: p.type, dims: p.dims };
      if (p.type === 'int64' && p.elements && p.elements.length <= 64 && p.dims?.every((d) => typeof d === 'number') && sizeOf(p.dims) === p.elements.length)
        info.value = p.elements.map((b) => (Number.isSafeInteger(Number(b)) ? Number(b) : String(b)));
      return info;
    });
    try {
      inferred = inferShapes(node, infos, options);
    } catch (e) {
      fail(fieldOf(e, version, slots), e.message);
    }
  }

  // Concrete dims: symbols (and ?) from the symbols field, else the one unknown of an input
  // deduced from its number of values.
  const concrete = parsed.map((p, k) => {
    if (p === null) return 'omitted';
    if (!p.dims || !p.elements) return null;
    const field = `input:${k}`;
    const unknown = [];
    const dims = p.dims.map((d, j) => {
      if (typeof d === 'number') return d;
      if (d !== null && symbols.has(d)) return symbols.get(d);
      unknown.push(j);
      return d;
    });
    if (unknown.length > 1) {
      fail('symbols', `to run, give values for ${unknown.map((j) => p.dims[j] ?? '?').join(', ')} of ${specs[k].name} (e.g. ${unknown.map((j) => `${p.dims[j] ?? 'n'}=2`).join(', ')})`);
      return null;
    }
    if (unknown.length === 1) {
      const rest = sizeOf(dims.filter((_, j) => j !== unknown[0]));
      const n = rest === 0 ? 0 : p.elements.length / rest;
      if (!Number.isInteger(n)) { fail(field, `values: ${p.elements.length} values do not fill dims [${p.dims.map((d) => d ?? '?').join(', ')}]`); return null; }
      const name = p.dims[unknown[0]];
      if (name !== null) {
        if (symbols.has(name) && symbols.get(name) !== n) { fail(field, `dims: ${name} would be ${n} here but ${symbols.get(name)} elsewhere`); return null; }
        symbols.set(name, n);
      }
      dims[unknown[0]] = n;
    }
    if (sizeOf(dims) !== p.elements.length) {
      fail(field, `values: dims [${dims.join(', ')}] need ${sizeOf(dims)} value${sizeOf(dims) === 1 ? '' : 's'}, got ${p.elements.length}`);
      return null;
    }
    return dims;
  });

  let output = null, time = null;
  if (Object.keys(errors).length === 0 && concrete.every((d) => d)) {
    const tensors = [];
    try {
      parsed.forEach((p, k) => tensors.push(p === null ? null : new Tensor(p.type, toStorage(p.type, p.elements), concrete[k])));
    } catch (e) {
      fail(`input:${tensors.length}`, e.message);
    }
    if (!Object.keys(errors).length) {
      try {
        const t0 = performance.now();
        const [out] = runNode(node, tensors, options);
        const first = performance.now() - t0;
        output = { ...describeTensor(out), view: tensors.some((t) => t && out.sharesMemoryWith?.(t)) };
        out.dispose();
        // The median of repeated runs (up to 200, or 30 ms) for a steadier figure.
        const times = [];
        const until = performance.now() + 30;
        while (times.length < 200 && performance.now() < until) {
          const s = performance.now();
          const [o] = runNode(node, tensors, options);
          times.push(performance.now() - s);
          o.dispose();
        }
        times.sort((x, y) => x - y);
        time = { first, median: times[times.length >> 1] ?? first, runs: times.length };
      } catch (e) {
        fail(fieldOf(e, version, slots), e.message);
        output = null;
      }
    }
    tensors.forEach((t) => t?.dispose());
  }
  attrTensors.forEach((t) => t.dispose());
  return {
    version: { domain: version.domain, op: version.op, since: version.since, until: version.until },
    errors,
    inferred,
    output,
    time,
    symbols: Object.fromEntries(symbols),
  };
}

// ---- Model panel ----------------------------------------------------------------------------
let session = null;
let testData = { inputs: [], outputs: [] };
let opened = null;   // { url, cacheKey } of a session opened from a URL kept in this browser

async function closeModel() {
  if (session) { await session.release(); session = null; }
  opened = null;
  for (const t of [...testData.inputs, ...testData.outputs]) t.tensor.dispose();
  testData = { inputs: [], outputs: [] };
}

const libraryMessage = (e) => `${e.name}${e.code ? ` (${e.code})` : ''}: ${e.message}`;

// files: the Files picked (posted as File objects: a table in external data is read from its File
// as needed, never copied whole into this worker). Every file that is not the model or a .pb is
// offered as external data; onProgress reports the bytes loaded.
async function loadModel({ files }, onProgress) {
  const model = files.find((f) => /\.onnx$/i.test(f.name)) ?? files.find((f) => !/\.pb$/i.test(f.name));
  if (!model) throw new FieldError('model', 'pick an .onnx file (with its input_K.pb / output_K.pb files and external data files if you like)');
  await closeModel();
  const externalData = files.filter((f) => f !== model && !/\.pb$/i.test(f.name)).map((f) => ({ path: f.name, data: f }));
  try {
    session = await InferenceSession.create(new Uint8Array(await model.arrayBuffer()), { externalData, onProgress });
  } catch (e) {
    throw new FieldError('model', `${model.name}: ${libraryMessage(e)}`);
  }
  const pbs = (prefix) => files.filter((f) => new RegExp(`^${prefix}_\\d+\\.pb$`).test(f.name))
    .sort((a, b) => Number(a.name.match(/\d+/)[0]) - Number(b.name.match(/\d+/)[0]));
  for (const [key, prefix] of [['inputs', 'input'], ['outputs', 'output']]) {
    for (const f of pbs(prefix)) {
      try {
        testData[key].push({ file: f.name, ...(await tensorFromProtoBytes(new Uint8Array(await f.arrayBuffer()))) });
      } catch (e) {
        throw new FieldError('model', `${f.name}: ${e.message}`);
      }
    }
  }
  return describeModel(model.name, model.size);
}

// A model by URL (absolute: the page resolves it). keep: with the OPFS cache ("keep in this
// browser"), its tables staying there and read by rows; a complete copy opens with no request.
// A kept load that fails having stored nothing leaves no empty entry behind.
async function loadUrl({ url, keep, cacheKey = null }, onProgress) {
  await closeModel();
  const key = cacheKey === null ? {} : { cacheKey };
  const entryOf = async () => (await modelCache.entries()).find((e) => e.url === url && (e.cacheKey ?? null) === cacheKey) ?? null;
  let before = null;
  try {
    if (keep) before = await entryOf();
    session = await InferenceSession.create(url, keep ? { cache: 'opfs', externalDataMode: 'lazy', onProgress, ...key } : { onProgress });
  } catch (e) {
    if (keep) {
      const left = await entryOf().catch(() => null);
      if (left && left.bytes === 0) await modelCache.delete(url, key).catch(() => {});
    }
    throw new FieldError('model-url', `${url}: ${libraryMessage(e)}`);
  }
  const name = decodeURIComponent(new URL(url).pathname.split('/').pop() || url);
  if (!keep) return describeModel(name, null, { url });
  opened = { url, cacheKey };
  const entry = await entryOf();
  return describeModel(name, entry?.files.find((f) => f.name === 'model')?.bytes ?? null,
    { url, kept: { bytes: entry?.bytes ?? null, downloaded: !before?.complete } });
}

// What the page shows of the open session. bytes: the model file's size where known; from: { url,
// kept: { bytes, downloaded } } for a model opened by URL.
function describeModel(name, bytes, from = null) {
  const symbols = [];
  for (const i of session.inputMetadata) for (const d of i.shape ?? []) if (typeof d === 'string' && !symbols.includes(d)) symbols.push(d);
  // Large initializers and where each lives (loaded into wasm memory, or kept in its File).
  const tables = [...new Set(session.nodes.flatMap((n) => n.inputs))].map((name) => ({ name, ...session.valueInfo(name) }))
    .filter((v) => v.storage && v.bytes >= 1 << 20).map(({ name, storage, location, bytes }) => ({ name, storage, location, bytes }));
  return {
    name,
    bytes,
    from,
    tables,
    irVersion: Number(session.irVersion),
    opsetImports: session.opsetImports.map((o) => ({ domain: o.domain || 'ai.onnx', version: Number(o.version) })),
    inputs: session.inputMetadata.map(({ name, type, shape }) => ({ name, type, shape })),
    outputs: session.outputMetadata.map(({ name, type, shape }) => ({ name, type, shape })),
    nodes: session.nodes.map((n) => ({
      name: n.name, opType: n.opType, inputs: n.inputs, attributes: n.attributes,
      outputs: n.outputs.map((o) => ({ name: o, ...session.valueInfo(o) })),
    })),
    symbols,
    testData: { inputs: testData.inputs.map((t) => t.file), outputs: testData.outputs.map((t) => t.file) },
  };
}

function patterned(type, size) {
  const els = [];
  for (let i = 0; i < size; ++i) {
    if (type === 'string') els.push(`s${i}`);
    else if (type === 'bool') els.push(i % 2 === 1);
    else if (type === 'float32' || type === 'float64' || type === 'float16' || type === 'bfloat16') els.push((i % 17) - 8 + 0.25);
    else if (type.startsWith('complex')) els.push([i % 7, -(i % 3)]);
    else if (type === 'int64' || type === 'uint64') els.push(BigInt(i % 100));
    else if (/^u?int[24]$|float4/.test(type)) els.push(i % 2);
    else els.push((i * 13 + 1) % 100);
  }
  return toStorage(type, els);
}

function bytesOf(t) {
  if (t.type === 'string') return new TextEncoder().encode(JSON.stringify(Array.from(t.data)));
  const d = t.data;
  return new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
}

function compare(got, want) {
  if (got.type !== want.type) return `type ${got.type}, expected ${want.type}`;
  if (got.dims.join() !== want.dims.join()) return `dims [${got.dims}], expected [${want.dims}]`;
  const a = bytesOf(got), b = bytesOf(want);
  if (a.length !== b.length) return `${a.length} bytes, expected ${b.length}`;
  for (let i = 0; i < a.length; ++i) if (a[i] !== b[i]) return `bytes differ first at byte ${i} of ${b.length}`;
  return null;
}

async function runModel({ symbols = {}, useTestData = true }) {
  if (!session) throw new FieldError('model', 'open a model first');
  const fromTestData = useTestData && testData.inputs.length > 0;
  let feeds, generated;
  if (fromTestData) {
    feeds = {};
    testData.inputs.forEach(({ name, tensor }, k) => { feeds[name || session.inputNames[k]] = tensor; });
    generated = null;
  } else {
    feeds = generateFeeds(session, session.inputMetadata, symbols, patterned);
    generated = feeds;
  }
  try {
    let outputs, time;
    try {
      const t0 = performance.now();
      outputs = await session.run(feeds);
      time = performance.now() - t0;
    } catch (e) {
      throw new FieldError('model-run', `${e.name}${e.code ? ` (${e.code})` : ''}: ${e.message}`);
    }
    const expected = new Map();
    testData.outputs.forEach(({ name, tensor }, k) => expected.set(name || session.outputNames[k], tensor));
    const result = {
      source: fromTestData ? `test data (${testData.inputs.map((t) => t.file).join(', ')})` : 'generated',
      inputs: Object.entries(feeds).map(([name, t]) => ({ name, ...describeTensor(t, { limit: 64 }) })),
      outputs: Object.entries(outputs).map(([name, t]) => {
        const want = fromTestData ? expected.get(name) : undefined;
        const mismatch = want ? compare(t, want) : null;
        return { name, ...describeTensor(t, { limit: 64 }), check: want ? (mismatch ? `differs from ${testData.outputs.find((o) => o.tensor === want).file}: ${mismatch}` : `matches ${testData.outputs.find((o) => o.tensor === want).file}`) : null, ok: want ? !mismatch : null };
      }),
      time,
    };
    for (const t of Object.values(outputs)) t.dispose();
    return result;
  } finally {
    if (generated) for (const t of Object.values(generated)) t.dispose();
  }
}

// ---- Kept in this browser (the OPFS cache) ----------------------------------------------------
async function cacheList() {
  try {
    const estimate = await navigator.storage.estimate?.();
    return { entries: await modelCache.entries(), usage: estimate?.usage ?? null, quota: estimate?.quota ?? null };
  } catch (e) {
    throw new FieldError('model-cache', `the cache cannot be listed: ${libraryMessage(e)}`);
  }
}

// Deletes one entry ({ url, cacheKey }) or, with all, every entry. The open session is released
// first when its tables are in what is deleted (its next run could only fail); released says so.
async function cacheDelete({ url = null, cacheKey = null, all = false }) {
  const released = opened !== null && (all || (opened.url === url && opened.cacheKey === cacheKey));
  if (released) await closeModel();
  try {
    if (all) await modelCache.clear();
    else if (!(await modelCache.delete(url, cacheKey === null ? {} : { cacheKey }))) throw new Error('it is no longer there');
  } catch (e) {
    throw new FieldError('model-cache', `cannot delete ${all ? 'the cache' : url}: ${libraryMessage(e)}`);
  }
  return { released };
}

// ---- Benchmark panel ----------------------------------------------------------------------------
let benchToken = 0;
const yieldToEvents = () => new Promise((r) => setTimeout(r, 0));

const BENCH_TYPES = {
  float32: Float32Array, float64: Float64Array, int8: Int8Array, uint8: Uint8Array, int16: Int16Array, uint16: Uint16Array,
  int32: Int32Array, uint32: Uint32Array, int64: BigInt64Array, uint64: BigUint64Array, bool: Uint8Array, float16: Uint16Array, bfloat16: Uint16Array,
};

// The plain JavaScript loop the wasm kernel is compared with: Gather copies rows (or columns)
// element by element; Flatten and Reshape compute the shape and copy the data, as an
// implementation without views into a shared buffer has to.
function jsGather(data, dims, indices, axis) {
  const outer = sizeOf(dims.slice(0, axis)), n = dims[axis], inner = sizeOf(dims.slice(axis + 1));
  const k = indices.length;
  const out = new data.constructor(outer * k * inner);
  let d = 0;
  for (let o = 0; o < outer; ++o) {
    for (let j = 0; j < k; ++j) {
      let ix = Number(indices[j]);
      if (ix < 0) ix += n;
      if (ix < 0 || ix >= n) throw new RangeError(`index ${ix} out of range`);
      let s = (o * n + ix) * inner;
      for (let e = 0; e < inner; ++e) out[d++] = data[s++];
    }
  }
  return out;
}

function jsCopy(data) {
  const out = new data.constructor(data.length);
  for (let i = 0; i < data.length; ++i) out[i] = data[i];
  return out;
}

function benchSetup({ domain = '', op, opset, type, attributes, size }) {
  if (domain !== '' || !BENCH_OPS.includes(op))
    throw new FieldError('bench', `the benchmark has a JS loop for ${BENCH_OPS.join(', ')} only, not ${domain ? `${domain}.` : ''}${op}`);
  const version = versionFor('', op, opset);
  if (!version) throw new FieldError('bench', `${op} has no version at opset ${opset}`);
  const allowed = version.inputs[0].types;
  const dtype = BENCH_TYPES[type] && allowed.includes(type) ? type : 'float32';
  const Cls = BENCH_TYPES[dtype];
  const cols = 64, rows = Math.max(1, Math.round(size / cols));
  const data = new Cls(rows * cols);
  for (let i = 0; i < data.length; ++i) data[i] = Cls === BigInt64Array || Cls === BigUint64Array ? BigInt(i & 1023) : dtype === 'bool' ? i & 1 : i & 127;
  const { attrs } = attributesFrom(version, attributes);
  if (op === 'Gather') {
    let axis = attrs.axis ?? 0;
    if (axis < 0) axis += 2;
    if (axis !== 0 && axis !== 1) axis = 0;
    const dims = [rows, cols];
    const n = dims[axis], k = axis === 0 ? rows : cols;
    let seed = 12345;
    const rand = () => { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed; };
    const idxType = version.inputs[1].types.includes('int64') ? 'int64' : 'int32';
    const idx = idxType === 'int64' ? BigInt64Array.from({ length: k }, () => BigInt(rand() % n)) : Int32Array.from({ length: k }, () => rand() % n);
    return {
      dtype, description: `Gather-${version.since}, ${dtype} data [${dims}], ${k} random ${idxType} indices on axis ${axis} → [${axis === 0 ? [k, cols] : [rows, k]}]`,
      node: { opType: 'Gather', attributes: { axis } }, inputs: [[dtype, data, dims], [idxType, idx, [k]]],
      js: () => jsGather(data, dims, idx, axis), outBytes: rows * cols * Cls.BYTES_PER_ELEMENT,
    };
  }
  const dims = [rows, 8, 8];
  const flat = data.subarray(0, rows * 64);
  if (op === 'Flatten') {
    let axis = attrs.axis ?? 1;
    if (axis < -3 || axis > 3) axis = 1;
    return {
      dtype, description: `Flatten-${version.since} (axis ${axis}), ${dtype} [${dims}]; onnx-wasm returns a view, the JS loop copies`,
      node: { opType: 'Flatten', attributes: { axis } }, inputs: [[dtype, flat, dims]], js: () => jsCopy(flat), outBytes: flat.byteLength,
    };
  }
  const target = [rows * 8, 8];
  const node = version.since < 5 ? { opType: 'Reshape', attributes: { shape: target } } : { opType: 'Reshape', attributes: {} };
  return {
    dtype, description: `Reshape-${version.since}, ${dtype} [${dims}] → [${target}]; onnx-wasm returns a view, the JS loop copies`,
    node, inputs: version.since < 5 ? [[dtype, flat, dims]] : [[dtype, flat, dims], ['int64', BigInt64Array.from(target, BigInt), [2]]],
    js: () => jsCopy(flat), outBytes: flat.byteLength,
  };
}

function same(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; ++i) if (a[i] !== b[i]) return false;
  return true;
}

async function bench(params, post) {
  const token = ++benchToken;
  const setup = benchSetup(params);
  const tensors = setup.inputs.map(([type, data, dims]) => new Tensor(type, data, dims));
  const prepared = prepareNode(setup.node, { opset: params.opset });
  try {
    const [check] = prepared.run(tensors);
    const identical = same(check.data, setup.js());
    check.dispose();
    const stats = { wasm: [], js: [] };
    const totals = { wasm: 0, js: 0 };
    const sliceMs = 40;
    const end = performance.now() + Math.min(Math.max(params.seconds ?? 2, 0.2), 30) * 1000;
    const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[s.length >> 1]; };
    const report = (done) => {
      const w = median(stats.wasm), j = median(stats.js);
      return {
        description: setup.description, identical, done,
        wasm: { us: w * 1000, runs: totals.wasm, gbps: setup.outBytes / (w * 1e6) },
        js: { us: j * 1000, runs: totals.js, gbps: setup.outBytes / (j * 1e6) },
        speedup: j / w, threads: runtime().threadsActive ? runtime().threads : 1,
      };
    };
    while (performance.now() < end && token === benchToken) {
      for (const side of ['wasm', 'js']) {
        let n = 0;
        const t0 = performance.now();
        let t = t0;
        while (t - t0 < sliceMs) {
          if (side === 'wasm') { const [o] = prepared.run(tensors); o.dispose(); } else setup.js();
          ++n;
          t = performance.now();
        }
        stats[side].push((t - t0) / n);
        totals[side] += n;
      }
      post(report(false));
      await yieldToEvents();
    }
    return { ...report(true), stopped: token !== benchToken };
  } finally {
    prepared.dispose();
    tensors.forEach((t) => t.dispose());
  }
}

// ---- Messages ----------------------------------------------------------------------------------
async function start(options) {
  const info = await init(options);
  versions = opVersions();
  // The threads build's pool loads after init(): report when it is ready.
  if (info.module.includes('threads') && !info.threadsActive)
    threadsReady().then(() => self.postMessage({ kind: 'runtime', runtime: { ...runtime() } }));
  return { runtime: { ...runtime() }, versions, types: [...TYPE_NAMES], crossOriginIsolated: self.crossOriginIsolated === true, cores: navigator.hardwareConcurrency };
}

const HANDLERS = {
  init: (m) => start(m.options ?? {}),
  op: (m) => opRequest(m),
  'model-load': (m) => loadModel(m, (progress) => self.postMessage({ id: m.id, progress })),
  'model-url': (m) => loadUrl(m, (progress) => self.postMessage({ id: m.id, progress })),
  'model-run': (m) => runModel(m),
  'cache-list': () => cacheList(),
  'cache-delete': (m) => cacheDelete(m),
  bench: (m) => bench(m.params, (progress) => self.postMessage({ id: m.id, progress })),
  'bench-stop': () => { ++benchToken; return true; },
  runtime: () => ({ ...runtime() }),
};

self.onmessage = async ({ data: m }) => {
  try {
    const handler = HANDLERS[m.kind];
    if (!handler) throw new Error(`unknown request '${m.kind}'`);
    const result = await handler(m);
    self.postMessage({ id: m.id, result });
  } catch (e) {
    const field = e instanceof FieldError ? e.field : null;
    self.postMessage({ id: m.id, error: { ...errorInfo(e), field, library: e instanceof OnnxWasmError } });
  }
};
