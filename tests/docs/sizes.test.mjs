// The sizes stated in README.md and docs/browsers-and-bundlers.md are the build's: every "<n> KB"
// there names its file (scripts/sizes.mjs) and is within 3% of that file's size (or gzipped
// size) in dist/, or within the rounding of the figure as written. `node scripts/sizes.mjs
// --write` rewrites them from the build.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { DOCS, figuresOf, measure, repo } from '../../scripts/sizes.mjs';

const sizes = measure();

for (const doc of DOCS) {
  test(`${doc}: every size in KB is marked with its file and is the build's`, () => {
    const text = readFileSync(join(repo, doc), 'utf8');
    const figures = figuresOf(text);
    assert.equal([...text.matchAll(/\d KB/g)].length, figures.length, 'a figure in KB without its file (`<n> KB<!-- size: dist/... -->`)');
    assert.ok(figures.length >= 2, 'the entry and the .wasm');
    for (const { value, decimals, kind, file } of figures) {
      assert.ok(sizes[file], `${file} is measured (scripts/sizes.mjs, FILES)`);
      const actual = sizes[file][kind] / 1000;
      const slack = Math.max(0.03 * actual, 0.5 * 10 ** -decimals);
      assert.ok(Math.abs(value - actual) <= slack, `${doc}: ${value} KB for ${file} (${kind}), the build's is ${actual.toFixed(1)} KB: node scripts/sizes.mjs --write`);
    }
  });
}
