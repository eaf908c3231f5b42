// The protobuf runtime and ONNX definitions the model loader uses (@bufbuild/protobuf and
// onnx-buf, ONNX 1.20). The build bundles this file into dist/proto.mjs, one self-contained ES
// module that the loader imports on first use: importing onnx-wasm stays fast for users of
// runNode alone, and browsers need no import map for the two packages.
export { fromBinary } from '@bufbuild/protobuf';
export { ModelProtoSchema, TensorProtoSchema } from 'onnx-buf';
