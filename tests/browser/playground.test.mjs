// The playground (examples/playground/) in real headless Chromium, served by its own server on
// localhost: the runtime line, every example of the op panel (output values and inferred shapes
// checked against values worked out here), symbolic dims, field errors and recovery, an ONNX
// conformance model with its test data, a model by URL kept in this browser (the OPFS cache:
// progress, the list with sizes, a lookup, a reload with the data server's files gone, a download
// cut short and resumed, deletion,
// bad URLs), and the benchmark panel. The browser runs with a disk-backed (persistent) profile, as
// a user's does, so that OPFS is kept as in a user's browser. Screenshots go to
// test-artifacts/browser/.
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { startServer } from '../../examples/playground/server.mjs';
import { init, opVersions } from '../../js/index.mjs';
import { tensorFromProtoBytes } from '../../js/model/tensor-proto.mjs';
import { gatherModel, tableBytes as externalTable } from '../support/external-models.mjs';
import { suiteRoots } from '../support/onnx-test-dir.mjs';
import { chromium } from 'playwright-core';
import { serveFiles } from '../support/file-server.mjs';
import { CHROMIUM_ARGS, CHROMIUM_PATH, artifacts, watchPage } from './support.mjs';

let server, url, context, profile, page, problems;
const idle = () => page.evaluate(() => window.playground.idle());
const text = (sel) => page.textContent(sel).then((t) => t.trim());
const numbers = (s) => (s.match(/-?\d+(\.\d+)?(e[-+]?\d+)?/gi) ?? []).map(Number);
const shot = (name) => page.screenshot({ path: join(artifacts, `playground-${name}.png`), fullPage: true });

before(async () => {
  await init({ threads: false });   // to decode the expected outputs here
  ({ server, url } = await startServer({ port: 0 }));
  profile = mkdtempSync(join(tmpdir(), 'onnx-wasm-playground-profile-'));
  context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true, viewport: { width: 1300, height: 1000 } });
  page = context.pages()[0] ?? await context.newPage();
  problems = watchPage(page);
  await page.goto(url);
  await page.evaluate(() => window.playground.ready);
  await idle();
});
after(async () => {
  await context?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
  await new Promise((ok) => server?.close(ok));
});

test('loads offline, cross-origin isolated, and says which module it chose and why', async () => {
  assert.equal(await page.getAttribute('#runtime', 'data-state'), 'ready');
  assert.equal(await text('#rt-module'), 'onnx-wasm-threads');
  assert.match(await text('#rt-reason'), /cross-origin isolated/);
  assert.match(await text('#rt-page'), /crossOriginIsolated: true/);
  const hosts = await page.evaluate(() => [...new Set(performance.getEntriesByType('resource').map((e) => new URL(e.name).host))]);
  assert.deepEqual(hosts, [new URL(url).host], 'every resource comes from the playground server');
  await shot('loaded');
});

