// A protobuf decoder for the parts of onnx.proto (https://github.com/onnx/onnx/blob/main/onnx/onnx.proto)
// that the model loader reads: ModelProto, GraphProto, NodeProto, AttributeProto, TensorProto,
// ValueInfoProto and TypeProto's tensor type. It returns objects of the shape protobuf-es
// (onnx-buf) gives: camelCase names, proto defaults for absent fields, int64 as bigint, bytes as
// Uint8Array views into the input (raw_data is not copied), oneofs as { case, value }. Fields the
// loader does not read are skipped without being decoded, subgraphs (If/Loop bodies) included, so
// nesting is bounded. It replaces @bufbuild/protobuf + onnx-buf at run time, whose evaluation a
// first session waited for, and which are several times its size (docs/performance.md, "Figures
// behind design choices").
// Malformed input throws an Error saying where (the loader turns it into a ModelError).
// @ts-check

// The decoded messages: the fields the loader reads, as protobuf-es names and types them.
/** @typedef {{ domain: string, version: bigint }} OperatorSetId */
/** @typedef {{ key: string, value: string }} StringStringEntry */
/**
 * @typedef {object} TensorProto
 * @property {bigint[]} dims
 * @property {number} dataType TensorProto.DataType (an element type id)
 * @property {number[]} floatData
 * @property {number[]} int32Data
 * @property {Uint8Array[]} stringData
 * @property {bigint[]} int64Data
 * @property {string} name
 * @property {Uint8Array} rawData a view into the model's bytes
 * @property {StringStringEntry[]} externalData
 * @property {number} dataLocation 1: EXTERNAL
 * @property {number[]} doubleData
 * @property {bigint[]} uint64Data
 */
/** @typedef {{ case: undefined, value?: undefined }} NotSet */
/** @typedef {{ value: NotSet | { case: 'dimValue', value: bigint } | { case: 'dimParam', value: string }, denotation: string }} Dimension */
/** @typedef {{ dim: Dimension[] }} TensorShapeProto */
/** @typedef {{ elemType: number, shape: TensorShapeProto | undefined }} TensorTypeProto */
/** @typedef {{ value: NotSet | { case: 'tensorType', value: TensorTypeProto } | { case: 'sequenceType' | 'mapType' | 'sparseTensorType' | 'optionalType', value: {} }, denotation: string }} TypeProto */
/** @typedef {{ name: string, type: TypeProto | undefined, docString: string }} ValueInfoProto */
/**
 * @typedef {object} AttributeProto
 * @property {string} name
 * @property {string} refAttrName
 * @property {string} docString
 * @property {number} type AttributeProto.AttributeType
 * @property {number} f
 * @property {bigint} i
 * @property {Uint8Array} s
 * @property {TensorProto | undefined} t
 * @property {number[]} floats
 * @property {bigint[]} ints
 * @property {Uint8Array[]} strings
 * @property {TensorProto[]} tensors
 */
/** @typedef {{ input: string[], output: string[], name: string, opType: string, domain: string, attribute: AttributeProto[], docString: string }} NodeProto */
/** @typedef {{ node: NodeProto[], name: string, initializer: TensorProto[], docString: string, input: ValueInfoProto[], output: ValueInfoProto[], valueInfo: ValueInfoProto[] }} GraphProto */
/**
 * @typedef {object} ModelProto
 * @property {bigint} irVersion
 * @property {OperatorSetId[]} opsetImport
 * @property {string} producerName
 * @property {string} producerVersion
 * @property {string} domain
 * @property {bigint} modelVersion
 * @property {string} docString
 * @property {GraphProto | undefined} graph
 */

const utf8 = new TextDecoder();

