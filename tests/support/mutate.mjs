// Model fuzzing helpers shared by tests/js/model-fuzz.test.mjs and scripts/fuzz-models.mjs:
// a seeded PRNG, a schema-free protobuf wire-format parser/writer, mutations of model bytes
// (structure-aware on the wire tree, and plain byte-level), the seed corpus (every model of the
// conformance suites, the generated models and a few hand-made graphs), and runModelCase(): one
// model through InferenceSession.create and run with invariant checks. A finding is anything the
// runtime must never do: throw something other than an OnnxWasmError, leak wasm memory, change a
// fed input, return an output whose data cannot be read or that contradicts the inferred shape,
// or leave the module unable to run a plain Gather afterwards.
import { create, toBinary } from '@bufbuild/protobuf';
import {
  AttributeProtoSchema, GraphProtoSchema, ModelProtoSchema, NodeProtoSchema, OperatorSetIdProtoSchema,
  StringStringEntryProtoSchema, TensorProtoSchema,
} from 'onnx-buf';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InferenceSession, OnnxWasmError, Tensor, memoryStats, runNode, threadsReady } from '../../js/index.mjs';
import { tensorFromProtoBytes } from '../../js/model/tensor-proto.mjs';
import { storageLength, typeByName } from '../../js/types.mjs';
import { attribute, generateModels, rawTensor, valueInfo } from './gen-models.mjs';
import { listTestDirs, suiteRoots } from './onnx-test-dir.mjs';

// ---------------------------------------------------------------------------------------------
// PRNG: sfc32 seeded through a 32-bit mix of (seed, stream), so that case i of seed s is the same
// bytes in any process.

function mix32(x) {
  x = Math.imul(x ^ (x >>> 16), 0x7feb352d);
  x = Math.imul(x ^ (x >>> 15), 0x846ca68b);
  return (x ^ (x >>> 16)) >>> 0;
}

export function makeRng(seed, stream = 0) {
  let a = mix32((seed >>> 0) ^ 0x9e3779b9), b = mix32(a ^ (stream >>> 0)), c = mix32(b + 0x632be5ab), d = mix32(c ^ 0x5bd1e995);
  const next = () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) >>> 0;
    return t;
  };
  for (let i = 0; i < 12; ++i) next();
  const rng = {
    u32: next,
    int: (n) => (n <= 0 ? 0 : Math.floor((next() / 4294967296) * n)),
    chance: (p) => next() / 4294967296 < p,
    pick: (arr) => arr[rng.int(arr.length)],
    bytes: (n) => Uint8Array.from({ length: n }, () => next() & 255),
    // 1 with probability 1/2, 2 with 1/4, ... up to max.
    geometric: (max) => { let k = 1; while (k < max && rng.chance(0.5)) ++k; return k; },
  };
  return rng;
}

// ---------------------------------------------------------------------------------------------
// Protobuf wire format, without a schema. A message is an array of fields { num, wt, v, msg }:
// wt 0 (varint): v is a BigInt (uint64); wt 1 / 5 (fixed64 / fixed32): v is the 8 / 4 bytes;
// wt 2 (length-delimited): v is the bytes and msg the fields when those bytes parse cleanly as a
// message (strings and raw data usually do not), else null. Groups (wt 3/4) end a parse as failed.

function readVarint(b, pos) {
  let v = 0n, shift = 0n;
  for (let i = 0; i < 10; ++i) {
    if (pos >= b.length) return null;
    const c = b[pos++];
    v |= BigInt(c & 0x7f) << shift;
    if (!(c & 0x80)) return [BigInt.asUintN(64, v), pos];
    shift += 7n;
  }
  return null;
}

export function parseWire(b, depth = 0) {
  const fields = [];
  let pos = 0;
  while (pos < b.length) {
    const t = readVarint(b, pos);
    if (!t) return null;
    const [tag, p] = t;
    pos = p;
    const num = Number(tag >> 3n), wt = Number(tag & 7n);
    if (num === 0 || tag > 0xffffffffn) return null;
    if (wt === 0) {
      const v = readVarint(b, pos);
      if (!v) return null;
      fields.push({ num, wt, v: v[0], msg: null });
      pos = v[1];
    } else if (wt === 1 || wt === 5) {
      const n = wt === 1 ? 8 : 4;
      if (pos + n > b.length) return null;
      fields.push({ num, wt, v: b.slice(pos, pos + n), msg: null });
      pos += n;
    } else if (wt === 2) {
      const l = readVarint(b, pos);
      if (!l || l[0] > BigInt(b.length - l[1])) return null;
      const len = Number(l[0]);
      pos = l[1];
      const bytes = b.subarray(pos, pos + len);
      pos += len;
      fields.push({ num, wt, v: bytes, msg: depth < 16 && len > 0 ? parseWire(bytes, depth + 1) : null });
    } else {
      return null;
    }
  }
  return fields;
}

function varintBytes(v) {
  v = BigInt.asUintN(64, BigInt(v));
  const out = [];
  while (v >= 0x80n) { out.push(Number(v & 0x7fn) | 0x80); v >>= 7n; }
  out.push(Number(v));
  return out;
}

