// Shared by the browser tests: Debian's Chromium driven by playwright-core (it cannot download a
// browser of its own here), a static file server on localhost, and the artifacts folder.
import { createServer } from 'node:http';
import { mkdirSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { dirname, extname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
// Screenshots land here (not in git); CI keeps the folder as the tests' artifacts.
export const artifacts = join(repo, 'test-artifacts', 'browser');
mkdirSync(artifacts, { recursive: true });

// Without the background-networking flags Chromium keeps opening connections that this machine's
// closed network refuses. Without the omnibox features, every new window (a playwright context)
// loads Chromium 156's WebUI omnibox popup (chrome://omnibox-popup.top-chrome, dozens of modules)
// in the background, which on this 2-core machine competes with the page under test: an empty
// page ran its script 88 ms after navigation with it and 56 ms without (medians of 21 pages, two
// runs minutes apart).
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--disable-quic',
  '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup,WebUIOmniboxFullPopup'];

export function launchChromium() {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
}

// The README's "First result" head markup for a one-file entry and its .wasm (URLs as the page
// sees them): the preload pair, and the head snippet (the pair and an inline script compiling
// the .wasm as `onnxWasmModule`, for init({ wasmModule: onnxWasmModule })). Shared by the browser
// tests, the engine suite and the benchmark, so that all of them run what the README shows.
export const preloadPair = (entry, wasm) => `<link rel="modulepreload" href="${entry}"><link rel="preload" href="${wasm}" as="fetch" type="application/wasm" crossorigin>`;
export const headSnippet = (entry, wasm) => `${preloadPair(entry, wasm)}
<script>const onnxWasmModule = WebAssembly.compileStreaming(fetch('${wasm}'));</script>`;

// The strict Content-Security-Policy every entry must work under (no 'unsafe-eval', no inline
// scripts): what a Chrome extension (Manifest V3) or a hardened site allows.
export const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self' blob:";

// A page's console errors and uncaught exceptions, collected for asserts.
export function watchPage(page) {
  const problems = [];
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  return problems;
}

const MIME = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.cjs': 'text/javascript', '.json': 'application/json', '.wasm': 'application/wasm', '.css': 'text/css' };

// Serves `root` on 127.0.0.1 (a free port). isolated: COOP/COEP headers, so the page may use
// SharedArrayBuffer and the threads build. `requests`: an array to which each request's path is
// pushed, for tests that count what a page fetched. `onPost(path, body)`: called with each POST
// request's path and text body (answered 204), for pages that report a result. `csp`: a
// Content-Security-Policy sent with every response (pages and the workers' scripts).
export async function serveDir(root, { isolated = false, requests = null, onPost = null, csp = null } = {}) {
  const headers = isolated
    ? { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' } : {};
  if (csp) headers['Content-Security-Policy'] = csp;
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    requests?.push(path);
    if (req.method === 'POST' && onPost) {
      let body = '';
      req.setEncoding('utf8').on('data', (d) => { body += d; }).on('end', () => { res.writeHead(204, headers).end(); onPost(path, body); });
      return;
    }
    const full = resolve(root, `.${path.endsWith('/') ? `${path}index.html` : path}`);
    if (!full.startsWith(root + sep)) { res.writeHead(403).end(); return; }
    try {
      if (!(await stat(full)).isFile()) throw new Error('not a file');
      const body = await readFile(full);
      res.writeHead(200, { ...headers, 'Content-Type': MIME[extname(full)] ?? 'application/octet-stream' }).end(body);
    } catch {
      res.writeHead(404, headers).end('not found');
    }
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((ok) => server.close(ok)) };
}
