// `npm start` ends with `node examples/run-all.mjs`: every example runs, each error an example
// shows on purpose says it is intended (a new user should not take it for a failure), and the
// output ends with what to do next.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { test } from 'node:test';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

test('npm start: the examples run, an intended error says so, and the output ends with what to do next', () => {
  const out = execFileSync(process.execPath, [join(repo, 'examples/run-all.mjs')], { encoding: 'utf8' });
  const errors = out.split('\n').filter((l) => /Error \(ERR_[A-Z_]+\)/.test(l));
  assert.equal(errors.length, 2, out);
  for (const line of errors) assert.match(line, /^intended error \(.+\): \w+Error \(ERR_[A-Z_]+\): /, line);
  const end = out.trimEnd().split('\n').slice(-6).join('\n');
  assert.match(end, /^Every example ran; the 2 errors above were intended\.$/m, end);
  for (const next of [/npm test\b/, /npm run playground\b/, /npm run bench\b/, /docs\/getting-started\.md/]) assert.match(end, next, end);
});
