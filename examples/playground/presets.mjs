// The examples of the playground's op panel, one or more per op of the registry. No DOM here: a
// script in Node can read them too. An example: { label, op, domain? ('' for ONNX's own),
// opset (that domain's version), attrs (field texts), symbols?, inputs }; an input is
// { type, dims, values } as typed in its fields, or null for an optional input left out.
// tests/browser/playground.test.mjs checks each one's inferred shape and output, worked out by hand.
export const PRESETS = [
  { label: 'Gather rows (negative index)', op: 'Gather', opset: 13, attrs: { axis: '0' },
    inputs: [{ type: 'float32', dims: '3, 2', values: '1, 2, 3, 4, 5, 6' }, { type: 'int64', dims: '2', values: '2, -3' }] },
  { label: 'Gather columns, 2-D indices', op: 'Gather', opset: 11, attrs: { axis: '1' },
    inputs: [{ type: 'int32', dims: '2, 3', values: '0..5' }, { type: 'int64', dims: '2, 2', values: '2, 0, 1, 1' }] },
  { label: 'Gather strings', op: 'Gather', opset: 13, attrs: {},
    inputs: [{ type: 'string', dims: '3', values: 'apple, banana, cherry' }, { type: 'int32', dims: '2', values: '2, 0' }] },
  { label: 'Gather with symbolic dims', op: 'Gather', opset: 13, attrs: { axis: '0' }, symbols: 'seq=3',
    inputs: [{ type: 'float32', dims: 'vocab, 4', values: '0..19' }, { type: 'int64', dims: 'batch, seq', values: '0, 4, 2, 1, 3, 0' }] },
  { label: 'Flatten at axis 1', op: 'Flatten', opset: 13, attrs: { axis: '1' },
    inputs: [{ type: 'float32', dims: '2, 3, 4', values: '0..23' }] },
  { label: 'Flatten bfloat16, negative axis', op: 'Flatten', opset: 21, attrs: { axis: '-1' },
    inputs: [{ type: 'bfloat16', dims: '2, 2, 3', values: '0..11' }] },
  { label: 'Reshape with 0 and -1, symbolic batch', op: 'Reshape', opset: 14, attrs: {},
    inputs: [{ type: 'float32', dims: 'batch, 3, 4', values: '0..23' }, { type: 'int64', dims: '2', values: '0, -1' }] },
  { label: 'Reshape-1 (shape attribute)', op: 'Reshape', opset: 4, attrs: { shape: '3, 2' },
    inputs: [{ type: 'float32', dims: '2, 3', values: '1..6' }] },
  { label: 'Reshape int4 (packed)', op: 'Reshape', opset: 25, attrs: {},
    inputs: [{ type: 'int4', dims: '2, 3', values: '-3..2' }, { type: 'int64', dims: '1', values: '-1' }] },

  // Shape computation: the ops exporters put around Reshape (x.view(x.size(0), -1) and the like).
  { label: 'Shape with start and end, symbolic batch', op: 'Shape', opset: 15, attrs: { start: '1', end: '-1' },
    inputs: [{ type: 'float32', dims: 'batch, 3, 4, 5', values: '0..119' }] },
  { label: 'Size', op: 'Size', opset: 21, attrs: {},
    inputs: [{ type: 'int8', dims: '2, 3, 4', values: '0..23' }] },
  { label: 'Identity (a view)', op: 'Identity', opset: 21, attrs: {},
    inputs: [{ type: 'float16', dims: '2, 2', values: '0.5, 1, 1.5, 2' }] },
  { label: 'Unsqueeze with an axes input', op: 'Unsqueeze', opset: 13, attrs: {},
    inputs: [{ type: 'float32', dims: '2, 3', values: '1..6' }, { type: 'int64', dims: '2', values: '0, -1' }] },
  { label: 'Squeeze with axes left out (every 1)', op: 'Squeeze', opset: 13, attrs: {},
    inputs: [{ type: 'float32', dims: '1, 3, 1, 2', values: '1..6' }, null] },
  { label: 'Concat of three inputs', op: 'Concat', opset: 13, attrs: { axis: '1' },
    inputs: [{ type: 'int32', dims: '2, 1', values: '1, 2' }, { type: 'int32', dims: '2, 2', values: '3..6' }, { type: 'int32', dims: '2, 3', values: '7..12' }] },
  { label: 'Slice with negative steps', op: 'Slice', opset: 13, attrs: {},
    inputs: [{ type: 'float32', dims: '3, 4', values: '0..11' }, { type: 'int64', dims: '2', values: '-1, -1' },
      { type: 'int64', dims: '2', values: '-1000, 0' }, { type: 'int64', dims: '2', values: '0, 1' }, { type: 'int64', dims: '2', values: '-2, -1' }] },
  { label: 'Range, int64 counting down', op: 'Range', opset: 11, attrs: {},
    inputs: [{ type: 'int64', dims: '', values: '10' }, { type: 'int64', dims: '', values: '0' }, { type: 'int64', dims: '', values: '-3' }] },
  { label: 'Range, float32', op: 'Range', opset: 11, attrs: {},
    inputs: [{ type: 'float32', dims: '', values: '1' }, { type: 'float32', dims: '', values: '2' }, { type: 'float32', dims: '', values: '0.25' }] },
  { label: 'ConstantOfShape float32 1.5', op: 'ConstantOfShape', opset: 21, attrs: { value: 'float32 1.5' },
    inputs: [{ type: 'int64', dims: '2', values: '2, 3' }] },

  // Conversion.
  { label: 'Cast float32 to float16 (rounding, inf, underflow)', op: 'Cast', opset: 13, attrs: { to: 'float16' },
    inputs: [{ type: 'float32', dims: '5', values: '1, 0.1, 65504, 65520, 1e-8' }] },
  { label: 'Cast float32 to int4 (ties to even)', op: 'Cast', opset: 21, attrs: { to: 'int4' },
    inputs: [{ type: 'float32', dims: '8', values: '-8, -2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 7' }] },
  { label: 'CastLike int32 to float16', op: 'CastLike', opset: 15, attrs: {},
    inputs: [{ type: 'int32', dims: '3', values: '1, 2049, 70000' }, { type: 'float16', dims: '', values: '0' }] },

  // Arithmetic, numpy broadcasting (and the broadcast/axis attributes before version 7).
  { label: 'Mul with broadcasting', op: 'Mul', opset: 14, attrs: {},
    inputs: [{ type: 'float32', dims: '2, 1', values: '1, 2' }, { type: 'float32', dims: '3', values: '10, 20, 30' }] },
  { label: 'Add-6 with broadcast and axis', op: 'Add', opset: 6, attrs: { broadcast: '1', axis: '0' },
    inputs: [{ type: 'float32', dims: '3, 4', values: '0..11' }, { type: 'float32', dims: '3', values: '100, 200, 300' }] },
  { label: 'Sub uint8 (wraps around)', op: 'Sub', opset: 14, attrs: {},
    inputs: [{ type: 'uint8', dims: '3', values: '5, 0, 255' }, { type: 'uint8', dims: '', values: '7' }] },
  { label: 'Div int32 (truncates)', op: 'Div', opset: 14, attrs: {},
    inputs: [{ type: 'int32', dims: '3', values: '7, -7, 9' }, { type: 'int32', dims: '', values: '2' }] },

  // The Gather family and dequantization.
  { label: 'GatherElements on axis 1', op: 'GatherElements', opset: 13, attrs: { axis: '1' },
    inputs: [{ type: 'float32', dims: '2, 3', values: '1..6' }, { type: 'int64', dims: '2, 2', values: '2, 0, -1, 1' }] },
  { label: 'GatherND with batch_dims 1', op: 'GatherND', opset: 12, attrs: { batch_dims: '1' },
    inputs: [{ type: 'int32', dims: '2, 2, 2', values: '0..7' }, { type: 'int64', dims: '2, 1', values: '1, 0' }] },
  { label: 'DequantizeLinear blocked int4', op: 'DequantizeLinear', opset: 21, attrs: { axis: '1', block_size: '2' },
    inputs: [{ type: 'int4', dims: '2, 4', values: '-8, -1, 0, 7, 1, 2, 3, 4' }, { type: 'float32', dims: '2, 2', values: '0.5, 2, 1, -1' },
      { type: 'int4', dims: '2, 2', values: '0, 1, -1, 0' }] },
  // Rows of 16 4-bit codes, two a byte (the first in the low bits): row 0 holds codes 0..15, row 1
  // codes 8 (zero with the default zero point 8), row 2 codes 0 and 15 in turn.
  { label: 'GatherBlockQuantized 4-bit codes, float16 scales', op: 'GatherBlockQuantized', domain: 'com.microsoft', opset: 1, attrs: { block_size: '16' },
    inputs: [{ type: 'uint8', dims: '3, 8', values: '16, 50, 84, 118, 152, 186, 220, 254, 136, 136, 136, 136, 136, 136, 136, 136, 240, 240, 240, 240, 240, 240, 240, 240' },
      { type: 'int64', dims: '2', values: '2, 0' }, { type: 'float16', dims: '3, 1', values: '0.5, 1, -0.25' }, null] },
  // onnx-wasm's own Gather: every element type, here rows of 3 int4 codes (12 bits: not whole bytes).
  { label: 'onnx-wasm Gather of int4 rows', op: 'Gather', domain: 'onnx-wasm', opset: 1, attrs: { axis: '0' },
    inputs: [{ type: 'int4', dims: '3, 3', values: '-4..4' }, { type: 'int64', dims: '2', values: '2, -3' }] },
];

// The ops of ONNX's domain the benchmark panel has a plain JavaScript loop for.
export const BENCH_OPS = ['Gather', 'Flatten', 'Reshape'];
