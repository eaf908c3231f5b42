// Two edits to Emscripten 3.1.6's pthreads glue, for the time to a first result in Node:
// - it loads Node's worker_threads as soon as the module factory is required (to set
//   global.Worker), 4-5 ms; onnx-wasm only starts its workers after init() has resolved
//   (js/runtime.mjs, startWorkers), so worker_threads is loaded where a worker is created;
// - it counts cores with os.cpus(), which reads and parses every CPU's details (0.3 ms);
//   os.availableParallelism() (Node >= 18.14) gives the count alone.
// Each edit must match exactly once, so a different Emscripten fails the build here rather than
// shipping unpatched glue.
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
  [
    'if(ENVIRONMENT_IS_NODE)return require("os").cpus().length;',
    'if(ENVIRONMENT_IS_NODE){const os=require("os");return os.availableParallelism?os.availableParallelism():os.cpus().length}',
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
