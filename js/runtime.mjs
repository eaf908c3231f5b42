// Loads the wasm module once. Three builds ship in dist/: onnx-wasm (wasm SIMD, one thread),
// onnx-wasm-nosimd (for engines without SIMD) and threads/onnx-wasm-threads (SIMD + pthreads,
// which splits large gathers across workers). The choice is made at load time and reported.
// In Node the bytes are read with fs (Emscripten 3.1.6's glue would call fetch() on a file
// path); in browsers the .wasm next to dist/ is compiled while it streams (compileStreaming) when
// the server sends application/wasm, else fetched whole. Callers may pass their own `wasmUrl`,
// `wasmBinary` or compiled `wasmModule`. The one-file browser entries (js/web.mjs,
// js/web-threads.mjs) carry their build's glue and start fetching and compiling its .wasm right
// after they are imported, unless init() came first (webEntry); init() then uses both, and loads
// only the builds and files the entry names.
// @ts-check
import { invalidArgument } from './errors.mjs';
import { awaitPool, startWorkers } from './thread-pool.mjs';

// globalThis.__ONNX_WASM_WEB_ENTRY__ is true only in the one-file browser entries
// (dist/*.web.mjs): scripts/build-web.mjs defines it so (declared in scripts/web-entry.d.ts), and
// esbuild then drops, as dead code, what it guards here and in js/model/sources.mjs: the Node
// paths with the Node built-ins they import, and the builds and files of dist/ that an entry
// does not carry (webEntry). A bundler then sees no Node built-in and copies only the files the
// entry names. Elsewhere (js/, dist/index.*) it is undefined. (Read where it is tested, not
// through a constant: esbuild folds a constant of a module that imports others only once it has
// bundled them, too late to drop the code it guards.)

// Node (and Deno and Bun, which set process.versions.node), not a browser page: the one test, also
// for js/model/.
export const isNode = !globalThis.__ONNX_WASM_WEB_ENTRY__ && typeof process === 'object' && typeof process.versions?.node === 'string' &&
  typeof window === 'undefined';

/** @typedef {import('./wasm-module.mjs').WasmModule} WasmModule */
/** @typedef {import('./index.js').InitOptions} InitOptions */
/** @typedef {import('./index.js').RuntimeInfo} RuntimeInfo */

/**
 * A build of dist/ and why it was chosen (chooseBuild).
 * @typedef {{ name: RuntimeInfo['module'], simd: boolean, threads: boolean, reason: string }} Build
 */

/**
 * What the Emscripten glue's factory takes (the options set here); the factory resolves to the
 * module (ModuleFactory).
 * @typedef {object} ModuleArgs
 * @property {string} [mainScriptUrlOrBlob]
 * @property {(path: string) => string} [locateFile]
 * @property {ArrayBuffer | Uint8Array} [wasmBinary]
 * @property {(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => WebAssembly.Exports | {}} [instantiateWasm]
 */
/** @typedef {(args: ModuleArgs) => Promise<WasmModule>} ModuleFactory */

/** @typedef {{ module: WebAssembly.Module, streamed: boolean }} Compiled */

/**
 * What a run reads (runCalls, below).
 * @typedef {object} RunCalls
 * @property {WasmModule['nodeRunHandle']} nodeRunHandle
 * @property {WasmModule['tensorDelete']} tensorDelete
 * @property {Int32Array} info a view of wasm memory (made again by refreshInfo)
 * @property {number} infoAt the index in `info` of the binding's info int32s
 */