function writeFields(fields, chunks) {
  for (const f of fields) {
    chunks.push(Uint8Array.from(varintBytes((BigInt(f.num) << 3n) | BigInt(f.wt))));
    if (f.wt === 0) chunks.push(Uint8Array.from(varintBytes(f.v)));
    else if (f.wt === 1 || f.wt === 5) chunks.push(f.v);
    else {
      const body = f.msg ? serializeWire(f.msg) : f.v;
      chunks.push(Uint8Array.from(varintBytes(body.length)), body);
    }
  }
}

export function serializeWire(fields) {
  const chunks = [];
  writeFields(fields, chunks);
  let n = 0;
  for (const c of chunks) n += c.length;
  const out = new Uint8Array(n);
  let at = 0;
  for (const c of chunks) { out.set(c, at); at += c.length; }
  return out;
}

const cloneFields = (fields) => fields.map((f) => ({ ...f, msg: f.msg ? cloneFields(f.msg) : null }));

// Every field of a tree with the message (array) that holds it, and every message.
function walk(fields) {
  const entries = [], messages = [fields];
  const visit = (msg) => {
    msg.forEach((f, i) => {
      entries.push({ owner: msg, i, f });
      if (f.msg) { messages.push(f.msg); visit(f.msg); }
    });
  };
  visit(fields);
  return { entries, messages };
}

// ---------------------------------------------------------------------------------------------
// Mutations.

const U64 = (v) => BigInt.asUintN(64, BigInt(v));
// Varint values that tend to break things: element type ids, opsets, axes, dimension products
// that overflow int64 or leave the safe-integer range, and negative numbers (10-byte varints).
export const INTERESTING_VARINTS = [
  0, 1, 2, 3, 4, 5, 7, 8, 9, 11, 13, 14, 16, 17, 19, 21, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 63, 64,
  127, 128, 255, 256, 1000, 1024, 4096, 65535, 65536, 2 ** 24, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 32,
  2 ** 32 + 13, 2n ** 40n, 2n ** 53n - 1n, 2n ** 53n, 2n ** 53n + 1n, 2n ** 62n, 2n ** 63n - 1n,
  -1, -2, -3, -(2 ** 31), -(2n ** 53n), -(2n ** 63n),
].map(U64);

const INT64_WORDS = [0n, 1n, 2n, 3n, -1n, -2n, 4n, 7n, 2n ** 31n, 2n ** 32n, 2n ** 53n + 1n, 2n ** 62n, 2n ** 63n - 1n, -(2n ** 63n), -(2n ** 31n)];
const INT32_WORDS = [0, 1, 2, -1, -2, 3, 0x7fffffff, -0x80000000, 0x10000, 0x7fc00000 /* NaN */, 0x7f800000 /* inf */];

function setWord(bytes, rng) {
  const out = bytes.slice();
  const dv = new DataView(out.buffer);
  if (out.length >= 8 && rng.chance(0.6)) {
    const at = 8 * rng.int(Math.floor(out.length / 8));
    dv.setBigInt64(at, rng.pick(INT64_WORDS), true);
  } else if (out.length >= 4) {
    const at = 4 * rng.int(Math.floor(out.length / 4));
    dv.setInt32(at, rng.pick(INT32_WORDS), true);
  } else if (out.length > 0) {
    out[rng.int(out.length)] = rng.pick([0, 1, 0x7f, 0x80, 0xff]);
  }
  return out;
}

// A length-delimited payload read as packed varints (dims, ints, int64_data), or null.
function packedVarints(bytes) {
  const vals = [];
  let pos = 0;
  while (pos < bytes.length) {
    const v = readVarint(bytes, pos);
    if (!v) return null;
    vals.push(v[0]);
    pos = v[1];
  }
  return vals.length ? vals : null;
}

function mutateBytesField(f, rng, strings) {
  const b = f.v;
  switch (rng.int(8)) {
    case 0: if (strings.length) { f.v = rng.pick(strings); break; } // falls through
    case 1: f.v = b.subarray(0, rng.int(b.length + 1)); break;
    case 2: f.v = Uint8Array.from([...b, ...rng.bytes(1 + rng.int(16))]); break;
    case 3: { const o = b.slice(); if (o.length) o[rng.int(o.length)] ^= 1 << rng.int(8); f.v = o; break; }
    case 4: f.v = setWord(b, rng); break;
    case 5: f.v = new Uint8Array(0); break;
    case 6: {
      const vals = packedVarints(b);
      if (vals) {
        vals[rng.int(vals.length)] = rng.pick(INTERESTING_VARINTS);
        if (rng.chance(0.2)) vals.push(rng.pick(INTERESTING_VARINTS));
        f.v = Uint8Array.from(vals.flatMap(varintBytes));
      } else {
        f.v = setWord(b, rng);
      }
      break;
    }
    default: f.v = Uint8Array.from([...b, ...b]);
  }
  f.msg = null;
}

