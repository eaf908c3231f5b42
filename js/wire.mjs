// The JS half of the wasm boundary (bindings/exports.cpp): requests written as bytes into the
// module's argument buffer, and its answers read back: text (JSON or a string) and the Status of
// a failed call as { code, message } for errorFromStatus. Little-endian: u8, i32, u32, f64, and
// strings as a u32 byte length then UTF-8. No rules of the ops live here.
// Memory: the argument buffer and the text belong to the module and are valid until its next
// call; nothing here keeps a view of wasm memory across calls (memory may grow and move).
import { ERROR_CLASSES } from './generated/errors.mjs';

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// Attribute kinds, numbered as read_node in bindings/exports.cpp reads them.
const ATTR_KINDS = { INT: 0, INTS: 1, FLOAT: 2, FLOATS: 3, STRING: 4, STRINGS: 5 };

// One request at a time (calls into the module do not nest): one growing buffer, reused.
class Writer {
  bytes = new Uint8Array(512);
  view = new DataView(this.bytes.buffer);
  length = 0;

  room(n) {
    if (this.length + n <= this.bytes.length) return;
    const bigger = new Uint8Array(Math.max(this.bytes.length * 2, this.length + n));
    bigger.set(this.bytes.subarray(0, this.length));
    this.bytes = bigger;
    this.view = new DataView(bigger.buffer);
  }
  u8(v) { this.room(1); this.view.setUint8(this.length, v); this.length += 1; return this; }
  i32(v) { this.room(4); this.view.setInt32(this.length, v, true); this.length += 4; return this; }
  u32(v) { this.room(4); this.view.setUint32(this.length, v, true); this.length += 4; return this; }
  f64(v) { this.room(8); this.view.setFloat64(this.length, v, true); this.length += 8; return this; }
  str(s) {
    this.room(4 + s.length * 3);   // UTF-8 takes at most 3 bytes per UTF-16 unit
    const { written } = encoder.encodeInto(s, this.bytes.subarray(this.length + 4));
    this.view.setUint32(this.length, written, true);
    this.length += 4 + written;
    return this;
  }
  list(items, write) {
    this.u32(items.length);
    for (const x of items) write(x);
    return this;
  }
}

const writer = new Writer();

// A request that starts with a node: op type, opset and attributes ({ name, kind, value } from
// node.mjs's normalizeNode). Returns the writer, for what the call adds after.
export function nodeRequest(opType, opset, attrs) {
  const w = writer;
  w.length = 0;
  w.str(opType).i32(opset).u32(attrs.length);
  for (const { name, kind, value } of attrs) {
    w.str(name).u8(ATTR_KINDS[kind]);
    switch (kind) {
      case 'INT': case 'FLOAT': w.f64(value); break;
      case 'INTS': case 'FLOATS': w.list(value, (x) => w.f64(x)); break;
      case 'STRING': w.str(value); break;
      default: w.list(value, (x) => w.str(x));
    }
  }
  return w;
}

// Copies the request into the module's argument buffer; returns its length, for the call.
export function send(m, w = writer) {
  const at = m._ow_arg_buffer(w.length) >>> 0;
  if (!at) throw new ERROR_CLASSES.ERR_OUT_OF_MEMORY(`cannot allocate ${w.length} bytes for a request to the wasm module`);
  m.HEAPU8.set(w.bytes.subarray(0, w.length), at);
  return w.length;
}

// UTF-8 bytes of wasm memory as a string (copied first: a shared memory's view cannot be decoded).
export function utf8At(m, at, length) {
  return length ? decoder.decode(m.HEAPU8.slice(at, at + length)) : '';
}

// The module's text answer, `length` bytes (what the export returned), then released.
export function text(m, length) {
  const s = utf8At(m, m._ow_text() >>> 0, length);
  m._ow_text_release();
  return s;
}

// { code, message } of the last failed call (taken: a second read gives no error).
export function takeError(m) {
  const t = text(m, m._ow_take_error());
  const nl = t.indexOf('\n');
  return { code: t.slice(0, nl), message: t.slice(nl + 1) };
}

// Sets string element i of the tensor at address p.
export function setTensorString(m, p, i, s) {
  const w = writer;
  w.length = 0;
  w.room(s.length * 3);
  w.length = encoder.encodeInto(s, w.bytes).written;
  m._ow_tensor_set_string(p, i, send(m, w));
}

// String element i of the tensor at address p.
export function tensorString(m, p, i) {
  return utf8At(m, m._ow_tensor_string_data(p, i) >>> 0, m._ow_tensor_string_size(p, i));
}
