# Writes tests/fixtures/torch-gather/: torch.gather exported by torch.onnx (as GatherElements) in
# ONNX's backend-test layout (model.onnx, test_data_set_0/input_N.pb and output_0.pb), the expected
# outputs computed by torch itself, so that tests/js/gather-elements.test.mjs checks onnx-wasm's
# GatherElements against torch byte for byte. Run with Debian's python (python3-torch, python3-onnx):
#   /usr/bin/python3 tests/support/gen-torch-gather.py
import io
import os
import shutil

import onnx
import torch

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'fixtures', 'torch-gather')

ONNX_TYPE = {
    torch.float32: onnx.TensorProto.FLOAT, torch.float16: onnx.TensorProto.FLOAT16,
    torch.bfloat16: onnx.TensorProto.BFLOAT16, torch.float64: onnx.TensorProto.DOUBLE,
    torch.int64: onnx.TensorProto.INT64, torch.int32: onnx.TensorProto.INT32, torch.int16: onnx.TensorProto.INT16,
    torch.int8: onnx.TensorProto.INT8, torch.uint8: onnx.TensorProto.UINT8, torch.bool: onnx.TensorProto.BOOL,
}


def proto(t, name):
    # raw little-endian bytes, as torch holds them (bfloat16 has no numpy type)
    p = onnx.TensorProto(name=name, data_type=ONNX_TYPE[t.dtype], dims=list(t.shape))
    raw = t.contiguous()
    if t.dtype == torch.bfloat16:
        raw = raw.view(torch.int16)
    p.raw_data = raw.numpy().tobytes()
    return p


class Gather(torch.nn.Module):
    def __init__(self, dim, index=None):
        super().__init__()
        self.dim = dim
        self.index = index

    def forward(self, x, i=None):
        return torch.gather(x, self.dim, self.index if i is None else i)


def data_of(dtype, shape, g):
    if dtype == torch.bool:
        return torch.randint(0, 2, shape, generator=g).bool()
    if dtype.is_floating_point:
        return (torch.randn(shape, generator=g) * 100).to(dtype)
    info = torch.iinfo(dtype)
    return torch.randint(max(info.min, -(2 ** 31)), min(info.max, 2 ** 31 - 1), shape, generator=g).to(dtype)


# name, data type, data shape, dim, index shape, opset, index as an initializer
CASES = [
    ('float32_dim1', torch.float32, [4, 5], 1, [4, 3], 11, False),
    ('float32_dim0_rank3', torch.float32, [3, 4, 5], 0, [2, 4, 5], 13, False),
    ('float16_dim_last_longer', torch.float16, [3, 4, 5], -1, [3, 2, 9], 13, False),
    ('int64_dim0', torch.int64, [6, 7], 0, [9, 7], 16, False),
    ('int32_rank4_dim2', torch.int32, [2, 3, 4, 5], 2, [2, 3, 6, 5], 13, False),
    ('uint8_long_rows', torch.uint8, [5, 80], 1, [5, 100], 11, False),
    ('bool_dim0', torch.bool, [4, 4], 0, [4, 2], 13, False),
    ('float64_dim_minus2', torch.float64, [3, 3], -2, [2, 3], 17, False),
    ('bfloat16_long_rows', torch.bfloat16, [2, 130], 1, [2, 257], 13, False),
    ('int8_dim1', torch.int8, [4, 6], 1, [4, 6], 13, False),
    ('int16_dim0', torch.int16, [4, 6], 0, [3, 5], 13, False),
    ('float32_index_initializer', torch.float32, [4, 5], 0, [3, 5], 13, True),
    ('float32_empty_index', torch.float32, [3, 4], 1, [3, 0], 13, False),
]


def main():
    shutil.rmtree(ROOT, ignore_errors=True)
    g = torch.Generator().manual_seed(20261126)
    for name, dtype, shape, dim, ishape, opset, const in CASES:
        x = data_of(dtype, shape, g)
        axis_dim = shape[dim]
        index = torch.randint(0, axis_dim, ishape, generator=g)
        expected = torch.gather(x, dim, index)
        model = Gather(dim, index if const else None)
        args = (x,) if const else (x, index)
        f = io.BytesIO()
        torch.onnx.export(model, args, f, opset_version=opset, input_names=['x'] if const else ['x', 'index'],
                          output_names=['y'])
        m = onnx.load_from_string(f.getvalue())
        ops = [n.op_type for n in m.graph.node]
        assert ops == (['Constant', 'GatherElements'] if const else ['GatherElements']), ops
        d = os.path.join(ROOT, f'test_torch_gather_{name}')
        os.makedirs(os.path.join(d, 'test_data_set_0'))
        onnx.save(m, os.path.join(d, 'model.onnx'))
        for k, t in enumerate(args):
            with open(os.path.join(d, 'test_data_set_0', f'input_{k}.pb'), 'wb') as out:
                out.write(proto(t, m.graph.input[k].name).SerializeToString())
        with open(os.path.join(d, 'test_data_set_0', 'output_0.pb'), 'wb') as out:
            out.write(proto(expected, 'y').SerializeToString())
        print(os.path.relpath(d))


if __name__ == '__main__':
    main()