// Each example of the op panel, with the result worked out by hand from its inputs.
const examples = [
  { label: 'Gather rows (negative index)', inferred: 'float32 [2, 2]', meta: /float32 \[2, 2\] · 4 values/, values: [5, 6, 1, 2] },
  // int32 [[0,1,2],[3,4,5]], axis 1, indices [[2,0],[1,1]]
  { label: 'Gather columns, 2-D indices', inferred: 'int32 [2, 2, 2]', meta: /int32 \[2, 2, 2\]/, values: [2, 0, 1, 1, 5, 3, 4, 4] },
  { label: 'Gather strings', inferred: 'string [2]', meta: /string \[2\]/, strings: ['cherry', 'apple'] },
  // rows 0,4,2,1,3,0 of a [5, 4] table holding 0..19; batch = 6 indices / seq 3 = 2
  { label: 'Gather with symbolic dims', inferred: 'float32 [batch, seq, 4]', meta: /float32 \[2, 3, 4\]/,
    values: [0, 4, 2, 1, 3, 0].flatMap((r) => [0, 1, 2, 3].map((c) => r * 4 + c)) },
  { label: 'Flatten at axis 1', inferred: 'float32 [2, 12]', meta: /float32 \[2, 12\] · 24 values · a view/, values: Array.from({ length: 24 }, (_, i) => i) },
  { label: 'Flatten bfloat16, negative axis', inferred: 'bfloat16 [4, 3]', meta: /bfloat16 \[4, 3\] · 12 values · a view/, values: Array.from({ length: 12 }, (_, i) => i) },
  { label: 'Reshape with 0 and -1, symbolic batch', inferred: 'float32 [batch, 12]', meta: /float32 \[2, 12\] · 24 values · a view/, values: Array.from({ length: 24 }, (_, i) => i) },
  { label: 'Reshape-1 (shape attribute)', inferred: 'float32 [3, 2]', meta: /float32 \[3, 2\] · 6 values · a view/, values: [1, 2, 3, 4, 5, 6] },
  { label: 'Reshape int4 (packed)', inferred: 'int4 [6]', meta: /int4 \[6\] · 6 values · a view/, values: [-3, -2, -1, 0, 1, 2] },
  // The ops around them. The dims of ['batch', 3, 4, 5] from 1 to -1; batch = 120 values / 60.
  { label: 'Shape with start and end, symbolic batch', inferred: 'int64 [2]', meta: /int64 \[2\] · 2 values$/, values: [3, 4] },
  { label: 'Size', inferred: 'int64 []', meta: /int64 \[\] · 1 value$/, values: [24] },
  { label: 'Identity (a view)', inferred: 'float16 [2, 2]', meta: /float16 \[2, 2\] · 4 values · a view/, values: [0.5, 1, 1.5, 2] },
  // axes 0 and -1 (3 of the output's rank 4) of [2, 3]
  { label: 'Unsqueeze with an axes input', inferred: 'float32 [1, 2, 3, 1]', meta: /float32 \[1, 2, 3, 1\] · 6 values · a view/, values: [1, 2, 3, 4, 5, 6] },
  { label: 'Squeeze with axes left out (every 1)', inferred: 'float32 [3, 2]', meta: /float32 \[3, 2\] · 6 values · a view/, values: [1, 2, 3, 4, 5, 6] },
  // [[1], [2]] | [[3, 4], [5, 6]] | [[7, 8, 9], [10, 11, 12]] on axis 1
  { label: 'Concat of three inputs', inferred: 'int32 [2, 6]', meta: /int32 \[2, 6\] · 12 values$/, values: [1, 3, 4, 7, 8, 9, 2, 5, 6, 10, 11, 12] },
  // [3, 4] holding 0..11: rows from 2 down by 2 (2, 0; the end -1000 clamps to before row 0), columns 3 down to 1
  { label: 'Slice with negative steps', inferred: 'float32 [2, 3]', meta: /float32 \[2, 3\] · 6 values$/, values: [11, 10, 9, 3, 2, 1] },
  { label: 'Range, int64 counting down', inferred: 'int64 [4]', meta: /int64 \[4\] · 4 values$/, values: [10, 7, 4, 1] },
  // float inputs' values are not given to inference, so the length is unknown until the run
  { label: 'Range, float32', inferred: 'float32 [?]', meta: /float32 \[4\] · 4 values$/, values: [1, 1.25, 1.5, 1.75] },
  { label: 'ConstantOfShape float32 1.5', inferred: 'float32 [2, 3]', meta: /float32 \[2, 3\] · 6 values$/, values: [1.5, 1.5, 1.5, 1.5, 1.5, 1.5] },
  // 0.1 is 0.0999755859375 in float16; 65520 is halfway between 65504 and 65536 (inf): ties to even
  // (65504's last mantissa bit is 1) gives inf; 1e-8 is below half the smallest subnormal (2^-25)
  { label: 'Cast float32 to float16 (rounding, inf, underflow)', inferred: 'float16 [5]', meta: /float16 \[5\] · 5 values$/, shown: '[1, 0.099976, 65504, inf, 0]' },
  { label: 'Cast float32 to int4 (ties to even)', inferred: 'int4 [8]', meta: /int4 \[8\] · 8 values$/, values: [-8, -2, -2, 0, 0, 2, 2, 7] },
  // 2049 is halfway between float16's 2048 and 2050: to even, 2048; 70000 is beyond 65504
  { label: 'CastLike int32 to float16', inferred: 'float16 [3]', meta: /float16 \[3\] · 3 values$/, shown: '[1, 2048, inf]' },
  { label: 'Mul with broadcasting', inferred: 'float32 [2, 3]', meta: /float32 \[2, 3\] · 6 values$/, values: [10, 20, 30, 20, 40, 60] },
  // B [100, 200, 300] along axis 0 of A [3, 4] holding 0..11
  { label: 'Add-6 with broadcast and axis', inferred: 'float32 [3, 4]', meta: /float32 \[3, 4\] · 12 values$/,
    values: [100, 101, 102, 103, 204, 205, 206, 207, 308, 309, 310, 311] },
  { label: 'Sub uint8 (wraps around)', inferred: 'uint8 [3]', meta: /uint8 \[3\] · 3 values$/, values: [254, 249, 248] },
  { label: 'Div int32 (truncates)', inferred: 'int32 [3]', meta: /int32 \[3\] · 3 values$/, values: [3, -3, 4] },
  // [[1, 2, 3], [4, 5, 6]], axis 1, indices [[2, 0], [-1, 1]]
  { label: 'GatherElements on axis 1', inferred: 'float32 [2, 2]', meta: /float32 \[2, 2\] · 4 values$/, values: [3, 1, 6, 5] },
  // batch 0: data[0][1] = [2, 3]; batch 1: data[1][0] = [4, 5]
  { label: 'GatherND with batch_dims 1', inferred: 'int32 [2, 2]', meta: /int32 \[2, 2\] · 4 values$/, values: [2, 3, 4, 5] },
  // x[i][j] - zero_point[i][j / 2], times scale[i][j / 2]
  { label: 'DequantizeLinear blocked int4', inferred: 'float32 [2, 4]', meta: /float32 \[2, 4\] · 8 values$/, values: [-4, -0.5, -2, 12, 2, 3, -3, -4] },
  // rows 2 and 0, (code - 8) * scale: row 2 codes 0, 15, ... times -0.25; row 0 codes 0..15 times 0.5
  { label: 'GatherBlockQuantized 4-bit codes, float16 scales', inferred: 'float16 [2, 16]', meta: /float16 \[2, 16\] · 32 values$/,
    values: [...Array(8).fill([2, -1.75]).flat(), ...Array.from({ length: 16 }, (_, k) => (k - 8) * 0.5)] },
  // rows 2 and -3 (0) of [[-4, -3, -2], [-1, 0, 1], [2, 3, 4]]
  { label: 'onnx-wasm Gather of int4 rows', inferred: 'int4 [2, 3]', meta: /int4 \[2, 3\] · 6 values$/, values: [2, 3, 4, -4, -3, -2] },
];