class Reader {
  /**
   * @param {Uint8Array} bytes
   * @param {number} [start]
   * @param {number} [end]
   * @param {DataView} [view] (shared by the readers of nested messages)
   */
  constructor(bytes, start = 0, end = bytes.length, view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength)) {
    this.bytes = bytes;
    this.pos = start;
    this.end = end;
    this.view = view;
  }

  /**
   * @param {string} what
   * @returns {never}
   */
  fail(what) {
    throw new Error(`${what} at byte ${this.pos}`);
  }

  // A varint as a number when it fits in 2^53, else a bigint (uint64 wire value).
  /** @returns {number | bigint} */
  varint() {
    let lo = 0, shift = 0, b;
    do {
      if (this.pos >= this.end) this.fail('truncated varint');
      b = this.bytes[this.pos++];
      if (shift < 28) lo |= (b & 0x7f) << shift;
      else return this.#varintLong(lo >>> 0, b);
      shift += 7;
    } while (b & 0x80);
    return lo >>> 0;
  }

  // The rest of a varint whose first four bytes gave `lo` (28 bits) and whose fifth byte is `b`.
  /**
   * @param {number} lo
   * @param {number} b
   * @returns {number | bigint}
   */
  #varintLong(lo, b) {
    let value = BigInt(lo) | (BigInt(b & 0x7f) << 28n);
    let shift = 35n;
    let count = 5;
    while (b & 0x80) {
      if (++count > 10) this.fail('varint longer than 10 bytes');
      if (this.pos >= this.end) this.fail('truncated varint');
      b = this.bytes[this.pos++];
      value |= BigInt(b & 0x7f) << shift;
      shift += 7n;
    }
    value = BigInt.asUintN(64, value);
    return value <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(value) : value;
  }

  int64() {
    const v = this.varint();
    return typeof v === 'bigint' ? BigInt.asIntN(64, v) : BigInt(v);
  }

  uint64() {
    const v = this.varint();
    return typeof v === 'bigint' ? v : BigInt(v);
  }

  // int32 and enums: the low 32 bits, signed (a negative int32 is sent as a 10-byte varint).
  int32() {
    const v = this.varint();
    return typeof v === 'bigint' ? Number(BigInt.asIntN(32, v)) : v | 0;   // (| 0 keeps the low 32 bits, signed)
  }

  float() {
    if (this.pos + 4 > this.end) this.fail('truncated float');
    const v = this.view.getFloat32(this.pos, true);
    this.pos += 4;
    return v;
  }

  double() {
    if (this.pos + 8 > this.end) this.fail('truncated double');
    const v = this.view.getFloat64(this.pos, true);
    this.pos += 8;
    return v;
  }

  // A length-delimited field's [start, end).
  /** @returns {[number, number]} */
  span() {
    const n = this.varint();
    if (typeof n !== 'number' || n > this.end - this.pos) this.fail(`length ${String(n)} beyond the end of the data`);
    const start = this.pos;
    this.pos += n;
    return [start, this.pos];
  }

  bytesField() {
    const [s, e] = this.span();
    return this.bytes.subarray(s, e);
  }

  string() {
    const [s, e] = this.span();
    return utf8.decode(this.bytes.subarray(s, e));
  }

  // A field's key as [field number, wire type].
  /** @returns {[number, number]} */
  key() {
    const key = this.varint();
    if (typeof key !== 'number' || key > 0xffffffff) this.fail('invalid field key');
    return [Math.floor(key / 8), key & 7];
  }

  // Calls field(number, wireType) for every field; `field` returns false for fields it does not
  // read, which are skipped.
  /** @param {(number: number, wire: number) => boolean} field */
  fields(field) {
    while (this.pos < this.end) {
      const [number, wire] = this.key();
      if (number === 0) this.fail('field number 0');
      if (!field(number, wire)) this.skip(wire, number);
    }
  }

  /**
   * @param {number} wire
   * @param {number} number the field's (a group ends with its own number)
   * @param {number} [depth]
   */
  skip(wire, number, depth = 0) {
    switch (wire) {
      case 0: this.varint(); return;
      case 1: if (this.pos + 8 > this.end) this.fail('truncated fixed64'); this.pos += 8; return;
      case 2: this.span(); return;
      case 5: if (this.pos + 4 > this.end) this.fail('truncated fixed32'); this.pos += 4; return;
      case 3: {   // a group (proto2's deprecated encoding): skip to its end-group tag
        if (depth > 32) this.fail('groups nested too deeply');
        for (;;) {
          if (this.pos >= this.end) this.fail(`unterminated group ${number}`);
          const [n, w] = this.key();
          if (w === 4) {
            if (n !== number) this.fail(`end of group ${n} inside group ${number}`);
            return;
          }
          this.skip(w, n, depth + 1);
        }
      }
      default: this.fail(`invalid wire type ${wire}`);
    }
  }

  // A reader over the bytes of the length-delimited field that follows.
  sub() {
    const [s, e] = this.span();
    return new Reader(this.bytes, s, e, this.view);
  }

  // A nested message: decode(reader) over its bytes.
  /**
   * @template T
   * @param {(r: Reader) => T} decode
   * @returns {T}
   */
  message(decode) {
    return decode(this.sub());
  }
}

// Wire types.
const VARINT = 0, I64 = 1, LEN = 2, I32 = 5;

