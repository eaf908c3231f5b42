// Shape inference and run functions of each op version, named in registry.cpp's table.
#pragma once
#include "../registry.h"

namespace onnxwasm {

// gather.cpp: Gather-1, -11 and -13 share their rules; only their types differ.
Status infer_gather(const OpVersion&, const Attributes&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);
Status run_gather(const OpVersion&, const Attributes&, const std::vector<const Tensor*>&,
                  const std::vector<ValueInfo>&, std::vector<Tensor>*);
// For a Gather whose data stays outside memory (a table kept in its file): checks the indices as
// run_gather does (the same errors) and plans the reads. `rows`: the distinct rows the indices
// name, ascending (int64 [u]); `remapped`: each index as a position in `rows` (int64, the
// indices' dims), so that Gather(the u rows read, remapped) is Gather(data, indices). Axis 0 only.
Status plan_gather_rows(const OpVersion& v, const Attributes& attrs, const std::vector<int64_t>& data_dims,
                        const Tensor& indices, Tensor* remapped, Tensor* rows);

// flatten.cpp: axis in [0, r] (versions 1 and 9) or [-r, r] (11 and later).
Status infer_flatten_1(const OpVersion&, const Attributes&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);
Status infer_flatten_11(const OpVersion&, const Attributes&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);

// reshape.cpp: shape from the attribute (1) or from the second input (5; allowzero from 14).
Status infer_reshape_1(const OpVersion&, const Attributes&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);
Status infer_reshape_5(const OpVersion&, const Attributes&, const std::vector<ValueInfo>&, std::vector<ValueInfo>*);

// view.cpp: Reshape and Flatten output: the input's buffer with the inferred dims, no copy.
Status run_view(const OpVersion&, const Attributes&, const std::vector<const Tensor*>&,
                const std::vector<ValueInfo>&, std::vector<Tensor>*);

}  // namespace onnxwasm
