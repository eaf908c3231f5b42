// The three ops through runNode, and shape inference with symbolic dimensions.
import { init, Tensor, runNode, inferShapes } from '../js/index.mjs';

const info = await init();
console.log(`onnx-wasm loaded: ${info.kernels} kernels, opsets ${info.minOpset}..${info.maxOpset}`);

// Gather: rows 2 and 0 of a 3x2 table (negative indices count from the end).
const table = new Tensor('float32', [1, 2, 3, 4, 5, 6], [3, 2]);
const [rows] = runNode({ opType: 'Gather', attributes: { axis: 0 } }, [table, new Tensor('int64', [2n, -3n], [2])]);
console.log('Gather  ', rows.dims, Array.from(rows.data));

// Flatten: [2, 3, 4] to [2, 12], sharing the input's memory.
const x = new Tensor('int32', Array.from({ length: 24 }, (_, i) => i), [2, 3, 4]);
const [flat] = runNode({ opType: 'Flatten', attributes: { axis: 1 } }, [x]);
console.log('Flatten ', flat.dims, 'shares memory with its input:', flat.sharesMemoryWith(x));

// Reshape with 0 (copy) and -1 (inferred), at opset 14.
const [reshaped] = runNode({ opType: 'Reshape' }, [x, new Tensor('int64', [0n, -1n], [2])], { opset: 14 });
console.log('Reshape ', reshaped.dims);

// Shape inference without data: symbols flow through.
console.log('inferShapes Gather', JSON.stringify(inferShapes({ opType: 'Gather', attributes: { axis: 0 } },
  [{ type: 'float32', dims: ['vocab', 768] }, { type: 'int64', dims: ['batch', 'seq'] }])));
console.log('inferShapes Reshape', JSON.stringify(inferShapes({ opType: 'Reshape' },
  [{ type: 'float16', dims: ['batch', 16, 64] }, { type: 'int64', dims: [3], value: [0, 4, -1] }])));

// Errors name the op version, the value and the allowed range: an index out of range on purpose.
try {
  runNode({ opType: 'Gather' }, [table, new Tensor('int32', [0, 7], [2])], { opset: 11 });
} catch (e) {
  console.log(`intended error (an index out of range, to show the message): ${e.name} (${e.code}): ${e.message}`);
}
for (const t of [table, rows, x, flat, reshaped]) t.dispose();
