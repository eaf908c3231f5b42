// Load progress: onProgress({ loaded, total }) in bytes, whenever PROGRESS_STEP more have come in,
// and once at the end with loaded === total.
// @ts-check
export const PROGRESS_STEP = 64 * 2 ** 20;

/** @typedef {(progress: { loaded: number, total: number }) => void} OnProgress */

export class Progress {
  #callback; #reported = -1;
  /**
   * @param {OnProgress | undefined} callback
   * @param {number} total bytes
   */
  constructor(callback, total) { this.#callback = callback; this.total = total; this.loaded = 0; }
  /** @param {number} n bytes */
  add(n) {
    this.loaded += n;
    if (this.#callback && this.loaded - this.#reported >= PROGRESS_STEP && this.loaded < this.total) this.#report();
  }
  #report() {
    this.#reported = this.loaded;
    (/** @type {OnProgress} */ (this.#callback))({ loaded: this.loaded, total: this.total });   // (called only when there is one)
  }
  finish() { if (this.#callback) { this.loaded = this.total; this.#report(); } }
}
