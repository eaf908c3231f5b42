// @ts-check
// What js/ checks against the registry on every session create: which (domain, op) pairs run, and
// which input of each may be a table read by rows, along the axis of which attribute. Read once,
// from the binding's registryIndex (one string's bytes), not from opVersions(): building every row as
// objects was work a session's first result waited for (docs/performance.md, "Figures behind
// design choices").
import { getModule } from './runtime.mjs';

/**
 * rowsAlso: a bit per input indexed by the same rows as the table (bit k: input k).
 * @typedef {{ rowsInput: number, rowsAxis: string, rowsAlso: number }} OpFacts
 */

/** @type {Map<string, Map<string, OpFacts>> | null} */
let facts = null;

/**
 * Map domain ('' for the default one) -> Map op type -> its facts, in the registry's order.
 * @returns {Map<string, Map<string, OpFacts>>}
 */
export function registryFacts() {
  if (facts) return facts;
  const byDomain = new Map();
  // (slice: a copy, which TextDecoder takes where wasm memory is shared, the threads build)
  for (const line of new TextDecoder().decode(getModule().registryIndex().slice()).split('\n')) {
    if (!line) continue;
    const [domain, op, rowsInput, rowsAxis, rowsAlso] = line.split('\t');
    if (!byDomain.has(domain)) byDomain.set(domain, new Map());
    byDomain.get(domain).set(op, { rowsInput: Number(rowsInput), rowsAxis, rowsAlso: Number(rowsAlso) });
  }
  facts = byDomain;
  return byDomain;
}
