import { test } from 'node:test';
import assert from 'node:assert/strict';
import { init, Tensor, runNode, IndexOutOfRangeError } from '../../js/index.mjs';

test('init returns the same promise and Gather runs', async () => {
  const p = init();
  assert.equal(init(), p);
  const info = await p;
  assert.equal(info.maxOpset, 28);
  const data = new Tensor('float32', [1, 2, 3, 4, 5, 6], [3, 2]);
  const [out] = runNode({ opType: 'Gather', attributes: { axis: 0 } }, [data, new Tensor('int64', [2n, -3n], [2])]);
  assert.deepEqual(out.dims, [2, 2]);
  assert.deepEqual(Array.from(out.data), [5, 6, 1, 2]);
  assert.throws(() => runNode({ opType: 'Gather' }, [data, new Tensor('int32', [3], [1])], { opset: 13 }),
    (e) => e instanceof IndexOutOfRangeError && e.code === 'ERR_INDEX' &&
      e.message === 'Gather-13: index 3 at position 0 is outside [-3, 2] for axis 0 of size 3');
});