// Short printable strings of a tree (value names, op types, attribute names), for swaps that make
// a graph refer to the wrong thing, to itself, or to nothing.
function stringPool(entries) {
  const pool = [];
  for (const { f } of entries) {
    if (f.wt !== 2 || f.msg || f.v.length === 0 || f.v.length > 48) continue;
    if (f.v.every((c) => c >= 0x20 && c < 0x7f)) pool.push(f.v);
  }
  for (const s of ['', '__proto__', 'constructor', 'Gather', 'Flatten', 'Reshape', 'Constant', 'Relu', 'axis', 'allowzero', 'shape', 'value', 'ai.onnx', 'com.microsoft', 'location', 'offset', 'length', '../x.bin', '/etc/passwd'])
    pool.push(new TextEncoder().encode(s));
  return pool;
}

// One structure-aware mutation of a parsed tree, in place. `donors` gives other trees to graft from.
function mutateTree(root, rng, donor) {
  const { entries, messages } = walk(root);
  const strings = stringPool(entries);
  const ofType = (pred) => entries.filter((e) => pred(e.f));
  const any = () => (entries.length ? rng.pick(entries) : null);
  const op = rng.int(100);
  if (op < 28) {                           // a varint to an interesting value or a neighbour
    const e = rng.pick(ofType((f) => f.wt === 0).concat(ofType((f) => f.wt === 0)).concat(entries));
    if (!e) return 'none';
    if (e.f.wt !== 0) { e.f.wt = 0; e.f.msg = null; }
    e.f.v = rng.chance(0.7) ? rng.pick(INTERESTING_VARINTS) : U64(e.f.v === undefined || typeof e.f.v !== 'bigint' ? 0n : e.f.v + BigInt(rng.int(7) - 3));
    return 'varint';
  }
  if (op < 48) {                           // the bytes of a string / raw data / packed field
    const list = ofType((f) => f.wt === 2);
    if (!list.length) return 'none';
    mutateBytesField(rng.pick(list).f, rng, strings);
    return 'bytes';
  }
  if (op < 56) {                           // a name swapped for another string of the model
    const list = ofType((f) => f.wt === 2 && !f.msg && f.v.length <= 48);
    if (!list.length || !strings.length) return 'none';
    const e = rng.pick(list);
    e.f.v = rng.pick(strings);
    return 'swap-name';
  }
  if (op < 64) {                           // delete a field
    const e = any();
    if (!e) return 'none';
    e.owner.splice(e.i, 1);
    return 'delete';
  }
  if (op < 74) {                           // duplicate a field (an extra node, dim, input, ...)
    const e = any();
    if (!e) return 'none';
    const copy = cloneFields([e.f])[0];
    e.owner.splice(rng.int(e.owner.length + 1), 0, copy);
    return 'duplicate';
  }
  if (op < 79) {                           // swap two fields of one message
    const m = rng.pick(messages);
    if (m.length < 2) return 'none';
    const i = rng.int(m.length), j = rng.int(m.length);
    [m[i], m[j]] = [m[j], m[i]];
    return 'reorder';
  }
  if (op < 85) {                           // a field number changed (field lands elsewhere)
    const e = any();
    if (!e) return 'none';
    e.f.num = rng.chance(0.5) ? Math.max(1, e.f.num + rng.int(5) - 2) : 1 + rng.int(24);
    return 'renumber';
  }
  if (op < 88) {                           // fixed32/64 values
    const list = ofType((f) => f.wt === 1 || f.wt === 5);
    if (!list.length) return 'none';
    const e = rng.pick(list);
    e.f.v = setWord(e.f.v, rng);
    return 'fixed';
  }
  if (op < 96 && donor) {                  // graft a submessage of another model
    const d = walk(donor).entries.filter((e) => e.f.msg);
    if (!d.length) return 'none';
    const g = cloneFields([rng.pick(d).f])[0];
    const m = rng.pick(messages);
    if (rng.chance(0.5)) {
      const same = m.findIndex((f) => f.num === g.num);
      if (same >= 0) { m[same] = g; return 'graft-replace'; }
    }
    m.splice(rng.int(m.length + 1), 0, g);
    return 'graft';
  }
  // copy a field of this model into another message of this model
  const e = any();
  if (!e) return 'none';
  rng.pick(messages).splice(0, 0, cloneFields([e.f])[0]);
  return 'copy';
}

function byteMutation(bytes, rng, donorBytes) {
  const b = Array.from(bytes);
  const at = () => rng.int(b.length + 1);
  switch (rng.int(7)) {
    case 0: for (let k = rng.geometric(8); k > 0 && b.length; --k) b[rng.int(b.length)] ^= 1 << rng.int(8); return ['bitflip', b];
    case 1: for (let k = rng.geometric(4); k > 0 && b.length; --k) b[rng.int(b.length)] = rng.pick([0, 1, 0x7f, 0x80, 0xff, 0x08, 0x10, 0x12, 0x1a, 0x22, 0x3a]); return ['byte', b];
    case 2: { const p = at(); b.splice(p, 0, ...rng.bytes(1 + rng.int(8))); return ['insert', b]; }
    case 3: { const p = at(); b.splice(p, 1 + rng.int(16)); return ['erase', b]; }
    case 4: { const p = rng.int(b.length), n = 1 + rng.int(32); b.splice(at(), 0, ...b.slice(p, p + n)); return ['repeat', b]; }
    case 5: if (donorBytes) { const cut = at(), from = rng.int(donorBytes.length); return ['splice', b.slice(0, cut).concat(Array.from(donorBytes.subarray(from)))]; } // falls through
    default: return ['truncate', b.slice(0, rng.int(b.length))];
  }
}

