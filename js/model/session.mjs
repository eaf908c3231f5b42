// InferenceSession: the onnxruntime-web API over ONNX models of Gather, Flatten, Reshape and
// Constant nodes. At create(): read the model (sources.mjs), parse it, check ops and domains, sort
// the graph, make the initializers and Constants Tensors once (they stay in wasm memory; external
// data is loaded, or kept in its file for Gathers: external-data.mjs), infer every value's type
// and shape with symbols (through inferShapes: no shape rules here) and prepare each node.
// At run(): check the feeds against the graph inputs, then run the prepared nodes in order.
// Memory: the session owns its initializers, constants and prepared nodes (release() frees
// them); the Tensors that run() returns belong to the caller.
import { invalidArgument, OnnxWasmError } from '../errors.mjs';
import { DisposedError, UnsupportedOpError } from '../generated/errors.mjs';
import { ATTR_TYPE_NAMES, attributeFromProto, inferShapes } from '../node.mjs';
import { PreparedNode } from '../prepared.mjs';
import { init } from '../runtime.mjs';
import { Tensor, passedCheck, rememberCheck } from '../tensor.mjs';
import { tensorsFromLikes } from '../tensor-likes.mjs';
import { loadInitializers } from './external-data.mjs';
import { loadingOptions } from './load-options.mjs';
import { ExternalData } from './resolve-sources.mjs';
import { sizeText } from './table-facts.mjs';
import { decodeModel } from './onnx-proto.mjs';
import { readModel } from './sources.mjs';
import { readCachedModel } from './model-cache.mjs';
import { WARM_UP_MODEL, WARM_UP_RUNS } from './warm-up.mjs';
import { elementType, modelError, tensorFromProto } from './tensor-proto.mjs';

const RUNNABLE = new Set(['Gather', 'Flatten', 'Reshape']);
let warmUp = null;   // the promise of the one warm-up (#warmUp)

// The plan of a graph that is one node (a Gather of a table, the main use), or null: the node's
// inputs are graph inputs of fixed dims (nameX, specX) or session tensors (x), every graph input
// is one of them, no initializer may be overridden, and the node's output is the one graph output,
// returned as is. run() then makes no slots, no list of what it produced and no second pass: in a
// session's first runs, in V8's baseline tier, the general path cost a tiny Gather 0.27 µs more
// (1.30 against 1.03 µs; docs/notes/2026-11-26-cold-runs-at-the-line.md).
function oneNodePlan(inputs, overridable, steps, outputs, base, plainNames) {
  if (steps.length !== 1 || outputs.length !== 1 || !plainNames || overridable.size) return null;
  // (A symbolic input is checked on every run, so its feed never passes the plan's test.)
  if (inputs.some((i) => i.symbolic)) return null;
  const st = steps[0];
  if (st.lazy || outputs[0].slot !== st.out) return null;
  const side = (slot) => {
    if (slot < 0) return { name: undefined, spec: null, t: undefined };
    const i = inputs.find((x) => x.slot === slot);
    return i ? { name: i.spec.name, spec: i.spec, t: undefined } : { name: undefined, spec: null, t: base[slot] };
  };
  const a = side(st.a), b = side(st.b);
  // (One input read twice, Gather(x, x), counts twice here against once in `inputs`: not planned.)
  if ((a.spec ? 1 : 0) + (b.spec ? 1 : 0) !== inputs.length) return null;
  return { prepared: st.prepared, output: outputs[0].name, nameA: a.name, specA: a.spec, a: a.t, nameB: b.name, specB: b.spec, b: b.t };
}

// { type, dims } of a ValueInfoProto: dims entries number | symbol string | null; dims null when
// the rank is unknown.
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

