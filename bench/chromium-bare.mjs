// Chromium for first-load timings without DevTools instrumentation on the measured page. Playwright
// enables the Network, Runtime and Page domains on every page and injects its own script into a
// utility world; Chromium then captures a JS stack for every request a script starts (re-parsing
// the whole calling script for source positions) and reports each request over the protocol, which
// costs a page that loads a module and a .wasm far more than an empty one. Here Chromium runs
// with --remote-debugging-pipe; each page gets a fresh browser context and a blank tab, and the
// one command sent to that tab is Page.navigate (after 300 ms, so that its renderer process has
// started, as playwright's newPage() waits for). No domain is enabled. The page reports its result
// by POSTing it to the server (serveDir's onPost), whose handler resolves the promise open() awaits.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../tests/browser/support.mjs';

export async function launchBareChromium() {
  const profile = mkdtempSync(join(tmpdir(), 'onnx-wasm-chromium-'));
  const child = spawn(CHROMIUM_PATH, ['--headless', ...CHROMIUM_ARGS, '--remote-debugging-pipe', `--user-data-dir=${profile}`, 'about:blank'],
    { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
  const exited = new Promise((ok) => child.once('exit', ok));
  // The protocol over fds 3 (to Chromium) and 4 (from it): JSON messages ended by a NUL byte.
  let next = 0, buffered = '';
  const pending = new Map();
  child.stdio[4].setEncoding('utf8').on('data', (d) => {
    buffered += d;
    for (let end; (end = buffered.indexOf('\0')) >= 0; buffered = buffered.slice(end + 1)) {
      const m = JSON.parse(buffered.slice(0, end));
      const p = pending.get(m.id);
      if (!p) continue;
      pending.delete(m.id);
      if (m.error) p.reject(new Error(`${p.method}: ${m.error.message}`));
      else p.resolve(m.result);
    }
  });
  const send = (method, params = {}, sessionId = undefined) => new Promise((resolve, reject) => {
    pending.set(++next, { resolve, reject, method });
    child.stdio[3].write(`${JSON.stringify({ id: next, method, params, sessionId })}\0`);
  });
  const { product } = await send('Browser.getVersion');
  return {
    version: product,
    // Opens `url` in a fresh context, waits for `reported` (a promise the caller resolves when the
    // page has POSTed its result; rejected after 30 s) and closes the context.
    async open(url, reported) {
      const { browserContextId } = await send('Target.createBrowserContext');
      try {
        const { targetId } = await send('Target.createTarget', { url: 'about:blank', browserContextId });
        const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
        await new Promise((ok) => setTimeout(ok, 300));
        await send('Page.navigate', { url }, sessionId);
        let timer;
        const timeout = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`no result from ${url} in 30 s`)), 30000); });
        try {
          return await Promise.race([reported, timeout]);
        } finally {
          clearTimeout(timer);
        }
      } finally {
        await send('Target.disposeBrowserContext', { browserContextId });
      }
    },
    // Browser.close lets Chromium end its own processes before the profile folder goes.
    async close() {
      await Promise.race([send('Browser.close').catch(() => {}), new Promise((ok) => setTimeout(ok, 5000))]);
      const killer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(killer);
      rmSync(profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
    },
  };
}
