// The folder the doc examples run in, as a user's project would be: node_modules/onnx-wasm (a
// link to this repository, so `import 'onnx-wasm'` resolves through package.json as for an
// installed package) and the files the examples name:
//   model.onnx        flat = Reshape(Gather(table, ids), [0, -1]): table float32 [10, 4] holding
//                     0, 0.5, 1, ... (row r is 2r .. 2r + 1.5), ids int64 [batch, seq]
//   embeddings.onnx   out = Gather(table, indices): table float32 [1000, 8] in external data
//                     table.bin (32 KB), indices int64 [n]
//   embed_tokens.onnx, embed_tokens.onnx_data, next_model.onnx
//                     examples/llm-embeddings/'s (docs/llm-embeddings.md), with
//                     node_modules/onnxruntime-web (a link to the repository's) for the hand-over
import { create, toBinary } from '@bufbuild/protobuf';
import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelProtoSchema } from 'onnx-buf';
import { gatherModel, tableBytes } from '../support/external-models.mjs';
import { attribute, rawTensor, typedTensor, valueInfo } from '../support/gen-models.mjs';

function embedModel() {
  const table = Float32Array.from({ length: 10 * 4 }, (_, i) => i / 2);
  return toBinary(ModelProtoSchema, create(ModelProtoSchema, {
    irVersion: 8n,
    opsetImport: [{ domain: '', version: 21n }],
    graph: {
      name: 'embed',
      node: [
        { opType: 'Gather', name: 'lookup', input: ['table', 'ids'], output: ['vectors'], attribute: [attribute('axis', 0)] },
        { opType: 'Reshape', name: 'flatten', input: ['vectors', 'shape'], output: ['flat'] },
      ],
      initializer: [
        rawTensor('table', 'float32', [10, 4], { bytes: new Uint8Array(table.buffer) }),
        typedTensor('shape', 'int64', [2], { bytes: new Uint8Array(BigInt64Array.of(0n, -1n).buffer) }),
      ],
      input: [valueInfo('ids', 'int64', ['batch', 'seq'])],
      output: [valueInfo('flat', 'float32', null)],
    },
  }));
}

// A new folder with the fixtures; `repo` is linked as node_modules/onnx-wasm.
export function makeFixtures(repo, checkModule) {
  const dir = mkdtempSync(join(tmpdir(), 'onnx-wasm-docs-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(repo, join(dir, 'node_modules', 'onnx-wasm'), 'dir');
  symlinkSync(join(repo, 'node_modules', 'onnxruntime-web'), join(dir, 'node_modules', 'onnxruntime-web'), 'dir');
  for (const f of ['embed_tokens.onnx', 'embed_tokens.onnx_data', 'next_model.onnx']) copyFileSync(join(repo, 'examples/llm-embeddings', f), join(dir, f));
  writeFileSync(join(dir, 'model.onnx'), embedModel());
  writeFileSync(join(dir, 'embeddings.onnx'), gatherModel({ dims: [1000, 8], location: 'table.bin' }));
  writeFileSync(join(dir, 'table.bin'), tableBytes('float32', [1000, 8]));
  copyFileSync(checkModule, join(dir, '__doc-check.mjs'));
  return dir;
}