/** @type {Promise<RuntimeInfo> | null} */
let modulePromise = null;
/** @type {Omit<RuntimeInfo, 'threadsActive'> | null} */
let runtimeInfo = null;
// Whether the loaded module's gathers use the pool (js/thread-pool.mjs), once known: a promise.
/** @type {Promise<boolean> | null} */
let threadsPromise = null;
// The Emscripten module once init() has loaded it, else null. Read directly (a live binding) by
// the calls that can only run after init, where a Tensor or PreparedNode exists: getModule()'s
// call and check cost as much as the read itself in V8's first tiers, a session's first runs.
// (Those reads cast it to WasmModule: it is set by then.)
/** @type {WasmModule | null} */
export let loadedModule = null;
// What a run reads, in an object of its own: { nodeRunHandle, tensorDelete, info: an Int32Array
// whose elements [infoAt, ...] are the binding's info int32s }. Embind leaves the Module object
// with slow (dictionary) properties in V8, so that every read of Module.x on the run path was a
// hash lookup (refreshInfo() makes `info` again when memory growth detached it). (Set by init(),
// as loadedModule: its readers cast it to RunCalls.)
/** @type {RunCalls | null} */
export let runCalls = null;
/** @returns {Int32Array} */
export function refreshInfo() {
  /** @type {RunCalls} */ (runCalls).info = new Int32Array(/** @type {WasmModule} */ (loadedModule).HEAPU8.buffer);
  return /** @type {RunCalls} */ (runCalls).info;
}


// The smallest module using a v128 instruction (the probe of wasm-feature-detect).
const SIMD_PROBE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);

const cores = () => (isNode ? null : globalThis.navigator?.hardwareConcurrency) ?? 2;

// Node's built-in modules. process.getBuiltinModule (Node >= 20.16) returns one at once, where
// import('node:fs') builds its ES module wrapper first, a noticeable part of the time to a first
// result (docs/performance.md, "Figures behind design choices").
const builtin = globalThis.__ONNX_WASM_WEB_ENTRY__ ? null : {
  fs: async () => globalThis.process?.getBuiltinModule?.('node:fs') ?? await import('node:fs'),
  os: async () => globalThis.process?.getBuiltinModule?.('node:os') ?? await import('node:os'),
  module: async () => globalThis.process?.getBuiltinModule?.('node:module') ?? await import('node:module'),
};

// What a one-file browser entry (js/web.mjs, js/web-threads.mjs) carries: `glues`, for each build
// it can load, a function resolving to that build's factory (its glue bundled in the entry, or
// imported when needed); `files`, the files of dist/ those builds need, by the path in dist/ that
// init() asks for ('onnx-wasm.wasm', 'threads/onnx-wasm-threads.worker.js'): the path of the file
// the entry uses in its place (the threads entry's workers load copies built for the browser,
// scripts/build-web.mjs), under init({ wasmPaths }), and its URL next to the entry otherwise;
// `threads`, whether the entry runs the threads build (onnx-wasm/web keeps to one thread). Null
// outside these entries.
/**
 * @typedef {object} WebEntry
 * @property {Partial<Record<Build['name'], () => Promise<ModuleFactory>>>} glues
 * @property {Record<string, { path: string, url: URL }>} files
 * @property {boolean} threads
 */
/** @type {WebEntry | null} */
let entry = null;

// The build whose .wasm the entry fetches and compiles from right after it was imported:
// { name, wasmUrl, compiled: Promise<{ module, streamed }>, or null if init() was called before
// that started }.
/** @typedef {{ name: string, wasmUrl: URL, compiled: Promise<Compiled> | null }} Prefetched */
/** @type {Prefetched | null} */
let prefetched = null;

// Called by a browser entry when it is evaluated, with what it carries and the build (if any)
// whose .wasm to fetch at once. The fetch starts one microtask later unless init() has been
// called by then: a page that calls init() right after the import (perhaps with its own
// { wasmModule }) does not fetch the .wasm twice.
/**
 * @param {WebEntry} carried
 * @param {{ name: Build['name'], wasm: string } | null} prefetch the build and its .wasm's path in dist/
 */
export function webEntry(carried, prefetch) {
  entry = carried;
  if (isNode || !prefetch) return;
  prefetched = { name: prefetch.name, wasmUrl: carried.files[prefetch.wasm].url, compiled: null };
  queueMicrotask(() => {
    if (modulePromise) return;
    // (prefetched: as set above; only a second entry's call could have replaced it)
    const p = /** @type {Prefetched} */ (prefetched);
    p.compiled = compileFromUrl(p.wasmUrl);
    p.compiled.catch(() => {});   // reported by init(), if it uses this build
  });
}

