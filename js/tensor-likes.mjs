// Tensor-likes: the { type, data, dims } objects that runNode's inputs and session.run's feeds may
// be instead of Tensors, copied into wasm memory as temporary Tensors. A like's data may itself be
// a view of wasm memory (another tensor's data), and copying one like in can grow memory, which
// detaches such views in one-thread builds: so where each one lies is noted before any is copied,
// and it is viewed again there.
// Memory: the temporary Tensors belong to the caller, which disposes them after the call.
// @ts-check
import { invalidArgument } from './errors.mjs';
import { getModule } from './runtime.mjs';
import { Tensor } from './tensor.mjs';

// The class of a like's data that is a view of wasm memory, to view the same place again.
/** @typedef {new (buffer: ArrayBufferLike, byteOffset: number, length: number) => import('./wasm-module.mjs').WasmView} ViewClass */

// `values`: Tensors (kept as they are), likes, or null/undefined (kept as null: an omitted
// input). `label(i)` names value i in an error ("inputs[1]", "feed 'ids'"). Returns { tensors,
// made }: the Tensors in order, and those made here, for the caller to dispose. On an error none
// is left.
/**
 * @param {readonly any[]} values (any: the caller's, checked here)
 * @param {(i: number) => string} label
 * @returns {{ tensors: (Tensor | null)[], made: Tensor[] }}
 */
export function tensorsFromLikes(values, label) {
  const m = getModule();
  const heap = m.HEAPU8.buffer;
  /** @type {([ViewClass, number, number] | null)[]} */
  const places = values.map((x) => {
    // (typed as the view it is looked for; anything else is told apart by isView)
    /** @type {import('./wasm-module.mjs').WasmView | null | undefined} */
    const d = x instanceof Tensor ? null : x?.data;
    return ArrayBuffer.isView(d) && d.buffer === heap ? [/** @type {ViewClass} */ (d.constructor), d.byteOffset, d.length] : null;
  });
  /** @type {Tensor[]} */
  const made = [];
  try {
    const tensors = values.map((x, i) => {
      if (x === null || x === undefined) return null;
      if (x instanceof Tensor) return x;
      if (typeof x !== 'object' || !('type' in x) || !('data' in x)) throw invalidArgument(`${label(i)} is not a tensor`);
      const data = places[i] ? new places[i][0](m.HEAPU8.buffer, places[i][1], places[i][2]) : x.data;
      const t = new Tensor(x.type, data, x.dims === undefined ? undefined : Array.from(x.dims));
      made.push(t);
      return t;
    });
    return { tensors, made };
  } catch (e) {
    made.forEach((t) => t.dispose());
    throw e;
  }
}
