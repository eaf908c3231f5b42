// Two checkouts of onnx-wasm side by side, for a change that should not move any time (a
// refactoring): "new" is the repository this script lives in (or --root <dir>), "old" is another
// checkout with its dist/ built (--against <dir>, e.g. a clone at an earlier commit).
//   node bench/compare.mjs --against <dir> [--root <dir>] [--quick] [--only id,id] [--rounds n] [--processes n] [--no-fresh]
// 1. In this one process both packages are imported (<root>/js/index.mjs: two module graphs, each
//    with its own wasm module) and init({ threads: false })'d, the one-thread SIMD build of
//    bench/run.mjs's main table; a check that they do not interfere (each its own files and wasm
//    memory, the same output before and after the other loaded) stops the script if it fails.
//    Then every case of bench/models.mjs runs on both in rounds, new and old interleaved (the
//    first of each round alternating), so that the machine's drift hits both alike. Per round
//    each side is timed as bench/run.mjs times onnx-wasm (median µs of a time budget, after a
//    warm-up); the table gives per case each side's median over rounds, the ratio new/old of those
//    medians, the median and min-max over rounds of the round's own ratio, and in how many rounds
//    new was the faster. Each case's outputs are compared byte for byte between the two.
// 2. The time to a first result in a fresh process (bench/first-result.mjs) and 3. the cold runs
//    (bench/cold-runs.mjs), through bench/compare-child.mjs, which runs the same code with the
//    package imported from a given checkout: fresh processes, new and old alternating, the
//    medians per side, and the min-max of the ratios of the processes taken in pairs.
// A benchmark, not a test: nothing here asserts a time. Only ratios from the same run mean
// anything; absolute times on a shared machine move by 2-3x between hours.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PROCESSES } from './cold-runs.mjs';
import { benchCases, writeCaseFiles } from './models.mjs';
import { median, time } from './timing.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(name) ? args[args.indexOf(name) + 1] : fallback);
const quick = args.includes('--quick');
const only = opt('--only', null)?.split(',') ?? null;
const newRoot = resolve(opt('--root', join(here, '..')));
const oldRoot = opt('--against', null) && resolve(opt('--against'));
if (!oldRoot) {
  console.error('usage: node bench/compare.mjs --against <dir> [--root <dir>] [--quick] [--only id,id] [--rounds n] [--processes n] [--no-fresh]');
  process.exit(2);
}
const ROUNDS = Number(opt('--rounds', quick ? 4 : 15));
const ROUND_MS = quick ? 60 : 200;         // time budget per side and round
const FRESH = Number(opt('--processes', quick ? 3 : PROCESSES));   // fresh processes per side and measurement
for (const r of [newRoot, oldRoot]) {
  for (const f of ['js/index.mjs', 'dist/index.mjs', 'dist/onnx-wasm.wasm'])
    if (!existsSync(join(r, f))) { console.error(`${r}: no ${f} (build it with bash scripts/build.sh)`); process.exit(2); }
}

