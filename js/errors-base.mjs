// The base of every error onnx-wasm throws. Subclasses, one per code, are generated from
// src/status_codes.def into generated/errors.mjs; `code` is stable, the message is for people.
// @ts-check
export class OnnxWasmError extends Error {
  /**
   * @param {string} [message]
   * @param {ErrorOptions} [options]
   */
  constructor(message, options) {
    super(message, options);
    this.name = 'OnnxWasmError';
  }
}
