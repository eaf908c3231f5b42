// Values known at create(): a node whose output inference knows entirely (a small int64 tensor
// of fixed dims, computed from fixed dims and constants: the Shape -> Gather -> Unsqueeze ->
// Concat of a static export) becomes a session tensor, made once from the inferred values, and
// its step leaves the run. (Inference never reads a feed's values nor an initializer a feed may
// override, so what it knows holds for every run.)
// @ts-check
import { Tensor } from '../tensor.mjs';

/** @typedef {import('./infer-graph.mjs').Step} Step */
/** @typedef {import('./infer-graph.mjs').Known} Known */

/**
 * @param {readonly Step[]} steps
 * @param {ReadonlyMap<string, Known>} info
 * @param {Map<string, Tensor>} tensors the session's tensors: the folded values are added
 * @param {{ dispose(): void }[]} owned what the session frees at release(): the same
 * @returns {Step[]} the steps left to run
 */
export function foldKnownValues(steps, info, tensors, owned) {
  return steps.filter((st) => {
    const k = info.get(st.output);
    const dims = k?.dims;
    const value = k?.value;
    if (!value || k.type !== 'int64' || !dims || !dims.every((d) => typeof d === 'number') || !value.every((x) => typeof x === 'number')) return true;
    const t = new Tensor('int64', value.map((x) => BigInt(/** @type {number} */ (x))), /** @type {number[]} */ (dims));
    owned.push(t);
    tensors.set(st.output, t);
    return false;
  });
}