for (const ex of examples) {
  test(`op panel: ${ex.label}`, async () => {
    await page.selectOption('#op-preset', { label: ex.label });
    await idle();
    await page.click('#op-run');
    await idle();
    assert.equal(await text('#op-inferred'), ex.inferred);
    assert.match(await text('#op-output-meta'), ex.meta);
    const shown = await text('#op-output-values');
    if (ex.strings) assert.deepEqual(shown.match(/[a-z]+/g), ex.strings);
    else if (ex.shown) assert.equal(shown, ex.shown);
    else assert.deepEqual(numbers(shown), ex.values);
    assert.match(await text('#op-time'), /per runNode/);
    assert.equal(await page.getAttribute('#op-result', 'data-state'), 'ok');
  });
}

test('every example of the page is in the table above', async () => {
  const labels = await page.$$eval('#op-preset option', (os) => os.map((o) => o.textContent));
  assert.deepEqual([...labels].sort(), examples.map((e) => e.label).sort());
});

test('the op list is the registry: every op of every domain, grouped by domain', async () => {
  const groups = await page.$$eval('#op-type optgroup', (gs) => gs.map((g) => [g.label, [...g.querySelectorAll('option')].map((o) => o.textContent)]));
  const want = new Map();
  for (const v of opVersions()) {
    const d = v.domain || 'ai.onnx';
    if (!want.has(d)) want.set(d, []);
    if (!want.get(d).includes(v.op)) want.get(d).push(v.op);
  }
  assert.deepEqual(groups, [...want]);
  assert.ok(want.get('ai.onnx').length >= 21 && want.get('com.microsoft').includes('GatherBlockQuantized') && want.get('onnx-wasm').includes('Gather'), JSON.stringify([...want]));
});

test('a com.microsoft op: the opset field becomes that domain\'s, and back', async () => {
  await page.selectOption('#op-preset', { label: 'Gather rows (negative index)' });
  await idle();
  await page.selectOption('#op-type', 'com.microsoft.GatherBlockQuantized');
  await idle();
  assert.equal(await page.inputValue('#op-opset'), '1');
  assert.equal(await text('#op-opset-label'), 'com.microsoft opset');
  assert.match(await text('#op-version'), /^com\.microsoft GatherBlockQuantized-1 is in force/);
  assert.equal(await page.getAttribute('#op-result', 'data-state'), 'ok');
  assert.equal(await text('#op-inferred'), 'float16 [2, 16]');
  // The default domain's op list again: its opset comes back.
  await page.selectOption('#op-type', 'Concat');
  await idle();
  assert.equal(await page.inputValue('#op-opset'), '13');
  assert.equal(await text('#op-opset-label'), 'opset');
  assert.match(await text('#op-version'), /^Concat-13 is in force/);
  // An opset GatherBlockQuantized does not have: the error names the domain's versions.
  await page.selectOption('#op-type', 'com.microsoft.GatherBlockQuantized');
  await idle();
  await page.fill('#op-opset', '2');
  await idle();
  assert.match(await text('[data-error-for="opset"]'), /GatherBlockQuantized has no version at com\.microsoft opset 2.*opsets 1 to 1/);
});

