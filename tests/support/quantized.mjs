// Test data for the quantized ops' tests (DequantizeLinear, GatherBlockQuantized, the
// DequantizeLinear -> Gather rewrite): bits per element type, a deterministic byte pattern, and
// an initializer of raw bytes.
import { create } from '@bufbuild/protobuf';
import { TensorProtoSchema } from 'onnx-buf';
import { dataType } from './external-models.mjs';

export const BITS = { int8: 8, uint8: 8, int16: 16, uint16: 16, int32: 32, int4: 4, uint4: 4, int2: 2, uint2: 2 };
export const product = (d) => d.reduce((a, b) => a * b, 1);

// A deterministic byte pattern, different for every tensor.
export function bytes(n, seed) {
  const b = new Uint8Array(n);
  let x = seed * 2654435761 >>> 0;
  for (let i = 0; i < n; ++i) { x = (x * 1103515245 + 12345) >>> 0; b[i] = x >>> 16; }
  return b;
}

export const tensorProto = (name, type, dims, raw) => create(TensorProtoSchema, { name, dataType: dataType(type), dims: dims.map(BigInt), rawData: raw });
