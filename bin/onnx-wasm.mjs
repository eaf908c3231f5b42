#!/usr/bin/env node
// onnx-wasm command line: `inspect` a model (IR version, opsets, inputs and outputs with inferred
// shapes, nodes) or `run` it with inputs from .npy files, from a test_data_set folder, or
// generated from the declared shapes.
// @ts-check
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { init, InferenceSession, OnnxWasmError, Tensor, runtime } from '../js/index.mjs';
import { generateFeeds } from '../js/generate-feeds.mjs';
import { tensorFromProtoBytes } from '../js/model/tensor-proto.mjs';
import { arrayClass, storageLength, typeByName } from '../js/types.mjs';
import { parseNpy } from './npy.mjs';

// The CLI is a user of the package: it reads sessions and tensors through the public declarations
// (js/index.d.ts). js/tensor.mjs's Tensor is one as declared; the session is cast where it comes
// in, as js/model/session.mjs's class differs from its declaration: irVersion, opsetImports and
// nodes are set in #load (so possibly undefined to tsc), and a node's attributes may hold a bigint
// (an int64 beyond 2^53), which SessionNode does not declare.
/** @typedef {import('../js/index.js').InferenceSession} Session */
/** @typedef {import('../js/index.js').Tensor} PublicTensor */

const USAGE = `usage:
  onnx-wasm inspect <model.onnx>
  onnx-wasm run <model.onnx> [--input name=file.npy ...] [--data test_data_set_0/]
                [--dim symbol=N ...] [--repeat N] [--threads=false]
  Inputs not given are generated from their declared shapes; symbolic dimensions are 2 unless
  set with --dim (unknown ones are 1). Gather indices are generated within range, Reshape shapes
  as [1, ..., 1, -1].`;

/** @param {readonly (number | string | null)[] | null} dims */
const shapeText = (dims) => (dims ? `[${dims.map((d) => (d === null ? '?' : d)).join(', ')}]` : '[unknown rank]');

/**
 * @param {PublicTensor} t
 * @param {number} [n] how many entries to show
 */
function preview(t, n = 8) {
  const d = t.data;
  const vals = Array.from({ length: Math.min(n, d.length) }, (_, i) => {
    const v = d[i];
    return typeof v === 'string' ? JSON.stringify(v) : typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(6)) : String(v);
  });
  return `[${vals.join(', ')}${d.length > n ? `, ... (${d.length} ${t.type === 'string' ? 'strings' : 'entries'})` : ''}]`;
}

/**
 * @param {Session} session
 * @param {string} path
 */
function inspect(session, path) {
  console.log(`model: ${path}`);
  console.log(`ir_version: ${session.irVersion}`);
  console.log(`opset imports: ${session.opsetImports.map((o) => `${o.domain || 'ai.onnx'} ${o.version}`).join(', ')}`);
  console.log('inputs:');
  for (const i of session.inputMetadata) console.log(`  ${i.name}: ${i.type} ${shapeText(i.shape)}`);
  console.log('outputs (inferred):');
  for (const o of session.outputMetadata) console.log(`  ${o.name}: ${o.type} ${shapeText(o.shape)}`);
  console.log(`nodes (${session.nodes.length}, in run order):`);
  session.nodes.forEach((n, k) => {
    const attrs = Object.keys(n.attributes).length ? ` ${JSON.stringify(n.attributes)}` : '';
    // (every value of the graph has its info: valueInfo is undefined only for an unknown name)
    const outs = n.outputs.map((o) => { const v = /** @type {import('../js/index.js').SessionValueInfo} */ (session.valueInfo(o)); return `${o}: ${v.type} ${shapeText(v.dims)}`; }).join(', ');
    console.log(`  ${k} ${n.opType}${n.name ? ` '${n.name}'` : ''}(${n.inputs.join(', ')})${attrs} -> ${outs}`);
  });
}

// Values for inputs that are not Gather indices or Reshape shapes: raw storage values; strings are
// numbers in decimal, which a Cast from string parses.
/**
 * @param {string} type
 * @param {number} size
 * @returns {string[] | Exclude<import('../js/index.js').TensorData, string[]>}
 */
function patterned(type, size) {
  if (type === 'string') return Array.from({ length: size }, (_, i) => String((i % 17) - 8 + 0.25));
  const t = typeByName(type);
  const d = new (arrayClass(t))(storageLength(t, size));
  for (let i = 0; i < d.length; ++i) {
    if (d instanceof Float32Array || d instanceof Float64Array) d[i] = (i % 17) - 8 + 0.25;
    else if (typeof d[0] === 'bigint') d[i] = BigInt(i % 100);
    else if (type === 'bool') d[i] = i % 2;
    else d[i] = (i * 13 + 1) % (d.BYTES_PER_ELEMENT === 1 ? 128 : 1000);
  }
  return d;
}

