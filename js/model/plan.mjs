// The run plan of an InferenceSession, made once at create(): every value gets a slot in an
// array, so that a run is array reads and writes. Session tensors (initializers, Constants) are in
// the base array; feeds and node outputs are set per run. Each step names its inputs' slots (-1
// for an omitted input), as many as the node has.
// Shape subgraphs are computed once per distinct set of dims they read (memo): a Shape or Size
// node, and a node whose inputs are all session tensors or such nodes' outputs, keeps its outputs
// by the dims of the Shape/Size inputs it depends on (a few entries), so that the
// Shape -> Gather -> Unsqueeze -> Concat -> Reshape of a dynamic-axes export costs a lookup per
// node on a run, not a node's run.
// @ts-check
import { registryFacts } from '../registry.mjs';

/** @typedef {import('../tensor.mjs').Tensor} Tensor */
/** @typedef {import('../prepared.mjs').PreparedNode} PreparedNode */
/** @typedef {import('./lazy-table.mjs').LazyTable} LazyTable */

/**
 * A graph input as declared (session.mjs, valueInfo): dims entries a number, a symbol or null;
 * dims null when the rank is unknown.
 * @typedef {{ name: string, type: import('../index.js').TensorType, dims: import('../index.js').Dim[] | null }} InputSpec
 */

/**
 * A graph input's record (inputRecord). `passed`: the last Tensor that passed its check, or null.
 * @typedef {{ spec: InputSpec, slot: number, symbolic: boolean, passed: import('../tensor.mjs').Tensor | null }} InputRecord
 */

/**
 * A step of the run: its node, its inputs' slots (-1: omitted), how many, its output's slot, the
 * table it reads by rows (or undefined), its inputs kept in their source (`also`, by input) and
 * its inputs indexed by the same rows (a bit each, registry.mjs), whether its output is freed
 * after the run, and the node's label ("node 'lookup' (Gather)"), which prefixes the node's
 * errors. `memo`: its outputs by key for a step of a shape subgraph (null for the others);
 * `source`: for a Shape or Size step, its number among the sources (its key: its input's dims),
 * else -1; `deps`: the sources it depends on (its key: theirs, joined); `last`: its last key, its sources' keys then, its input's dims (a source) and
 * its output (an entry of the memo).
 * @typedef {{ prepared: PreparedNode, at: number[], n: number, out: number, lazy: LazyTable | undefined, also: (LazyTable | undefined)[], rowsAlso: number, temporary: boolean,
 *   label: string, memo: Map<string, Tensor> | null, source: number, deps: number[],
 *   last: { key: string, depKeys: string[], dims: readonly number[], out: Tensor } | null }} PlanStep
 */

/** @typedef {{ name: string, slot: number, produced: boolean }} PlanOutput */

/**
 * The plan of a graph of one node (oneNodePlan).
 * @typedef {{ prepared: PreparedNode, output: string, n: number, args: (Tensor | undefined)[], feeds: { k: number, name: string, input: InputRecord }[] }} OneNodePlan
 */

/**
 * The run plan (makePlan): `base`, the session tensors in their slots (undefined for the others).
 * @typedef {object} Plan
 * @property {Map<string, number>} slot
 * @property {(Tensor | undefined)[]} base
 * @property {InputRecord[]} inputs
 * @property {Set<string>} inputNames
 * @property {Map<string, InputRecord>} overridable
 * @property {PlanStep[]} steps
 * @property {PlanOutput[]} outputs
 * @property {boolean} uniqueOutputs
 * @property {boolean} plainNames
 * @property {OneNodePlan | null} oneNode
 * @property {number} sources how many steps are memo sources (Shape, Size)
 * @property {boolean} oneSymbolic whether exactly one input (or overridable initializer) has
 *   symbolic dims: its check involves no other feed, so a Tensor that passed it passes again
 */

// A graph input's record: its spec, its slot, whether it has symbolic dims (checked on every run)
// and `passed`, the last Tensor that passed the check against it (a Tensor's type and dims never
// change, so a feed given again, as most are run after run, is not checked again). One identity
// comparison: a WeakSet of every Tensor that passed cost a tiny run more (docs/performance.md).
// It keeps that one Tensor reachable until another passes or the session is released; its wasm
// memory is still freed by dispose().
/**
 * @param {InputSpec} spec
 * @param {number} slot
 * @returns {InputRecord}
 */
function inputRecord(spec, slot) {
  return { spec, slot, symbolic: !!spec.dims?.some((d) => typeof d === 'string'), passed: null };
}

// inputs: the graph inputs' specs; overridable: Map name -> spec of initializers a feed may
// replace; tensors: the session's tensors by name; steps: { prepared, inputs, output } in run
// order; outputs: { name } of the graph outputs; lazy: Map name -> table read by rows.
/**
 * @param {readonly InputSpec[]} inputs
 * @param {ReadonlyMap<string, InputSpec>} overridable
 * @param {ReadonlyMap<string, Tensor>} tensors
 * @param {readonly import('./infer-graph.mjs').Step[]} steps
 * @param {readonly { name: string }[]} outputs
 * @param {ReadonlyMap<string, LazyTable>} lazy
 * @returns {Plan}
 */
