// Load progress: onProgress({ loaded, total }) in bytes, whenever PROGRESS_STEP more have come in,
// and once at the end with loaded === total.
export const PROGRESS_STEP = 64 * 2 ** 20;

export class Progress {
  #callback; #reported = -1;
  constructor(callback, total) { this.#callback = callback; this.total = total; this.loaded = 0; }
  add(n) {
    this.loaded += n;
    if (this.#callback && this.loaded - this.#reported >= PROGRESS_STEP && this.loaded < this.total) this.#report();
  }
  #report() {
    this.#reported = this.loaded;
    this.#callback({ loaded: this.loaded, total: this.total });
  }
  finish() { if (this.#callback) { this.loaded = this.total; this.#report(); } }
}