// The tensor of a Constant node from whichever value attribute it has (`loaded`: its tensor when
// stored in external data, loaded before).
function constantTensor(node, loaded) {
  const a = node.attribute[0];
  if (node.attribute.length !== 1) throw modelError(`Constant '${node.output[0]}' must have exactly one value attribute, has ${node.attribute.length}`);
  switch (a.name) {
    case 'value':
      if (!a.t) throw modelError(`Constant '${node.output[0]}': attribute 'value' holds no tensor`);
      return loaded ?? tensorFromProto(a.t);
    case 'value_float': return new Tensor('float32', [a.f], []);
    case 'value_floats': return new Tensor('float32', Array.from(a.floats), [a.floats.length]);
    case 'value_int': return new Tensor('int64', [a.i], []);
    case 'value_ints': return new Tensor('int64', Array.from(a.ints), [a.ints.length]);
    case 'value_string': return new Tensor('string', [new TextDecoder().decode(a.s)], []);
    case 'value_strings': return new Tensor('string', a.strings.map((s) => new TextDecoder().decode(s)), [a.strings.length]);
    default: throw modelError(`Constant '${node.output[0]}': attribute '${a.name}' is not supported (sparse_value and others)`);
  }
}

// A node's attributes as a plain object, for display: each read as node.mjs reads it for a run
// (ints as numbers, a bigint beyond 2^53, bytes as text); a tensor or other kind by its name.
function plainAttributes(node) {
  const out = {};
  for (const a of node.attribute) {
    out[a.name] = a.type === 4 ? `<tensor ${a.t?.name ?? ''}>` : ATTR_TYPE_NAMES[a.type] ? attributeFromProto(a, false).value : `<attribute type ${a.type}>`;
  }
  return out;
}

// A declared shape as text: [batch, 4, ?].
const shapeText = (dims) => `[${dims.map((d) => d ?? '?').join(', ')}]`;

// Plain assignment, except for a value named '__proto__', which assignment would not store.
function setResult(result, name, t) {
  if (name === '__proto__') Object.defineProperty(result, name, { value: t, enumerable: true, writable: true, configurable: true });
  else result[name] = t;
}

function copyTensor(t) {
  const data = t.type === 'string' ? Array.from(t.data) : t.data.slice();
  return new Tensor(t.type, data, Array.from(t.dims));
}

// A run that failed: the node outputs it made and its temporary feed Tensors are freed.
function abandon(produced, temporaries) {
  if (produced) for (const t of produced) t.dispose();
  if (temporaries) for (const t of temporaries) t.dispose();
}

export class InferenceSession {
  #inputs; #outputs; #initializers; #lazy; #overridable; #steps; #opset; #released = false; #owned = []; #info; #plan;

  // source: a file path (Node), a URL (string in browsers; http(s) URL or URL object anywhere), a
  // Blob or File, a Uint8Array or an ArrayBuffer. options: { externalData, externalDataMode:
  // 'auto' | 'memory' | 'lazy', onProgress({ loaded, total }), cache: 'opfs', cacheKey } (see
  // README, Large tables, and docs/large-tables-browser.md).
  static async create(source, options = {}) {
    await init();
    warmUp ??= InferenceSession.#warmUp().catch(() => {});   // once; its failure changes nothing
    await warmUp;
    const loading = loadingOptions(options);
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
    return session;
  }

  // Runs warm-up.mjs's model WARM_UP_RUNS times, so that the run path is compiled before a
  // user's first runs (see there). Every fourth run feeds a new Tensor, which takes the general
  // path (its check, then the plan's), as a user's first run does; the others take the one-node
  // plan, as the user's later runs do.
  static async #warmUp() {
    const session = new InferenceSession();
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

  async #load(model, store, loading, modelBytes) {
    const g = model.graph;
    if (!g) throw modelError('the model has no graph');
    const defaultOpset = model.opsetImport.find((o) => o.domain === '' || o.domain === 'ai.onnx');
    if (!defaultOpset) throw modelError('the model imports no opset of the default ONNX domain');
    this.#opset = Number(defaultOpset.version);

