// The smallest reproduction of the Firefox ESR 153 content-process crash (SIGSEGV) that skipped two
// OPFS cases (docs/notes/2026-11-26-firefox-opfs-crash.md): no OPFS, no package, no worker. A page
// of a local server evaluates an expression whose result is an array of `n` numbers, over WebDriver
// BiDi (puppeteer-core, as tests/browser/opfs.test.mjs drives Firefox). With n = 4,194,304 (the
// OPFS test's 4 MiB table, read back as an array of bytes) the page's content process grows to
// 2.7 GB and exits on signal 11, a deliberate MOZ_CRASH(IPC message size is too large) of
// libxul.so (the note says how that was read), after 2 minutes. The same bytes as one base64
// string come back in under a second.
//   node tests/browser/firefox-crash-repro/bidi-large-array.mjs [array|base64|wait] [n=4194304]
// Prints the result's length, the time, and every "exited on signal" line of Firefox's output;
// exits with 1 when a process crashed.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import puppeteer from 'puppeteer-core';

const [as = 'array', n = 4194304] = [process.argv[2], Number(process.argv[3] ?? 4194304)];
const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';
const server = createServer((req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end('<!doctype html><title>page</title>'));
await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
const browser = await puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true, protocol: 'webDriverBiDi', dumpio: true });
// Firefox's processes by id, and what each is (its name in /proc/<id>/comm, which Firefox sets:
// 'Isolated Web Co' for a page's content process, 'Socket Process', 'RDD Process', ...), read
// before the evaluation: the one that crashes is named.
const kinds = new Map();
const listProcesses = () => {
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const name = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      const parent = /^\d+ \(.*\) \S (\d+)/.exec(readFileSync(`/proc/${pid}/stat`, 'utf8'))?.[1];
      if (/firefox/.test(name) || kinds.has(parent) || pid === String(browser.process()?.pid)) kinds.set(pid, name);
    } catch { /* (gone meanwhile) */ }
  }
};
const crashes = [];
browser.process()?.stderr?.on('data', (text) => { for (const m of String(text).matchAll(/process (\d+) exited on signal \d+/g)) crashes.push(`${m[0]} (${kinds.get(m[1]) ?? 'a process not seen before'})`); });
const page = await browser.newPage();
await page.goto(`http://127.0.0.1:${server.address().port}/`);
// (each evaluation is counted in the page: a count above 1 means the driver evaluated it again)
// ('wait': the control, a page that answers an empty array after `n` ms, as long as the array takes)
const expression = as === 'wait'
  ? `(window.n = (window.n ?? 0) + 1, new Promise((ok) => setTimeout(() => ok([window.n, []]), ${n})))`
  : as === 'base64'
  ? `(window.n = (window.n ?? 0) + 1, [window.n, btoa(Array.from({ length: Math.ceil(${n} / 32768) }, (_, k) => String.fromCharCode(...new Uint8Array(Math.min(32768, ${n} - k * 32768)).map((_, i) => i))).join(''))])`
  : `(window.n = (window.n ?? 0) + 1, [window.n, Array.from({ length: ${n} }, (_, i) => i & 255)])`;
listProcesses();
const t0 = Date.now();
let result;
try {
  const [count, value] = await page.evaluate(expression);
  result = `${as === 'wait' ? `a wait of ${n} ms` : `${as} of ${n} bytes`}: ${value.length} ${as === 'base64' ? 'characters' : 'numbers'} back in ${Date.now() - t0} ms, evaluation ${count} of the page`;
} catch (e) {
  result = `${as} of ${n} bytes: failed after ${Date.now() - t0} ms: ${e.message}`;
}
// Whether the page's document survived (a crashed tab's document is replaced: its count is gone).
const after = await page.evaluate('window.n ?? null').catch((e) => e.message.split('\n')[0]);
result += `; then the page's count reads ${JSON.stringify(after)}${after === 1 ? ' (its document survived)' : ' (its document was lost)'}`;
await browser.close();
server.close();
console.log(`Firefox's processes before: ${[...kinds].map(([pid, kind]) => `${pid} ${kind}`).join(', ')}`);
console.log(result);
console.log(crashes.length ? `CRASH: ${crashes.join('; ')}` : 'no process crashed');
process.exitCode = crashes.length ? 1 : 0;
