// Which source holds each external data location of one model: options.externalData in either
// form ({ location: data } or onnxruntime-web's [{ path, data }]), else a file next to the model
// in Node, else a URL next to a model fetched by URL. Each location is resolved once.
// @ts-check
import { invalidArgument } from '../errors.mjs';
import { ModelError } from '../generated/errors.mjs';
import { BlobSource, BytesSource, FileSource, UrlSource, asPath, asUrl, nodeModules } from './sources.mjs';

/** @typedef {import('./sources.mjs').Source} Source */
/** @typedef {import('./sources.mjs').NodeModules} NodeModules */
// What the caller gave for a location: a source, or a file path (Node) made a FileSource later.
/** @typedef {Source | { path: string }} Given */

// The source of data the caller gave for a location ({ path } for a file path in Node), or null.
/**
 * @param {unknown} data
 * @returns {Given | null}
 */
function sourceOf(data) {
  if (data instanceof Uint8Array || data instanceof ArrayBuffer) return new BytesSource(data);
  if (typeof Blob === 'function' && data instanceof Blob) return new BlobSource(data);
  if (data instanceof URL || typeof data === 'string') {
    const path = asPath(data);
    if (path !== null) return { path };   // a file path (Node), made a FileSource later
    const url = asUrl(data);
    if (url) return new UrlSource(url);
  }
  return null;
}

/** @param {any} x (anything the caller gave) */
const kindOf = (x) => x?.constructor?.name ?? typeof x;

// options.externalData as a Map location -> data. Own entries only: a location named
// '__proto__' must not find Object's.
/**
 * @param {any} externalData (the caller's: checked here)
 * @returns {Map<string, Given>}
 */
function givenData(externalData) {
  /** @type {Map<string, Given>} */
  const given = new Map();
  if (externalData === undefined) return given;
  /**
   * @param {string} location
   * @param {unknown} data
   * @param {string} label names the entry in the error
   */
  const add = (location, data, label) => {
    const source = sourceOf(data);
    if (!source) throw invalidArgument(`${label} must be a Uint8Array, ArrayBuffer, Blob, File or URL string, got ${kindOf(data)}`);
    given.set(location.replace(/^\.\//, ''), source);
  };
  if (Array.isArray(externalData)) {
    externalData.forEach((/** @type {any} */ e, /** @type {number} */ i) => {
      if (!e || typeof e.path !== 'string') throw invalidArgument(`options.externalData[${i}] must be { path, data }`);
      add(e.path, e.data, `options.externalData[${i}].data ('${e.path}')`);
    });
  } else if (externalData && typeof externalData === 'object') {
    for (const location of Object.keys(externalData)) add(location, externalData[location], `options.externalData['${location}']`);
  } else {
    throw invalidArgument(`options.externalData must be an object { location: data } or an array [{ path, data }], got ${kindOf(externalData)}`);
  }
  return given;
}

// The sources of one model's external data. `wrap(source, location)`, when given, may replace a
// resolved source (the OPFS cache does: its copy serves the location).
export class ExternalData {
  /** @type {Map<string, Given>} */
  #given;
  /** @type {string | undefined} */
  #baseDir;
  /** @type {URL | undefined} */
  #baseUrl;
  /** @type {NodeModules | null} */
  #node;
  /** @type {((source: Source, location: string) => Source) | null} */
  #wrap;
  /** @type {Map<string, Source>} */
  #sources = new Map();

  /**
   * @param {{ externalData?: unknown }} options InferenceSession.create()'s
   * @param {{ baseDir?: string, baseUrl?: URL }} where the model is: its folder (Node) or its URL
   * @param {((source: Source, location: string) => Source) | null} [wrap]
   * @returns {Promise<ExternalData>}
   */
  static async create(options, { baseDir, baseUrl }, wrap = null) {
    const store = new ExternalData();
    store.#given = givenData(options.externalData);
    store.#baseDir = baseDir;
    store.#baseUrl = baseUrl;
    store.#node = await nodeModules();
    store.#wrap = wrap;
    return store;
  }

  // The source of `location`, or a ModelError saying where it was looked for.
  /**
   * @param {string} location
   * @param {string} what names the tensor in the error
   * @returns {Source}
   */
  source(location, what) {
    const key = location.replace(/^\.\//, '');
    if (this.#sources.has(key)) return /** @type {Source} */ (this.#sources.get(key));
    /** @type {any} */   // (a Source, or a path given in Node, made a FileSource here)
    let source = this.#given.get(key);
    if (source?.path !== undefined) source = new FileSource(/** @type {NodeModules} */ (this.#node).fs, /** @type {NodeModules} */ (this.#node).path.resolve(source.path));
    if (!source && this.#baseDir && this.#node) {
      const { path } = this.#node;
      const full = path.resolve(this.#baseDir, location);
      const rel = path.relative(this.#baseDir, full);
      if (rel.startsWith('..') || path.isAbsolute(rel) || path.isAbsolute(location))
        throw new ModelError(`${what}: external data path '${location}' leaves the model's folder`);
      source = new FileSource(this.#node.fs, full);
    }
    if (!source && this.#baseUrl) source = new UrlSource(new URL(location, this.#baseUrl));
    if (!source) throw new ModelError(`${what} is stored in external file '${location}': pass its bytes in options.externalData`);
    if (this.#wrap) source = this.#wrap(source, key);
    this.#sources.set(key, source);
    return source;
  }

  // Every source resolved so far.
  get resolved() { return [...this.#sources.values()]; }
}
