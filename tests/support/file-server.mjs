// A file server on localhost for the tests of downloads (Node and browsers): Range requests
// answered or ignored, and responses cut short on purpose. Each cut answers at most `cutAfter`
// bytes of a body, then either resets the connection ('reset': with Content-Length, the client
// sees a network error) or ends the response cleanly ('end': chunked, no Content-Length, the
// client sees the stream end early, as with a truncated HTTP cache entry).
//   serveFiles(dir, { ranges, cutAfter, cuts, how, headers }) -> { url, requests, set(opts), close() }
// requests: [{ path, range, ifRange }] of every GET; set() changes the options between cases.
// refuse: a RegExp of paths whose requests get their connection closed at once (a server gone
// away). Each file has a strong ETag (its size and modification time); a Range request whose
// If-Range names another gets the whole file (200), as HTTP says.
import { createServer } from 'node:http';
import { createReadStream, readFileSync, statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';

const MIME = { '.html': 'text/html; charset=utf-8', '.mjs': 'text/javascript', '.js': 'text/javascript', '.wasm': 'application/wasm' };

export async function serveFiles(dir, options = {}) {
  const root = resolve(dir);
  let opts = { ranges: true, cutAfter: Infinity, cuts: 0, how: 'reset', headers: {}, ...options };
  const requests = [];
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    requests.push({ path, range: req.headers.range ?? null, ifRange: req.headers['if-range'] ?? null });
    if (opts.refuse?.test(path)) { req.socket.destroy(); return; }
    const full = resolve(root, `.${path.endsWith('/') ? `${path}index.html` : path}`);
    let size, etag;
    try {
      if (!full.startsWith(root + sep) || !statSync(full).isFile()) throw new Error('no file');
      const st = statSync(full);
      size = st.size;
      etag = `"${st.size}-${Math.round(st.mtimeMs * 1000)}"`;
    } catch {
      res.writeHead(404, opts.headers).end();
      return;
    }
    // (files of GBs, as the benchmark serves, are streamed; a cut reads its few bytes)
    const body = size < 64 * 2 ** 20 ? readFileSync(full) : null;
    const bytes = (a, b) => (body ? body.subarray(a, b) : null);
    const type = { 'Content-Type': MIME[extname(full)] ?? 'application/octet-stream', 'Cache-Control': 'no-store', ETag: etag, ...opts.headers };
    const current = req.headers['if-range'] === undefined || req.headers['if-range'] === etag;
    const m = opts.ranges && current && /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
    let status = 200, a = 0, b = size - 1;
    if (m) {
      [a, b] = [Number(m[1]), Math.min(m[2] === '' ? Infinity : Number(m[2]), size - 1)];
      if (a >= size) { res.writeHead(416, { ...type, 'Content-Range': `bytes */${size}` }).end(); return; }
      status = 206;
      type['Content-Range'] = `bytes ${a}-${b}/${size}`;
    }
    const length = b - a + 1;
    if (opts.cuts > 0 && length > opts.cutAfter && body && !['.html', '.mjs', '.wasm'].includes(extname(full))) {
      opts.cuts -= 1;
      const part = bytes(a, a + opts.cutAfter);
      if (opts.how === 'end') {
        res.writeHead(status, type);   // chunked: the client cannot tell the end is early
        res.end(part);
      } else {
        res.writeHead(status, { ...type, 'Content-Length': length });
        res.write(part, () => setTimeout(() => res.destroy(), 20));
      }
      return;
    }
    res.writeHead(status, { ...type, 'Content-Length': length });
    if (body) res.end(bytes(a, b + 1));
    else if (length > 0) createReadStream(full, { start: a, end: b, highWaterMark: 4 << 20 }).pipe(res);
    else res.end();
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    url: `http://127.0.0.1:${server.address().port}/`,
    requests,
    set(o) { opts = { ...opts, ...o }; },
    close: () => new Promise((ok) => { server.closeAllConnections?.(); server.close(ok); }),
  };
}