test('an optional input left out is passed as null, and put back', async () => {
  await page.selectOption('#op-preset', { label: 'Squeeze with axes left out (every 1)' });
  await idle();
  const omit = '#op-input-axes .input-omit';
  assert.equal(await page.isChecked(omit), true);
  assert.equal(await page.isDisabled('#op-input-axes textarea'), true);
  await page.uncheck(omit);
  await page.fill('#op-input-axes .input-dims', '1');
  await page.fill('#op-input-axes textarea', '2');
  await idle();
  assert.equal(await text('#op-inferred'), 'float32 [1, 3, 2]');
  assert.match(await text('#op-output-meta'), /float32 \[1, 3, 2\]/);
  // An axis that is not of size 1: the error shows at the axes input.
  await page.fill('#op-input-axes textarea', '1');
  await idle();
  assert.match(await text('[data-error-for="input:1"]'), /Squeeze-13/);
  assert.notEqual(await page.getAttribute('#op-result', 'data-state'), 'ok');
  await page.check(omit);
  await idle();
  assert.equal(await text('#op-inferred'), 'float32 [3, 2]');
  assert.equal(await text('[data-error-for="input:1"]'), '');
  // Slice's optional steps left out: step 1 from row 2 to the clamped end: nothing.
  await page.selectOption('#op-preset', { label: 'Slice with negative steps' });
  await idle();
  await page.check('#op-input-steps .input-omit');
  await idle();
  assert.equal(await text('#op-inferred'), 'float32 [0, 0]');
  assert.match(await text('#op-output-meta'), /float32 \[0, 0\] · 0 values/);
});

test('a variadic input: Concat\'s inputs added and removed, errors at the input they concern', async () => {
  await page.selectOption('#op-preset', { label: 'Concat of three inputs' });
  await idle();
  assert.equal(await page.locator('#op-inputs fieldset.input-block').count(), 3);
  await page.click('#op-input-inputs-1 .input-remove');
  await idle();
  assert.equal(await page.locator('#op-inputs fieldset.input-block').count(), 2);
  assert.equal(await text('#op-inferred'), 'int32 [2, 4]');
  assert.deepEqual(numbers(await text('#op-output-values')), [1, 7, 8, 9, 2, 10, 11, 12]);
  // Added: a copy of the last ([2, 3] holding 7..12).
  await page.click('#op-input-add');
  await idle();
  assert.equal(await page.locator('#op-inputs fieldset.input-block').count(), 3);
  assert.equal(await text('#op-inferred'), 'int32 [2, 7]');
  assert.deepEqual(numbers(await text('#op-output-values')), [1, 7, 8, 9, 7, 8, 9, 2, 10, 11, 12, 10, 11, 12]);
  await page.fill('#op-input-inputs-2 .input-dims', '3, 2');
  await idle();
  assert.match(await text('[data-error-for="input:2"]'), /Concat-13: input 2 has shape \[3, 2\]/);
  assert.equal(await text('#op-output-values'), '');
  await page.click('#op-input-inputs-2 .input-remove');
  await idle();
  assert.deepEqual(await page.$$eval('#op-panel .field-error', (els) => els.map((e) => e.textContent).filter(Boolean)), [], 'no error is left');
  assert.equal(await text('#op-inferred'), 'int32 [2, 4]');
});

test('attributes of other kinds: a type by name or id, a TENSOR value, a STRING', async () => {
  await page.selectOption('#op-preset', { label: 'Cast float32 to float16 (rounding, inf, underflow)' });
  await idle();
  await page.fill('#op-attr-to', '10');   // TensorProto.FLOAT16
  await idle();
  assert.equal(await text('#op-output-values'), '[1, 0.099976, 65504, inf, 0]');
  await page.fill('#op-attr-to', 'int8x');
  await idle();
  assert.match(await text('[data-error-for="attr:to"]'), /'int8x' is neither a type .* nor a type id/);
  await page.fill('#op-attr-to', '99');
  await idle();
  assert.match(await text('[data-error-for="attr:to"]'), /Cast-13: attribute 'to' is 99/);
  // Cast-1's `to` is a STRING, a TensorProto name: this page's names are taken too.
  await page.fill('#op-attr-to', 'float64');
  await page.fill('#op-opset', '1');
  await idle();
  assert.match(await text('#op-version'), /^Cast-1 /);
  assert.match(await text('#op-output-meta'), /^float64 \[5\]/);
  assert.deepEqual(numbers(await text('#op-output-values')), [1, 0.100000001490116, 65504, 65520, 9.99999993922529e-9]);

  await page.selectOption('#op-preset', { label: 'ConstantOfShape float32 1.5' });
  await idle();
  await page.fill('#op-attr-value', 'int64 -7');
  await idle();
  assert.match(await text('#op-output-meta'), /^int64 \[2, 3\]/);
  assert.deepEqual(numbers(await text('#op-output-values')), [-7, -7, -7, -7, -7, -7]);
  await page.fill('#op-attr-value', 'float32 1, 2');
  await idle();
  assert.match(await text('[data-error-for="attr:value"]'), /one value/);
  await page.fill('#op-attr-value', 'bogus 1');
  await idle();
  assert.match(await text('[data-error-for="attr:value"]'), /'bogus' is not a type/);
  await page.fill('#op-attr-value', '');   // not set: float32 zeros
  await idle();
  assert.match(await text('#op-output-meta'), /^float32 \[2, 3\]/);
  assert.deepEqual(numbers(await text('#op-output-values')), [0, 0, 0, 0, 0, 0]);
});