// A message is decoded by a table of its fields: number -> [wire type, read(reader, message)].
// A repeated scalar is [wire type of one value, read(reader) of one value, 'list name'], and is
// read packed or not. Fields not in the table, and fields whose wire type differs from the
// table's, are skipped: protobuf's C++ parser (onnxruntime's) treats both as unknown fields.
/**
 * @template T
 * @typedef {[number, (r: Reader, m: T) => void] | [number, (r: Reader) => unknown, string]} Field
 */
/**
 * @template T
 * @param {() => T} make a message of defaults
 * @param {Record<number, Field<T>>} table
 * @returns {(r: Reader) => T}
 */
function decoder(make, table) {
  return (r) => {
    const m = make();
    r.fields((n, w) => {
      const f = table[n];
      if (!f) return false;
      if (f.length === 3) {   // (a repeated scalar: m's list of that name)
        if (w === LEN) {
          const inner = r.sub();
          while (inner.pos < inner.end) (/** @type {Record<string, unknown[]>} */ (m))[f[2]].push(f[1](inner));
          return true;
        }
        if (w !== f[0]) return false;
        (/** @type {Record<string, unknown[]>} */ (m))[f[2]].push(f[1](r));
        return true;
      }
      if (w !== f[0]) return false;
      f[1](r, m);
      return true;
    });
    return m;
  };
}

/** @param {Reader} r */
const int64 = (r) => r.int64();
/** @param {Reader} r */
const uint64 = (r) => r.uint64();
/** @param {Reader} r */
const int32 = (r) => r.int32();
/** @param {Reader} r */
const float = (r) => r.float();
/** @param {Reader} r */
const double = (r) => r.double();

const operatorSetId = decoder(() => /** @type {OperatorSetId} */ ({ domain: '', version: 0n }), {
  1: [LEN, (r, m) => { m.domain = r.string(); }],
  2: [VARINT, (r, m) => { m.version = r.int64(); }],
});

const stringStringEntry = decoder(() => /** @type {StringStringEntry} */ ({ key: '', value: '' }), {
  1: [LEN, (r, m) => { m.key = r.string(); }],
  2: [LEN, (r, m) => { m.value = r.string(); }],
});

const tensorProto = decoder(() => /** @type {TensorProto} */ ({
  dims: [], dataType: 0, floatData: [], int32Data: [], stringData: [], int64Data: [], name: '',
  rawData: new Uint8Array(0), externalData: [], dataLocation: 0, doubleData: [], uint64Data: [],
}), {
  1: [VARINT, int64, 'dims'],
  2: [VARINT, (r, m) => { m.dataType = r.int32(); }],
  4: [I32, float, 'floatData'],
  5: [VARINT, int32, 'int32Data'],
  6: [LEN, (r, m) => { m.stringData.push(r.bytesField()); }],
  7: [VARINT, int64, 'int64Data'],
  8: [LEN, (r, m) => { m.name = r.string(); }],
  9: [LEN, (r, m) => { m.rawData = r.bytesField(); }],
  10: [I64, double, 'doubleData'],
  11: [VARINT, uint64, 'uint64Data'],
  13: [LEN, (r, m) => { m.externalData.push(r.message(stringStringEntry)); }],
  14: [VARINT, (r, m) => { m.dataLocation = r.int32(); }],
});

const dimension = decoder(() => /** @type {Dimension} */ ({ value: { case: undefined }, denotation: '' }), {
  1: [VARINT, (r, m) => { m.value = { case: 'dimValue', value: r.int64() }; }],
  2: [LEN, (r, m) => { m.value = { case: 'dimParam', value: r.string() }; }],
  3: [LEN, (r, m) => { m.denotation = r.string(); }],
});

const tensorShape = decoder(() => /** @type {TensorShapeProto} */ ({ dim: [] }), {
  1: [LEN, (r, m) => { m.dim.push(r.message(dimension)); }],
});

const tensorType = decoder(() => /** @type {TensorTypeProto} */ ({ elemType: 0, shape: undefined }), {
  1: [VARINT, (r, m) => { m.elemType = r.int32(); }],
  2: [LEN, (r, m) => { m.shape = r.message(tensorShape); }],
});

// The other kinds of TypeProto are named, not decoded: the loader refuses a value that is not a
// tensor.
/**
 * @param {'sequenceType' | 'mapType' | 'sparseTensorType' | 'optionalType'} name
 * @returns {Field<TypeProto>}
 */
const otherType = (name) => [LEN, (r, m) => { r.span(); m.value = { case: name, value: {} }; }];
const typeProto = decoder(() => /** @type {TypeProto} */ ({ value: { case: undefined }, denotation: '' }), {
  1: [LEN, (r, m) => { m.value = { case: 'tensorType', value: r.message(tensorType) }; }],
  4: otherType('sequenceType'),
  5: otherType('mapType'),
  6: [LEN, (r, m) => { m.denotation = r.string(); }],
  8: otherType('sparseTensorType'),
  9: otherType('optionalType'),
});

