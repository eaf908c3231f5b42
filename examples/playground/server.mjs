#!/usr/bin/env node
// The onnx-wasm playground server: `node examples/playground/server.mjs [--port N] [--host H]`.
// Serves the page on localhost, cross-origin isolated (COOP same-origin + COEP require-corp), so
// runtime.mjs may pick the threads build. Offline: every asset comes from this repository.
//
// URL layout (one level deep, so that runtime.mjs's `new URL('../dist/...', import.meta.url)`
// resolves from the bundle to /dist/):
//   /                index.html        (examples/playground/)
//   /style.css       style.css
//   /build/*.mjs     app.mjs and worker.mjs bundled by esbuild at start (in memory): js/ and any
//                    bare specifier it imports are bundled; dist/ stays external, as /dist/...
//   /dist/**         the built module (glue .mjs, .wasm, threads worker)
// --port 0 picks a free port. The address is printed as "playground: http://HOST:PORT/".
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { dirname, extname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../..');
const distDir = join(repo, 'dist');

const MIME = {
  '.html': 'text/html; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.wasm': 'application/wasm',
  '.png': 'image/png',
  '.svg': 'image/svg+xml',
  '.map': 'application/json; charset=utf-8',
  '.onnx': 'application/octet-stream',
};

// Every response: cross-origin isolation, resources only for this origin, no caching (a dev server).
const BASE_HEADERS = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'X-Content-Type-Options': 'nosniff',
  'Cache-Control': 'no-cache',
};

// app.mjs and worker.mjs, bundled. Imports that resolve into dist/ stay external, rewritten to
// their URL under /dist/: the Emscripten glue must keep its own file (the threads build starts
// workers from it) and the .wasm is fetched next to it.
export async function bundle() {
  const esbuild = await import('esbuild');
  const keepDist = {
    name: 'dist-external',
    setup(build) {
      build.onResolve({ filter: /dist\// }, (args) => {
        if (!args.resolveDir) return undefined;
        const full = resolve(args.resolveDir, args.path);
        const rel = relative(distDir, full);
        if (rel.startsWith('..') || rel.includes(`..${sep}`)) return undefined;
        return { path: `/dist/${rel.split(sep).join('/')}`, external: true };
      });
      // Node-only branches of the library (node:fs, node:os, ...) never run in a browser.
      build.onResolve({ filter: /^node:/ }, (args) => ({ path: args.path, external: true }));
    },
  };
  const result = await esbuild.build({
    entryPoints: { app: join(here, 'app.mjs'), worker: join(here, 'worker.mjs') },
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    outdir: join(here, 'build'),
    outExtension: { '.js': '.mjs' },
    write: false,
    sourcemap: 'inline',
    logLevel: 'silent',
    plugins: [keepDist],
  });
  const files = new Map();
  for (const f of result.outputFiles) files.set(`/build/${relative(join(here, 'build'), f.path).split(sep).join('/')}`, Buffer.from(f.contents));
  return { files, warnings: result.warnings };
}

async function serveFile(res, path, method) {
  let info;
  try { info = await stat(path); } catch { return false; }
  if (!info.isFile()) return false;
  const body = await readFile(path);
  res.writeHead(200, { ...BASE_HEADERS, 'Content-Type': MIME[extname(path)] ?? 'application/octet-stream', 'Content-Length': body.length });
  res.end(method === 'HEAD' ? undefined : body);
  return true;
}

// A path under `root` for a URL path, or null if it would leave `root`.
function inside(root, urlPath) {
  const full = resolve(root, `.${urlPath}`);
  return full === root || full.startsWith(root + sep) ? full : null;
}

export async function startServer({ port = 8080, host = '127.0.0.1' } = {}) {
  if (!existsSync(join(distDir, 'onnx-wasm.wasm')))
    throw new Error(`${relative(process.cwd(), distDir) || 'dist'}/ has no built module: run \`bash scripts/build.sh\` first`);
  const { files } = await bundle();
  const server = createServer(async (req, res) => {
    try {
      const url = new URL(req.url, 'http://localhost');
      const path = decodeURIComponent(url.pathname);
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.writeHead(405, { ...BASE_HEADERS, Allow: 'GET, HEAD' }).end();
        return;
      }
      if (files.has(path)) {
        const body = files.get(path);
        res.writeHead(200, { ...BASE_HEADERS, 'Content-Type': MIME['.mjs'], 'Content-Length': body.length });
        res.end(req.method === 'HEAD' ? undefined : body);
        return;
      }
      let file = null;
      if (path === '/' || path === '/index.html') file = join(here, 'index.html');
      else if (path === '/style.css') file = join(here, 'style.css');
      else if (path.startsWith('/dist/')) file = inside(distDir, path.slice('/dist'.length));
      if (file && await serveFile(res, file, req.method)) return;
      res.writeHead(404, { ...BASE_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' }).end(`not found: ${path}\n`);
    } catch (e) {
      res.writeHead(500, { ...BASE_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' }).end(`error: ${e.message}\n`);
    }
  });
  await new Promise((ok, fail) => { server.once('error', fail); server.listen(port, host, ok); });
  const { port: actual } = server.address();
  const shown = host.includes(':') ? `[${host}]` : host;
  return { server, url: `http://${shown}:${actual}/` };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values } = parseArgs({
    options: { port: { type: 'string', short: 'p' }, host: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  });
  if (values.help) {
    console.log('usage: node examples/playground/server.mjs [--port N] [--host 127.0.0.1]\n  --port 0 picks a free port; the default is 8080.');
    process.exit(0);
  }
  const port = values.port === undefined ? 8080 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`playground: --port must be an integer in [0, 65535], got '${values.port}'`);
    process.exit(2);
  }
  startServer({ port, host: values.host ?? '127.0.0.1' }).then(({ server, url }) => {
    console.log(`playground: ${url}`);
    const stop = () => server.close(() => process.exit(0));
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  }, (e) => {
    console.error(`playground: ${e.message}`);
    process.exit(1);
  });
}
