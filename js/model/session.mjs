// InferenceSession: the onnxruntime-web API over ONNX models of the ops the registry has (and
// Constant nodes), in every domain it has. At create(): read the model (sources.mjs), parse it,
// check its opsets and ops (graph.mjs), fold Reshapes of initializers and read
// DequantizeLinear(table) -> Gather as Gather -> DequantizeLinear (fuse.mjs), sort the graph
// (graph.mjs), make the initializers Tensors once (they stay in wasm memory; external data is loaded, or kept in its file for the ops that read a
// table by rows: external-data.mjs), walk the graph making Constants, inferring every value's type
// and shape with symbols and preparing each node (infer-graph.mjs: no shape rules here), and make
// the run plan (plan.mjs). At run(): check the feeds against the graph inputs, then run the
// prepared nodes in order.
// Memory: the session owns its initializers, constants and prepared nodes (release() frees
// them); the Tensors that run() returns belong to the caller.
// @ts-check
import { OnnxWasmError, describeValue, invalidArgument } from '../errors.mjs';
import { DisposedError, ExternalDataError } from '../generated/errors.mjs';
import { ATTR_TYPE_NAMES, attributeFromProto } from '../node.mjs';
import { init } from '../runtime.mjs';
import { Tensor } from '../tensor.mjs';
import { tensorsFromLikes } from '../tensor-likes.mjs';
import { loadInitializers } from './external-data.mjs';
import { checkOps, importedOpsets, topologicalOrder } from './graph.mjs';
import { constInfo, inferGraph } from './infer-graph.mjs';
import { loadingOptions } from './load-options.mjs';
import { foldKnownValues } from './fold.mjs';
import { rewriteGraph } from './fuse.mjs';
import { disposeMemos, makePlan, runMemoStep } from './plan.mjs';
import { ExternalData } from './resolve-sources.mjs';
import { sizeText } from './table-facts.mjs';
import { decodeModel } from './onnx-proto.mjs';
import { readModel } from './sources.mjs';
import { readCachedModel } from './model-cache.mjs';
import { WARM_UP_MODEL, WARM_UP_RUNS } from './warm-up.mjs';
import { elementType, modelError } from './tensor-proto.mjs';

/** @typedef {import('../index.js').TensorLike} TensorLike */
/** @typedef {import('../index.js').ValueMetadata} ValueMetadata */
/** @typedef {import('../index.js').Dim} Dim */
/** @typedef {import('./plan.mjs').InputSpec} InputSpec */
/** @typedef {import('./plan.mjs').Plan} Plan */
/** @typedef {import('./infer-graph.mjs').Known} Known */
/** @typedef {import('./lazy-table.mjs').LazyTable} LazyTable */

/**
 * A feed that is not a Tensor of this package, copied in by #copyLikes: its name, the feed, and
 * the graph input's spec and slot.
 * @typedef {{ name: string, t: TensorLike, spec: InputSpec, slot: number, symbolic: boolean }} Like
 */

// The one warm-up of a process or page (#warmUp), queued as a task when the first session is
// made, so that it runs in the first idle moment after create() rather than in it: a page that
// makes its session at load and runs it later finds it done, and the first result of a session
// run at once is not held by it. The first run before it goes ahead; a later one (a loop of runs)
// starts it and waits for it. 0: not queued yet, 1: queued, 2: running, 3: done.
/** @type {0 | 1 | 2 | 3} */
let warmUpState = 0;
let aRunWentFirst = false;   // a run has gone ahead of the queued warm-up
/** @type {Promise<void> | null} */
let warmUp = null;   // the promise of the warm-up once it has started
/** @type {InferenceSession | null} */
let warmUpSession = null;   // the warm-up's own session, whose runs do not wait for it

// { type, dims } of a ValueInfoProto: dims entries number | symbol string | null; dims null when
// the rank is unknown.
/**
 * @param {import('./onnx-proto.mjs').ValueInfoProto} vi
 * @returns {InputSpec}
 */
function valueInfo(vi) {
  const tt = vi.type?.value?.case === 'tensorType' ? vi.type.value.value : null;
  if (!tt) throw modelError(`graph value '${vi.name}' is not a tensor`);
  const t = elementType(tt.elemType, `graph value '${vi.name}'`);
  const dims = tt.shape ? tt.shape.dim.map((d) => {
    if (d.value.case === 'dimValue') {
      const n = Number(d.value.value);
      if (!Number.isSafeInteger(n) || n < 0) throw modelError(`graph value '${vi.name}' declares dimension ${String(d.value.value)}`);
      return n;
    }
    return d.value.case === 'dimParam' && d.value.value !== '' ? d.value.value : null;
  }) : null;
  return { name: vi.name, type: t.name, dims };
}