// The bytes of case `index` of `seed`: a corpus model (round-robin, so that a pass covers every
// one), mutated; or truncated; or random bytes. Returns { bytes, entry, recipe }.
export function mutateCase(corpus, seed, index) {
  const rng = makeRng(seed, index);
  const entry = corpus[index % corpus.length];
  const donorEntry = corpus[rng.int(corpus.length)];
  const kind = rng.int(100);
  if (kind < 4) {
    const n = rng.int(600);
    return { bytes: rng.bytes(n), entry: null, recipe: `random ${n} bytes` };
  }
  if (kind < 14) {
    const n = rng.int(entry.bytes.length);
    return { bytes: entry.bytes.slice(0, n), entry, recipe: `${entry.name} truncated to ${n} of ${entry.bytes.length}` };
  }
  if (kind < 26) {
    let b = entry.bytes;
    const steps = [];
    for (let k = rng.geometric(4); k > 0; --k) {
      const [what, out] = byteMutation(b, rng, donorEntry.bytes);
      steps.push(what);
      b = Uint8Array.from(out);
    }
    return { bytes: b, entry, recipe: `${entry.name} bytes: ${steps.join(', ')}` };
  }
  const tree = cloneFields(entry.tree ??= parseWire(entry.bytes));
  const donor = donorEntry.tree ??= parseWire(donorEntry.bytes);
  const steps = [];
  for (let k = rng.geometric(6); k > 0; --k) steps.push(mutateTree(tree, rng, donor));
  return { bytes: serializeWire(tree), entry, recipe: `${entry.name} tree: ${steps.join(', ')}` };
}

// ---------------------------------------------------------------------------------------------
// Corpus.

const i64bytes = (vals) => ({ bytes: new Uint8Array(BigInt64Array.from(vals.map(BigInt)).buffer) });
const f32bytes = (vals) => ({ bytes: new Uint8Array(Float32Array.from(vals).buffer) });
const pnode = (opType, input, output, attrs = {}, name = `${opType}_${output[0]}`) => create(NodeProtoSchema, {
  opType, input, output, name, attribute: Object.entries(attrs).map(([k, v]) => (v && v.$typeName ? v : attribute(k, v))),
});
function modelOf({ nodes, inputs = [], outputs, initializers = [], opset = 13 }) {
  return toBinary(ModelProtoSchema, create(ModelProtoSchema, {
    irVersion: 8n,
    opsetImport: [create(OperatorSetIdProtoSchema, { domain: '', version: BigInt(opset) })],
    graph: create(GraphProtoSchema, { name: 'g', node: nodes, input: inputs, output: outputs, initializer: initializers }),
  }));
}

