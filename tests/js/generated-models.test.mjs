// Generated conformance models (tests/support/gen-models.mjs): every version of Gather, Flatten
// and Reshape with every element type it allows, data as a fed input (raw_data) and as an
// initializer (typed fields), each run through InferenceSession and compared byte for byte with
// outputs computed without the runtime.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { init } from '../../js/index.mjs';
import { generateModels } from '../support/gen-models.mjs';
import { checkTestDir } from '../support/onnx-test-dir.mjs';
import { SPEC, parseTypes } from '../support/onnx-spec.mjs';

await init();
const root = mkdtempSync(join(tmpdir(), 'onnx-wasm-models-'));
after(() => rmSync(root, { recursive: true, force: true }));
const models = generateModels(root);

test('a model for every version and allowed type, in both encodings', () => {
  let expected = 0;
  for (const versions of Object.values(SPEC)) for (const [, list] of versions) expected += parseTypes(list).length * 2;
  assert.equal(models.length, expected);
});

for (const [op, versions] of Object.entries(SPEC)) {
  for (const [since] of versions) {
    test(`${op}-${since}: every allowed type`, async () => {
      const mine = models.filter((m) => m.op === op && m.since === since);
      assert.ok(mine.length > 0);
      for (const m of mine) {
        try {
          assert.equal(await checkTestDir(m.dir), 1);
        } catch (e) {
          e.message = `${m.name}: ${e.message}`;
          throw e;
        }
      }
    });
  }
}