// The module passed as init({ wasmModule }) (or what its promise resolved to), checked against
// the build init() chose: the threads build imports its (shared) memory, the others do not.
/**
 * @param {InitOptions['wasmModule']} wasmModule
 * @param {Build} build
 * @returns {Promise<WebAssembly.Module>}
 */
async function callerModule(wasmModule, build) {
  /** @type {any} (the caller's value, whatever it is: checked below) */
  let module;
  try {
    module = await wasmModule;
  } catch (e) {
    throw invalidArgument(`init({ wasmModule }): the promise passed was rejected: ${e?.message ?? e}`, { cause: e });
  }
  if (!(module instanceof WebAssembly.Module))
    throw invalidArgument(`init({ wasmModule }): expected a WebAssembly.Module or a promise of one, got ${module?.constructor?.name ?? typeof module}`);
  const importsMemory = WebAssembly.Module.imports(module).some((i) => i.kind === 'memory');
  if (importsMemory !== build.threads)
    throw invalidArgument(`init({ wasmModule }): the module passed is ${importsMemory ? 'the threads build (onnx-wasm-threads.wasm)' : 'a one-thread build'}, but init() chose ${build.name} (${build.reason})`);
  return module;
}

// The build to load and a sentence saying why.
/**
 * @param {InitOptions} options
 * @returns {Promise<Build>}
 */
async function chooseBuild(options) {
  // The one-thread entry (onnx-wasm/web) carries no threads build.
  const entryKeepsOne = entry !== null && !entry.threads;
  if (options.simd === false) return { name: 'onnx-wasm-nosimd', simd: false, threads: false, reason: 'SIMD disabled by the caller (init({ simd: false }))' };
  const supported = typeof WebAssembly === 'object' && WebAssembly.validate(SIMD_PROBE);
  if (!supported) return { name: 'onnx-wasm-nosimd', simd: false, threads: false, reason: 'this engine does not support wasm SIMD' };
  /** @type {(why: string) => Build} */
  const single = (why) => ({ name: 'onnx-wasm', simd: true, threads: false, reason: `wasm SIMD is supported; one thread: ${why}` });
  if (options.threads === false) return single('threads disabled by the caller (init({ threads: false }))');
  if (entryKeepsOne) return single('the onnx-wasm/web entry keeps to one thread (onnx-wasm/web-threads runs the threads build)');
  if (!isNode && !globalThis.crossOriginIsolated) return single('the page is not cross-origin isolated (COOP/COEP headers)');
  if (typeof SharedArrayBuffer !== 'function') return single('SharedArrayBuffer is not available');
  const os = isNode ? await /** @type {NonNullable<typeof builtin>} */ (builtin).os() : null;
  const n = isNode ? (/** @type {typeof import('node:os')} */ (os).availableParallelism?.() ?? /** @type {typeof import('node:os')} */ (os).cpus().length) : cores();
  if (n < 2) return single('this machine has one core');
  return { name: 'onnx-wasm-threads', simd: true, threads: true, reason: `wasm SIMD and SharedArrayBuffer are available${isNode ? '' : ' (the page is cross-origin isolated)'} and there are ${n} cores` };
}

/**
 * @param {Build} build
 * @returns {Promise<ModuleFactory>}
 */
async function nodeFactory(build) {
  if (globalThis.__ONNX_WASM_WEB_ENTRY__) throw invalidArgument('onnx-wasm: the one-file browser entries do not run in Node');
  // The glue as an ES module (scripts/node-glue.mjs), where process.getBuiltinModule gives its
  // Node branch the built-ins it requires (Node >= 20.16): createRequire() and a first require()
  // of a CommonJS file held the first result (docs/performance.md, "Figures behind design
  // choices"). Named through a variable, which bundlers leave alone: this is Node's path only.
  // Each build's glue: [its ES module copy, the CommonJS glue] (here, in code the web entries
  // drop, so that they name none of these files).
  const glue = {
    'onnx-wasm': ['../dist/onnx-wasm.node.mjs', '../dist/onnx-wasm.cjs'],
    'onnx-wasm-nosimd': ['../dist/onnx-wasm-nosimd.node.mjs', '../dist/onnx-wasm-nosimd.cjs'],
    'onnx-wasm-threads': ['../dist/threads/onnx-wasm-threads.node.mjs', '../dist/threads/onnx-wasm-threads.js'],
  };
  const [esm, classic] = glue[build.name];
  if (typeof globalThis.process?.getBuiltinModule === 'function') return (await import(/* @vite-ignore */ /* webpackIgnore: true */ esm)).default;
  const { createRequire } = await /** @type {NonNullable<typeof builtin>} */ (builtin).module();
  return createRequire(import.meta.url)(classic);
}

