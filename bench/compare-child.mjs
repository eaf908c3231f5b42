// Child process of bench/compare.mjs: the fresh-process measurements of bench/first-result.mjs and
// bench/cold-runs.mjs (its child), with the package taken from a given checkout instead of the
// one the script lives in, so that the same harness code measures both checkouts. Each mode is
// the code of its original with one change: the import is `<root>/dist/index.mjs` (an absolute
// path) instead of '../dist/index.mjs'. Keep them in step with those files.
//   node bench/compare-child.mjs first <root> <onnx-wasm-runNode | onnx-wasm-runNode-1thread | onnx-wasm-session> <dir>
//     the time from this process's first line to the first result of the tiny Gather; prints { ms }
//   node bench/compare-child.mjs cold <root> <onnx-wasm | onnx-wasm (1 thread)> <case folder>
//     first run, median of runs 2 to 50, steady state; prints { firstUs, coldUs, steadyUs }
const t0 = performance.now();
const [mode, root, which, dir] = process.argv.slice(2);
const entry = `${root}/dist/index.mjs`;

if (mode === 'first') {
  // As bench/first-result.mjs.
  const { readFileSync } = process.getBuiltinModule?.('node:fs') ?? await import('node:fs');
  const model = readFileSync(`${dir}/model.onnx`);
  const spec = JSON.parse(readFileSync(`${dir}/feeds.json`, 'utf8'));
  const data = Float32Array.from(spec.data.data), idx = BigInt64Array.from(spec.indices.data.map(BigInt));
  const o = await import(entry);
  await o.init(which.endsWith('1thread') ? { threads: false } : {});
  const feeds = { data: new o.Tensor('float32', data, spec.data.dims), indices: new o.Tensor('int64', idx, spec.indices.dims) };
  let out;
  if (which.startsWith('onnx-wasm-runNode')) [out] = o.runNode({ opType: 'Gather', attributes: { axis: 0 } }, [feeds.data, feeds.indices], { opset: 13 });
  else out = (await (await o.InferenceSession.create(model)).run(feeds)).out;
  if (out.dims[0] !== 3) throw new Error('unexpected output');
  console.log(JSON.stringify({ ms: performance.now() - t0 }));
  process.exit(0);
}

if (mode === 'cold') {
  // As the child of bench/cold-runs.mjs (see its header for why the timing loop is run idle first
  // and why each run is timed as `after(await run())`).
  const { readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { median } = await import('./timing.mjs');
  const ARRAYS = { float32: Float32Array, int64: BigInt64Array, int32: Int32Array, uint8: Uint8Array };
  const readCase = (d) => {
    const meta = JSON.parse(readFileSync(join(d, 'meta.json'), 'utf8'));
    const feeds = {};
    for (const { name, type, dims } of meta.feeds) {
      const raw = readFileSync(join(d, `${name}.bin`));
      feeds[name] = { type, dims, data: new ARRAYS[type](raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength)) };
    }
    return { bytes: new Uint8Array(readFileSync(join(d, 'model.onnx'))), feeds };
  };
  async function timedEach(count, run, after) {
    const us = new Array(count);
    for (let k = 0; k < count; ++k) {
      const s = process.hrtime.bigint();
      after(await run());
      us[k] = Number(process.hrtime.bigint() - s) / 1000;
    }
    return us;
  }
  const idle = { out: { dispose() {} } };
  for (let k = 0; k < 4; ++k) await timedEach(50, () => Promise.resolve(idle), (r) => r.out.dispose());
  const c = readCase(dir);
  const o = await import(entry);
  await o.init(which.includes('1 thread') ? { threads: false } : {});
  const s = await o.InferenceSession.create(c.bytes);
  const feeds = Object.fromEntries(Object.entries(c.feeds).map(([k, f]) => [k, new o.Tensor(f.type, f.data, f.dims)]));
  const run = () => s.run(feeds);
  const after = (r) => r.out.dispose();
  const us = await timedEach(50, run, after);
  const warm = performance.now();
  while (performance.now() - warm < 300) after(await run());
  const steady = await timedEach(2000, run, after);
  console.log(JSON.stringify({ firstUs: us[0], coldUs: median(us.slice(1)), steadyUs: median(steady) }));
  process.exit(0);
}

throw new Error(`bench/compare-child.mjs: unknown mode ${mode}`);
