// Bytes of a URL, streamed and resumed when the download stops: the one download loop of the
// package, used by UrlSource (into wasm memory) and by the OPFS cache (into a file). It refers to
// nothing outside itself, because the OPFS reader worker runs its source text (opfs-worker.mjs).
//
// fetchRange(url, offset, length, put, onBytes, tries, validator): streams bytes [offset, offset + length)
// (length null: to the end of the file) to put(chunk, position from offset), each byte once.
// A response that ends before its end, or a connection that breaks, is a download that stopped:
// it resumes with a Range request from the bytes received (a server that ignores Range sends the
// whole file, and the bytes already received are skipped), `tries` requests in all. Resolves to
// the bytes streamed. Fails with an Error of kind 'short' { size } when the file is shorter than
// the range, kind 'stopped' { got, length, tries, cause } when every try stopped, kind 'http'
// { status } for an HTTP error, the first try's network error, or what put() threw (a storage
// quota: no retry would fit it).
// The file's validator (a strong ETag, else its Last-Modified date) is that of the first answer,
// or `validator` when the caller kept one from an earlier download of the bytes before `offset`;
// a request that resumes sends it as If-Range. A server whose file changed then sends the whole
// new file under another validator, and fetchRange fails with kind 'changed' { validator }: the
// bytes received before do not belong with the new ones. onValidator(v) hears the validator of a first answer.
// @ts-check
/**
 * @param {string | URL} url
 * @param {number} offset
 * @param {number | null} length
 * @param {(chunk: Uint8Array, at: number) => void} put
 * @param {((n: number) => void) | null | undefined} onBytes
 * @param {number} tries
 * @param {string | null} [validator]
 * @param {((validator: string) => unknown) | null} [onValidator]
 * @returns {Promise<number>}
 */
export async function fetchRange(url, offset, length, put, onBytes, tries, validator = null, onValidator = null) {
  /**
   * @param {string} kind
   * @param {string} message
   * @param {object} extra
   */
  const fail = (kind, message, extra) => Object.assign(new Error(message), { kind, ...extra });
  let done = 0, cause = '';
  for (let k = 1; ; ++k) {
    const from = offset + done;
    /** @type {Response} */
    let response;
    try {
      const range = length === null ? `bytes=${from}-` : `bytes=${from}-${offset + length - 1}`;
      /** @type {Record<string, string>} */
      const headers = from > 0 && validator ? { Range: range, 'If-Range': validator } : { Range: range };
      response = await fetch(url, { headers, ...(k > 1 || validator ? { cache: 'no-store' } : {}) });
    } catch (e) {
      if (k === 1) throw e;
      cause = e.message;
      if (k >= tries) throw fail('stopped', cause, { got: done, length, tries: k, cause });
      continue;
    }
    if (response.status === 416 && length === null && from > 0) {
      // (a resumed download asked for bytes past the end: the file is shorter than before)
      response.body?.cancel().catch(() => {});
      throw fail('short', `the file holds fewer than ${from} bytes`, { size: Number(/\/(\d+)$/.exec(response.headers.get('content-range') ?? '')?.[1] ?? NaN) });
    }
    if (!response.ok) throw fail('http', `HTTP ${response.status} ${response.statusText}`.trim(), { status: response.status });
    const etag = response.headers.get('etag');
    const now = etag && !etag.startsWith('W/') ? etag : response.headers.get('last-modified');
    // (a whole file with the same validator: the server ignores Range, and the bytes received are
    // skipped; a part under another validator, from a server that ignores If-Range, is as changed)
    if (from > 0 && validator && now !== validator) {
      response.body?.cancel().catch(() => {});
      throw fail('changed', `the file changed on the server (${validator} before, ${now ?? 'no validator'} now)`, { validator: now });
    }
    if (!validator && now) { validator = now; await onValidator?.(now); }
    const range = response.status === 206 ? /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(response.headers.get('content-range') ?? '') : null;
    const start = range ? Number(range[1]) : 0;
    const total = range ? Number(range[2]) : Number(response.headers.get('content-length') ?? NaN);
    if (length === null && Number.isFinite(total)) length = total - offset;
    if (Number.isFinite(total) && length !== null && offset + length > total) {
      response.body?.cancel().catch(() => {});
      throw fail('short', `the file holds ${total} bytes`, { size: total });
    }
    if (start > from) throw new Error(`the server answered a request for bytes from ${from} with bytes from ${start}`);
    let skip = from - start, ended = false, putError = null;
    const reader = /** @type {ReadableStream<Uint8Array>} */ (response.body).getReader();   // (an ok answer has a body)
    try {
      while (length === null || done < length) {
        const { value, done: end } = await reader.read();
        if (end) { ended = true; cause = 'the response ended early'; break; }
        let chunk = value;
        if (skip > 0) {
          const s = Math.min(skip, chunk.length);
          chunk = chunk.subarray(s);
          skip -= s;
        }
        if (length !== null) chunk = chunk.subarray(0, length - done);
        if (chunk.length === 0) continue;
        try {
          put(chunk, done);
        } catch (e) {
          putError = e;
          break;
        }
        done += chunk.length;
        onBytes?.(chunk.length);
      }
      // After the last byte asked for, the end of the response: read, so that the request ends as
      // complete (a body cancelled after its last byte shows in DevTools as failed, ERR_ABORTED);
      // more bytes (a server that ignores Range) are cancelled below.
      if (!ended && !putError && length !== null && done >= length) ended = (await reader.read()).done;
    } catch (e) {
      cause = e.message;
    } finally {
      if (!ended) reader.cancel().catch(() => {});
    }
    if (putError) throw putError;
    if (length === null ? ended : done >= length) return done;   // (unknown length: the end is the end)
    if (k >= tries) throw fail('stopped', cause, { got: done, length, tries: k, cause });
  }
}