// A node's attributes as a plain object, for display: each read as node.mjs reads it for a run
// (ints as numbers, a bigint beyond 2^53, bytes as text); a tensor or other kind by its name.
// (Exported for `onnx-wasm inspect`, bin/inspect.mjs, which shows nodes as sessions do.)
/**
 * @param {import('./onnx-proto.mjs').NodeProto} node
 * @returns {Record<string, import('../node.mjs').DisplayAttribute['value']>}
 */
export function plainAttributes(node) {
  /** @type {Record<string, import('../node.mjs').DisplayAttribute['value']>} */
  const out = {};
  for (const a of node.attribute) {
    out[a.name] = a.type === 4 ? `<tensor ${a.t?.name ?? ''}>` : ATTR_TYPE_NAMES[a.type] ? attributeFromProto(a, false).value : `<attribute type ${a.type}>`;
  }
  return out;
}

// A declared shape as text: [batch, 4, ?].
/** @type {(dims: readonly (Dim | '...')[]) => string} */
const shapeText = (dims) => `[${dims.map((d) => d ?? '?').join(', ')}]`;

// Plain assignment, except for a value named '__proto__', which assignment would not store.
/**
 * @param {Record<string, Tensor>} result
 * @param {string} name
 * @param {Tensor} t
 */
function setResult(result, name, t) {
  if (name === '__proto__') Object.defineProperty(result, name, { value: t, enumerable: true, writable: true, configurable: true });
  else result[name] = t;
}

/**
 * @param {Tensor} t
 * @returns {Tensor}
 */
function copyTensor(t) {
  // (numeric: a typed array, whose slice is a copy)
  const data = t.type === 'string' ? Array.from(/** @type {string[]} */ (t.data)) : /** @type {import('../wasm-module.mjs').WasmView} */ (t.data).slice();
  return new Tensor(t.type, data, Array.from(t.dims));
}

// A run that failed: the node outputs it made and its temporary feed Tensors are freed.
/**
 * @param {readonly (Tensor | null)[] | null} produced
 * @param {readonly Tensor[] | null} temporaries
 */
function abandon(produced, temporaries) {
  if (produced) for (const t of produced) t?.dispose();
  if (temporaries) for (const t of temporaries) t.dispose();
}

// An error a node raised while a session ran, prefixed with the node as at load (infer-graph.mjs):
// "node 'lookup' (Gather): Gather-13: index 9 ...". Only on the error path: a run carries the
// step's label, not a string per call. An ExternalDataError (a table kept in its source that
// cannot be read) names the table instead, and is left as it is.
/**
 * @param {any} e
 * @param {import('./plan.mjs').PlanStep} step
 */
function withNode(e, step) {
  if (e instanceof OnnxWasmError && !(e instanceof ExternalDataError) && !e.message.startsWith(step.label)) e.message = `${step.label}: ${e.message}`;
  return e;
}

// A run of a one-node plan (plan.mjs) when every feed is a Tensor that passed its check before
// and there is no other feed: { output: Tensor }, or null for the general path.
/**
 * @param {import('./plan.mjs').OneNodePlan} one
 * @param {Readonly<Record<string, TensorLike>>} feeds
 * @returns {Record<string, Tensor> | null}
 */
function runOneNode(one, feeds) {
  const args = one.args, fed = one.feeds;
  let planned = true;
  for (let j = 0; j < fed.length && planned; ++j) {
    const t = feeds[fed[j].name];
    planned = fed[j].input.passed === t;
    args[fed[j].k] = /** @type {Tensor} */ (t);   // (run only when every feed passed: Tensors)
  }
  if (planned) {
    let count = 0;
    for (const name in feeds) ++count;   // (each graph input is among them: no other feed)
    planned = count === fed.length;
  }
  if (!planned) return null;
  // (args keeps these feeds until the next run: the Tensors each input's record keeps already)
  /** @type {Record<string, Tensor>} */
  const result = {};
  result[one.output] = one.prepared.runTensors(args, null, one.n);
  return result;
}

// InferenceSession.create's arguments as onnxruntime-web takes them: (source, options?), or
// (buffer, byteOffset, byteLength?, options?) for the model at those bytes of an ArrayBuffer or
// SharedArrayBuffer. Returns { source, options }, the source then a Uint8Array of those bytes.
/**
 * @param {unknown} source
 * @param {unknown} a1
 * @param {unknown} a2
 * @param {unknown} a3
 * @returns {{ source: unknown, options: import('../index.js').SessionOptions }}
 */
