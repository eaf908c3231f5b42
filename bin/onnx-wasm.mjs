#!/usr/bin/env node
// onnx-wasm command line: `inspect` a model (IR version, opsets, inputs and outputs with inferred
// shapes, initializers and where their bytes are, nodes; bin/inspect.mjs: nothing is run and no
// table is read) or `run` it with inputs from .npy files, from a test_data_set folder (whose
// output_K.pb files the outputs are compared with), or generated from the declared shapes, and
// write its outputs as .npy files. Every flag's value is checked before anything runs; every
// error is printed as `onnx-wasm: error: ...` (a usage error followed by the usage line, exit 2;
// any other failure exit 1).
// @ts-check
import { mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { init, InferenceSession, OnnxWasmError, Tensor, runtime } from '../js/index.mjs';
import { generateFeeds } from '../js/generate-feeds.mjs';
import { tensorFromProtoBytes } from '../js/model/tensor-proto.mjs';
import { arrayClass, storageLength, typeByName } from '../js/types.mjs';
import { compareTensors, preview } from './compare.mjs';
import { inspectModel, shapeText } from './inspect.mjs';
import { npyOf, parseNpy } from './npy.mjs';

// The CLI is a user of the package: it reads sessions and tensors through the public declarations
// (js/index.d.ts). js/tensor.mjs's Tensor is one as declared; the session is cast where it comes
// in, as js/model/session.mjs's class differs from its declaration: irVersion, opsetImports and
// nodes are set in #load (so possibly undefined to tsc), and a node's attributes may hold a bigint
// (an int64 beyond 2^53), which SessionNode does not declare.
/** @typedef {import('../js/index.js').InferenceSession} Session */
/** @typedef {import('../js/index.js').Tensor} PublicTensor */

// Each command's options (`multiple`: may be given more than once) and usage line.
/** @typedef {'input' | 'data' | 'dim' | 'repeat' | 'output' | 'threads'} OptionName */
/** @type {Record<string, { options: Partial<Record<OptionName, { multiple: boolean }>>, usage: string }>} */
const COMMANDS = {
  inspect: { options: { threads: { multiple: false } }, usage: 'onnx-wasm inspect <model.onnx> [--threads=false]' },
  run: {
    options: { input: { multiple: true }, data: { multiple: false }, dim: { multiple: true }, repeat: { multiple: false }, output: { multiple: false }, threads: { multiple: false } },
    usage: `onnx-wasm run <model.onnx> [--input name=file.npy ...] [--data test_data_set_0/]
                [--dim symbol=N ...] [--repeat N] [--output dir/] [--threads=false]`,
  },
};

const USAGE = `usage:
  ${COMMANDS.inspect.usage}
  ${COMMANDS.run.usage}
  onnx-wasm --version
  Inputs not given are generated from their declared shapes; symbolic dimensions are 2 unless
  set with --dim (unknown ones are 1). Gather indices are generated within range, Reshape shapes
  as [1, ..., 1, -1]. --data compares the outputs with the folder's output_K.pb files; --output
  writes each output to dir/<name>.npy.`;

// A mistake in the command line: printed with the usage line of `command` (all of them when
// null), exit code 2.
class UsageError extends Error {
  /**
   * @param {string} message
   * @param {string | null} command
   */
  constructor(message, command) {
    super(message);
    this.command = command;
  }
}

// A failure that is neither the command line's nor the package's (a file that cannot be read, an
// output that differs from the expected one): exit code 1.
class CliError extends Error {}

// An fs error's message without the syscall and path Node appends (", open 'x.onnx'"), which the
// CLI's messages name already.
/** @param {unknown} e */
const fsReason = (e) => (e instanceof Error ? e.message.replace(/, \w+ '.*'$/s, '') : String(e));

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

// The test data of a folder: its input_K.pb and output_K.pb files in K order, each with the name
// it holds (or the model's K-th input or output name when it holds none), checked against the
// model's names.
/**
 * @param {string} dir
 * @param {Session} session
 * @returns {Promise<{ inputs: Record<string, PublicTensor>, outputs: { name: string, file: string, tensor: PublicTensor }[] }>}
 */
async function readDataSet(dir, session) {
  let files;
  try {
    files = readdirSync(dir);
  } catch (e) {
    throw new UsageError(`--data: cannot read the folder '${dir}': ${fsReason(e)}`, 'run');
  }
  /** @param {string} prefix */
  const numbered = (prefix) => files.map((f) => new RegExp(`^${prefix}(\\d+)\\.pb$`).exec(f)).filter((m) => m !== null)
    .map((m) => ({ file: m[0], k: Number(m[1]) })).sort((x, y) => x.k - y.k);
  const inputFiles = numbered('input_'), outputFiles = numbered('output_');
  if (!inputFiles.length && !outputFiles.length) throw new UsageError(`--data: '${dir}' holds no input_K.pb or output_K.pb files`, 'run');
  /** @type {PublicTensor[]} */
  const read = [];
  /**
   * @param {{ file: string, k: number }} f
   * @param {readonly string[]} names
   * @param {string} what 'input' or 'output'
   */
  const load = async ({ file, k }, names, what) => {
    let parsed;
    try {
      parsed = await tensorFromProtoBytes(readFileSync(join(dir, file)));
    } catch (e) {
      if (e instanceof OnnxWasmError) throw new CliError(`--data: ${join(dir, file)}: ${e.message}`);
      throw new CliError(`--data: cannot read '${join(dir, file)}': ${fsReason(e)}`);
    }
    read.push(parsed.tensor);
    const name = parsed.name || names[k];
    if (name === undefined) throw new UsageError(`--data: ${file} names no ${what}, and the model has ${names.length} ${what}s`, 'run');
    if (!names.includes(name)) throw new UsageError(`--data: ${file} holds '${name}', which is not an ${what} of the model; its ${what}s: ${names.join(', ')}`, 'run');
    return { name, file, tensor: parsed.tensor };
  };
  try {
    /** @type {Record<string, PublicTensor>} */
    const inputs = {};
    for (const f of inputFiles) {
      const { name, tensor } = await load(f, session.inputNames, 'input');
      inputs[name] = tensor;
    }
    const outputs = [];
    for (const f of outputFiles) outputs.push(await load(f, session.outputNames, 'output'));
    return { inputs, outputs };
  } catch (e) {
    for (const t of read) t.dispose();
    throw e;
  }
}

// The command line's options, parsed and checked for `command`: each value as given (an array
// for a multiple one), and the positional arguments. No value is interpreted here but --help.
/**
 * @param {string} command
 * @param {readonly string[]} args
 * @returns {{ values: Partial<Record<OptionName, string[]>>, positionals: string[], help: boolean }}
 */
function parseCommandLine(command, args) {
  const { options } = COMMANDS[command];
  /** @type {Partial<Record<OptionName, string[]>>} */
  const values = {};
  const positionals = [];
  let help = false;
  for (let i = 0; i < args.length; ++i) {
    const a = args[i];
    if (a === '--help' || a === '-h') { help = true; continue; }
    if (!a.startsWith('-') || a === '-') { positionals.push(a); continue; }
    const m = /^--([^=]+)(?:=(.*))?$/s.exec(a);
    const name = /** @type {OptionName} */ (m?.[1]);
    const spec = m && Object.hasOwn(options, name) ? options[name] : undefined;
    if (!spec) throw new UsageError(`unknown option '${m ? `--${m[1]}` : a}' for ${command}; it takes ${Object.keys(options).map((o) => `--${o}`).join(', ')}`, command);
    let v = m?.[2];
    if (v === undefined) {
      if (i + 1 >= args.length || args[i + 1].startsWith('--')) throw new UsageError(`--${name} expects a value`, command);
      v = args[++i];
    }
    const list = (values[name] ??= []);
    if (list.length && !spec.multiple) throw new UsageError(`--${name} is given twice`, command);
    list.push(v);
  }
  return { values, positionals, help };
}

// An option's value of the form key=value (`form` names it in the error).
/**
 * @param {string} option
 * @param {string} text
 * @param {string} form e.g. 'symbol=N'
 */
function pair(option, text, form) {
  const m = /^([^=]+)=(.+)$/s.exec(text);
  if (!m) throw new UsageError(`--${option} expects ${form}, got '${text}'`, 'run');
  return { key: m[1], value: m[2] };
}

/**
 * @param {Session} session
 * @param {Partial<Record<OptionName, string[]>>} values the options parsed
 * @returns {Promise<number>} the exit code
 */
async function run(session, values) {
  // The model's symbols: those of the inputs' declared dims.
  const symbolsOf = [...new Set(session.inputMetadata.flatMap((i) => (i.shape ?? []).filter((d) => typeof d === 'string')))];
  /** @type {Record<string, number>} */
  const symbols = {};
  for (const s of values.dim ?? []) {
    const { key, value } = pair('dim', s, 'symbol=N');
    if (!/^\d+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new UsageError(`--dim expects symbol=N with N an integer >= 0, got '${s}'`, 'run');
    if (!symbolsOf.includes(key)) throw new UsageError(`--dim ${s}: the model has no symbol '${key}'; ${symbolsOf.length ? `its symbols: ${symbolsOf.join(', ')}` : "its inputs' dimensions are all fixed"}`, 'run');
    symbols[key] = Number(value);
  }
  // (a fed initializer: an initializer a feed may replace, which valueInfo says is stored)
  const feedable = (/** @type {string} */ name) => session.inputNames.includes(name) || session.valueInfo(name)?.storage !== undefined;
  /** @type {{ name: string, file: string }[]} */
  const inputFiles = [];
  for (const s of values.input ?? []) {
    const { key, value } = pair('input', s, 'name=file.npy');
    if (!feedable(key)) throw new UsageError(`--input: the model has no input '${key}'; its inputs: ${session.inputNames.join(', ')}`, 'run');
    inputFiles.push({ name: key, file: value });
  }
  const output = values.output?.[0];
  if (output !== undefined) {
    try {
      mkdirSync(output, { recursive: true });
    } catch (e) {
      throw new UsageError(`--output: cannot make the folder '${output}': ${fsReason(e)}`, 'run');
    }
  }
  /** @type {PublicTensor[]} */
  const owned = [];   // every Tensor made here (feeds, expected outputs, outputs), freed at the end
  try {
    const dataSet = values.data ? await readDataSet(values.data[0], session) : { inputs: {}, outputs: [] };
    owned.push(...Object.values(dataSet.inputs), ...dataSet.outputs.map((o) => o.tensor));
    const feeds = { ...dataSet.inputs };   // (--input replaces the folder's)
    for (const { name, file } of inputFiles) {
      let bytes;
      try {
        bytes = readFileSync(file);
      } catch (e) {
        throw new UsageError(`--input ${name}=${file}: cannot read '${file}': ${fsReason(e)}`, 'run');
      }
      let npy;
      try {
        npy = parseNpy(bytes, file);
      } catch (e) {
        throw new UsageError(`--input ${name}=${file}: ${e.message}`, 'run');
      }
      const t = new Tensor(npy.type, npy.data, npy.dims);
      owned.push(t);
      feeds[name] = t;
    }
    const generated = generateFeeds(session, session.inputMetadata.filter((i) => !(i.name in feeds)), symbols, patterned);
    owned.push(...Object.values(generated));
    Object.assign(feeds, generated);
    for (const [name, t] of Object.entries(feeds)) console.log(`input ${name}: ${t.type} ${shapeText(t.dims)}${name in generated ? ' (generated)' : ''} ${preview(t)}`);

    const repeat = values.repeat ? Number(values.repeat[0]) : 1;
    const times = [];
    /** @type {Record<string, PublicTensor>} */
    let outputs = {};
    for (let r = 0; r < repeat; ++r) {
      for (const t of Object.values(outputs)) t.dispose();
      const t0 = performance.now();
      outputs = await session.run(feeds);
      times.push(performance.now() - t0);
      owned.push(...Object.values(outputs));
    }
    for (const [name, t] of Object.entries(outputs)) console.log(`output ${name}: ${t.type} ${shapeText(t.dims)} ${preview(t)}`);
    const sorted = [...times].sort((a, b) => a - b);
    const us = (/** @type {number} */ ms) => `${(ms * 1000).toFixed(1)} µs`;
    console.log(`run time: first ${us(times[0])}${repeat > 1 ? `, median of ${repeat} ${us(sorted[Math.floor(repeat / 2)])}` : ''} (${/** @type {import('../js/index.js').RuntimeInfo} */ (runtime()).module})`);   // (not null: init() has resolved)
    if (output !== undefined) writeOutputs(output, outputs);

    // The folder's outputs belong to its inputs: with any input generated or given by --input,
    // they are not what this run should give.
    const notFromFolder = Object.keys(feeds).filter((name) => feeds[name] !== dataSet.inputs[name]);
    if (dataSet.outputs.length && notFromFolder.length) {
      console.log(`outputs not compared with ${dataSet.outputs.map((o) => o.file).join(', ')}: ${notFromFolder.map((n) => `'${n}'`).join(', ')} not from the folder`);
      return 0;
    }
    let code = 0;
    for (const { name, file, tensor } of dataSet.outputs) {
      const difference = compareTensors(outputs[name], tensor, file);
      if (difference === null) console.log(`output '${name}' matches ${file}`);
      else {
        console.error(`onnx-wasm: error: output '${name}' differs from ${difference}`);
        code = 1;
      }
    }
    return code;
  } finally {
    for (const t of owned) t.dispose();
  }
}

// Each output as `dir`/<name>.npy (characters other than letters, digits, '.', '_' and '-' made
// '_'; a name that would repeat another's file gets its position appended).
/**
 * @param {string} dir
 * @param {Record<string, PublicTensor>} outputs
 */
function writeOutputs(dir, outputs) {
  const used = new Set();
  for (const [k, [name, t]] of Object.entries(outputs).entries()) {
    let base = name.replace(/[^\w.-]/g, '_');
    if (base === '' || base.startsWith('.') || used.has(base)) base = `${base}_${k}`;
    used.add(base);
    const file = join(dir, `${base}.npy`);
    const { bytes, note } = npyOf(t);
    try {
      writeFileSync(file, bytes);
    } catch (e) {
      throw new CliError(`--output: cannot write '${file}': ${fsReason(e)}`);
    }
    console.log(`wrote ${file}${note ? ` (${note})` : ''}`);
  }
}

/**
 * @param {string[]} argv
 * @returns {Promise<number>} the exit code
 */
async function main(argv) {
  const [command, ...rest] = argv;
  if (command === '--help' || command === '-h' || command === 'help') { console.log(USAGE); return 0; }
  if (command === '--version') {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
    console.log(`onnx-wasm ${pkg.version}`);
    return 0;
  }
  if (command === undefined) throw new UsageError('no command given; the commands are inspect and run', null);
  if (!Object.hasOwn(COMMANDS, command)) throw new UsageError(`unknown ${command.startsWith('-') ? 'option' : 'command'} '${command}'; the commands are inspect and run`, null);
  const { values, positionals, help } = parseCommandLine(command, rest);
  if (help) { console.log(USAGE); return 0; }
  // Values checked before the model is read.
  const threads = values.threads?.[0] ?? 'true';
  if (threads !== 'true' && threads !== 'false') throw new UsageError(`--threads expects true or false, got '${threads}'`, command);
  const repeat = values.repeat?.[0];
  if (repeat !== undefined && (!/^\d+$/.test(repeat) || !(Number(repeat) >= 1) || !Number.isSafeInteger(Number(repeat)))) throw new UsageError(`--repeat expects a positive integer, got '${repeat}'`, command);
  for (const s of values.dim ?? []) pair('dim', s, 'symbol=N');
  for (const s of values.input ?? []) pair('input', s, 'name=file.npy');
  const [path, extra] = positionals;
  if (path === undefined) throw new UsageError(`${command} needs a model file`, command);
  if (extra !== undefined) throw new UsageError(`unexpected argument '${extra}'`, command);
  let bytes = null;
  try {
    // (run lets the session read the file, which it reads as the model's path for external data)
    if (command === 'inspect') bytes = readFileSync(path);
    else if (statSync(path).isDirectory()) throw new Error('it is a folder');
  } catch (e) {
    throw new CliError(`cannot read the model '${path}': ${fsReason(e)}`);
  }

  await init({ threads: threads !== 'false' });
  if (bytes) {
    console.log(inspectModel(bytes, path).join('\n'));
    return 0;
  }
  const session = /** @type {Session} */ (await InferenceSession.create(path));
  try {
    return await run(session, values);
  } finally {
    await session.release();
  }
}

main(process.argv.slice(2)).then((code) => { process.exitCode = code; }, (/** @type {unknown} */ e) => {
  if (e instanceof UsageError) {
    const usage = e.command ? `usage: ${COMMANDS[e.command].usage.replace(/\n\s+/g, ' ')}` : `usage: ${COMMANDS.inspect.usage}\n       ${COMMANDS.run.usage.replace(/\n\s+/g, ' ')}`;
    console.error(`onnx-wasm: error: ${e.message}\n${usage}`);
    process.exitCode = 2;
    return;
  }
  const err = e instanceof Error ? e : new Error(String(e));
  // (each subclass sets its stable code: js/index.d.ts, OnnxWasmError)
  const what = err instanceof OnnxWasmError ? `${err.name} (${/** @type {{ code?: string }} */ (err).code}): ` : err instanceof CliError || err.name === 'Error' ? '' : `${err.name}: `;
  console.error(`onnx-wasm: error: ${what}${err.message}`);
  process.exitCode = 1;
});