test('the benchmark panel says which ops it times, and offers no run for the others', async () => {
  await page.selectOption('#op-preset', { label: 'Mul with broadcasting' });
  await idle();
  assert.equal(await page.isDisabled('#bench-start'), true);
  assert.match(await text('#bench-desc'), /JavaScript loop for Gather, Flatten, Reshape only; Mul is chosen/);
  await page.selectOption('#op-preset', { label: 'Flatten at axis 1' });
  await idle();
  assert.equal(await page.isDisabled('#bench-start'), false);
  assert.match(await text('#bench-desc'), /^next run: Flatten-13/);
});

test('the version in force follows the opset, with its rules', async () => {
  await page.selectOption('#op-preset', { label: 'Flatten at axis 1' });
  await idle();
  await page.fill('#op-opset', '9');
  await idle();
  assert.match(await text('#op-version'), /Flatten-9/);
  const rules = await text('#op-rules');
  assert.match(rules, /int32/);
  assert.doesNotMatch(rules, /bfloat16/, 'Flatten-9 does not allow bfloat16');
  await page.fill('#op-opset', '13');
  await idle();
  assert.match(await text('#op-version'), /Flatten-13/);
  assert.match(await text('#op-rules'), /bfloat16/);
});

test('bad input: the error shows next to its field, and the page keeps working', async () => {
  await page.selectOption('#op-preset', { label: 'Gather rows (negative index)' });
  await idle();
  await page.fill('#op-input-indices textarea', '2, 7');
  await idle();
  const indicesError = await text('[data-error-for="input:1"]');
  assert.match(indicesError, /7/);
  assert.match(indicesError, /\[-3, 2\]/);
  assert.notEqual(await page.getAttribute('#op-result', 'data-state'), 'ok');
  assert.equal(await text('#op-output-values'), '', 'no partial output is shown');
  await shot('index-error');

  await page.fill('#op-attr-axis', '5');
  await idle();
  assert.match(await text('[data-error-for="attr:axis"]'), /axis/);
  await page.fill('#op-attr-axis', '0');
  await page.fill('#op-opset', '0');
  await idle();
  assert.match(await text('[data-error-for="opset"]'), /opset/i);
  await page.fill('#op-opset', '13');
  await page.fill('#op-input-indices textarea', '2, -1');
  await idle();
  await page.click('#op-run');
  await idle();
  assert.equal(await text('[data-error-for="input:1"]'), '');
  assert.deepEqual(numbers(await text('#op-output-values')), [5, 6, 5, 6]);
  assert.equal(await page.getAttribute('#op-result', 'data-state'), 'ok');
});

test('symbolic dims: the inferred shape keeps the names the user writes', async () => {
  await page.selectOption('#op-preset', { label: 'Flatten at axis 1' });
  await idle();
  await page.fill('#op-input-input textarea', '');
  await page.fill('#op-input-input .input-dims', 'batch, 1, 1');
  await idle();
  assert.equal(await text('#op-inferred'), 'float32 [batch, 1]');
  await page.fill('#op-input-input .input-dims', 'batch, 3, 4');
  await idle();
  assert.equal(await text('#op-inferred'), 'float32 [batch, 12]');
});