/**
 * @param {string} dir
 * @param {Session} session
 * @returns {Promise<Record<string, PublicTensor>>}
 */
async function readDataSet(dir, session) {
  /** @type {Record<string, PublicTensor>} */
  const feeds = {};
  const files = readdirSync(dir).filter((f) => /^input_\d+\.pb$/.test(f)).sort((a, b) => parseInt(a.slice(6), 10) - parseInt(b.slice(6), 10));
  for (const [k, f] of files.entries()) {
    const { name, tensor } = await tensorFromProtoBytes(readFileSync(join(dir, f)));
    feeds[name || session.inputNames[k]] = tensor;
  }
  return feeds;
}

/**
 * @param {Session} session
 * @param {{ input?: string[], dim?: string[], data?: string, repeat?: string }} values the options parsed
 */
async function run(session, values) {
  /** @type {Record<string, number>} */
  const symbols = {};
  for (const s of values.dim ?? []) {
    const m = /^([^=]+)=(\d+)$/.exec(s);
    if (!m) throw new Error(`--dim takes symbol=N, got '${s}'`);
    symbols[m[1]] = Number(m[2]);
  }
  const feeds = values.data ? await readDataSet(values.data, session) : {};
  for (const s of values.input ?? []) {
    const m = /^([^=]+)=(.+)$/.exec(s);
    if (!m) throw new Error(`--input takes name=file.npy, got '${s}'`);
    const { type, data, dims } = parseNpy(readFileSync(m[2]), m[2]);
    feeds[m[1]] = new Tensor(type, data, dims);
  }
  const generated = generateFeeds(session, session.inputMetadata.filter((i) => !(i.name in feeds)), symbols, patterned);
  Object.assign(feeds, generated);
  for (const [name, t] of Object.entries(feeds)) console.log(`input ${name}: ${t.type} ${shapeText(t.dims)}${name in generated ? ' (generated)' : ''} ${preview(t)}`);

  const repeat = Math.max(1, Number(values.repeat ?? 1));
  const times = [];
  /** @type {Record<string, PublicTensor> | undefined} */
  let outputs;
  for (let r = 0; r < repeat; ++r) {
    if (outputs) for (const t of Object.values(outputs)) t.dispose();
    const t0 = performance.now();
    outputs = await session.run(feeds);
    times.push(performance.now() - t0);
  }
  // (repeat >= 1: the loop ran, and outputs is set)
  for (const [name, t] of Object.entries(/** @type {Record<string, PublicTensor>} */ (outputs))) console.log(`output ${name}: ${t.type} ${shapeText(t.dims)} ${preview(t)}`);
  const sorted = [...times].sort((a, b) => a - b);
  const us = (/** @type {number} */ ms) => `${(ms * 1000).toFixed(1)} µs`;
  console.log(`run time: first ${us(times[0])}${repeat > 1 ? `, median of ${repeat} ${us(sorted[Math.floor(repeat / 2)])}` : ''} (${/** @type {import('../js/index.js').RuntimeInfo} */ (runtime()).module})`);   // (not null: init() has resolved)
  for (const t of [...Object.values(/** @type {Record<string, PublicTensor>} */ (outputs)), ...Object.values(feeds)]) t.dispose();
}

/**
 * @param {string[]} argv
 * @returns {Promise<number>} the exit code
 */
async function main(argv) {
  const [command, path, ...rest] = argv;
  if (!command || command === '--help' || command === '-h' || command === 'help') { console.log(USAGE); return 0; }
  if (!['inspect', 'run'].includes(command) || !path) { console.error(USAGE); return 2; }
  const { values } = parseArgs({
    args: rest, strict: true,
    options: {
      input: { type: 'string', multiple: true }, dim: { type: 'string', multiple: true }, data: { type: 'string' },
      repeat: { type: 'string' }, threads: { type: 'string' },
    },
  });
  await init({ threads: values.threads !== 'false' });
  const session = /** @type {Session} */ (await InferenceSession.create(path));
  try {
    if (command === 'inspect') inspect(session, path);
    else await run(session, values);
  } finally {
    await session.release();
  }
  return 0;
}

// (e: an OnnxWasmError, parseArgs's error with its code, or any other Error)
main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (/** @type {{ name: string, message: string, code: string | undefined }} */ e) => {
  const tag = e instanceof OnnxWasmError ? `${e.name} (${e.code})` : e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' ? 'usage' : 'error';
  console.error(`onnx-wasm: ${tag}: ${e.message}`);
  process.exitCode = e.code?.startsWith?.('ERR_PARSE_ARGS') ? 2 : 1;
});