    const unsupported = new Set();
    for (const n of g.node) {
      const domain = n.domain === 'ai.onnx' ? '' : n.domain;
      if (domain !== '') unsupported.add(`${n.opType} (domain '${n.domain}')`);
      else if (!RUNNABLE.has(n.opType) && n.opType !== 'Constant') unsupported.add(n.opType);
    }
    if (unsupported.size)
      throw new UnsupportedOpError(`the model uses ops onnx-wasm does not run: ${[...unsupported].join(', ')}; it runs Gather, Flatten, Reshape and Constant in the default domain`);

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
        const t = this.#initializers.get(name);
        if (t.type !== spec.type || (spec.dims && (spec.dims.length !== t.dims.length || spec.dims.some((d, k) => typeof d === 'number' && d !== t.dims[k]))))
          throw modelError(`graph input '${name}' is declared ${spec.type} ${shapeText(spec.dims ?? ['...'])} but its initializer is ${t.type} [${t.dims.join(', ')}]`);
      }
      this.#inputs = declared.filter((i) => !this.#initializers.has(i.name));

      // What is known of every value: { type, dims, value? } (value: small constant int64 tensors).
      const info = new Map();
      // (value only when every entry is a safe integer; otherwise inference uses the rank and the
      // run reports the bad value.)
      const constInfo = (t) => {
        const value = t.type === 'int64' && t.size <= 64 ? Array.from(t.data, Number) : undefined;
        return { type: t.type, dims: Array.from(t.dims), value: value?.every(Number.isSafeInteger) ? value : undefined };
      };
      for (const i of declared) info.set(i.name, { type: i.type, dims: i.dims });
      for (const [name, t] of this.#initializers) if (!this.#overridable.has(name)) info.set(name, constInfo(t));
      for (const [name, table] of this.#lazy) info.set(name, { type: table.t.name, dims: Array.from(table.dims) });

      // Topological order, with a clear error for a missing tensor or a cycle.
      // Every value is assigned once (ONNX graphs are in SSA form): a second producer is refused.
      const producer = new Map();
      const nodeName = (k) => `node '${g.node[k].name || g.node[k].opType}'`;
      g.node.forEach((n, k) => n.output.forEach((o) => {
        if (!o) return;
        const earlier = producer.has(o) ? nodeName(producer.get(o)) : this.#initializers.has(o) ? 'an initializer' : info.has(o) ? 'a graph input' : null;
        if (earlier) throw modelError(`value '${o}' is assigned twice: by ${earlier} and by ${nodeName(k)}`);
        producer.set(o, k);
      }));
      // Depth-first with an explicit stack: a chain of any length neither overflows the call
      // stack nor copies its path at every step. Entries: [node, next input, value that led here].
      const order = [];
      const state = new Uint8Array(g.node.length);   // 0 unvisited, 1 on the stack, 2 done
      for (let root = 0; root < g.node.length; ++root) {
        if (state[root]) continue;
        state[root] = 1;
        const stack = [[root, 0, g.node[root].output[0] ?? '']];
        while (stack.length) {
          const top = stack[stack.length - 1];
          const inputs = g.node[top[0]].input;
          if (top[1] === inputs.length) {
            state[top[0]] = 2;
            order.push(top[0]);
            stack.pop();
            continue;
          }
          const input = inputs[top[1]++];
          if (!input || info.has(input)) continue;
          if (!producer.has(input)) throw modelError(`${nodeName(top[0])} reads '${input}', which no input, initializer or node provides`);
          const p = producer.get(input);
          if (state[p] === 2) continue;
          if (state[p] === 1) {
            const path = stack.map((e) => e[2]).concat(input);
            throw modelError(`the graph has a cycle through ${nodeName(p)} (${path.length > 32 ? ['...', ...path.slice(-32)].join(' -> ') : path.join(' -> ')})`);
          }
          state[p] = 1;
          stack.push([p, 0, input]);
        }
      }

      this.#steps = [];
      for (const k of order) {
        const n = g.node[k];
        const label = `node '${n.name || n.opType}' (${n.opType})`;
        if (n.opType === 'Constant') {
          const t = constantTensor(n, constants.get(n));
          if (!constants.has(n)) owned.push(t);   // (a loaded one is owned already)
          this.#initializers.set(n.output[0], t);
          info.set(n.output[0], constInfo(t));
          continue;
        }
        const inputs = n.input.map((x) => {
          if (!x) throw modelError(`${label} has an empty input name, which ${n.opType} does not allow`);
          return info.get(x);
        });
        let outs;
        try {
          outs = inferShapes(n, inputs, { opset: this.#opset });
        } catch (e) {
          if (e instanceof OnnxWasmError) e.message = `${label}: ${e.message}`;
          throw e;
        }
        if (n.output.length !== 1) throw modelError(`${label} must have 1 output, has ${n.output.length}`);
        info.set(n.output[0], outs[0]);
        const prepared = new PreparedNode(n, { opset: this.#opset });
        owned.push(prepared);
        this.#steps.push({ prepared, inputs: Array.from(n.input), output: n.output[0], label });
      }

      const declaredOut = new Map(g.output.map((o) => [o.name, o]));
      this.#outputs = g.output.map((o) => {
        const inferred = info.get(o.name);
        if (!inferred) throw modelError(`graph output '${o.name}' is not produced by any node, input or initializer`);
        const d = valueInfo(declaredOut.get(o.name));
        return { name: o.name, type: inferred.type, dims: inferred.dims ?? d.dims };
      });
      this.#plan = this.#makePlan();
      this.#info = info;
      this.irVersion = Number(model.irVersion);
      this.opsetImports = model.opsetImport.map((o) => ({ domain: o.domain, version: Number(o.version) }));
      this.nodes = order.map((k) => ({ name: g.node[k].name, opType: g.node[k].opType, inputs: Array.from(g.node[k].input), outputs: Array.from(g.node[k].output), attributes: plainAttributes(g.node[k]) }));
      this.#owned = owned;
    } catch (e) {
      for (const x of owned) x.dispose();
      throw e;
    }
  }

  get inputNames() { return this.#inputs.map((i) => i.name); }
  get outputNames() { return this.#outputs.map((o) => o.name); }
  get inputMetadata() { return this.#inputs.map((i) => ({ name: i.name, isTensor: true, type: i.type, shape: i.dims })); }
  get outputMetadata() { return this.#outputs.map((o) => ({ name: o.name, isTensor: true, type: o.type, shape: o.dims })); }
  get opset() { return this.#opset; }

  // The inferred { type, dims } of any value of the graph (input, initializer, node output), or
  // undefined. dims entries: number, symbol or null; dims null when the rank is unknown.
  // For an initializer also where it lives, { storage: 'memory' | 'file', bytes } ('file': kept
  // in its external source, `location`, and read by rows when a Gather runs).
  valueInfo(name) {
    const v = this.#info.get(name);
    if (!v) return undefined;
    const r = { type: v.type, dims: v.dims && Array.from(v.dims) };
    const lazy = this.#lazy.get(name), t = this.#initializers.get(name);
    if (lazy) Object.assign(r, { storage: 'file', location: lazy.location, bytes: lazy.bytes });
    else if (t) Object.assign(r, { storage: 'memory', bytes: t.type === 'string' ? undefined : t.data.byteLength });
    return r;
  }

  // Every value gets a slot in an array, so that a run is array reads and writes: session
  // tensors (initializers, Constants) are in the base array; feeds and node outputs are set per run.
  #makePlan() {
    const slot = new Map();
    const base = [];
    const at = (name) => {
      if (!slot.has(name)) { slot.set(name, base.length); base.push(undefined); }
      return slot.get(name);
    };
    for (const [name, t] of this.#initializers) base[at(name)] = t;
    const inputs = this.#inputs.map((spec) => ({ spec, slot: at(spec.name), symbolic: !!spec.dims?.some((d) => typeof d === 'string') }));
    const overridable = new Map([...this.#overridable].map(([name, spec]) => [name, { slot: at(name), spec, symbolic: !!spec.dims?.some((d) => typeof d === 'string') }]));
    // (lazy: the table a Gather reads by rows from its source; placeTables lets only Gathers read one)
    const steps = this.#steps.map((st) => ({ prepared: st.prepared, a: at(st.inputs[0]), b: st.inputs.length > 1 ? at(st.inputs[1]) : -1, out: at(st.output), lazy: this.#lazy.get(st.inputs[0]) }));
    const producedSlots = new Set(steps.map((st) => st.out));
    const outputs = this.#outputs.map((o) => ({ name: o.name, slot: at(o.name), produced: producedSlots.has(at(o.name)) }));
    const returned = new Set(outputs.filter((o) => o.produced).map((o) => o.slot));
    // Node outputs that are not graph outputs are freed after the run (each slot once).
    for (const st of steps) st.temporary = !returned.has(st.out);
    const uniqueOutputs = new Set(outputs.map((o) => o.slot)).size === outputs.length;
    const plainNames = !outputs.some((o) => o.name === '__proto__');   // (results set by assignment)
    // (inputNames: a Set. An object read as `isInput[name]` saved 10 ns a run in V8's first tiers,
    // but Chromium's optimized code then took 0.95 against 0.66 µs a tiny run.)
    const inputNames = new Set(this.#inputs.map((i) => i.name));
    const oneNode = oneNodePlan(inputs, overridable, steps, outputs, base, plainNames);
    return { slot, base, inputs, inputNames, overridable, steps, outputs, uniqueOutputs, plainNames, oneNode };
  }

  // feeds: { name: Tensor | { type, data, dims } }. Resolves to { outputName: Tensor }.
  // `fetches` (names) selects outputs, or any other value of the graph.
  // This is the hot path of a small model: no closures, no strings built unless there is an error.
  // It runs at once and returns a settled promise: as an async function, run() cost about 1 µs
  // more a run in V8's first tiers, a fifth of a cold run (README, Cold runs). Only a Gather that
  // reads a table by rows from its source awaits (#finishReadingTables takes over there). Nothing
  // is partial: on an error every tensor the run made is freed.
  run(feeds, fetches) {
    // What the run has made so far, freed if it fails: node outputs (produced) and the Tensors made
    // of { type, data, dims } feeds (temporaries). (Locals, not a record object: in V8's first
    // tiers, a session's first runs, making one cost a run 40 ns.)
    let produced = null, temporaries = null;
    try {
      if (this.#released) throw new DisposedError('this session was released');
      if (!feeds || typeof feeds !== 'object') throw invalidArgument('run(feeds) takes an object of input tensors');
      const plan = this.#plan;
      // A graph of one node (oneNodePlan) whose feeds are Tensors that passed their checks before,
      // and no other feed: the run is the node's call. Anything else takes the general path.
      const one = plan.oneNode;
      if (one !== null && fetches === undefined) {
        let a = one.a, b = one.b, planned = true;
        if (one.specA !== null) planned = passedCheck(a = feeds[one.nameA], one.specA);
        if (planned && one.specB !== null) planned = passedCheck(b = feeds[one.nameB], one.specB);
        if (planned) for (const name in feeds) if (name !== one.nameA && name !== one.nameB) planned = false;
        if (planned) {
          const result = {};
          result[one.output] = one.prepared.runTensors(a, b);
          return Promise.resolve(result);
        }
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
      produced = [];
      let symbols = null;
      // (indexed loops: a session's first runs execute in V8's interpreter and baseline tiers,
      // where each for-of loop costs an iterator)
      // Tensor feeds are checked at once; { type, data, dims } feeds are copied in together
      // afterwards (tensor-likes.mjs: one may be a view that another's copy would detach).
      let likes = null;
      const inputs = plan.inputs;
      for (let k = 0; k < inputs.length; ++k) {
        const { spec, slot, symbolic } = inputs[k];
        const t = feeds[spec.name];
        if (t === undefined) throw invalidArgument(`input '${spec.name}' is missing from the feeds (expected ${spec.type} ${shapeText(spec.dims ?? [])})`);
        if (!symbolic && passedCheck(t, spec)) slots[slot] = t;   // (a Tensor, checked before)
        else if (!(t instanceof Tensor)) (likes ??= []).push({ name: spec.name, t, spec, slot, symbolic });
        else {
          this.#check(spec.name, t, spec, symbolic ? (symbols ??= new Map()) : null);
          if (!symbolic) rememberCheck(t, spec);
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
      for (let k = 0; k < steps.length; ++k) {
        const st = steps[k];
        if (st.lazy) {
          const rest = this.#finishReadingTables({ slots, produced, temporaries }, k, fetches);
          produced = temporaries = null;   // owned by the continuation now
          return rest;
        }
        const out = st.prepared.runTensors(slots[st.a], st.b < 0 ? undefined : slots[st.b]);
        produced.push(out);
        slots[st.out] = out;
      }
      const made = produced, temps = temporaries;
      produced = temporaries = null;   // #end frees what the run made if it fails
      return Promise.resolve(this.#end(slots, made, temps, fetches));
    } catch (e) {
      abandon(produced, temporaries);
      return Promise.reject(e);
    }
  }

  // The rest of a run from step `from`, a Gather reading a table by rows from its source. state:
  // { slots, produced, temporaries } as run() had them, owned (and freed on an error) here.
  async #finishReadingTables(state, from, fetches) {
    const steps = this.#plan.steps, slots = state.slots;
    try {
      for (let k = from; k < steps.length; ++k) {
        const st = steps[k];
        const out = st.lazy ? await st.lazy.gather(st.prepared, slots[st.b]) : st.prepared.runTensors(slots[st.a], st.b < 0 ? undefined : slots[st.b]);
        state.produced.push(out);
        slots[st.out] = out;
      }
    } catch (e) {
      abandon(state.produced, state.temporaries);
      throw e;
    }
    return this.#end(slots, state.produced, state.temporaries, fetches);
  }

  // The result object once every step has run; node outputs not returned are freed.
  #end(slots, produced, temporaries, fetches) {
    const plan = this.#plan, steps = plan.steps;
    let copies = null;
    try {
      const result = {};
      if (fetches === undefined && plan.uniqueOutputs) {
        const outputs = plan.outputs, plain = plan.plainNames;
        for (let k = 0; k < outputs.length; ++k) {
          const o = outputs[k];
          let t = slots[o.slot];
          if (!o.produced) (copies ??= []).push(t = copyTensor(t));
          if (plain) result[o.name] = t;
          else setResult(result, o.name, t);
        }
        // Node outputs not returned are freed, each by itself: two nodes may write one slot
        // (an empty output name), so the slots alone would miss the first one.
        for (let k = 0; k < steps.length; ++k) if (steps[k].temporary || slots[steps[k].out] !== produced[k]) produced[k].dispose();
      } else {
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
        for (const t of produced) if (!given.has(t)) t.dispose();
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
  #copyLikes(likes, slots, temporaries, symbols) {
    const { tensors, made } = tensorsFromLikes(likes.map((f) => (f.t === null ? {} : f.t)), (i) => `feed '${likes[i].name}'`);
    temporaries.push(...made);
    for (let i = 0; i < likes.length; ++i) {
      const { name, spec, slot, symbolic } = likes[i];
      if (spec) this.#check(name, tensors[i], spec, symbolic ? (symbols ??= new Map()) : null);
      slots[slot] = tensors[i];
    }
    return symbols;
  }

  // A feed against its graph input: type, rank, fixed dims, and one value per symbol.
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

  async release() {
    if (this.#released) return;
    this.#released = true;
    for (const x of this.#owned) x.dispose();
  }
}