// Hand-made graphs that reach what the single-node conformance models do not: several nodes,
// Constants of every form, overridable initializers, outputs that are inputs or initializers,
// and external data.
export function handMadeModels() {
  const out = (name, type = 'float32') => valueInfo(name, type, null);
  const constTensor = (t) => create(AttributeProtoSchema, { name: 'value', type: 4, t });
  const models = [
    ['chain', modelOf({
      nodes: [
        pnode('Flatten', ['r'], ['flat'], { axis: 0 }),
        pnode('Reshape', ['g', 'shape'], ['r']),
        pnode('Constant', [], ['shape'], { value: constTensor(rawTensor('', 'int64', [2], i64bytes([0, -1]))) }),
        pnode('Gather', ['data', 'idx'], ['g'], { axis: 1 }),
      ],
      inputs: [valueInfo('data', 'float32', ['batch', 'seq', 4])],
      initializers: [rawTensor('idx', 'int64', [2], i64bytes([-1, 0]))],
      outputs: [out('r'), out('flat')],
    })],
    ['constants', modelOf({
      nodes: [
        pnode('Constant', [], ['cf'], { value_floats: create(AttributeProtoSchema, { name: 'value_floats', type: 6, floats: [1, 2, 3, 4] }) }),
        pnode('Constant', [], ['ci'], { value_ints: [2, 2] }),
        pnode('Constant', [], ['cs'], { value_strings: create(AttributeProtoSchema, { name: 'value_strings', type: 8, strings: ['a', 'bc', 'd'].map((s) => new TextEncoder().encode(s)) }) }),
        pnode('Constant', [], ['k'], { value_int: 1 }),
        pnode('Reshape', ['cf', 'ci'], ['square']),
        pnode('Gather', ['cs', 'k'], ['picked']),
        pnode('Gather', ['square', 'k'], ['row'], { axis: 1 }),
      ],
      outputs: [out('square'), out('picked', 'string'), out('row')],
    })],
    ['overridable', modelOf({
      nodes: [pnode('Gather', ['data', 'idx'], ['y']), pnode('Flatten', ['y'], ['z'], { axis: 1 })],
      inputs: [valueInfo('data', 'int32', ['n', 2]), valueInfo('idx', 'int64', [2])],
      initializers: [rawTensor('idx', 'int64', [2], i64bytes([1, 0]))],
      outputs: [out('z', 'int32'), valueInfo('data', 'int32', ['n', 2]), out('idx', 'int64')],
    })],
    ['reshape-1', modelOf({
      nodes: [pnode('Reshape', ['x'], ['y'], { shape: [3, -1] }), pnode('Flatten', ['y'], ['z'], { axis: 2 })],
      inputs: [valueInfo('x', 'float64', [2, 3])], outputs: [out('y', 'float64'), out('z', 'float64')], opset: 4,
    })],
    ['external', modelOf({
      nodes: [pnode('Gather', ['w', 'i'], ['y'])], inputs: [valueInfo('i', 'int64', [1])],
      initializers: [create(TensorProtoSchema, {
        name: 'w', dataType: 1, dims: [2n, 2n], dataLocation: 1,
        externalData: [['location', 'w.bin'], ['offset', '8'], ['length', '16']].map(([key, value]) => create(StringStringEntryProtoSchema, { key, value })),
      })],
      outputs: [out('y')],
    }), { 'w.bin': new Uint8Array(new Float32Array([0, 0, 1.5, 2.5, 3.5, 4.5]).buffer) }],
    ['reshape-allowzero', modelOf({
      nodes: [pnode('Reshape', ['x', 's'], ['y'], { allowzero: 1 }), pnode('Gather', ['y', 'i'], ['z'], { axis: 1 })],
      inputs: [valueInfo('x', 'uint8', [0, 3])],
      initializers: [rawTensor('s', 'int64', [3], i64bytes([3, 0, 1])), rawTensor('i', 'int32', [1], { bytes: new Uint8Array(4) }), rawTensor('unused', 'float32', [2], f32bytes([1, 2]))],
      outputs: [out('y', 'uint8'), out('z', 'uint8')], opset: 21,
    })],
  ];
  return models.map(([name, bytes, externalData]) => ({ name: `hand/${name}`, bytes, inputs: [], externalData }));
}

// Test inputs as plain { name, type, dims, data } (copied out of wasm memory).
async function readInputs(dir) {
  const set = join(dir, 'test_data_set_0');
  if (!existsSync(set)) return [];
  const files = readdirSync(set).filter((f) => /^input_\d+\.pb$/.test(f)).sort((a, b) => parseInt(a.slice(6), 10) - parseInt(b.slice(6), 10));
  const out = [];
  for (const f of files) {
    const { name, tensor } = await tensorFromProtoBytes(readFileSync(join(set, f)));
    out.push({ name, type: tensor.type, dims: Array.from(tensor.dims), data: tensor.type === 'string' ? Array.from(tensor.data) : tensor.data.slice() });
    tensor.dispose();
  }
  return out;
}

// Every model of the conformance suites, the generated models (all of them, or every `genStride`-th)
// and the hand-made ones, sorted by name: [{ name, bytes, inputs, externalData? }]. Needs init().
export async function loadCorpus({ generated = true, genStride = 1, genDir = null } = {}) {
  const corpus = [];
  for (const [suite, root] of Object.entries(suiteRoots())) {
    if (!root) continue;
    for (const d of listTestDirs(root))
      corpus.push({ name: `${suite.split(' ')[0]}/${d.group}/${d.name}`, bytes: new Uint8Array(readFileSync(join(d.dir, 'model.onnx'))), inputs: await readInputs(d.dir) });
  }
  if (generated) {
    const root = genDir ?? mkdtempSync(join(tmpdir(), 'onnx-wasm-fuzz-corpus-'));
    try {
      if (!existsSync(join(root, '.done'))) { generateModels(root); writeFileSync(join(root, '.done'), ''); }
      const models = readdirSync(root).filter((n) => n.startsWith('test_')).sort().map((name) => ({ name, dir: join(root, name) }));
      for (let k = 0; k < models.length; k += genStride)
        corpus.push({ name: `gen/${models[k].name}`, bytes: new Uint8Array(readFileSync(join(models[k].dir, 'model.onnx'))), inputs: await readInputs(models[k].dir) });
    } finally {
      if (!genDir) rmSync(root, { recursive: true, force: true });
    }
  }
  corpus.push(...handMadeModels());
  corpus.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return corpus;
}

// ---------------------------------------------------------------------------------------------
// Running one model.

const sanityData = () => new Tensor('int32', [10, 20, 30, 40], [2, 2]);

// The module still runs a plain Gather correctly (an error here means a case broke it).
export function moduleWorks() {
  const d = sanityData(), i = new Tensor('int64', [1n, -2n], [2]);
  try {
    const [g] = runNode({ opType: 'Gather', attributes: { axis: 1 } }, [d, i]);
    const ok = g.dims.join() === '2,2' && Array.from(g.data).join() === '20,10,40,30';
    g.dispose();
    return ok;
  } finally {
    d.dispose();
    i.dispose();
  }
}

