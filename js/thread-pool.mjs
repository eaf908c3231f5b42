// The threads build's pool of workers. The module is built with no pool of its own: init()
// resolves first, then the workers are created and loaded here in the background; gathers use
// threads once every worker is loaded and enableThreads() has been called. Until then, and in
// one-thread builds, everything runs on the calling thread.
// Relies on Emscripten 3.1.6 internals (m.PThread.allocateUnusedWorker, m.PThread.unusedWorkers,
// m.PThread.loadWasmModuleToWorker); scripts/build-wasm.sh stops on any other Emscripten version.
// @ts-check

// Starts the pool of the threads build's module `m` and returns a promise of whether gathers now
// use it (what runtime().threadsActive then reads): true once every worker is loaded and
// enableThreads() has been called; false if a worker failed to load (the runs stay on the
// calling thread, as before the pool was ready) or if the module plans no second thread.
// `node`: in Node (and Deno and Bun), where the workers are worker_threads to unref.
// (m.PThread and its workers are typed any: Emscripten's internals, not declared anywhere.)
/**
 * @param {import('./wasm-module.mjs').WasmModule} m
 * @param {boolean} node
 * @returns {Promise<boolean>}
 */
export function startWorkers(m, node) {
  return new Promise((resolve) => {
    setTimeout(() => {
      const wanted = m.runtimeFacts().threads - 1;
      if (wanted < 1) return resolve(false);
      let pending = wanted;
      for (let i = 0; i < wanted; ++i) {
        m.PThread.allocateUnusedWorker();
        const w = m.PThread.unusedWorkers[m.PThread.unusedWorkers.length - 1];
        // Attached before the glue's own listener, which rethrows the error.
        if (node) w.on('error', () => resolve(false));
        else w.addEventListener('error', () => resolve(false));
        // Emscripten 3.1.6 keeps its worker_threads referenced (attaching a message listener refs
        // a worker again), which would keep Node alive after the program's last line: unref once
        // the listeners are attached and again once loaded, so the process exits without them.
        m.PThread.loadWasmModuleToWorker(w, () => {
          if (node) w.unref();
          if (--pending === 0) {
            m.enableThreads();
            resolve(m.threadsActive());
          }
        });
        if (node) w.unref();
      }
    }, 0);
  });
}

// `pool` (a promise from startWorkers), kept waited for: in Node the workers are unref'd, so a
// program whose only pending work is `await threadsReady()` would otherwise end there (with
// "unsettled top-level await") before they are loaded. A program that does not wait still exits
// without them.
/**
 * @param {Promise<boolean>} pool
 * @param {boolean} node
 * @returns {Promise<boolean>}
 */
export function awaitPool(pool, node) {
  if (!node) return pool;
  const keepAlive = setInterval(() => {}, 1 << 30);
  return pool.finally(() => clearInterval(keepAlive));
}
