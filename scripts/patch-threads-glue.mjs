// Emscripten 3.1.6's pthreads glue loads Node's worker_threads as soon as the module factory is
// required (to set global.Worker), which is 4-5 ms of the time to a first result; onnx-wasm only
// starts its workers after init() has resolved (js/runtime.mjs, startWorkers). This edit loads
// worker_threads where the glue creates a worker instead. Each edit must match exactly once, so
// a different Emscripten fails the build here rather than shipping unpatched glue.
//   node scripts/patch-threads-glue.mjs <glue.js>
import { readFileSync, writeFileSync } from 'node:fs';

const file = process.argv[2];
let text = readFileSync(file, 'utf8');
const edits = [
  [
    'let nodeWorkerThreads;try{nodeWorkerThreads=require("worker_threads")}catch(e){console.error(\'The "worker_threads" module is not supported in this node.js build - perhaps a newer version is needed?\');throw e}global.Worker=nodeWorkerThreads.Worker',
    '',
  ],
  [
    'PThread.unusedWorkers.push(new Worker(pthreadMainJs))',
    'PThread.unusedWorkers.push(new(ENVIRONMENT_IS_NODE?require("worker_threads").Worker:Worker)(pthreadMainJs))',
  ],
];
for (const [from, to] of edits) {
  const count = text.split(from).length - 1;
  if (count !== 1) {
    console.error(`patch-threads-glue: expected one match of ${JSON.stringify(from.slice(0, 60))}... in ${file}, found ${count}`);
    process.exit(1);
  }
  text = text.replace(from, to);
}
writeFileSync(file, text);