/**
 * @param {Build} build
 * @returns {Promise<ModuleFactory>}
 */
async function browserFactory(build) {
  const carried = entry?.glues[build.name];
  if (carried) return carried();
  // Literal imports so that bundlers see (and copy) each glue file. (An `if` around them, not a
  // throw before them, is what esbuild drops in the one-file entries.)
  if (!globalThis.__ONNX_WASM_WEB_ENTRY__) {
    if (build.threads) return (await import('../dist/threads/onnx-wasm-threads.mjs')).default;
    const glue = build.simd ? await import('../dist/onnx-wasm.mjs') : await import('../dist/onnx-wasm-nosimd.mjs');
    return glue.default;
  }
  throw invalidArgument(`onnx-wasm: this entry does not carry the ${build.name} build`);
}

// Where the files of dist/ are: next to this module (`new URL('../dist/', import.meta.url)`, which
// Vite and webpack follow and copy), or under `options.wasmPaths` (a URL prefix, as
// onnxruntime-web's env.wasm.wasmPaths) for bundlers that do not copy assets, such as esbuild.
/**
 * @param {string} path
 * @param {InitOptions} options
 * @returns {URL}
 */
function distUrl(path, options) {
  const carried = entry?.files[path];
  if (options.wasmPaths) return new URL(carried?.path ?? path, new URL(options.wasmPaths, isNode ? import.meta.url : globalThis.location?.href));
  if (carried) return carried.url;
  if (!globalThis.__ONNX_WASM_WEB_ENTRY__) {
    switch (path) {
      case 'onnx-wasm.wasm': return new URL('../dist/onnx-wasm.wasm', import.meta.url);
      case 'onnx-wasm-nosimd.wasm': return new URL('../dist/onnx-wasm-nosimd.wasm', import.meta.url);
      case 'threads/onnx-wasm-threads.wasm': return new URL('../dist/threads/onnx-wasm-threads.wasm', import.meta.url);
      case 'threads/onnx-wasm-threads.js': return new URL('../dist/threads/onnx-wasm-threads.js', import.meta.url);
      case 'threads/onnx-wasm-threads.worker.js': return new URL('../dist/threads/onnx-wasm-threads.worker.js', import.meta.url);
      default: throw invalidArgument(`onnx-wasm: no file ${path} in dist/`);
    }
  }
  throw invalidArgument(`onnx-wasm: this entry does not carry ${path} (init({ wasmPaths }) says where dist/ is served)`);
}

// A bundler may inline a small script as a data: URL (Vite does below 4 KB). A worker started from
// a data: URL has an opaque origin and may not load the glue from this origin under COEP; a blob:
// URL made here has the page's origin.
/**
 * @param {string} url
 * @returns {string}
 */
function workerScriptUrl(url) {
  if (!url.startsWith('data:')) return url;
  const comma = url.indexOf(',');
  const meta = url.slice(5, comma), payload = url.slice(comma + 1);
  const text = meta.endsWith(';base64') ? atob(payload) : decodeURIComponent(payload);
  return URL.createObjectURL(new Blob([text], { type: 'text/javascript' }));
}

/**
 * @param {Build} build
 * @param {InitOptions} options
 * @returns {URL}
 */
function defaultWasmUrl(build, options) {
  if (build.threads) return distUrl('threads/onnx-wasm-threads.wasm', options);
  return distUrl(build.simd ? 'onnx-wasm.wasm' : 'onnx-wasm-nosimd.wasm', options);
}

/**
 * @param {InitOptions} options
 * @returns {Promise<{ m: WasmModule, build: Build, loadedFrom: string, pool: Promise<boolean> }>}
 */
