// Issue 30, item 5, in Chromium: the hand-over page of examples/llm-embeddings (index.html, as a
// user opens it from the served repository): onnx-wasm's one-file entry runs embed_tokens.onnx,
// onnxruntime-web's plain wasm build (ort.wasm.min.mjs from node_modules, one thread) runs
// next_model.onnx on its inputs_embeds through an ort.Tensor over onnx-wasm's Float32Array. The
// page's numbers are checked in Node against onnxruntime-node as tests/js/llm-embeddings.test.mjs
// checks the Node example's: inputs_embeds byte for byte against onnxruntime-node's float16 Mul
// output (tests/support/llm-embeddings.mjs), the scores within 1e-6 of onnxruntime-node's
// next_model.onnx on them. Twice: the table loaded from its URL into wasm memory, and
// (?cache=opfs, a disk-backed profile) kept in OPFS and read by rows, the visit that downloads it
// and a later one that reads the cached copy. And with onnxruntime-web's proxy (?proxy), where the
// hand-over passes a copy (hand-over.mjs says why).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, CHROMIUM_PATH, repo, serveDir, watchPage } from './support.mjs';
import { largest, referenceRunner } from '../support/llm-embeddings.mjs';

const IDS = [1n, 17n, 300n, 511n, 42n, 42n, 0n, -1n], DIMS = [2, 4];   // page.mjs's
const profile = mkdtempSync(join(tmpdir(), 'onnx-wasm-llm-embeddings-'));
const requests = [];
let context, server, want;

before(async () => {
  want = await (await referenceRunner())(IDS, DIMS);
  // The repository's root, as the page's comment tells a user to serve it.
  server = await serveDir(repo, { requests });
  context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true });
});
after(async () => {
  await context?.close();
  await server?.close();
  rmSync(profile, { recursive: true, force: true });
});

async function open(query = '') {
  requests.length = 0;
  const page = await context.newPage();
  const problems = watchPage(page);
  try {
    await page.goto(`${server.url}examples/llm-embeddings/${query}`);
    await page.waitForFunction(() => document.body?.dataset.result, null, { timeout: 60_000 });
    const r = JSON.parse(await page.evaluate(() => document.body.dataset.result));
    assert.equal(r.error, undefined, r.error);
    assert.equal(r.proxy, query.includes('proxy'));
    assert.deepEqual(problems, []);
    assert.match(await page.textContent('#log'), r.proxy ? /a copy of inputs_embeds, moved/ : /Float32Array, no copy/);
    return { ...r, requests: [...requests] };
  } finally {
    await page.close();
  }
}

function check(r) {
  assert.equal(r.zeroCopy, !r.proxy, r.proxy ? 'with the proxy, a copy' : "the ort.Tensor holds onnx-wasm's Float32Array");
  assert.deepEqual(r.inputsEmbeds.dims, [...DIMS, 48]);
  assert.ok(Buffer.from(Uint32Array.from(r.inputsEmbeds.bits).buffer).equals(Buffer.from(want.inputsEmbeds.data.buffer)), 'inputs_embeds byte for byte');
  assert.deepEqual(r.scores.dims, [DIMS[0], 8]);
  const worst = largest(r.scores.data, want.scores.data);
  assert.ok(worst <= 1e-6, `scores: largest difference ${worst}`);
}

test('Chromium: onnx-wasm/web runs embed_tokens.onnx, onnxruntime-web (plain wasm build) next_model.onnx on its inputs_embeds', async () => {
  const r = await open();
  check(r);
  assert.equal(r.module, 'onnx-wasm');
  assert.equal(r.storage, 'memory');   // (a table at a URL is loaded)
  assert.ok(r.requests.includes('/node_modules/onnxruntime-web/dist/ort-wasm-simd-threaded.wasm'), r.requests.join(', '));
  assert.ok(r.requests.includes('/examples/llm-embeddings/embed_tokens.onnx_data'));
});

test("Chromium, cache: 'opfs': the table kept in OPFS and read by rows, on the visit that downloads it and on a later one", async () => {
  const first = await open('?cache=opfs');
  check(first);
  assert.equal(first.storage, 'file');   // (kept in its source, the OPFS copy)
  assert.ok(first.requests.includes('/examples/llm-embeddings/embed_tokens.onnx_data'));
  const later = await open('?cache=opfs');
  check(later);
  assert.equal(later.storage, 'file');
  assert.ok(!later.requests.some((p) => p.startsWith('/examples/llm-embeddings/embed_tokens')), later.requests.join(', '));
});

test("Chromium, onnxruntime-web's proxy (env.wasm.proxy: its run in a worker): the hand-over passes a copy, moved to that worker", async () => {
  const r = await open('?proxy');
  check(r);
  assert.ok(r.requests.includes('/node_modules/onnxruntime-web/dist/ort-wasm-simd-threaded.wasm'), r.requests.join(', '));
});
