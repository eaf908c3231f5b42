// ONNX's own backend tests for the ops of the registry that have them (the folders OUR_TESTS
// names in tests/support/onnx-test-dir.mjs: Gather, GatherElements, GatherND, Flatten, Reshape,
// Concat, Shape, Size, Identity, Squeeze, Unsqueeze, Slice, Range, ConstantOfShape, Cast, CastLike, Add, Sub, Mul, Div, DequantizeLinear, and the PyTorch-exported Embedding, flatten, view and add models): each model run through InferenceSession, outputs compared byte for
// byte with its test_data_set outputs (the folders SKIPPED names are listed as skipped, with why). Both suites must be present (set-up installs
// libonnx-testdata); a missing suite fails rather than skips.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { init } from '../../js/index.mjs';
import { SKIPPED, checkTestDir, listTestDirs, suiteRoots } from '../support/onnx-test-dir.mjs';

await init();

for (const [suite, root] of Object.entries(suiteRoots())) {
  test(`${suite}: suite is present`, () => {
    assert.ok(root, `the ${suite} conformance suite was not found`);
  });
  if (!root) continue;
  const dirs = listTestDirs(root);
  test(`${suite}: has tests for every op`, () => {
    for (const op of ['gather', 'flatten', 'reshape'])
      assert.ok(dirs.some((d) => d.name.startsWith(`test_${op}`)), `no test_${op}* in ${root}`);
  });
  for (const { group, name, dir } of dirs) {
    test(`${suite}: ${group}/${name}`, { skip: SKIPPED[name] ?? false }, async () => {
      const compared = await checkTestDir(dir);
      assert.ok(compared > 0, 'no output compared');
    });
  }
}
