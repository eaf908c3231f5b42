// The code blocks of README.md and docs/: found, classified and made into runnable modules.
// The convention (docs/testing.md, "Examples in the docs"):
//   ```js                      runs in Node as an ES module, in a folder holding the fixtures
//   ```js browser              runs in Chromium as a module script of a page served from that folder
//   ```js fragment: <reason>   is not run; the reason is required
// In a block that runs, a one-line statement followed by `// => <value>` is checked: the
// statement's value, printed as the docs print values (check.mjs), must read <value>. A statement
// followed by `// throws <Name>: <message>` must throw (or reject with) that error.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

// Markdown files whose blocks are run: README.md and every page under docs/.
export function docFiles(repo) {
  const walk = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? walk(join(dir, e.name)) : e.name.endsWith('.md') ? [join(dir, e.name)] : []);
  return [join(repo, 'README.md'), ...walk(join(repo, 'docs')).sort()];
}

// Every fenced block: { file (relative), line (of its first code line), lang, info, code }.
export function blocksOf(repo, file) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const out = [];
  for (let i = 0; i < lines.length; ++i) {
    const open = /^(\s*)(`{3,}|~{3,})\s*(\S*)\s*(.*)$/.exec(lines[i]);
    if (!open) continue;
    const fence = open[2], start = i + 1;
    let end = start;
    while (end < lines.length && !lines[end].trim().startsWith(fence)) ++end;
    out.push({ file: relative(repo, file), line: start + 1, lang: open[3], info: open[4].trim(), code: lines.slice(start, end).join('\n') });
    i = end;
  }
  return out;
}

// How a js block runs: 'node', 'browser' or 'fragment' (with its reason); anything else is an error.
export function kindOf(block) {
  if (block.info === '') return { kind: 'node' };
  if (block.info === 'browser') return { kind: 'browser' };
  const fragment = /^fragment:\s*(\S.*)$/.exec(block.info);
  if (fragment) return { kind: 'fragment', reason: fragment[1] };
  throw new Error(`${block.file}:${block.line - 1}: unknown marker \`${block.info}\` (use none, \`browser\` or \`fragment: <reason>\`)`);
}

const CHECK = /^(\s*)(\S.*?);?\s*\/\/ (=>|throws) (.+)$/;

// The block as a module: `// =>` and `// throws` lines become checks that name the doc line. The
// first line imports the checks, so line k of the block is line k + 1 of the module.
export function toModule(block, checkUrl) {
  const where = (k) => `${block.file}:${block.line + k}`;
  const body = block.code.split('\n').map((text, k) => {
    const m = CHECK.exec(text);
    if (!m || m[2].startsWith('//')) return text;
    const [, indent, statement, how, expected] = m;
    if (/^(const|let|var|import|export|return)\b/.test(statement))
      throw new Error(`${where(k)}: a checked line must be an expression statement, not \`${statement.split(' ')[0]}\``);
    const args = `${JSON.stringify(expected.trim())}, ${JSON.stringify(where(k))}`;
    return how === '=>'
      ? `${indent}__expect((${statement}), ${args});`
      : `${indent}await __throws(async () => { ${statement}; }, ${args});`;
  });
  const checks = body.filter((l, k) => l !== block.code.split('\n')[k]).length;
  return { source: `import { __expect, __throws, __done } from ${JSON.stringify(checkUrl)};\n${body.join('\n')}\n__done();\n`, checks };
}
