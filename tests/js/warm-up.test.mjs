// When the warm-up (js/model/warm-up.mjs) runs, each case in a fresh process (the warm-up is once
// a process): queued as a task by the first create(), so that the first run of a session run at
// once goes ahead of it, a later run that comes before the task starts it and waits for it, and a
// run after an idle moment finds it done. Whether a run waited is read without a clock: the
// microtask turns until its promise settles (a run that goes ahead settles at once; the warm-up
// awaits 60 runs of its own, so a run that waits for it takes more than 60 turns).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { create, toBinary } from '@bufbuild/protobuf';
import { GraphProtoSchema, ModelProtoSchema, NodeProtoSchema, OperatorSetIdProtoSchema } from 'onnx-buf';
import { attribute, valueInfo } from '../support/gen-models.mjs';

const index = new URL('../../js/index.mjs', import.meta.url).href;

// out = Gather(data, indices), axis 0, opset 13; data float32 [4, 3] and indices int64 [2], fed.
const model = toBinary(ModelProtoSchema, create(ModelProtoSchema, {
  irVersion: 8n, opsetImport: [create(OperatorSetIdProtoSchema, { domain: '', version: 13n })],
  graph: create(GraphProtoSchema, {
    name: 'g',
    node: [create(NodeProtoSchema, { opType: 'Gather', input: ['data', 'indices'], output: ['out'], attribute: [attribute('axis', 0)] })],
    input: [valueInfo('data', 'float32', [4, 3]), valueInfo('indices', 'int64', [2])],
    output: [valueInfo('out', 'float32', [2, 3])],
  }),
}));

// The child's prelude: the model, its feeds, and turns(p), the microtask turns until p settles.
const prelude = `
import { InferenceSession, Tensor, init } from ${JSON.stringify(index)};
await init({ threads: false });
const model = Uint8Array.from(atob(${JSON.stringify(Buffer.from(model).toString('base64'))}), (c) => c.charCodeAt(0));
const data = new Tensor('float32', Float32Array.from({ length: 12 }, (_, k) => k), [4, 3]);
const indices = new Tensor('int64', [2n, 0n], [2]);
const feeds = { data, indices };
const out = [];
async function turns(p) {
  let n = 0, settled = false, value, error;
  p.then((v) => { settled = true; value = v; }, (e) => { settled = true; error = e; });
  while (!settled) { await null; if (++n > 100000) throw new Error('the run never settled'); }
  return { n, value, error };
}
const rows = (r) => Array.from(r.value.out.data);
const idle = () => new Promise((resolve) => setTimeout(resolve, 0));
`;

const CASES = [
  ['runs right after create: the first goes ahead, the second waits for the warm-up, the third does not', `
    const s = await InferenceSession.create(model);
    for (let k = 0; k < 3; ++k) { const r = await turns(s.run(feeds)); out.push({ n: r.n, rows: rows(r) }); }
  `, (o) => {
    assert.deepEqual(o.map((r) => r.rows), Array(3).fill([6, 7, 8, 0, 1, 2]));
    assert.ok(o[0].n <= 2, `first run: ${o[0].n} turns`);
    assert.ok(o[1].n > 60, `second run: ${o[1].n} turns (it should have waited for the warm-up)`);
    assert.ok(o[2].n <= 2, `third run: ${o[2].n} turns`);
  }],
  ['a run after an idle moment: the warm-up ran in it, no run waits', `
    const s = await InferenceSession.create(model);
    await idle();
    for (let k = 0; k < 2; ++k) { const r = await turns(s.run(feeds)); out.push({ n: r.n, rows: rows(r) }); }
  `, (o) => {
    assert.deepEqual(o.map((r) => r.rows), Array(2).fill([6, 7, 8, 0, 1, 2]));
    assert.ok(o.every((r) => r.n <= 2), `turns: ${o.map((r) => r.n)}`);
  }],
  ['a second session: its first run waits once another run went ahead of the warm-up', `
    const a = await InferenceSession.create(model);
    out.push({ n: (await turns(a.run(feeds))).n });
    const b = await InferenceSession.create(model);
    const r = await turns(b.run(feeds));
    out.push({ n: r.n, rows: rows(r) });
  `, (o) => {
    assert.ok(o[0].n <= 2, `first session's run: ${o[0].n} turns`);
    assert.ok(o[1].n > 60, `second session's run: ${o[1].n} turns`);
    assert.deepEqual(o[1].rows, [6, 7, 8, 0, 1, 2]);
  }],
  ['a run that waits and then fails: the typed error of its feeds', `
    const s = await InferenceSession.create(model);
    await s.run(feeds);
    const r = await turns(s.run({ data }));
    out.push({ n: r.n, name: r.error?.name, code: r.error?.code, message: r.error?.message });
  `, (o) => {
    assert.ok(o[0].n > 60, `turns: ${o[0].n}`);
    assert.equal(o[0].code, 'ERR_INVALID_ARGUMENT');
    assert.match(o[0].message, /input 'indices' is missing from the feeds/);
  }],
  ['a session released while its run waits: the run is refused as released', `
    const s = await InferenceSession.create(model);
    await s.run(feeds);
    const p = s.run(feeds);
    await s.release();
    const r = await turns(p);
    out.push({ name: r.error?.name, message: r.error?.message });
  `, (o) => {
    assert.equal(o[0].name, 'DisposedError');
    assert.match(o[0].message, /released/);
  }],
];

for (const [name, body, check] of CASES) {
  test(name, () => {
    const child = spawnSync(process.execPath, ['--input-type=module', '-e', `${prelude}\n${body}\nconsole.log(JSON.stringify(out)); process.exit(0);`],
      { encoding: 'utf8', timeout: 60000, cwd: fileURLToPath(new URL('../..', import.meta.url)) });
    assert.equal(child.status, 0, `child failed:\n${child.stdout}\n${child.stderr}`);
    check(JSON.parse(child.stdout.trim().split('\n').pop()));
  });
}