async function loadModule(options) {
  const build = await chooseBuild(options);
  const wasmUrl = options.wasmUrl ? new URL(options.wasmUrl, isNode ? import.meta.url : globalThis.location?.href) : defaultWasmUrl(build, options);
  const moduleArgs = /** @type {ModuleArgs} */ ({});
  if (build.threads && !isNode) {
    // Workers load the classic-script glue and their own script from dist/threads/.
    moduleArgs.mainScriptUrlOrBlob = distUrl('threads/onnx-wasm-threads.js', options).href;
    moduleArgs.locateFile = (path) => workerScriptUrl(distUrl(`threads/${path}`, options).href);
  }
  // Asked by the glue: instantiate the module that compiled() resolves to, once it does; a failure
  // rejects init() (the glue itself would wait forever).
  /** @type {(reason: unknown) => void} */
  let rejectLoad;
  /** @type {Promise<never>} */
  const failed = new Promise((_, reject) => { rejectLoad = reject; });
  /** @type {(compiled: () => Promise<WebAssembly.Module>) => NonNullable<ModuleArgs['instantiateWasm']>} */
  const instantiateLater = (compiled) => (imports, receive) => {
    compiled().then(async (module) => receive(await WebAssembly.instantiate(module, imports), module)).catch(rejectLoad);
    return {};
  };
  /** @type {string} */
  let loadedFrom;
  if (options.wasmModule) {
    if (options.wasmBinary || options.wasmUrl) throw invalidArgument('init(): pass one of wasmModule, wasmBinary and wasmUrl, not several');
    // Compiled by the caller, perhaps by an inline script in the page's head that started before
    // the entry had even arrived (README, "First result").
    loadedFrom = 'WebAssembly.Module passed by the caller';
    moduleArgs.instantiateWasm = instantiateLater(() => callerModule(options.wasmModule, build));
  } else if (options.wasmBinary) {
    moduleArgs.wasmBinary = options.wasmBinary;
    loadedFrom = 'bytes passed by the caller';
  } else if (isNode) {
    // Compiled and instantiated synchronously: for a module this small that takes less time than
    // the glue's asynchronous path waited for the event loop (docs/performance.md, "Figures
    // behind design choices").
    const { readFileSync } = await /** @type {NonNullable<typeof builtin>} */ (builtin).fs();
    const bytes = readFileSync(wasmUrl);
    moduleArgs.instantiateWasm = (imports, receive) => {
      const module = new WebAssembly.Module(bytes);
      const instance = new WebAssembly.Instance(module, imports);
      receive(instance, module);
      return instance.exports;
    };
    loadedFrom = wasmUrl.href;
  } else {
    // The module compiled (while it streams in, where the server allows) and then instantiated;
    // a one-file entry started fetching and compiling it right after it was imported, unless
    // init() came first.
    const early = prefetched?.compiled && prefetched.name === build.name && !options.wasmUrl && !options.wasmPaths ? prefetched : null;
    loadedFrom = (early ? early.wasmUrl : wasmUrl).href;
    // (early.compiled: set, as early is only a build whose compile has started)
    moduleArgs.instantiateWasm = instantiateLater(() => (early ? /** @type {Promise<Compiled>} */ (early.compiled) : compileFromUrl(wasmUrl)).then(({ module, streamed }) => {
      loadedFrom += streamed ? ` (streamed${early ? ', fetched at import' : ''})` : early ? ' (fetched at import)' : ' (fetched)';
      return module;
    }));
  }
  const factory = isNode ? await nodeFactory(build) : await browserFactory(build);
  const m = await Promise.race([factory(moduleArgs), failed]);
  // The threads build's workers load in the background, after init() has resolved.
  const pool = build.threads ? startWorkers(m, isNode) : Promise.resolve(false);
  return { m, build, loadedFrom, pool };
}

// The compiled module at `url`: compiled while it streams in when the server sends
// application/wasm, else fetched whole, then compiled.
/**
 * @param {URL} url
 * @returns {Promise<Compiled>}
 */