export function makePlan(inputs, overridable, tensors, steps, outputs, lazy) {
  /** @type {Map<string, number>} */
  const slot = new Map();
  /** @type {(Tensor | undefined)[]} */
  const base = [];
  /** @type {(name: string) => number} */
  const at = (name) => {
    if (!slot.has(name)) { slot.set(name, base.length); base.push(undefined); }
    return /** @type {number} */ (slot.get(name));   // (set above, if it was not)
  };
  for (const [name, t] of tensors) base[at(name)] = t;
  const inputRecords = inputs.map((spec) => inputRecord(spec, at(spec.name)));
  const overridableRecords = new Map([...overridable].map(([name, spec]) => [name, inputRecord(spec, at(name))]));
  // (lazy: the table a node reads by rows from its source, its input 0; placeTables lets only
  // such nodes read one; also: each input kept in its source, read with those rows)
  // (temporary, memo, source and deps: set below)
  const facts = registryFacts();
  const planSteps = steps.map((st) => /** @type {PlanStep} */ ({
    prepared: st.prepared, at: st.inputs.map((x) => (x ? at(x) : -1)), n: st.inputs.length, out: at(st.output), lazy: lazy.get(st.inputs[0]), also: st.inputs.map((x) => lazy.get(x)),
    rowsAlso: facts.get(st.domain)?.get(st.opType)?.rowsAlso ?? 0, label: st.label,
    temporary: true, memo: null, source: -1, deps: [], last: null,
  }));
  const sources = markShapeSteps(steps, planSteps, base, new Set([...overridable.keys()].map(at)));
  // (a memo step's output belongs to the memo: returned as a copy, never freed by a run)
  const producedSlots = new Set(planSteps.filter((st) => !st.memo).map((st) => st.out));
  const planOutputs = outputs.map((o) => ({ name: o.name, slot: at(o.name), produced: producedSlots.has(at(o.name)) }));
  const returned = new Set(planOutputs.filter((o) => o.produced).map((o) => o.slot));
  // Node outputs that are not graph outputs are freed after the run (each slot once).
  for (const st of planSteps) st.temporary = !st.memo && !returned.has(st.out);
  const uniqueOutputs = new Set(planOutputs.map((o) => o.slot)).size === planOutputs.length;
  const plainNames = !planOutputs.some((o) => o.name === '__proto__');   // (results set by assignment)
  // (inputNames: a Set. An object read as `isInput[name]` saved time in V8's first tiers but cost
  // more in Chromium's optimized code: docs/notes/2026-11-26-cold-runs-at-the-line.md.)
  const inputNames = new Set(inputs.map((i) => i.name));
  const oneNode = oneNodePlan(inputRecords, overridableRecords, planSteps, planOutputs, base, plainNames);
  const oneSymbolic = inputRecords.filter((i) => i.symbolic).length + [...overridableRecords.values()].filter((o) => o.symbolic).length === 1;
  return { slot, base, inputs: inputRecords, inputNames, overridable: overridableRecords, steps: planSteps, outputs: planOutputs, uniqueOutputs, plainNames, oneNode, sources, oneSymbolic };
}

// How many entries a memo step keeps (distinct dims of its sources), the oldest evicted first.
const MEMO_ENTRIES = 8;

// Marks the steps of shape subgraphs (memo, source, deps). `constantSlots`: the session tensors a
// feed cannot override. Returns the number of sources.
/**
 * @param {readonly import('./infer-graph.mjs').Step[]} steps
 * @param {PlanStep[]} planSteps
 * @param {readonly (Tensor | undefined)[]} base
 * @param {ReadonlySet<number>} overridableSlots
 * @returns {number}
 */
function markShapeSteps(steps, planSteps, base, overridableSlots) {
  /** @type {Map<number, number[]>} slot -> the sources its value depends on */
  const memoOut = new Map();
  let sources = 0;
  for (let k = 0; k < steps.length; ++k) {
    const st = planSteps[k];
    if (st.lazy) continue;
    const isSource = steps[k].domain === '' && (steps[k].opType === 'Shape' || steps[k].opType === 'Size');
    /** @type {Set<number>} */
    const deps = new Set();
    let derived = true;
    if (!isSource) {
      for (const slot of st.at) {
        if (slot < 0) continue;
        const d = memoOut.get(slot);
        if (d) d.forEach((x) => deps.add(x));
        else if (base[slot] === undefined || overridableSlots.has(slot)) { derived = false; break; }
      }
    }
    if (!derived) continue;
    st.memo = new Map();
    if (isSource) deps.add(st.source = sources++);
    st.deps = [...deps].sort((a, b) => a - b);
    memoOut.set(st.out, st.deps);
  }
  return sources;
}