const describe = (r) => {
  const git = (...a) => { try { return execFileSync('git', ['-C', r, ...a], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim(); } catch { return null; } };
  const head = git('rev-parse', '--short', 'HEAD');
  const dirty = git('status', '--porcelain', '--untracked-files=no');
  return `${r}${head ? ` at ${head}${dirty ? ' (uncommitted changes)' : ''}` : ''}`;
};
const fmt = (x, d = 1) => x.toFixed(d);
const ratioCell = (r) => `${r.toFixed(3)}`;
const spread = (rs) => `${Math.min(...rs).toFixed(2)}-${Math.max(...rs).toFixed(2)}`;
const bytesOf = (d) => Buffer.from(d.buffer, d.byteOffset, d.byteLength);

console.log(`new: ${describe(newRoot)}\nold: ${describe(oldRoot)}`);
console.log(`Node ${process.version}; ${os.cpus().length} cores; load average ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}; ${quick ? 'QUICK (reduced sizes)' : 'full sizes'}`);

// ---- 1. Both packages in this process.
const tiny = benchCases({ small: true }).find((c) => c.id === 'tiny');
async function tinyOut(o) {
  const feeds = Object.fromEntries(Object.entries(tiny.feeds).map(([k, f]) => [k, new o.Tensor(f.type, f.data, f.dims)]));
  const s = await o.InferenceSession.create(tiny.bytes);
  const r = await s.run(feeds);
  const out = Buffer.from(bytesOf(r.out.data));
  r.out.dispose(); await s.release();
  for (const t of Object.values(feeds)) t.dispose();
  return out;
}
const A = await import(pathToFileURL(join(newRoot, 'js/index.mjs')).href);
const infoA = await A.init({ threads: false });
const tinyA0 = await tinyOut(A);
const B = await import(pathToFileURL(join(oldRoot, 'js/index.mjs')).href);
const infoB = await B.init({ threads: false });
{
  const problems = [];
  if (A === B || A.Tensor === B.Tensor || A.init === B.init) problems.push('one module graph for both');
  if (!infoA.loadedFrom.startsWith(pathToFileURL(newRoot).href)) problems.push(`new loaded ${infoA.loadedFrom}`);
  if (!infoB.loadedFrom.startsWith(pathToFileURL(oldRoot).href)) problems.push(`old loaded ${infoB.loadedFrom}`);
  if (infoA.module !== 'onnx-wasm' || infoB.module !== 'onnx-wasm') problems.push(`modules ${infoA.module}, ${infoB.module} (expected the one-thread SIMD build)`);
  // Each side's memory grown past the other's, one after the other, must leave the other's as it
  // was. The same tensor on both, so that their allocators have the same history.
  const n = Math.max(A.memoryStats().memory, B.memoryStats().memory) / 4 + 1024;
  for (const [grown, other, name] of [[B, A, "new's"], [A, B, "old's"]]) {
    const before = other.memoryStats().memory;
    const big = new grown.Tensor('float32', new Float32Array(n), [n]);
    if (other.memoryStats().memory !== before) problems.push(`${name} wasm memory grew with the other's`);
    big.dispose();
  }
  const tinyB = await tinyOut(B), tinyA1 = await tinyOut(A);
  if (!tinyA0.equals(tinyA1)) problems.push("new's output changed once old was loaded");
  if (!tinyA0.equals(tinyB)) problems.push('new and old give different outputs on the tiny Gather');
  if (problems.length) throw new Error(`the two packages interfere: ${problems.join('; ')}`);
  console.log(`both loaded in this process, apart: new ${infoA.module} (${infoA.kernels} kernels) from ${infoA.loadedFrom}; old ${infoB.module} (${infoB.kernels} kernels) from ${infoB.loadedFrom}`);
}

const sides = [['new', A], ['old', B]];
const rows = [];
for (const c of benchCases({ small: quick })) {
  if (only && !only.includes(c.id)) continue;
  const setup = {};
  for (const [name, o] of sides) {
    const feeds = Object.fromEntries(Object.entries(c.feeds).map(([k, f]) => [k, new o.Tensor(f.type, f.data, f.dims)]));
    const session = await o.InferenceSession.create(c.bytes);
    const first = (await session.run(feeds)).out;
    setup[name] = { feeds, session, dims: JSON.stringify(Array.from(first.dims)), out: first, run: async () => { const r = await session.run(feeds); r.out.dispose(); } };
  }
  const identical = setup.new.dims === setup.old.dims && bytesOf(setup.new.out.data).equals(bytesOf(setup.old.out.data));
  for (const [name] of sides) setup[name].out.dispose();
  // Warm-up as bench/run.mjs's (300 ms a side), interleaved too.
  for (let k = 0; k < 3; ++k) for (const [name] of sides) await time(setup[name].run, { warmup: 30, warmupMs: quick ? 30 : 100, budgetMs: 0, max: 1, min: 1 });
  const per = { new: [], old: [] };
  for (let round = 0; round < ROUNDS; ++round) {
    const order = round % 2 ? ['old', 'new'] : ['new', 'old'];
    for (const name of order) per[name].push(await time(setup[name].run, { warmup: 10, budgetMs: ROUND_MS, max: 20000 }));
  }
  for (const [name] of sides) {
    await setup[name].session.release();
    for (const t of Object.values(setup[name].feeds)) t.dispose();
  }
  const mNew = median(per.new), mOld = median(per.old);
  const rs = per.new.map((x, i) => x / per.old[i]);
  rows.push({
    case: c.id, 'new µs': fmt(mNew, mNew < 10 ? 2 : 1), 'old µs': fmt(mOld, mOld < 10 ? 2 : 1), 'new/old': ratioCell(mNew / mOld),
    'round ratios: median (min-max)': `${median(rs).toFixed(3)} (${spread(rs)})`, 'new faster in': `${rs.filter((r) => r < 1).length}/${ROUNDS}`, identical: identical ? 'yes' : 'NO',
  });
  console.error(`${c.id}: new ${mNew.toFixed(2)} µs, old ${mOld.toFixed(2)} µs, ${(mNew / mOld).toFixed(3)} (${spread(rs)})`);
}
console.log(`\nIn one process, one-thread SIMD build: median over ${ROUNDS} rounds of each round's median µs (${ROUND_MS} ms a side a round), new and old interleaved`);
console.table(rows);

// ---- 2, 3. Fresh processes, new and old alternating.
if (args.includes('--no-fresh')) process.exit(0);
const child = join(here, 'compare-child.mjs');
const fresh = (mode, root, which, dir) => {
  const r = spawnSync(process.execPath, [child, mode, root, which, dir], { encoding: 'utf8', timeout: 120000 });
  const line = r.stdout.trim().split('\n').at(-1);
  if (r.status !== 0 || !line) throw new Error(`compare-child ${mode} ${root} ${which}: ${r.stderr.trim().split('\n').slice(-3).join(' | ') || `exit ${r.status}`}`);
  return JSON.parse(line);
};
// `measure(root, k)` for k < FRESH per side, alternating which side goes first: { new: [...], old: [...] }.
const alternate = (measure) => {
  const out = { new: [], old: [] };
  for (let k = 0; k < FRESH; ++k) {
    const order = k % 2 ? [['old', oldRoot], ['new', newRoot]] : [['new', newRoot], ['old', oldRoot]];
    for (const [name, root] of order) out[name].push(measure(root));
  }
  return out;
};
const compareRow = (label, xs, key, digits) => {
  const n = xs.new.map((x) => x[key]), o = xs.old.map((x) => x[key]);
  const mn = median(n), mo = median(o);
  return { [label]: fmt(mn, digits), old: fmt(mo, digits), 'new/old': ratioCell(mn / mo), 'paired ratio min-max': spread(n.map((x, i) => x / o[i])) };
};

const tmp = mkdtempSync(join(os.tmpdir(), 'onnx-wasm-compare-'));
try {
  const firstDir = join(tmp, 'first');
  writeCaseFiles(firstDir, tiny);   // model.onnx (feeds.json below, as bench/run.mjs writes it)
  writeFileSync(join(firstDir, 'feeds.json'), JSON.stringify(Object.fromEntries(Object.entries(tiny.feeds).map(([k, f]) => [k, { dims: f.dims, data: Array.from(f.data, (v) => (typeof v === 'bigint' ? String(v) : v)) }]))));
  const firsts = [];
  for (const [which, what] of [['onnx-wasm-runNode', 'import, init, runNode'], ['onnx-wasm-runNode-1thread', 'import, init({ threads: false }), runNode'], ['onnx-wasm-session', 'import, init, InferenceSession.create, run']]) {
    const xs = alternate((root) => fresh('first', root, which, firstDir));
    const row = compareRow('new ms', xs, 'ms', 1);
    firsts.push({ path: what, ...row });
    console.error(`first result, ${what}: new ${row['new ms']} ms, old ${row.old} ms`);
  }
  console.log(`\nTime to a first result in a fresh process (bench/first-result.mjs): median of ${FRESH} processes per side, ms`);
  console.table(firsts);

  const cold = [];
  const cases = benchCases({ small: true });
  for (const id of ['tiny', 'embedding-init']) {
    const dir = join(tmp, id);
    writeCaseFiles(dir, cases.find((x) => x.id === id));
    for (const engine of ['onnx-wasm', 'onnx-wasm (1 thread)']) {
      const xs = alternate((root) => fresh('cold', root, engine, dir));
      for (const [key, what, digits] of [['firstUs', 'first run', 1], ['coldUs', 'runs 2-50, median', 2], ['steadyUs', 'steady', 2]])
        cold.push({ case: id, engine, measure: what, ...compareRow('new µs', xs, key, digits) });
      console.error(`cold runs, ${id}, ${engine}: done`);
    }
  }
  console.log(`\nCold runs in a fresh process (bench/cold-runs.mjs): first run, median of runs 2 to 50, steady state; median of ${FRESH} processes per side, µs`);
  console.table(cold);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
console.log(`load average at the end ${os.loadavg().map((x) => x.toFixed(2)).join(' ')}`);
