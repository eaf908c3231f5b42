// A table loaded into wasm memory: a Tensor with the external bytes, read from its source at one
// copy. Memory: the Tensor returned belongs to the caller.
// @ts-check
import { ExternalDataError, ModelError, OutOfMemoryError } from '../generated/errors.mjs';
import { Tensor, UNINITIALIZED } from '../tensor.mjs';
import { DownloadStopped, ShortRead } from './sources.mjs';
import { checkRange, shapeOf, sizeText } from './table-facts.mjs';

// x: the table's facts (table-facts.mjs); progress counts the bytes read.
/**
 * @param {import('./table-facts.mjs').TableFacts} x
 * @param {import('./progress.mjs').Progress} progress
 * @returns {Promise<Tensor>}
 */
export async function loadTensor(x, progress) {
  const { what, t, dims, bytes, offset, location, source } = x;
  await checkRange(x);
  let tensor;
  try {
    tensor = Tensor[UNINITIALIZED](t.name, dims);
  } catch (e) {
    if (e instanceof OutOfMemoryError) throw new OutOfMemoryError(`${what} (${shapeOf(x)}, ${sizeText(bytes)}) does not fit in wasm memory: ${e.message}`);
    throw e;
  }
  try {
    // (a numeric table's data is a typed array)
    await source.readInto(offset, bytes, /** @type {ArrayBufferView} */ (tensor.data).byteOffset, progress);
  } catch (e) {
    tensor.dispose();
    if (e instanceof ShortRead)
      throw new ModelError(`${what} (${shapeOf(x)}, ${bytes} bytes at offset ${offset}) needs ${offset + bytes} bytes of '${location}', which holds ${e.size}`);
    if (e instanceof DownloadStopped) throw new ExternalDataError(`${what}: ${e.message}`);
    if (e instanceof ModelError || e?.code === 'ERR_EXTERNAL_DATA') throw e;
    throw new ModelError(`${what}: cannot read external data '${location}': ${e.message}`);
  }
  return tensor;
}