const MAX_FEED_ELEMENTS = 1 << 20;

// A Tensor for a graph input: the corpus' test input when it fits, else values made up from the
// declared shape (symbols and unknown dims 0..3; small integers, so Gather indices are often in
// range). Returns null when the declared shape is too large to feed.
// A feed as an own property whatever its name: plain assignment of one named '__proto__' would set
// the feeds object's prototype (a Tensor, whose getter-only 'data' then broke a feed named 'data').
function setFeed(feeds, name, value) {
  Object.defineProperty(feeds, name, { value, enumerable: true, writable: true, configurable: true });
}

function makeFeed(meta, known, rng, exact = false) {
  if (known && known.type === meta.type && (exact || rng.chance(0.85))) return new Tensor(known.type, known.data, known.dims);
  let type = meta.type;
  if (!exact && rng.chance(0.04)) type = rng.pick(['float32', 'int64', 'int32', 'string', 'bool', 'uint8']);   // a wrong type now and then
  let dims = meta.shape ? meta.shape.map((d) => (typeof d === 'number' ? d : exact ? 2 : rng.int(4))) : Array.from({ length: rng.int(4) }, () => 1 + rng.int(3));
  if (!exact && rng.chance(0.04)) dims = dims.concat([1]);                                             // and a wrong rank
  const size = dims.reduce((a, b) => a * b, 1);
  if (size > MAX_FEED_ELEMENTS) return null;
  const t = Tensor.alloc(type, dims);
  const d = t.data;
  if (type === 'string') for (let k = 0; k < size; ++k) d[k] = `s${k}`;
  else if (d instanceof BigInt64Array || d instanceof BigUint64Array) for (let k = 0; k < d.length; ++k) d[k] = BigInt(rng.int(8) - 3);
  else if (d instanceof Int32Array || d instanceof Int16Array || d instanceof Int8Array) for (let k = 0; k < d.length; ++k) d[k] = rng.int(8) - 3;
  else if (type === 'bool') for (let k = 0; k < d.length; ++k) d[k] = rng.int(2);
  // Floats: small halves mostly, so that ops that read values (Range's start, limit and delta)
  // make outputs of sane size: from random bits they asked for 3 GB now and then, which a run makes
  // as asked, too slowly for the harness's 30 s (docs/testing.md). Random bits the rest of the time.
  else if ((d instanceof Float32Array || d instanceof Float64Array) && rng.chance(0.75)) for (let k = 0; k < d.length; ++k) d[k] = (rng.int(16) - 7) / 2;
  else new Uint8Array(d.buffer, d.byteOffset, d.byteLength).set(rng.bytes(d.byteLength));
  return t;
}

function snapshot(t) {
  if (t.type === 'string') return JSON.stringify(Array.from(t.data));
  const d = t.data;
  return Buffer.from(new Uint8Array(d.buffer, d.byteOffset, d.byteLength)).toString('base64');
}

// Reads an output completely and checks it against its type and dims (and, when given, the shape
// inferred at load). Returns a problem string or null.
function checkOutput(name, t, inferred) {
  if (!(t instanceof Tensor)) return `output '${name}' is not a Tensor`;
  const size = t.dims.reduce((a, b) => a * b, 1);
  if (!t.dims.every((d) => Number.isSafeInteger(d) && d >= 0)) return `output '${name}' has dims [${t.dims}]`;
  const d = t.data;
  if (t.type === 'string') {
    if (d.length !== size) return `output '${name}' has ${d.length} strings for dims [${t.dims}]`;
    for (let k = 0; k < d.length; ++k) if (typeof d[k] !== 'string') return `output '${name}' string ${k} is ${typeof d[k]}`;
  } else {
    const want = storageLength(typeByName(t.type), size);
    if (d.length !== want) return `output '${name}' (${t.type} [${t.dims}]) has ${d.length} entries, expected ${want}`;
    const bytes = new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
    let sum = 0;
    for (let k = 0; k < bytes.length; k += 1 + (bytes.length >> 12)) sum += bytes[k];
    if (!Number.isFinite(sum)) return `output '${name}' unreadable`;
  }
  if (inferred) {
    if (inferred.type !== t.type) return `output '${name}' is ${t.type} but was inferred ${inferred.type}`;
    if (inferred.dims) {
      if (inferred.dims.length !== t.dims.length) return `output '${name}' has dims [${t.dims}] but was inferred rank ${inferred.dims.length} [${inferred.dims}]`;
      for (let k = 0; k < t.dims.length; ++k)
        if (typeof inferred.dims[k] === 'number' && inferred.dims[k] !== t.dims[k]) return `output '${name}' has dims [${t.dims}] but was inferred [${inferred.dims}]`;
    }
  }
  return null;
}

const errorClass = (e) => (e instanceof OnnxWasmError ? e.name : null);
const describeError = (e) => (e && typeof e === 'object' ? `${e.constructor?.name ?? 'Error'}: ${e.message}\n${e.stack ?? ''}` : `thrown ${typeof e}: ${String(e)}`);

