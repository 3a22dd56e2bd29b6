// The primitives (thunder/core/prims.py): the operations every program decomposes into. Each has a
// meta function that checks its inputs with Thunder's messages and returns output proxies; none
// broadcasts or promotes types (the torch language does that above them). These functions record
// a call to the prim in the active trace.
#pragma once

#include <string>
#include <tuple>
#include <vector>

#include "thundercc/ir/symbol.h"

namespace thundercc::prims {

#define THUNDERCC_UNARY_OP(name, ...) Tensor name(const Value& a);
#include "thundercc/langs/unary_ops.def"
#define THUNDERCC_BINARY_OP(name, ...) Tensor name(const Value& a, const Value& b);
#include "thundercc/langs/binary_ops.def"

Tensor where(const Value& pred, const Value& a, const Value& b);
Tensor lerp(const Value& start, const Value& end, const Value& weight);

Tensor convert_element_type(const Tensor& a, DType dtype);
Tensor device_put(const Tensor& a, Device device);
Tensor full(const Shape& shape, const Value& fill_value, Device device, DType dtype);
Tensor iota(int64_t length, int64_t start, int64_t step, Device device, DType dtype);
Tensor uniform(const Shape& shape, const Value& minval, const Value& maxval, Device device, DType dtype);
Tensor randn(const Shape& shape, Device device, DType dtype);
Tensor multinomial(const Tensor& a, int64_t num_samples, bool replacement);
// A tensor holding `data`: a number, or nested lists of numbers of one length per level.
Tensor tensor_from_sequence(const Value& data, Device device, DType dtype);

Tensor broadcast_in_dim(const Tensor& a, const Shape& shape, const std::vector<int64_t>& broadcast_dimensions);
Tensor reshape(const Tensor& a, const Shape& shape);
Tensor slice_prim(const Tensor& a, const std::vector<int64_t>& start, const std::vector<int64_t>& end,
                  const std::vector<int64_t>& strides);
Tensor squeeze(const Tensor& a, const std::vector<int64_t>& dims);
Tensor transpose(const Tensor& a, const std::vector<int64_t>& permutation);
Tensor cat(const std::vector<Tensor>& tensors, int64_t dim);
// padding_config: (low, high, interior) per dimension.
Tensor pad(const Tensor& a, const Value& padding_value, const std::vector<std::array<int64_t, 3>>& padding_config);
Tensor flip(const Tensor& a, const std::vector<int64_t>& dims);
Tensor unfold(const Tensor& a, int64_t dim, int64_t size, int64_t step);
// A copy of a whose memory is laid out in the given order of dimensions (outermost first).
Tensor stride_order(const Tensor& a, const std::vector<int64_t>& order);

// A collective over the process group's ranks: op 'sum' or 'avg'; with do_async, started here and
// ready after wait (the value wait returns).
Tensor all_reduce(const Tensor& a, const std::string& op, bool do_async);
// FSDP's collectives over world_size ranks, along the first dimension: the ranks' tensors
// concatenated in rank order; reduced, each rank keeping its slice.
Tensor all_gather(const Tensor& a, int64_t world_size, bool do_async);
Tensor reduce_scatter(const Tensor& a, const std::string& op, int64_t world_size, bool do_async);
Tensor wait(const Tensor& a);

Tensor sum(const Tensor& a, const std::vector<int64_t>& dims);
Tensor prod(const Tensor& a, const std::vector<int64_t>& dims);
Tensor amax(const Tensor& a, const std::vector<int64_t>& dims);
Tensor amin(const Tensor& a, const std::vector<int64_t>& dims);
Tensor var(const Tensor& a, const std::vector<int64_t>& dims, const Value& correction);
std::pair<Tensor, Tensor> var_mean(const Tensor& a, const std::vector<int64_t>& dims, const Value& correction);
Tensor argmax(const Tensor& a, const Value& dim);
Tensor argmin(const Tensor& a, const Value& dim);
std::pair<Tensor, Tensor> topk(const Tensor& a, int64_t k, int64_t dim, bool largest, bool sorted);

Tensor take(const Tensor& a, const Tensor& index, int64_t dim);
Tensor take_along_axis(const Tensor& a, const Tensor& index, int64_t dim);
Tensor scatter_add(const Tensor& a, const Tensor& index, const Tensor& value, int64_t dim);
Tensor index_add(const Tensor& a, const Tensor& index, const Tensor& value, int64_t dim);
// a with value's elements written where index points (along dim), or the rows of dim that
// index lists replaced by value's.
Tensor scatter(const Tensor& a, const Tensor& index, const Tensor& value, int64_t dim);
Tensor index_copy(const Tensor& a, const Tensor& index, const Tensor& value, int64_t dim);
// The running sum and product along dim.
Tensor cumsum(const Tensor& a, int64_t dim);
Tensor cumprod(const Tensor& a, int64_t dim);

Tensor matmul(const Tensor& a, const Tensor& b);
Tensor linear(const Tensor& a, const Tensor& w, const Value& bias);
// padding_idx: the row whose gradient stays zero, -1 for none.
Tensor embedding(const Tensor& indices, const Tensor& weight, int64_t padding_idx, bool scale_grad_by_freq);
Tensor convolution(const Tensor& a, const Tensor& weight, const Value& bias, const std::vector<int64_t>& stride,
                   const std::vector<int64_t>& padding, const std::vector<int64_t>& dilation, bool transposed,
                   const std::vector<int64_t>& output_padding, int64_t groups);

// The `del a, t1` statement's symbol (Delete Last Used writes them; the plan frees their slots).
// Not an operation: no executor claims it and `thundercc ops` does not list it.
const Symbol& python_del();

}  // namespace thundercc::prims

namespace thundercc {
// Adds every prim to `table`.
void register_prims(SymbolTable& table);
}  // namespace thundercc