const valueInfoProto = decoder(() => /** @type {ValueInfoProto} */ ({ name: '', type: undefined, docString: '' }), {
  1: [LEN, (r, m) => { m.name = r.string(); }],
  2: [LEN, (r, m) => { m.type = r.message(typeProto); }],
  3: [LEN, (r, m) => { m.docString = r.string(); }],
});

// g and graphs (subgraphs), sparse tensors and type protos are not read.
const attributeProto = decoder(() => /** @type {AttributeProto} */ ({
  name: '', refAttrName: '', docString: '', type: 0, f: 0, i: 0n, s: new Uint8Array(0), t: undefined,
  floats: [], ints: [], strings: [], tensors: [],
}), {
  1: [LEN, (r, m) => { m.name = r.string(); }],
  2: [I32, (r, m) => { m.f = r.float(); }],
  3: [VARINT, (r, m) => { m.i = r.int64(); }],
  4: [LEN, (r, m) => { m.s = r.bytesField(); }],
  5: [LEN, (r, m) => { m.t = r.message(tensorProto); }],
  7: [I32, float, 'floats'],
  8: [VARINT, int64, 'ints'],
  9: [LEN, (r, m) => { m.strings.push(r.bytesField()); }],
  10: [LEN, (r, m) => { m.tensors.push(r.message(tensorProto)); }],
  13: [LEN, (r, m) => { m.docString = r.string(); }],
  20: [VARINT, (r, m) => { m.type = r.int32(); }],
  21: [LEN, (r, m) => { m.refAttrName = r.string(); }],
});

const nodeProto = decoder(() => /** @type {NodeProto} */ ({ input: [], output: [], name: '', opType: '', domain: '', attribute: [], docString: '' }), {
  1: [LEN, (r, m) => { m.input.push(r.string()); }],
  2: [LEN, (r, m) => { m.output.push(r.string()); }],
  3: [LEN, (r, m) => { m.name = r.string(); }],
  4: [LEN, (r, m) => { m.opType = r.string(); }],
  5: [LEN, (r, m) => { m.attribute.push(r.message(attributeProto)); }],
  6: [LEN, (r, m) => { m.docString = r.string(); }],
  7: [LEN, (r, m) => { m.domain = r.string(); }],
});

const graphProto = decoder(() => /** @type {GraphProto} */ ({ node: [], name: '', initializer: [], docString: '', input: [], output: [], valueInfo: [] }), {
  1: [LEN, (r, m) => { m.node.push(r.message(nodeProto)); }],
  2: [LEN, (r, m) => { m.name = r.string(); }],
  5: [LEN, (r, m) => { m.initializer.push(r.message(tensorProto)); }],
  10: [LEN, (r, m) => { m.docString = r.string(); }],
  11: [LEN, (r, m) => { m.input.push(r.message(valueInfoProto)); }],
  12: [LEN, (r, m) => { m.output.push(r.message(valueInfoProto)); }],
  13: [LEN, (r, m) => { m.valueInfo.push(r.message(valueInfoProto)); }],
});

const modelProto = decoder(() => /** @type {ModelProto} */ ({
  irVersion: 0n, opsetImport: [], producerName: '', producerVersion: '', domain: '', modelVersion: 0n, docString: '', graph: undefined,
}), {
  1: [VARINT, (r, m) => { m.irVersion = r.int64(); }],
  2: [LEN, (r, m) => { m.producerName = r.string(); }],
  3: [LEN, (r, m) => { m.producerVersion = r.string(); }],
  4: [LEN, (r, m) => { m.domain = r.string(); }],
  5: [VARINT, (r, m) => { m.modelVersion = r.int64(); }],
  6: [LEN, (r, m) => { m.docString = r.string(); }],
  7: [LEN, (r, m) => { m.graph = r.message(graphProto); }],
  8: [LEN, (r, m) => { m.opsetImport.push(r.message(operatorSetId)); }],
});

// A serialized ModelProto (an .onnx file) as a plain object.
/**
 * @param {Uint8Array} bytes
 * @returns {ModelProto}
 */
export function decodeModel(bytes) {
  return modelProto(new Reader(bytes));
}

// A serialized TensorProto (ONNX test data: input_K.pb, output_K.pb) as a plain object.
/**
 * @param {Uint8Array} bytes
 * @returns {TensorProto}
 */
export function decodeTensor(bytes) {
  return tensorProto(new Reader(bytes));
}
