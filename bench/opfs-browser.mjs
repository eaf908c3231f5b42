// The OPFS benchmarks' browser (bench/large-tables.mjs --opfs, bench/embeddings.mjs --browser):
// headless Chromium with a disk-backed temporary profile (playwright-core's
// launchPersistentContext: a newContext() keeps OPFS in memory, and was measured 180x slower),
// serving `dir` on localhost with the OPFS tests' pages (tests/browser/opfs-page: t.main.<call>
// in the page, t.worker.<call> in a dedicated module worker, where sync access handles exist),
// the package's js/ and dist/, and ort.html: onnxruntime-web's plain wasm build (1 thread) given
// a model and its external data by URL. The browser's RSS (all its processes) is sampled every
// 250 ms.
//   const b = await openOpfsBrowser(dir);
//   const p = await b.page();                 // index.html, ready
//   await b.call(p, 'worker', 'timedCreate', 'model.onnx', { cache: 'opfs' });
//   b.peak(); b.resetPeak(); await b.ortPage(); await b.close();
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// The browser's processes (those started with `profile` on their command line): summed RSS in MB.
export function browserRssMB(profile) {
  let kb = 0;
  for (const pid of spawnSync('pgrep', ['-f', profile], { encoding: 'utf8' }).stdout.split('\n').filter(Boolean)) {
    try { kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0); } catch { /* exited */ }
  }
  return kb / 1024;
}

// ort.html: ortCreate(modelUrl, externalData) -> { ms, version } or { ms, version, error };
// ortRun(indices, { name, dims, cols, hash }) -> { ms, rows } (columns 0 and cols - 1 of each
// row) or, with hash, { ms, hash } (the first 16 hex digits of the output's SHA-256).
const ORT_PAGE = `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><script type="module">
import * as ort from './ort/ort.wasm.min.mjs';
ort.env.wasm.numThreads = 1;
ort.env.wasm.wasmPaths = new URL('./ort/', location.href).href;
let session = null;
window.ortCreate = async (model, externalData) => {
  const t0 = performance.now();
  try {
    session = await ort.InferenceSession.create(model, { executionProviders: ['wasm'], externalData });
    return { ms: performance.now() - t0, version: ort.env.versions.web };
  } catch (e) {
    return { ms: performance.now() - t0, version: ort.env.versions.web, error: String(e?.message ?? e).slice(0, 300) };
  }
};
window.ortRun = async (indices, { name, dims = [indices.length], cols, hash = false }) => {
  const feed = new ort.Tensor('int64', BigInt64Array.from(indices.map(BigInt)), dims);
  const t0 = performance.now();
  const r = await session.run({ [name]: feed });
  const ms = performance.now() - t0;
  const out = Object.values(r)[0];
  let result;
  if (hash) {
    const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new Uint8Array(out.data.buffer, out.data.byteOffset, out.data.byteLength).slice()));
    result = { ms, hash: Array.from(digest.subarray(0, 8), (b) => b.toString(16).padStart(2, '0')).join('') };
  } else {
    result = { ms, rows: indices.map((_, k) => [out.data[k * cols], out.data[k * cols + cols - 1]]) };
  }
  out.dispose?.();
  return result;
};
document.body.dataset.ready = '1';
</script>`;

export async function openOpfsBrowser(dir) {
  const { chromium } = await import('playwright-core');
  const { CHROMIUM_ARGS, CHROMIUM_PATH } = await import('../tests/browser/support.mjs');
  const { serveFiles } = await import('../tests/support/file-server.mjs');
  cpSync(join(repo, 'tests/browser/opfs-page'), dir, { recursive: true });
  for (const [from, to] of [['node_modules/onnxruntime-web/dist', 'ort'], ['js', 'js'], ['dist', 'dist']]) {
    try { symlinkSync(join(repo, from), join(dir, to)); } catch { /* there already (made by another section) */ }
  }
  writeFileSync(join(dir, 'ort.html'), ORT_PAGE);
  const profile = mkdtempSync(join(dirname(dir), 'chromium-profile-'));
  const server = await serveFiles(dir);
  const ctx = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
  let peak = 0;
  const sampler = setInterval(() => { peak = Math.max(peak, browserRssMB(profile)); }, 250);
  const open = async (path) => {
    const p = await ctx.newPage();
    await p.goto(`${server.url}${path}`);
    await p.waitForFunction(() => document.body.dataset.ready === '1');
    return p;
  };
  return {
    ctx,
    server,
    version: ctx.browser()?.version(),
    // A fresh page of the OPFS tests (index.html), ready.
    page: () => open(''),
    // onnxruntime-web's page (ort.html), ready.
    ortPage: () => open('ort.html'),
    // t.<where>.<name>(...args) in page p: where 'main' or 'worker'.
    call: (p, where, name, ...a) => p.evaluate(`t.${where}.${name}(...${JSON.stringify(a)})`),
    // The browser's peak RSS (MB, all its processes) since the start or the last resetPeak().
    peak: () => Math.max(peak, browserRssMB(profile)),
    resetPeak: () => { peak = 0; },
    async close() {
      clearInterval(sampler);
      await ctx.close();
      await server.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
