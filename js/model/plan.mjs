// The run plan of an InferenceSession, made once at create(): every value gets a slot in an
// array, so that a run is array reads and writes. Session tensors (initializers, Constants) are in
// the base array; feeds and node outputs are set per run. Each step names its inputs' slots (-1
// for an omitted input), as many as the node has.

// A graph input's record: its spec, its slot, whether it has symbolic dims (checked on every run)
// and `passed`, the Tensors that passed the check against it (a Tensor's type and dims never
// change, so a feed given again, as most are run after run, is not checked again).
function inputRecord(spec, slot) {
  return { spec, slot, symbolic: !!spec.dims?.some((d) => typeof d === 'string'), passed: new WeakSet() };
}

// inputs: the graph inputs' specs; overridable: Map name -> spec of initializers a feed may
// replace; tensors: the session's tensors by name; steps: { prepared, inputs, output } in run
// order; outputs: { name } of the graph outputs; lazy: Map name -> table read by rows.
export function makePlan(inputs, overridable, tensors, steps, outputs, lazy) {
  const slot = new Map();
  const base = [];
  const at = (name) => {
    if (!slot.has(name)) { slot.set(name, base.length); base.push(undefined); }
    return slot.get(name);
  };
  for (const [name, t] of tensors) base[at(name)] = t;
  const inputRecords = inputs.map((spec) => inputRecord(spec, at(spec.name)));
  const overridableRecords = new Map([...overridable].map(([name, spec]) => [name, inputRecord(spec, at(name))]));
  // (lazy: the table a node reads by rows from its source, its input 0; placeTables lets only
  // such nodes read one)
  const planSteps = steps.map((st) => ({
    prepared: st.prepared, at: st.inputs.map((x) => (x ? at(x) : -1)), n: st.inputs.length, out: at(st.output), lazy: lazy.get(st.inputs[0]),
  }));
  const producedSlots = new Set(planSteps.map((st) => st.out));
  const planOutputs = outputs.map((o) => ({ name: o.name, slot: at(o.name), produced: producedSlots.has(at(o.name)) }));
  const returned = new Set(planOutputs.filter((o) => o.produced).map((o) => o.slot));
  // Node outputs that are not graph outputs are freed after the run (each slot once).
  for (const st of planSteps) st.temporary = !returned.has(st.out);
  const uniqueOutputs = new Set(planOutputs.map((o) => o.slot)).size === planOutputs.length;
  const plainNames = !planOutputs.some((o) => o.name === '__proto__');   // (results set by assignment)
  // (inputNames: a Set. An object read as `isInput[name]` saved time in V8's first tiers but cost
  // more in Chromium's optimized code: docs/notes/2026-11-26-cold-runs-at-the-line.md.)
  const inputNames = new Set(inputs.map((i) => i.name));
  const oneNode = oneNodePlan(inputRecords, overridableRecords, planSteps, planOutputs, base, plainNames);
  return { slot, base, inputs: inputRecords, inputNames, overridable: overridableRecords, steps: planSteps, outputs: planOutputs, uniqueOutputs, plainNames, oneNode };
}

// The plan of a graph that is one node (a Gather of a table, the main use), or null: the node's
// inputs are graph inputs of fixed dims or session tensors (or omitted), every graph input is read
// once by it, no initializer may be overridden, and the node's output is the one graph output,
// returned as is. run() then makes no slots, no list of what it produced and no second pass
// (docs/notes/2026-11-26-cold-runs-at-the-line.md). { prepared, output, n, args: the node's
// inputs, session tensors in place and feed positions filled per run, feeds: [{ k, name, input }]
// for those positions }.
function oneNodePlan(inputs, overridable, steps, outputs, base, plainNames) {
  if (steps.length !== 1 || outputs.length !== 1 || !plainNames || overridable.size) return null;
  // (A symbolic input is checked on every run, so its feed never passes the plan's test.)
  if (inputs.some((i) => i.symbolic)) return null;
  const st = steps[0];
  if (st.lazy || outputs[0].slot !== st.out) return null;
  const args = new Array(st.n).fill(undefined);
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