function createArguments(source, a1, a2, a3) {
  /** @type {(o: unknown, form: string) => import('../index.js').SessionOptions} */
  const optionsOf = (o, form) => {
    if (o === undefined) return {};
    if (o === null || typeof o !== 'object') throw invalidArgument(`InferenceSession.create(${form}): options must be an object, got ${describeValue(o)}`);
    return /** @type {import('../index.js').SessionOptions} */ (o);
  };
  if (typeof a1 !== 'number') {
    if (a2 !== undefined) throw invalidArgument(`InferenceSession.create(source, options?): a byte length, ${describeValue(a2)}, is taken only after a byte offset`);
    return { source, options: optionsOf(a1, 'source, options?') };
  }
  const form = 'buffer, byteOffset, byteLength?, options?';
  if (!(source instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && source instanceof SharedArrayBuffer)))
    throw invalidArgument(`InferenceSession.create(${form}): the buffer must be an ArrayBuffer or SharedArrayBuffer, got ${describeValue(source)}`);
  const size = source.byteLength;
  if (!Number.isSafeInteger(a1) || a1 < 0 || a1 >= size) throw invalidArgument(`InferenceSession.create(${form}): byteOffset ${a1} is outside [0, ${size})`);
  if (a2 !== undefined && (typeof a2 !== 'number' || !Number.isSafeInteger(a2) || a2 <= 0 || a2 > size - a1))
    throw invalidArgument(`InferenceSession.create(${form}): byteLength ${typeof a2 === 'number' ? a2 : describeValue(a2)} is outside (0, ${size - a1}]`);
  if (a2 === undefined && a3 !== undefined) throw invalidArgument(`InferenceSession.create(${form}): options come after a byte length`);
  return { source: new Uint8Array(source, a1, a2 === undefined ? size - a1 : a2), options: optionsOf(a3, form) };
}

export class InferenceSession {
  /** @type {InputSpec[]} */
  #inputs;
  /** @type {InputSpec[]} */
  #outputs;
  /** @type {Map<string, Tensor>} */
  #initializers;
  /** @type {Map<string, LazyTable>} */
  #lazy;
  /** @type {Map<string, InputSpec>} */
  #overridable;
  /** @type {number} */
  #opset;
  #released = false;
  /** @type {{ dispose(): void }[]} */
  #owned = [];
  /** @type {Map<string, Known>} */
  #info;
  /** @type {Plan} */
  #plan;

  // source: a file path (Node), a URL (string in browsers; http(s) URL or URL object anywhere), a
  // Blob or File, a Uint8Array or an ArrayBuffer; or, as in onnxruntime-web, an ArrayBuffer, a
  // byte offset and a byte length (createArguments). options: { externalData, externalDataMode:
  // 'auto' | 'memory' | 'lazy', onProgress({ loaded, total }), cache: 'opfs', cacheKey } (see
  // README, Large tables, and docs/large-tables-browser.md).
  /**
   * @param {unknown} source (the caller's: checked by readModel, readCachedModel)
   * @param {unknown} [optionsOrOffset] options, or a byte offset into an ArrayBuffer source (the caller's: checked here)
   * @param {unknown} [byteLength] (the caller's: checked here)
   * @param {unknown} [optionsAfterLength] (the caller's: checked here)
   * @returns {Promise<InferenceSession>}
   */
  static async create(source, optionsOrOffset, byteLength, optionsAfterLength) {
    /** @type {import('../index.js').SessionOptions} */
    let options;
    ({ source, options } = createArguments(source, optionsOrOffset, byteLength, optionsAfterLength));
    await init();
    const loading = loadingOptions(options);
    /** @type {{ bytes: Uint8Array, baseDir?: string, baseUrl?: URL, wrap?: (src: import('./sources.mjs').Source, location: string) => import('./sources.mjs').Source } | null} */
    const read = loading.cache ? await readCachedModel(source, loading, 'the ONNX model') : await readModel(source, 'the ONNX model');
    if (!read) throw invalidArgument('InferenceSession.create takes a file path (Node), a URL, a Blob or File, a Uint8Array or an ArrayBuffer');
    let model;
    try {
      model = decodeModel(read.bytes);
    } catch (e) {
      throw modelError(`cannot parse the ONNX model (${read.bytes.length} bytes): ${e.message}`);
    }
    const session = new InferenceSession();
    await session.#load(model, await ExternalData.create(options, read, read.wrap), loading, read.bytes.length);
    if (warmUpState === 0) {
      warmUpState = 1;
      const timer = setTimeout(InferenceSession.#startWarmUp, 0);
      /** @type {{ unref?: () => void }} */ (/** @type {unknown} */ (timer)).unref?.();   // (Node: it keeps no process alive)
    }
    return session;
  }

  // Before a run, while the warm-up is not done: null when this run goes ahead (the first one),
  // else the promise of the warm-up, which this run waits for.
  /** @returns {Promise<void> | null} */
  static #beforeWarmUp() {
    if (warmUpState === 1 && !aRunWentFirst) {
      aRunWentFirst = true;
      return null;
    }
    return InferenceSession.#startWarmUp();
  }