// The run of a memo step: its output for the dims its sources read this run (keys[i]: source i's
// key, set as it runs), run and kept if it is not kept yet. The output belongs to the memo.
/**
 * @param {PlanStep} st
 * @param {(Tensor | undefined)[]} slots
 * @param {string[]} keys
 * @returns {Tensor}
 */
export function runMemoStep(st, slots, keys) {
  // The usual run has the dims of the run before: a source whose input has its last dims keeps its
  // last key (the same string), and a step whose sources' keys are all the last ones its last
  // output, with no string built and no lookup.
  const last = st.last;
  if (st.source >= 0) {
    const dims = /** @type {Tensor} */ (slots[st.at[0]]).dims;
    if (last && sameDims(dims, last.dims)) {
      keys[st.source] = last.key;
      return last.out;
    }
    const key = keys[st.source] = dims.join(',');
    return remember(st, slots, key, [], dims);
  }
  const deps = st.deps;
  if (last) {
    let same = true;
    for (let i = 0; i < deps.length && same; ++i) same = keys[deps[i]] === last.depKeys[i];
    if (same) return last.out;
  }
  let key = '';
  const depKeys = new Array(deps.length);
  for (let i = 0; i < deps.length; ++i) key += `${(depKeys[i] = keys[deps[i]])};`;
  return remember(st, slots, key, depKeys, []);
}

/**
 * @param {readonly number[]} a
 * @param {readonly number[]} b
 */
function sameDims(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; ++i) if (a[i] !== b[i]) return false;
  return true;
}

// The step's output for `key`, from its memo or run and kept (the oldest entry freed beyond
// MEMO_ENTRIES), remembered as the step's last.
/**
 * @param {PlanStep} st
 * @param {(Tensor | undefined)[]} slots
 * @param {string} key
 * @param {string[]} depKeys
 * @param {readonly number[]} dims
 * @returns {Tensor}
 */
function remember(st, slots, key, depKeys, dims) {
  const memo = /** @type {Map<string, Tensor>} */ (st.memo);
  let out = memo.get(key);
  if (out === undefined) {
    out = st.prepared.runTensors(slots, st.at, st.n);
    if (memo.size >= MEMO_ENTRIES) {
      const [oldest, t] = /** @type {[string, Tensor]} */ (memo.entries().next().value);
      memo.delete(oldest);
      t.dispose();
    }
    memo.set(key, out);
  }
  st.last = { key, depKeys, dims, out };
  return out;
}

// Frees what the memo steps keep (the session's release()).
/** @param {Plan} plan */
export function disposeMemos(plan) {
  for (const st of plan.steps) {
    if (!st.memo) continue;
    for (const t of st.memo.values()) t.dispose();
    st.memo.clear();
    st.last = null;
  }
}

// The plan of a graph that is one node (a Gather of a table, the main use), or null: the node's
// inputs are graph inputs of fixed dims or session tensors (or omitted), every graph input is read
// once by it, no initializer may be overridden, and the node's output is the one graph output,
// returned as is. run() then makes no slots, no list of what it produced and no second pass
// (docs/notes/2026-11-26-cold-runs-at-the-line.md). { prepared, output, n, args: the node's
// inputs, session tensors in place and feed positions filled per run, feeds: [{ k, name, input }]
// for those positions }.
/**
 * @param {readonly InputRecord[]} inputs
 * @param {ReadonlyMap<string, InputRecord>} overridable
 * @param {readonly PlanStep[]} steps
 * @param {readonly PlanOutput[]} outputs
 * @param {readonly (Tensor | undefined)[]} base
 * @param {boolean} plainNames
 * @returns {OneNodePlan | null}
 */
function oneNodePlan(inputs, overridable, steps, outputs, base, plainNames) {
  if (steps.length !== 1 || outputs.length !== 1 || !plainNames || overridable.size) return null;
  // (A symbolic input is checked on every run, so its feed never passes the plan's test.)
  if (inputs.some((i) => i.symbolic)) return null;
  const st = steps[0];
  if (st.lazy || outputs[0].slot !== st.out) return null;
  const args = new Array(st.n).fill(undefined);
  /** @type {OneNodePlan['feeds']} */
  const feeds = [];
  for (let k = 0; k < st.n; ++k) {
    const slot = st.at[k];
    if (slot < 0) continue;
    const input = inputs.find((x) => x.slot === slot);
    if (input) feeds.push({ k, name: input.spec.name, input });
    else args[k] = base[slot];
  }
  // (One input read twice, Gather(x, x), counts twice here against once in `inputs`: not planned.)
  if (feeds.length !== inputs.length || new Set(feeds.map((f) => f.input)).size !== feeds.length) return null;
  return { prepared: st.prepared, output: outputs[0].name, n: st.n, args, feeds };
}