// The PRNG that makes the feeds of case `index` of `seed`.
export const feedRng = (seed, index) => makeRng((seed ^ 0x5bd1e995) >>> 0, index);

// Allocations made once and kept, which must not be taken for leaks: the first shape inference
// builds the op registry's tables (about 2 KB); in the threads build the first gather split over
// threads starts the pool's threads, whose stacks stay in the heap (about 2 MB). Both happen here,
// before any heap is measured: a few corpus models, and one gather large enough to be split.
export async function warmUp(corpus) {
  await threadsReady();
  const data = Tensor.alloc('float32', [1 << 17]), indices = Tensor.alloc('int32', [1 << 17]);
  runNode({ opType: 'Gather' }, [data, indices])[0].dispose();
  data.dispose();
  indices.dispose();
  for (const e of corpus.slice(0, 3)) for (let k = 0; k < 2; ++k) await runModelCase(e.bytes, { inputs: e.inputs, externalData: e.externalData });
}

// One model: create, then (when it loads) up to a few runs with made-up or test feeds, release.
// Returns { created: class name | 'ok', runs: [class name | 'ok'], findings: [{ kind, detail }] }.
export async function runModelCase(bytes, { inputs = [], externalData, rng = makeRng(0, 0), verbose = false } = {}) {
  const log = verbose ? (...a) => console.log(...a) : () => {};
  const findings = [];
  const result = { created: null, runs: [], findings };
  const heapBefore = memoryStats().heapUsed;
  let session = null;
  try {
    session = await InferenceSession.create(bytes, externalData ? { externalData } : {});
    result.created = 'ok';
  } catch (e) {
    result.created = errorClass(e);
    log(`create: ${e?.name}: ${e?.message}`);
    if (!result.created) findings.push({ kind: 'exception', detail: `InferenceSession.create threw ${describeError(e)}` });
  }
  if (session) {
    const runs = rng.chance(0.3) ? 2 : 1;
    for (let r = 0; r < runs; ++r) {
      const feeds = {};
      const owned = [];
      let skip = false;
      try {
        session.inputMetadata.forEach((meta, k) => {
          const known = inputs.find((x) => x.name === meta.name) ?? (inputs[k] && !inputs[k].name ? inputs[k] : null);
          if (rng.chance(0.02)) return;                      // a missing feed now and then
          const t = makeFeed(meta, known, rng);
          if (!t) { skip = true; return; }
          owned.push(t);
          setFeed(feeds, meta.name, rng.chance(0.05) ? { type: t.type, data: t.type === 'string' ? Array.from(t.data) : t.data, dims: t.dims } : t);
        });
      } catch (e) {
        // Feeds that cannot be allocated (a declared shape too large) are the harness' business.
        if (!errorClass(e)) findings.push({ kind: 'exception', detail: `making feeds threw ${describeError(e)}` });
        skip = true;
      }
      if (skip) { owned.forEach((t) => t.dispose()); result.runs.push('skipped'); continue; }
      const before = owned.map(snapshot);
      log(`run ${r}: feeds ${Object.entries(feeds).map(([k, t]) => `${k} ${t.type} [${t.dims}]`).join(', ')}`);
      let fetches;
      if (rng.chance(0.15)) {
        const names = session.nodes.flatMap((n) => n.outputs).concat(session.inputNames, session.outputNames, ['nowhere']);
        fetches = names.filter(() => rng.chance(0.5));
      }
      let outputs = null;
      try {
        outputs = await session.run(feeds, fetches);
        result.runs.push('ok');
        log(`run ${r}: ok: ${Object.entries(outputs).map(([k, t]) => `${k} ${t.type} [${t.dims}]`).join(', ')}`);
      } catch (e) {
        const c = errorClass(e);
        log(`run ${r}: ${e?.name}: ${e?.message}`);
        result.runs.push(c ?? 'exception');
        if (!c) findings.push({ kind: 'exception', detail: `session.run threw ${describeError(e)}` });
      }
      if (outputs) {
        for (const [name, t] of Object.entries(outputs)) {
          try {
            const inferred = session.valueInfo(name);
            const problem = checkOutput(name, t, inferred);
            if (problem) findings.push({ kind: 'bad-output', detail: problem });
          } catch (e) {
            findings.push({ kind: 'bad-output', detail: `reading output '${name}' threw ${describeError(e)}` });
          }
        }
        for (const t of Object.values(outputs)) if (t instanceof Tensor) t.dispose();
      }
      owned.forEach((t, k) => {
        try {
          if (snapshot(t) !== before[k]) findings.push({ kind: 'input-changed', detail: `feed ${k} (${t.type} [${t.dims}]) changed during run` });
        } catch (e) {
          findings.push({ kind: 'input-changed', detail: `feed ${k} unreadable after run: ${describeError(e)}` });
        }
        t.dispose();
      });
    }
    try {
      await session.release();
    } catch (e) {
      findings.push({ kind: 'exception', detail: `release threw ${describeError(e)}` });
    }
  }
  const heapAfter = memoryStats().heapUsed;
  if (heapAfter !== heapBefore) findings.push({ kind: 'leak', detail: `wasm heap in use ${heapBefore} -> ${heapAfter} bytes after create/run/release` });
  let works = false;
  try { works = moduleWorks(); } catch (e) { findings.push({ kind: 'module-broken', detail: describeError(e) }); }
  if (!works && !findings.some((f) => f.kind === 'module-broken')) findings.push({ kind: 'module-broken', detail: 'a plain Gather gave a wrong result after this case' });
  return result;
}