  /** @returns {Promise<void>} */
  static #startWarmUp() {
    if (warmUpState < 2) {
      warmUpState = 2;
      // (its failure changes nothing)
      warmUp = InferenceSession.#warmUp().catch(() => {}).then(() => { warmUpState = 3; warmUpSession = null; });
    }
    return /** @type {Promise<void>} */ (warmUp);
  }

  // Runs warm-up.mjs's model WARM_UP_RUNS times, so that the run path is compiled before a
  // user's later runs (see there). Every fourth run feeds a new Tensor, which takes the general
  // path (its check, then the plan's), as a user's first run does; the others take the one-node
  // plan, as the user's later runs do.
  /** @returns {Promise<void>} */
  static async #warmUp() {
    const session = new InferenceSession();
    warmUpSession = session;
    await session.#load(decodeModel(WARM_UP_MODEL), await ExternalData.create({}, {}), loadingOptions({}), 0);
    const i = new Tensor('int64', [1n], [1]);
    try {
      for (let k = 0; k < WARM_UP_RUNS; ++k) {
        const fresh = k % 4 === 0 ? new Tensor('int64', [1n], [1]) : null;
        (await session.run({ i: fresh ?? i })).o.dispose();
        fresh?.dispose();
      }
    } finally {
      i.dispose();
      await session.release();
    }
  }

  // The steps of create() after the model is parsed: the graph checks (graph.mjs), the
  // initializers (external-data.mjs), the inference walk that makes Constants and prepares the
  // nodes (infer-graph.mjs) and the run plan (plan.mjs).
  /**
   * @param {import('./onnx-proto.mjs').ModelProto} model
   * @param {ExternalData} store
   * @param {ReturnType<typeof loadingOptions>} loading
   * @param {number} modelBytes
   */
  async #load(model, store, loading, modelBytes) {
    if (!model.graph) throw modelError('the model has no graph');
    const imported = importedOpsets(model);
    this.#opset = /** @type {number} */ (imported.get(''));   // (importedOpsets refuses a model without it)
    checkOps(model.graph, imported);
    // (a Reshape of an initializer folded into it; DequantizeLinear(table) -> Gather read as
    // Gather -> DequantizeLinear; GatherBlockQuantized -> Mul(constant) as one node: fuse.mjs)
    const { graph: g, opsets } = rewriteGraph(model.graph, imported);

    /** @type {{ dispose(): void }[]} */
    const owned = [];
    try {
      this.#initializers = new Map();
      // Initializers (external data loaded at one copy or kept in its source) and the external
      // tensors of Constants, loaded before the graph is walked.
      const { kept, constants } = await loadInitializers(g, store, loading, modelBytes, owned, this.#initializers);
      this.#lazy = kept;
      const declared = g.input.map(valueInfo);
      // Graph inputs that are also initializers (overridable by a feed): declared and stored alike.
      this.#overridable = new Map(declared.filter((i) => this.#initializers.has(i.name)).map((i) => [i.name, i]));
      for (const [name, spec] of this.#overridable) {
        const t = /** @type {Tensor} */ (this.#initializers.get(name));   // (overridable: initializers)
        if (t.type !== spec.type || (spec.dims && (spec.dims.length !== t.dims.length || spec.dims.some((d, k) => typeof d === 'number' && d !== t.dims[k]))))
          throw modelError(`graph input '${name}' is declared ${spec.type} ${shapeText(spec.dims ?? ['...'])} but its initializer is ${t.type} [${t.dims.join(', ')}]`);
      }
      this.#inputs = declared.filter((i) => !this.#initializers.has(i.name));

      // What is known of every value: { type, dims, value? } (value: small constant int64 tensors).
      /** @type {Map<string, Known>} */
      const info = new Map();
      for (const i of declared) info.set(i.name, { type: i.type, dims: i.dims });
      for (const [name, t] of this.#initializers) if (!this.#overridable.has(name)) info.set(name, constInfo(t));
      for (const [name, table] of this.#lazy) info.set(name, { type: table.t.name, dims: Array.from(table.dims) });

      const order = topologicalOrder(g, (name) => info.has(name), this.#initializers);
      const steps = foldKnownValues(inferGraph(g, order, { info, tensors: this.#initializers, constants, opsets, owned }), info, this.#initializers, owned);

      const declaredOut = new Map(g.output.map((o) => [o.name, o]));
      this.#outputs = g.output.map((o) => {
        const inferred = info.get(o.name);
        if (!inferred) throw modelError(`graph output '${o.name}' is not produced by any node, input or initializer`);
        const d = valueInfo(/** @type {import('./onnx-proto.mjs').ValueInfoProto} */ (declaredOut.get(o.name)));   // (o itself)
        return { name: o.name, type: inferred.type, dims: inferred.dims ?? d.dims };
      });
      this.#plan = makePlan(this.#inputs, this.#overridable, this.#initializers, steps, this.#outputs, this.#lazy);
      this.#info = info;
      /** @type {number} */
      this.irVersion = Number(model.irVersion);
      /** @type {{ domain: string, version: number }[]} */
      this.opsetImports = model.opsetImport.map((o) => ({ domain: o.domain, version: Number(o.version) }));
      /** @type {{ name: string, domain: string, opType: string, inputs: string[], outputs: string[], attributes: Record<string, import('../node.mjs').DisplayAttribute['value']> }[]} */
      this.nodes = order.map((k) => ({ name: g.node[k].name, domain: g.node[k].domain, opType: g.node[k].opType, inputs: Array.from(g.node[k].input), outputs: Array.from(g.node[k].output), attributes: plainAttributes(g.node[k]) }));
      this.#owned = owned;
    } catch (e) {
      for (const x of owned) x.dispose();
      throw e;
    }
  }

  get inputNames() { return this.#inputs.map((i) => i.name); }
  get outputNames() { return this.#outputs.map((o) => o.name); }
  /** @returns {ValueMetadata[]} */
  get inputMetadata() { return this.#inputs.map((i) => ({ name: i.name, isTensor: true, type: i.type, shape: i.dims })); }
  /** @returns {ValueMetadata[]} */
  get outputMetadata() { return this.#outputs.map((o) => ({ name: o.name, isTensor: true, type: o.type, shape: o.dims })); }
  get opset() { return this.#opset; }

  // The inferred { type, dims } of any value of the graph (input, initializer, node output), or
  // undefined. dims entries: number, symbol or null; dims null when the rank is unknown.
  // For an initializer also where it lives, { storage: 'memory' | 'file', bytes } ('file': kept
  // in its external source, `location`, and read by rows when a Gather runs).
  /**
   * @param {string} name
   * @returns {import('../index.js').SessionValueInfo | undefined}
   */
  valueInfo(name) {
    const v = this.#info.get(name);
    if (!v) return undefined;
    /** @type {import('../index.js').SessionValueInfo} */
    const r = { type: v.type, dims: v.dims && Array.from(v.dims) };
    const lazy = this.#lazy.get(name), t = this.#initializers.get(name);
    if (lazy) Object.assign(r, { storage: 'file', location: lazy.location, bytes: lazy.bytes });
    else if (t) Object.assign(r, { storage: 'memory', bytes: t.type === 'string' ? undefined : /** @type {import('../wasm-module.mjs').WasmView} */ (t.data).byteLength });
    return r;
  }

  // feeds: { name: Tensor | { type, data, dims } }. Resolves to { outputName: Tensor }.
  // `fetches` (names) selects outputs, or any other value of the graph; it and `options` take
  // onnxruntime-web's forms too (#fetchNames).
  // This is the hot path of a small model: no closures, no strings built unless there is an error.
  // It runs at once and returns a settled promise: as an async function, run() cost more a run in
  // V8's first tiers (docs/performance.md, figures behind design choices). Only a Gather that
  // reads a table by rows from its source awaits (#finishReadingTables takes over there). Nothing
  // is partial: on an error every tensor the run made is freed.
  /**
   * @param {Readonly<Record<string, TensorLike>>} feeds (the caller's: checked here)
   * @param {unknown} [fetchesOrOptions] names, { name: null } or run options (the caller's: checked here)
   * @param {unknown} [options] (the caller's: checked here)
   * @returns {Promise<Record<string, Tensor>>}
   */
  run(feeds, fetchesOrOptions, options) {
    if (warmUpState !== 3 && this !== warmUpSession) {
      const wait = InferenceSession.#beforeWarmUp();
      if (wait) return wait.then(() => this.run(feeds, fetchesOrOptions, options));
    }
    /** @type {readonly string[] | undefined} */
    let fetches;
    // What the run has made so far, freed if it fails: node outputs (produced) and the Tensors made
    // of { type, data, dims } feeds (temporaries). (Locals, not a record object: in V8's first
    // tiers, a session's first runs, making one cost each run time; docs/performance.md.)
    let produced = /** @type {(Tensor | null)[] | null} */ (null), temporaries = /** @type {Tensor[] | null} */ (null);
    // The step running, -1 before the first: an error in [0, steps) is that node's (withNode).
    let k = -1;
    try {
      if (this.#released) throw new DisposedError('this session was released');
      if (!feeds || typeof feeds !== 'object') throw invalidArgument('run(feeds) takes an object of input tensors');
      if (fetchesOrOptions !== undefined || options !== undefined) fetches = this.#fetchNames(fetchesOrOptions, options);
      const plan = this.#plan;
      // A graph of one node (oneNodePlan) whose feeds are Tensors that passed their checks before,
      // and no other feed: the run is the node's call. Anything else takes the general path.
      const one = plan.oneNode;
      if (one !== null && fetches === undefined) {
        k = 0;   // (the plan's node is step 0)
        const result = runOneNode(one, feeds);
        if (result !== null) return Promise.resolve(result);
        k = -1;
      }
      // Names to fetch are checked before anything runs or is copied (nothing partial on error).
      if (fetches !== undefined) {
        for (const name of fetches) {
          if (!plan.slot.has(name)) throw invalidArgument(`'${name}' is not a value of this model`);
          const lazy = this.#lazy.get(name);
          if (lazy) throw invalidArgument(`'${name}' is a table kept in '${lazy.location}' (${sizeText(lazy.bytes)}), read by rows; run() does not return it`);
        }
      }
      const slots = plan.base.slice();   // every value's tensor
      produced = [];   // (null for a memo step's output: the memo's)
      /** @type {Map<string, number> | null} */
      let symbols = null;
      // (indexed loops: a session's first runs execute in V8's interpreter and baseline tiers,
      // where each for-of loop costs an iterator)
      // Tensor feeds are checked at once; { type, data, dims } feeds are copied in together
      // afterwards (tensor-likes.mjs: one may be a view that another's copy would detach).
      /** @type {Like[] | null} */
      let likes = null;
      const inputs = plan.inputs;
      for (let k = 0; k < inputs.length; ++k) {
        const input = inputs[k];
        const { spec, slot, symbolic } = input;
        const t = feeds[spec.name];
        if (t === undefined) throw invalidArgument(`input '${spec.name}' is missing from the feeds (expected ${spec.type} ${shapeText(spec.dims ?? [])})`);
        // (a symbolic input's check binds its symbols, which other feeds' checks read: its Tensor is
        // remembered only when no other feed has symbols, plan.oneSymbolic)
        const remembered = !symbolic || plan.oneSymbolic;
        if (remembered && input.passed === t) slots[slot] = /** @type {Tensor} */ (t);   // (a Tensor, checked before)
        else if (!(t instanceof Tensor)) (likes ??= []).push({ name: spec.name, t, spec, slot, symbolic });
        else {
          this.#check(spec.name, t, spec, symbolic ? (symbols ??= new Map()) : null);
          if (remembered) input.passed = t;
          slots[slot] = t;
        }
      }
      // Feeds beyond the graph inputs: initializers that may be overridden, or an error.
      for (const name in feeds) {
        if (plan.inputNames.has(name)) continue;
        const o = plan.overridable.get(name);
        if (!o) throw invalidArgument(`feed '${name}' is not an input of this model; inputs: ${this.inputNames.join(', ')}`);
        const t = feeds[name];
        if (!(t instanceof Tensor)) (likes ??= []).push({ name, t, spec: o.spec, slot: o.slot, symbolic: o.symbolic });
        else {
          if (o.spec) this.#check(name, t, o.spec, o.symbolic ? (symbols ??= new Map()) : null);
          slots[o.slot] = t;
        }
      }
      if (likes) {
        temporaries = [];
        symbols = this.#copyLikes(likes, slots, temporaries, symbols);
      }
      const steps = plan.steps;
      const keys = plan.sources ? new Array(plan.sources) : [];   // (the memo sources' keys this run)
      for (k = 0; k < steps.length; ++k) {
        const st = steps[k];
        if (st.lazy) {
          const rest = this.#finishReadingTables({ slots, produced, temporaries, keys }, k, fetches);
          produced = temporaries = null;   // owned by the continuation now
          return rest;
        }
        if (st.memo) {
          slots[st.out] = runMemoStep(st, slots, keys);
          produced.push(null);
          continue;
        }
        const out = st.prepared.runTensors(slots, st.at, st.n);
        produced.push(out);
        slots[st.out] = out;
      }
      const made = produced, temps = temporaries;
      produced = temporaries = null;   // #end frees what the run made if it fails
      return Promise.resolve(this.#end(slots, made, temps, fetches));
    } catch (e) {
      abandon(produced, temporaries);
      return Promise.reject(k >= 0 && k < this.#plan.steps.length ? withNode(e, this.#plan.steps[k]) : e);
    }
  }

  // run()'s second and third arguments, read as onnxruntime-web reads them: the names to fetch as
  // an array, or as an object of names to null (a Tensor there, an output to write into, is
  // refused); any other object is run options (onnxruntime-web's RunOptions: logSeverityLevel,
  // tag, ...; none of them changes a run here). undefined: the graph outputs. Unlike
  // onnxruntime-web, a name to null that is no value of the graph is an error, not run options.
  /**
   * @param {unknown} arg
   * @param {unknown} options
   * @returns {readonly string[] | undefined}
   */
  #fetchNames(arg, options) {
    const form = 'run(feeds, fetches?, options?)';
    if (options !== undefined && (options === null || typeof options !== 'object'))
      throw invalidArgument(`${form}: options must be an object, got ${describeValue(options)}`);
    if (arg === undefined) return undefined;
    if (Array.isArray(arg)) {
      for (let i = 0; i < arg.length; ++i)
        if (typeof arg[i] !== 'string') throw invalidArgument(`${form}: fetches[${i}] must be a value's name, got ${describeValue(arg[i])}`);
      return arg;
    }
    if (arg === null || typeof arg !== 'object' || arg instanceof Tensor)
      throw invalidArgument(`${form}: fetches must be an array of names or an object of names to null, or the run options an object; got ${describeValue(arg)}`);
    const fetchObject = /** @type {Record<string, unknown>} */ (arg);
    const names = Object.keys(fetchObject).filter((name) => fetchObject[name] === null || fetchObject[name] instanceof Tensor);
    if (!names.length) {
      if (options !== undefined) throw invalidArgument(`${form}: fetches maps no name to null`);
      return undefined;   // (run options)
    }
    for (const name of names) {
      if (fetchObject[name] !== null)
        throw invalidArgument(`${form}: fetches['${name}'] is a Tensor; onnx-wasm makes its outputs and writes into none given (pass null)`);
    }
    return names;   // (run() checks that each names a value, as for an array)
  }

  // The rest of a run from step `from`, a Gather reading a table by rows from its source. state:
  // { slots, produced, temporaries } as run() had them, owned (and freed on an error) here.
  /**
   * @param {{ slots: (Tensor | undefined)[], produced: (Tensor | null)[], temporaries: Tensor[] | null, keys: string[] }} state
   * @param {number} from
   * @param {readonly string[] | undefined} fetches
   * @returns {Promise<Record<string, Tensor>>}
   */
  async #finishReadingTables(state, from, fetches) {
    const steps = this.#plan.steps, slots = state.slots;
    let k = from;
    try {
      for (; k < steps.length; ++k) {
        const st = steps[k];
        if (st.memo) {
          slots[st.out] = runMemoStep(st, slots, state.keys);
          state.produced.push(null);
          continue;
        }
        // (the indices, input 1: a value before this node, so set)
        const out = st.lazy ? await st.lazy.gather(st.prepared, slots, st.at, st.n, st.rowsAlso, st.also) : st.prepared.runTensors(slots, st.at, st.n);
        state.produced.push(out);
        slots[st.out] = out;
      }
    } catch (e) {
      abandon(state.produced, state.temporaries);
      throw withNode(e, steps[k]);
    }
    return this.#end(slots, state.produced, state.temporaries, fetches);
  }

  // The result object once every step has run; node outputs not returned are freed.
  /**
   * @param {readonly (Tensor | undefined)[]} slots
   * @param {(Tensor | null)[]} produced
   * @param {Tensor[] | null} temporaries
   * @param {readonly string[] | undefined} fetches
   * @returns {Record<string, Tensor>}
   */
  #end(slots, produced, temporaries, fetches) {
    const plan = this.#plan, steps = plan.steps;
    /** @type {Tensor[] | null} */
    let copies = null;
    try {
      /** @type {Record<string, Tensor>} */
      const result = {};
      if (fetches === undefined && plan.uniqueOutputs) {
        const outputs = plan.outputs, plain = plan.plainNames;
        for (let k = 0; k < outputs.length; ++k) {
          const o = outputs[k];
          let t = /** @type {Tensor} */ (slots[o.slot]);   // (every output is set once the run is done)
          if (!o.produced) (copies ??= []).push(t = copyTensor(t));
          if (plain) result[o.name] = t;
          else setResult(result, o.name, t);
        }
        // Node outputs not returned are freed, each by itself: two nodes may write one slot
        // (an empty output name), so the slots alone would miss the first one.
        for (let k = 0; k < steps.length; ++k) {
          const p = produced[k];
          if (p !== null && (steps[k].temporary || slots[steps[k].out] !== p)) p.dispose();
        }
      } else {
        /** @type {Set<Tensor>} */
        const given = new Set();
        for (const name of fetches ?? this.outputNames) {
          const k = plan.slot.get(name);
          const t = k === undefined ? undefined : slots[k];
          if (!t) throw invalidArgument(`'${name}' is not a value of this model`);
          if (Object.hasOwn(result, name)) continue;   // a name fetched twice is returned once
          // An output returned twice, or one that is an initializer, a Constant or a feed, is a
          // copy: the caller owns every tensor run() returns, and the session keeps its own.
          let out = t;
          if (!produced.includes(t) || given.has(t)) (copies ??= []).push(out = copyTensor(t));
          setResult(result, name, out);
          given.add(t);
        }
        for (const t of produced) if (t !== null && !given.has(t)) t.dispose();
      }
      if (temporaries) for (const t of temporaries) t.dispose();
      return result;
    } catch (e) {
      if (copies) for (const t of copies) t.dispose();
      abandon(produced, temporaries);
      throw e;
    }
  }

  // The { type, data, dims } feeds copied in as temporary Tensors (added to `temporaries`), checked
  // and placed in their slots. Returns the symbols seen so far.
  /**
   * @param {readonly Like[]} likes
   * @param {(Tensor | undefined)[]} slots
   * @param {Tensor[]} temporaries
   * @param {Map<string, number> | null} symbols
   * @returns {Map<string, number> | null}
   */
  #copyLikes(likes, slots, temporaries, symbols) {
    const { tensors, made } = tensorsFromLikes(likes.map((f) => (f.t === null ? {} : f.t)), (i) => `feed '${likes[i].name}'`);
    temporaries.push(...made);
    for (let i = 0; i < likes.length; ++i) {
      const { name, spec, slot, symbolic } = likes[i];
      // (typed a Tensor: {} stands for a null feed. An initializer fed as undefined gives null here,
      // and #check then fails with a TypeError.)
      if (spec) this.#check(name, /** @type {Tensor} */ (tensors[i]), spec, symbolic ? (symbols ??= new Map()) : null);
      slots[slot] = /** @type {Tensor} */ (tensors[i]);
    }
    return symbols;
  }

  // A feed against its graph input: type, rank, fixed dims, and one value per symbol.
  /**
   * @param {string} name
   * @param {Tensor} t
   * @param {InputSpec} spec
   * @param {Map<string, number> | null} symbols
   */
  #check(name, t, spec, symbols) {
    if (t.type !== spec.type) throw invalidArgument(`input '${name}' must be ${spec.type}, got ${t.type}`);
    const want = spec.dims;
    if (!want) return;
    const dims = t.dims;
    if (dims.length !== want.length) throw invalidArgument(`input '${name}' must have rank ${want.length} ${shapeText(want)}, got dims [${dims.join(', ')}]`);
    for (let i = 0; i < want.length; ++i) {
      const d = want[i];
      if (typeof d === 'number') {
        if (dims[i] !== d) throw invalidArgument(`input '${name}' dimension ${i} must be ${d} ${shapeText(want)}, got ${dims[i]}`);
      } else if (typeof d === 'string' && symbols) {
        if (symbols.has(d) && symbols.get(d) !== dims[i]) throw invalidArgument(`input '${name}' dimension ${i} ('${d}') is ${dims[i]}, but '${d}' is ${symbols.get(d)} in another input`);
        symbols.set(d, dims[i]);
      }
    }
  }

  /** @returns {Promise<void>} */
  async release() {
    if (this.#released) return;
    this.#released = true;
    if (this.#plan) disposeMemos(this.#plan);
    for (const x of this.#owned) x.dispose();
  }
}
