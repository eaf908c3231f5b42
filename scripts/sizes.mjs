// The sizes of the files a browser loads, and of Node's entries, measured on the build (dist/),
// and the figures of the docs that state them. A figure in README.md or docs/*.md is written "<n> KB" followed by a
// comment that names its file: `99 KB<!-- size: dist/onnx-wasm.web.mjs -->` (the file's bytes) or
// `34 KB<!-- gzip: dist/onnx-wasm.web.mjs -->` (gzipped, zlib's default level, as a server sends
// it); KB are 1000 bytes, and a figure keeps the decimals it is written with.
//   node scripts/sizes.mjs          prints the sizes
//   node scripts/sizes.mjs --write  rewrites every figure of the docs from the build
// tests/docs/sizes.test.mjs checks the figures against the build.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

export const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');

// The files measured: the one-file entries, the glue and worker scripts they load, the .wasm files,
// and Node's entries.
export const FILES = [
  'dist/onnx-wasm.web.mjs', 'dist/onnx-wasm-threads.web.mjs', 'dist/onnx-wasm-glue.web.mjs',
  'dist/index.mjs', 'dist/index.cjs',
  'dist/threads/onnx-wasm-threads.web.js', 'dist/threads/onnx-wasm-threads.worker.web.js',
  'dist/onnx-wasm.wasm', 'dist/onnx-wasm-nosimd.wasm', 'dist/threads/onnx-wasm-threads.wasm',
];

/** @returns {Record<string, { size: number, gzip: number }>} bytes */
export function measure() {
  return Object.fromEntries(FILES.map((f) => {
    const bytes = readFileSync(join(repo, f));
    return [f, { size: bytes.length, gzip: gzipSync(bytes).length }];
  }));
}

// A figure and its comment.
const FIGURE = /(\d+(?:\.\d+)?) KB<!-- (size|gzip): ([\w./-]+) -->/g;

/**
 * The figures of a doc's text: { value (KB), decimals, kind, file, index }.
 * @param {string} text
 */
export function figuresOf(text) {
  return [...text.matchAll(FIGURE)].map((m) => ({ value: Number(m[1]), decimals: (m[1].split('.')[1] ?? '').length, kind: m[2], file: m[3], index: m.index }));
}

// The docs with figures.
export const DOCS = ['README.md', 'docs/browsers-and-bundlers.md'];

const kb = (bytes, decimals) => (bytes / 1000).toFixed(decimals);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sizes = measure();
  if (process.argv.includes('--write')) {
    for (const doc of DOCS) {
      const path = join(repo, doc);
      const text = readFileSync(path, 'utf8');
      writeFileSync(path, text.replace(FIGURE, (all, value, kind, file) => {
        if (!sizes[file]) throw new Error(`sizes: ${doc} states the size of ${file}, which is not measured (FILES)`);
        return `${kb(sizes[file][kind], (value.split('.')[1] ?? '').length)} KB<!-- ${kind}: ${file} -->`;
      }));
    }
  }
  for (const [file, { size, gzip }] of Object.entries(sizes))
    console.log(`${file.padEnd(46)} ${kb(size, 1).padStart(7)} KB  ${kb(gzip, 1).padStart(6)} KB gzipped`);
}