async function compileFromUrl(url) {
  const response = await fetch(url);
  if (!response.ok) throw invalidArgument(`cannot fetch the onnx-wasm module at ${url}: HTTP ${response.status}`);
  if (typeof WebAssembly.compileStreaming === 'function' && (response.headers.get('content-type') ?? '').startsWith('application/wasm'))
    return { module: await WebAssembly.compileStreaming(response), streamed: true };
  return { module: await WebAssembly.compile(await response.arrayBuffer()), streamed: false };
}

// Loads the module; every later call returns the same promise. Options: { threads: false }
// keeps to one thread; { simd: false } forces the non-SIMD build; { wasmPaths } is the URL prefix
// under which the files of dist/ are served; { wasmUrl }, { wasmBinary } or { wasmModule } (a
// compiled WebAssembly.Module or a promise of one) give the .wasm to use (it must match the
// chosen build). Resolves to the runtime info.
/**
 * @param {InitOptions} [options]
 * @returns {Promise<RuntimeInfo>}
 */
export function init(options = {}) {
  if (!modulePromise) {
    modulePromise = loadModule(options).then(
      ({ m, build, loadedFrom, pool }) => {
        loadedModule = m;
        threadsPromise = pool;
        // (info: null until refreshInfo() makes it, at once)
        runCalls = { nodeRunHandle: m.nodeRunHandle, tensorDelete: m.tensorDelete, info: /** @type {Int32Array} */ (/** @type {unknown} */ (null)), infoAt: m.infoAddress() / 4 };
        refreshInfo();
        const { kernels, threads, minOpset, maxOpset, domains } = m.runtimeFacts();
        runtimeInfo = { module: build.name, simd: build.simd, threads, reason: build.reason, loadedFrom, kernels, minOpset, maxOpset };
        opsetRanges = new Map(domains.map((d) => [d.domain, [d.minOpset, d.maxOpset]]));
        return /** @type {RuntimeInfo} */ (runtime());   // (not null: runtimeInfo is set)
      },
      (e) => {
        modulePromise = null;
        throw e;
      },
    );
  }
  return modulePromise;
}

// Which module is loaded and why ({ module, simd, threads: how many the largest gathers use,
// threadsActive: whether the workers are ready (they load in the background after init),
// reason, loadedFrom, kernels, minOpset, maxOpset }), or null before init() has finished.
/** @returns {RuntimeInfo | null} */
export function runtime() {
  // (loadedModule: set with runtimeInfo)
  return runtimeInfo && Object.freeze({ ...runtimeInfo, threadsActive: /** @type {WasmModule} */ (loadedModule).threadsActive() });
}

// Resolves once the threads build's workers are loaded and gathers use them, to whether they do
// (runtime().threadsActive from then on): true then; false at once in one-thread builds, and if a
// worker failed to load. Waits for init() if it is still loading and rejects with its error if it
// fails; rejects with an InvalidArgumentError if init() has not been called.
/** @returns {Promise<boolean>} */
export function threadsReady() {
  if (!modulePromise) return Promise.reject(invalidArgument('onnx-wasm is not initialized: call init() before threadsReady()'));
  // (threadsPromise: set once modulePromise has resolved)
  return modulePromise.then(() => awaitPool(/** @type {Promise<boolean>} */ (threadsPromise), isNode));
}

// Wasm memory in use: { heapUsed: bytes the allocator has handed out and not taken back,
// memory: bytes of wasm memory (it grows, never shrinks) }. For leak checks and soak tests.
/** @returns {{ heapUsed: number, memory: number }} */
export function memoryStats() {
  const m = getModule();
  return { heapUsed: m.heapUsed(), memory: m.HEAPU8.buffer.byteLength };
}

// The supported opsets of each domain ('' for the default one), [min, max], once init() has
// loaded the module; undefined for a domain the registry does not have.
/** @type {Map<string, [number, number]>} */
let opsetRanges = new Map();
/** @type {(domain: string) => [number, number] | undefined} */
export const opsetRange = (domain) => opsetRanges.get(domain);

// The loaded module, or an error that says to await init() first.
/** @returns {WasmModule} */
export function getModule() {
  if (!loadedModule) throw invalidArgument('onnx-wasm is not initialized: call `await init()` first');
  return loadedModule;
}
