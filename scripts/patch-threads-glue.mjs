// Two edits to Emscripten 3.1.6's pthreads glue, for the time to a first result in Node (what
// each cost: docs/performance.md, "Figures behind design choices"):
// - it loads Node's worker_threads as soon as the module factory is required (to set
//   global.Worker); onnx-wasm only starts its workers after init() has resolved
//   (js/thread-pool.mjs, startWorkers), so worker_threads is loaded where a worker is created;
// - it counts cores with os.cpus(), which reads and parses every CPU's details;
//   os.availableParallelism() (Node >= 18.14) gives the count alone.
// And one to its worker script (the .worker.js next to the glue), for Deno: Deno's worker_threads
// run in a web worker whose global `location` has a getter only, so the worker's
// Object.assign(global, { ..., location: { href: __filename }, ... }) threw and no thread ever
// started. The glue reads `location` only on its web/worker path, never where process.versions.node
// is set (Node, Deno, Bun), so the assignment is dropped.
// Each edit must match exactly once, so a different Emscripten fails the build here rather than
// shipping unpatched glue.
// Depends on Emscripten 3.1.6 internals; scripts/build-wasm.sh checks the version.
//   node scripts/patch-threads-glue.mjs <glue.js>
import { readFileSync, writeFileSync } from 'node:fs';

const file = process.argv[2];
const glueEdits = [
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
const workerEdits = [['location:{href:__filename},', '']];

function patch(path, edits) {
  let text = readFileSync(path, 'utf8');
  for (const [from, to] of edits) {
    const count = text.split(from).length - 1;
    if (count !== 1) {
      console.error(`patch-threads-glue: expected one match of ${JSON.stringify(from.slice(0, 60))}... in ${path}, found ${count}`);
      process.exit(1);
    }
    text = text.replace(from, to);
  }
  writeFileSync(path, text);
}
patch(file, glueEdits);
patch(file.replace(/\.js$/, '.worker.js'), workerEdits);