test('model panel: an ONNX conformance model with its test data', async () => {
  // From ../shared/onnx-node-tests (ONNX 1.22), or Debian's libonnx-testdata (set-up installs it).
  const roots = suiteRoots();
  const root = roots['onnx-1.22'] ?? roots['onnx-1.12 (libonnx-testdata)'];
  assert.ok(root, 'an ONNX conformance suite is installed');
  const dir = join(root, 'node/test_gather_2d_indices');
  await page.setInputFiles('#model-file', [join(dir, 'model.onnx'), join(dir, 'test_data_set_0/input_0.pb'),
    join(dir, 'test_data_set_0/input_1.pb'), join(dir, 'test_data_set_0/output_0.pb')]);
  await page.waitForSelector('#model-result .tensor.output', { timeout: 20000 });
  await idle();
  assert.match(await text('#model-summary'), /opset/i);
  assert.match(await text('#model-nodes'), /Gather/);
  assert.match(await text('#model-outputs-meta'), /float32/);
  // The expected output, decoded here from output_0.pb.
  const want = await tensorFromProtoBytes(readFileSync(join(dir, 'test_data_set_0/output_0.pb')));
  const head = await text('#model-result .tensor.output .tensor-head');
  assert.match(head, new RegExp(`\\[${want.tensor.dims.join(', ')}\\]`));
  assert.match(head, /✓ matches output_0\.pb/);
  const shown = numbers(await text('#model-result .tensor.output pre.values'));
  const expected = Array.from(want.tensor.data).slice(0, shown.length);
  assert.ok(shown.length >= Math.min(16, want.tensor.size), `values are shown (${shown.length})`);
  shown.forEach((v, i) => assert.ok(Math.abs(v - expected[i]) <= 1e-3 * Math.max(1, Math.abs(expected[i])), `value ${i}: ${v} vs ${expected[i]}`));
  await shot('model');

  // A file that is not a model: an error in the model panel, and the op panel still runs.
  await page.setInputFiles('#model-file', { name: 'broken.onnx', mimeType: 'application/octet-stream', buffer: Buffer.from([0x0a, 0xff, 0xff, 0x01]) });
  await page.waitForFunction(() => document.querySelector('[data-error-for="model"]').textContent.trim() !== '');
  assert.match(await text('[data-error-for="model"]'), /model|protobuf|parse/i);
  await page.selectOption('#op-preset', { label: 'Gather rows (negative index)' });
  await idle();
  assert.deepEqual(numbers(await text('#op-output-values')), [5, 6, 1, 2]);
});