// Tallies of outcomes: { cases, loaded, refused: { Class: n }, runs, ranOk, runRefused: { Class: n }, skipped, findings: { kind: n } }.
export function newTally() {
  return { cases: 0, loaded: 0, refused: {}, runs: 0, ranOk: 0, runRefused: {}, skippedRuns: 0, findings: {} };
}

export function addToTally(t, r) {
  t.cases++;
  if (r.created === 'ok') t.loaded++;
  else if (r.created) t.refused[r.created] = (t.refused[r.created] ?? 0) + 1;
  for (const x of r.runs) {
    if (x === 'skipped') { t.skippedRuns++; continue; }
    t.runs++;
    if (x === 'ok') t.ranOk++;
    else t.runRefused[x] = (t.runRefused[x] ?? 0) + 1;
  }
  for (const f of r.findings) t.findings[f.kind] = (t.findings[f.kind] ?? 0) + 1;
}

export function mergeTally(into, t) {
  for (const k of ['cases', 'loaded', 'runs', 'ranOk', 'skippedRuns']) into[k] += t[k];
  for (const k of ['refused', 'runRefused', 'findings']) for (const [c, n] of Object.entries(t[k])) into[k][c] = (into[k][c] ?? 0) + n;
}

// A saved finding (tests/fuzz-regressions/models/NAME.onnx with NAME.json) replayed as its .json
// says: { create: 'ok' | ErrorClass, message?: substring, runs?: [{ feeds?: { name: { type, dims,
// data } }, fetches?: [names], expect: 'ok' | ErrorClass, outputs?: [names] }] }. Feeds not given
// are made from the declared shapes (symbols = 2, small values). Checks the outcome, the outputs,
// unchanged feeds and a wasm heap back where it was after release. Returns a list of problems.
export async function replayRegression(bytes, spec) {
  const problems = [];
  const heapBefore = memoryStats().heapUsed;
  let session = null;
  try {
    session = await InferenceSession.create(bytes);
    if (spec.create !== 'ok') problems.push(`create succeeded, expected ${spec.create}`);
  } catch (e) {
    const c = errorClass(e);
    if (!c) problems.push(`create threw ${describeError(e)}`);
    else if (c !== spec.create) problems.push(`create threw ${c}: ${e.message}; expected ${spec.create}`);
    else if (spec.message && !e.message.includes(spec.message)) problems.push(`create message "${e.message}" lacks "${spec.message}"`);
  }
  if (session) {
    for (const [k, run] of (spec.runs ?? []).entries()) {
      const rng = makeRng(0, k);
      const owned = [], feeds = {};
      for (const meta of session.inputMetadata) if (!run.feeds?.[meta.name]) setFeed(feeds, meta.name, owned[owned.push(makeFeed(meta, null, rng, true)) - 1]);
      for (const [name, f] of Object.entries(run.feeds ?? {})) setFeed(feeds, name, owned[owned.push(new Tensor(f.type, f.type === 'int64' ? f.data.map(BigInt) : f.data, f.dims)) - 1]);
      const before = owned.map(snapshot);
      let outputs = null;
      try {
        outputs = await session.run(feeds, run.fetches);
        if (run.expect !== 'ok') problems.push(`run ${k} succeeded, expected ${run.expect}`);
      } catch (e) {
        const c = errorClass(e);
        if (!c) problems.push(`run ${k} threw ${describeError(e)}`);
        else if (c !== run.expect) problems.push(`run ${k} threw ${c}: ${e.message}; expected ${run.expect}`);
      }
      if (outputs) {
        if (run.outputs && JSON.stringify(Object.keys(outputs)) !== JSON.stringify(run.outputs))
          problems.push(`run ${k} returned [${Object.keys(outputs)}], expected [${run.outputs}]`);
        for (const [name, t] of Object.entries(outputs)) {
          const p = checkOutput(name, t, session.valueInfo(name));
          if (p) problems.push(`run ${k}: ${p}`);
          t.dispose();
        }
      }
      owned.forEach((t, i) => { if (snapshot(t) !== before[i]) problems.push(`run ${k} changed feed ${i}`); t.dispose(); });
    }
    await session.release();
  }
  const heapAfter = memoryStats().heapUsed;
  if (heapAfter !== heapBefore) problems.push(`wasm heap in use ${heapBefore} -> ${heapAfter} bytes`);
  if (!moduleWorks()) problems.push('a plain Gather gave a wrong result afterwards');
  return problems;
}
