// Memory soak, short (scripts/soak.mjs runs the full 100,000 / 10,000): each op and a model
// 2,000 times disposing everything and 2,000 times relying on garbage collection alone, the wasm
// heap back to exactly its starting size after each round; a soak that holds on to tensors is
// caught; and every use of a disposed tensor, prepared node or released session is a
// DisposedError, never a read of freed memory. Needs gc(): without --expose-gc the file runs
// itself again with it, in a child process.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const RUNS = 2000;
const GC_RUNS = 2000;

if (typeof globalThis.gc !== 'function') {
  test('soak tests, in a child process with --expose-gc', () => {
    const env = { ...process.env };
    delete env.NODE_TEST_CONTEXT;   // a plain script, not a child of this runner
    const child = spawnSync(process.execPath, ['--expose-gc', '--test-reporter=tap', fileURLToPath(import.meta.url)], { env, encoding: 'utf8', timeout: 300000 });
    assert.equal(child.status, 0, `child failed:\n${child.stdout}\n${child.stderr}`);
    assert.match(child.stdout, /# fail 0/);
    const pass = Number(/# pass (\d+)/.exec(child.stdout)?.[1]);
    assert.ok(pass >= 20, `only ${pass} tests passed:\n${child.stdout}`);
  });
} else {
  const {
    init, memoryStats, runNode, prepareNode, InferenceSession, Tensor, DisposedError, OnnxWasmError,
  } = await import('../../js/index.mjs');
  const { round, settle, soakRounds, warmUpSoak } = await import('../../scripts/soak.mjs');
  const { handMadeModels } = await import('../support/mutate.mjs');
  await init(JSON.parse(process.env.ONNXWASM_TEST_INIT ?? '{}'));
  await warmUpSoak();

  describe(`soak: ${RUNS} runs with dispose(), ${GC_RUNS} by garbage collection`, () => {
    for (const [name, mode, runs, run] of soakRounds({ runs: RUNS, gcRuns: GC_RUNS })) {
      test(`${name}, ${runs} runs, ${mode === 'gc' ? 'garbage collection alone' : 'dispose()'}: the heap returns to its start`, async () => {
        const r = await run();
        assert.equal(r.runs, runs);
        assert.equal(r.heapAfter, r.heapBefore, `heap in use ${r.heapBefore} -> ${r.heapAfter}`);
        assert.equal(r.memoryAfter, r.memoryBefore, 'wasm memory grew');
        assert.ok(r.ok);
        // In 'gc' mode garbage did pile up (so the collector, not dispose(), brought it back).
        if (mode === 'gc') assert.ok(r.heapPeak > r.heapBefore + 100000, `peak ${r.heapPeak} vs ${r.heapBefore}`);
      });
    }

    test('a soak that holds on to its tensors fails (the check can fail)', async () => {
      const held = [];
      const leaky = (i) => { held.push(new Tensor('int32', [i, i + 1], [2])); return []; };
      for (const mode of ['dispose', 'gc']) {
        const r = await round('leaky', mode, 200, leaky);
        assert.equal(r.ok, false);
        assert.ok(r.heapAfter > r.heapBefore, `${mode}: heap ${r.heapBefore} -> ${r.heapAfter}`);
      }
      held.forEach((t) => t.dispose());
      await settle();
    });
  });

  // Tensors are registered with the FinalizationRegistry at the end of the task that made them,
  // or as soon as 256 wait (js/tensor.mjs): both ways a dropped tensor is freed by the collector.
  describe('tensors dropped without dispose() are freed: registered at the end of the task or after 256', () => {
    const drop = (n) => { for (let i = 0; i < n; ++i) new Tensor('float32', new Float32Array(1000), [1000]); };
    test('dropped in one task, collected after it ends', async () => {
      const before = await settle();
      drop(100);
      assert.ok(memoryStats().heapUsed >= before + 100 * 4000);
      assert.equal(await settle(before), before);
    });
    test('dropped in a loop that never leaves its task: the first 512 of 600 are registered in it', async () => {
      const before = await settle();
      drop(600);
      const full = memoryStats().heapUsed, each = (full - before) / 600;
      // gc() before this task ends: only tensors already registered (two batches of 256) can be
      // collected; their finalizers run once the task ends. The other 88 are registered by then too.
      globalThis.gc();
      await new Promise((r) => setTimeout(r, 0));
      await new Promise((r) => setTimeout(r, 0));
      // (at least 508: V8 may keep the odd tensor alive through one collection. Under load, 511 of
      // the 512 were freed in a CI run, and 'at least 512' failed in 1 of 12 loaded runs, 2 of 12
      // for the build before Embind; without the batches of 256, none would be freed.)
      const freed = Math.round((full - memoryStats().heapUsed) / each);
      assert.ok(freed >= 508, `${freed} of 600 freed by the first collection`);
      assert.equal(await settle(before), before);
    });
    test('a tensor disposed in the task that made it is freed at once by dispose()', () => {
      const before = memoryStats().heapUsed;
      for (let i = 0; i < 1000; ++i) new Tensor('float32', new Float32Array(1000), [1000]).dispose();
      assert.equal(memoryStats().heapUsed, before);
    });
  });

  describe('a use after dispose is a DisposedError, never a read of freed memory', () => {
    const chain = handMadeModels().find((m) => m.name === 'hand/chain').bytes;
    const disposed = (type = 'float32', data = [1, 2, 3, 4], dims = [2, 2]) => { const t = new Tensor(type, data, dims); t.dispose(); return t; };
    // [what, () => the use, which must throw or reject DisposedError, message part]
    const CASES = [
      ['data of a disposed tensor', () => disposed().data, 'this float32 tensor of dims [2, 2] was disposed'],
      ['data of a disposed string tensor', () => disposed('string', ['a', 'b'], [2]).data, 'this string tensor of dims [2] was disposed'],
      ['getData() of a disposed tensor', () => disposed('int64', [1n, 2n], [2]).getData(), 'this int64 tensor of dims [2] was disposed'],
      ['handle of a disposed tensor', () => disposed().handle, 'was disposed'],
      ['sharesMemoryWith, disposed receiver', () => disposed().sharesMemoryWith(new Tensor('float32', [1], [1])), 'was disposed'],
      ['sharesMemoryWith, disposed argument', () => new Tensor('float32', [1], [1]).sharesMemoryWith(disposed()), 'was disposed'],
      ['runNode with a disposed data input', () => runNode({ opType: 'Flatten' }, [disposed()]), 'this float32 tensor of dims [2, 2] was disposed'],
      ['runNode with a disposed index input', () => runNode({ opType: 'Gather' }, [new Tensor('float32', [1, 2], [2]), disposed('int64', [0n], [1])]), 'this int64 tensor of dims [1] was disposed'],
      ['a prepared node with a disposed input', () => prepareNode({ opType: 'Reshape' }).run([disposed(), new Tensor('int64', [-1n], [1])]), 'was disposed'],
      ['runTensors of a prepared node with a disposed input', () => prepareNode({ opType: 'Flatten' }).runTensors([disposed()], null, 1), 'was disposed'],
      ['a disposed prepared node', () => { const p = prepareNode({ opType: 'Gather' }, { opset: 11 }); p.dispose(); return p.run([new Tensor('float32', [1], [1]), new Tensor('int64', [0n], [1])]); }, 'this prepared Gather at opset 11 was disposed'],
      ['an output whose own handle was disposed, after its input was disposed too', () => {
        const x = new Tensor('float32', [1, 2, 3, 4], [4]);
        const [y] = runNode({ opType: 'Reshape' }, [x, new Tensor('int64', [2n, 2n], [2])]);
        x.dispose(); y.dispose();
        return y.data;
      }, 'this float32 tensor of dims [2, 2] was disposed'],
      ['a session fed a disposed tensor', async () => {
        const s = await InferenceSession.create(chain);
        try { return await s.run({ data: disposed('float32', new Float32Array(8), [1, 2, 4]) }); } finally { await s.release(); }
      }, 'this float32 tensor of dims [1, 2, 4] was disposed'],
      ['a released session', async () => {
        const s = await InferenceSession.create(chain);
        await s.release();
        return s.run({ data: new Tensor('float32', new Float32Array(8), [1, 2, 4]) });
      }, 'this session was released'],
    ];
    for (const [what, use, message] of CASES) {
      test(what, async () => {
        await settle();
        const before = memoryStats().heapUsed;
        let thrown = null;
        try { await use(); } catch (e) { thrown = e; }
        assert.ok(thrown instanceof DisposedError && thrown instanceof OnnxWasmError, `${what}: ${thrown?.stack ?? 'nothing thrown'}`);
        assert.equal(thrown.code, 'ERR_DISPOSED');
        assert.ok(thrown.message.includes(message), thrown.message);
        await settle();
        assert.equal(memoryStats().heapUsed, before, 'the fixtures of the case were all freed');
      });
    }

    test('the memory of a disposed tensor reused by a new one: the old tensor throws, the new one keeps its values', () => {
      const old = new Tensor('int32', [1, 2, 3, 4], [4]);
      const address = old.data.byteOffset;
      old.dispose();
      const fresh = new Tensor('int32', [9, 8, 7, 6], [4]);
      assert.equal(fresh.data.byteOffset, address, 'the allocator reused the block (the case this test is about)');
      assert.throws(() => old.data, DisposedError);
      assert.throws(() => runNode({ opType: 'Flatten' }, [old]), DisposedError);
      assert.deepEqual(Array.from(fresh.data), [9, 8, 7, 6]);
      // What stays readable: type and dims (kept at dispose), and disposed.
      assert.equal(old.type, 'int32');
      assert.deepEqual(old.dims, [4]);
      assert.equal(old.disposed, true);
      old.dispose();   // a second dispose does nothing
      assert.deepEqual(Array.from(fresh.data), [9, 8, 7, 6]);
      fresh.dispose();
    });

    test('a Reshape/Flatten output keeps its data after its input is disposed or collected', async () => {
      const x = new Tensor('float32', [1, 2, 3, 4, 5, 6], [2, 3]);
      const [y] = runNode({ opType: 'Flatten', attributes: { axis: 0 } }, [x]);
      x.dispose();
      assert.deepEqual(Array.from(y.data), [1, 2, 3, 4, 5, 6]);
      let z;
      (() => { const w = new Tensor('string', ['a', 'b'], [2]); [z] = runNode({ opType: 'Reshape' }, [w, new Tensor('int64', [1n, 2n], [2])]); })();
      await settle();
      assert.deepEqual(Array.from(z.data), ['a', 'b']);
      y.dispose(); z.dispose();
    });
  });
}