test('model panel: a model with its table in an external data file picked beside it, a progress bar while it loads', async () => {
  // A [16384, 32] float32 table (2 MB) in table.bin; the progress bar's events are recorded in the page.
  const dims = [16384, 32];
  const dir = join(tmpdir(), `onnx-wasm-playground-external-${process.pid}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'model.onnx'), gatherModel({ dims, indexDims: [3] }));
  writeFileSync(join(dir, 'table.bin'), externalTable('float32', dims));
  await page.evaluate(() => {
    window.progressSeen = [];
    new MutationObserver(() => window.progressSeen.push({ hidden: document.querySelector('#model-progress-box').hidden, value: document.querySelector('#model-progress').value }))
      .observe(document.querySelector('#model-progress-box'), { attributes: true, subtree: true });
  });
  await page.setInputFiles('#model-file', [join(dir, 'model.onnx'), join(dir, 'table.bin')]);
  await page.waitForSelector('#model-result .tensor.output', { timeout: 20000 });
  await idle();
  assert.match(await text('#model-summary'), /table: 2\.1 MB in wasm memory/);
  assert.equal(await text('[data-error-for="model"]'), '');
  const seen = await page.evaluate(() => window.progressSeen);
  assert.ok(seen.some((e) => !e.hidden) && seen.at(-1).hidden, JSON.stringify(seen));
  assert.ok(seen.some((e) => e.value > 2e6), `the bar reached the table's bytes: ${JSON.stringify(seen)}`);
  rmSync(dir, { recursive: true, force: true });
});

test('model panel: a model by URL kept in this browser: progress, listed with its size, a lookup; after a reload opened with no download; deleted', async () => {
  // A Gather model and its uint8 [262144, 16] table (4 MiB, so byte k of row r is the value shown),
  // on another origin that allows this page (CORS, Range allowed, Content-Range readable).
  const dims = [262144, 16];
  const model = gatherModel({ type: 'uint8', dims });
  const table = externalTable('uint8', dims);
  const dir = mkdtempSync(join(tmpdir(), 'onnx-wasm-playground-url-'));
  writeFileSync(join(dir, 'emb.onnx'), model);
  writeFileSync(join(dir, 'table.bin'), table);
  copyFileSync(join(dir, 'emb.onnx'), join(dir, 'emb2.onnx'));
  const data = await serveFiles(dir, { headers: { 'Access-Control-Allow-Origin': '*', 'Access-Control-Allow-Headers': 'Range', 'Access-Control-Expose-Headers': 'Content-Range' } });
  const modelUrl = `${data.url}emb.onnx`, total = model.length + table.length;
  const entries = () => page.$$eval('#model-cache-list tr.entry', (rows) => rows.map((r) => ({
    url: r.dataset.url, size: r.querySelector('.bytes').title, state: r.querySelector('.state').textContent })));
  const entry = (u) => `#model-cache-list tr.entry[data-url="${u}"]`;
  // The progress bar's values while a load runs, recorded in the page.
  const watchProgress = () => page.evaluate(() => {
    window.progressSeen = [];
    const bar = document.querySelector('#model-progress'), box = document.querySelector('#model-progress-box');
    new MutationObserver(() => window.progressSeen.push({ hidden: box.hidden, value: bar.value, max: bar.max, text: document.querySelector('#model-progress-text').textContent }))
      .observe(box, { attributes: true, subtree: true });
  });
  // A lookup of 4 generated indices (n set to 4): the rows shown are the table's rows at the
  // indices the page shows.
  const lookup = async () => {
    await page.fill('.model-symbol[data-symbol="n"]', '4');
    await page.click('#model-run');
    await idle();
    assert.equal(await text('[data-error-for="model-run"]'), '');
    assert.match(await text('#model-result .tensor.output .tensor-head'), /uint8 \[4, 16\]/);
    const ids = numbers(await page.textContent('#model-result .tensor.input pre.values'));
    assert.equal(new Set(ids).size, 4, `4 different rows: ${ids}`);
    assert.deepEqual(numbers(await text('#model-result .tensor.output pre.values')), ids.flatMap((r) => Array.from(table.subarray(r * 16, (r + 1) * 16))));
  };
  try {
    await page.evaluate(() => window.playground.ready);
    assert.equal(await page.isVisible('#model-cache-empty'), true, 'nothing is kept at first');
    assert.deepEqual(await entries(), []);

    // Keep it: downloaded with progress, listed with its size, its table read by rows from OPFS.
    await watchProgress();
    await page.fill('#model-url', modelUrl);
    assert.equal(await page.isChecked('#model-keep'), true);
    await page.click('#model-url-load');
    await page.waitForSelector('#model-result .tensor.output', { timeout: 30000 });
    await idle();
    assert.equal(await text('[data-error-for="model-url"]'), '');
    const summary = await text('#model-summary');
    assert.match(summary, /^emb\.onnx · \d+ bytes · downloaded into this browser \(4\.2 MB kept\)/);
    assert.match(summary, /table: 4\.2 MB kept in this browser \(table\.bin\), read by rows/);
    const seen = await page.evaluate(() => window.progressSeen);
    assert.ok(seen.some((e) => !e.hidden && e.value === total && e.max === total && e.text === `${total.toLocaleString('en')} of ${total.toLocaleString('en')} bytes`), JSON.stringify(seen));
    assert.equal(seen.at(-1).hidden, true, 'the bar hides when done');
    assert.deepEqual(await entries(), [{ url: modelUrl, size: `${total.toLocaleString('en')} bytes`, state: 'complete' }]);
    assert.equal(await text(`${entry(modelUrl)} .bytes`), '4.2 MB');
    assert.deepEqual(data.requests.filter((r) => r.path === '/table.bin').length, 1, 'the table was downloaded once');
    await lookup();
    await shot('kept');

    // Without "keep": downloaded, not kept; the list is unchanged.
    await page.fill('#model-url', `${data.url}emb2.onnx`);
    await page.uncheck('#model-keep');
    await page.click('#model-url-load');
    await page.waitForSelector('#model-result .tensor.output', { timeout: 30000 });
    await idle();
    assert.match(await text('#model-summary'), /^emb2\.onnx · downloaded, not kept · .*table: 4\.2 MB in wasm memory/);
    assert.deepEqual((await entries()).map((e) => e.url), [modelUrl]);

    // A later visit: the page reloaded, the data server's files renamed (a request would get a
    // 404); the entry is listed and opens from this browser, with no request at all.
    renameSync(join(dir, 'emb.onnx'), join(dir, 'emb-gone.onnx'));
    renameSync(join(dir, 'table.bin'), join(dir, 'table-gone.bin'));
    data.requests.length = 0;
    await page.reload();
    await page.evaluate(() => window.playground.ready);
    await idle();
    assert.deepEqual(await entries(), [{ url: modelUrl, size: `${total.toLocaleString('en')} bytes`, state: 'complete' }]);
    await watchProgress();
    await page.click(`${entry(modelUrl)} button.open`);
    await page.waitForSelector('#model-result .tensor.output', { timeout: 30000 });
    await idle();
    assert.equal(await text('[data-error-for="model-url"]'), '');
    assert.match(await text('#model-summary'), /opened from this browser, nothing downloaded \(4\.2 MB kept\).*read by rows/);
    assert.ok((await page.evaluate(() => window.progressSeen)).some((e) => e.value === model.length && e.max === model.length), 'the progress counts the model only: nothing to download');
    await lookup();
    assert.deepEqual(data.requests, [], 'no request reached the data server');

    // Delete it: the open model (its table was in the entry) is closed, and the list is empty.
    await page.click(`${entry(modelUrl)} button.delete`);
    await idle();
    assert.equal(await text('[data-error-for="model-cache"]'), '');
    assert.deepEqual(await entries(), []);
    assert.equal(await page.isVisible('#model-cache-empty'), true);
    assert.equal(await page.isVisible('#model-info'), false);

    // Bad input: an error next to the URL field, nothing kept, and the page keeps working.
    for (const [bad, message] of [['http://', /is not a URL/], ['ftp://example.com/m.onnx', /only http: and https: URLs/], ['', /type the URL/],
      [modelUrl, /emb\.onnx: ModelError \(ERR_MODEL\): cannot fetch the ONNX model at http:\S+\/emb\.onnx: HTTP 404 Not Found$/]]) {
      await page.fill('#model-url', bad);
      await page.check('#model-keep');
      await page.click('#model-url-load');
      await idle();
      assert.match(await text('[data-error-for="model-url"]'), message, bad);
      assert.equal(await page.isVisible('#model-info'), false, bad);
      assert.deepEqual(await entries(), [], `${bad}: nothing is left in the list`);
    }
    await page.selectOption('#op-preset', { label: 'Gather rows (negative index)' });
    await idle();
    assert.deepEqual(numbers(await text('#op-output-values')), [5, 6, 1, 2]);

    // A download cut short every time: the error next to the field, the entry listed as partial
    // with the bytes received; its Resume button asks for the rest only (Range) and completes it.
    renameSync(join(dir, 'emb-gone.onnx'), join(dir, 'emb.onnx'));
    renameSync(join(dir, 'table-gone.bin'), join(dir, 'table.bin'));
    data.set({ cuts: 5, cutAfter: 300000, how: 'reset' });
    await page.fill('#model-url', modelUrl);
    await page.click('#model-url-load');
    await idle();
    data.set({ cuts: 0 });
    // Five tries of at most 300,000 bytes each: 1,500,000 bytes kept at most. A reset can drop
    // bytes the server wrote but the page had not read yet (an errored stream discards its
    // queue), so the count is what the page kept, and the resume asks from exactly there.
    const cut = /ended after (\d+) of 4194304 bytes \(5 tries; the last: network error\)/.exec(await text('[data-error-for="model-url"]'));
    assert.ok(cut, await text('[data-error-for="model-url"]'));
    const kept = Number(cut[1]);
    assert.ok(kept > 0 && kept <= 1500000, `${kept} bytes kept`);
    assert.deepEqual(await entries(), [{ url: modelUrl, size: `${(model.length + kept).toLocaleString('en')} bytes`, state: 'partial (the next load resumes it)' }]);
    data.requests.length = 0;
    await page.click(`${entry(modelUrl)} button.open`);
    await page.waitForSelector('#model-result .tensor.output', { timeout: 30000 });
    await idle();
    assert.equal(await text('[data-error-for="model-url"]'), '');
    assert.deepEqual(data.requests.filter((r) => r.path === '/table.bin').map((r) => r.range), [`bytes=${kept}-`]);
    assert.deepEqual(await entries(), [{ url: modelUrl, size: `${total.toLocaleString('en')} bytes`, state: 'complete' }]);
    await lookup();

    // Two entries, then "Delete all".
    for (const u of [modelUrl, `${data.url}emb2.onnx`]) {
      await page.fill('#model-url', u);
      await page.click('#model-url-load');
      await page.waitForSelector('#model-result .tensor.output', { timeout: 30000 });
      await idle();
      assert.equal(await text('[data-error-for="model-url"]'), '');
    }
    assert.deepEqual((await entries()).map((e) => [e.url, e.state]).sort(), [[modelUrl, 'complete'], [`${data.url}emb2.onnx`, 'complete']]);
    await lookup();
    await page.click('#model-cache-clear');
    await idle();
    assert.deepEqual(await entries(), []);
    assert.equal(await page.isDisabled('#model-cache-clear'), true);
  } finally {
    await data.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('benchmark panel: onnx-wasm against a JS loop on 4 M elements, page responsive, identical outputs', async () => {
  await page.selectOption('#op-preset', { label: 'Gather rows (negative index)' });
  await idle();
  await page.selectOption('#bench-size', '4194304');
  await page.selectOption('#bench-seconds', '2');
  await page.click('#bench-start');
  // The work is in the worker: while it runs on 4 M elements the page still renders its progress.
  await page.waitForFunction(() => document.querySelector('#bench-panel').dataset.state === 'running' &&
    document.querySelector('#bench-wasm').textContent.includes('GB/s'), null, { timeout: 30000 });
  await page.waitForFunction(() => document.querySelector('#bench-panel').dataset.state === 'done', null, { timeout: 30000 });
  const summary = await text('#bench-summary');
  assert.match(summary, /identical ✓/);
  assert.match(await text('#bench-wasm'), /GB\/s/);
  assert.match(await text('#bench-js'), /GB\/s/);
  await shot('bench');
});

test('no page errors along the way', () => {
  assert.deepEqual(problems, []);
});
