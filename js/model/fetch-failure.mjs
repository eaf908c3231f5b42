// Why a fetch() rejected, as the end of an error message that names the URL. fetch rejects with a
// bare TypeError ("fetch failed" in Node, "Failed to fetch" in Chromium, "NetworkError when
// attempting to fetch resource." in Firefox) whatever went wrong. Node keeps the cause (a refused
// connection, an unknown host) in `cause`. A browser hides it, and a cross-origin request that
// CORS refused looks like one that never reached the server; a second request in `no-cors` mode
// tells them apart: it resolves (to an opaque answer) when the server answered, and rejects when
// it did not. That request is made only here, on the error path.
// @ts-check
import { isNode } from '../runtime.mjs';

/**
 * @param {URL} url what was fetched
 * @param {any} e what fetch() rejected with
 * @returns {Promise<string>}
 */
export async function whyFetchFailed(url, e) {
  const text = String(e?.message ?? e);
  if (isNode) {
    // (undici: cause an Error with code and message; an AggregateError, one per address tried,
    // has an empty message and the code)
    const cause = e?.cause;
    const detail = cause?.message || cause?.errors?.[0]?.message || cause?.code;
    return `the request failed (${detail || text})`;
  }
  const page = globalThis.location?.origin;
  if (e?.name !== 'TypeError' || !page || page === 'null' || !/^https?:$/.test(url.protocol) || url.origin === page) return `the request failed (${text})`;
  const answered = await fetch(url, { mode: 'no-cors', cache: 'no-store' }).then(() => true, () => false);
  return answered
    ? `refused by CORS: ${url.origin} answered without an Access-Control-Allow-Origin header that lets this page (${page}) read it (${text})`
    : `the request failed (${text}): ${url.origin} did not answer (unreachable, or blocked by the browser)`;
}

// A read of a file that failed (fs's error): its code and what it means, without the call and
// path that fs adds at the end ("ENOENT: no such file or directory, open '/x/m.onnx'"), since
// the message that includes this names the file already.
/** @param {any} e */
export function whyReadFailed(e) {
  const text = String(e?.message ?? e);
  const at = typeof e?.syscall === 'string' ? text.lastIndexOf(`, ${e.syscall}`) : -1;
  return at > 0 ? text.slice(0, at) : text;
}
