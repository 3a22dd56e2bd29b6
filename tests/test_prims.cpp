// OpInfo-style tests of the prims' meta functions: sample inputs (0-d, empty, CPU scalars, each
// dtype class) with the metadata they must produce, and error inputs with Thunder's messages.

#include "test_util.h"
#include "thundercc/ir/printer.h"
#include "thundercc/langs/prims.h"

using namespace thundercc;
using namespace thundercc::testing;


TEST_CASE("elementwise unary prims: dtypes accepted and produced") {
  run({
      {"exp f32", [](Tracing& t) { return prims::exp(in(t, {2, 3})); }, "cpu f32[2, 3]"},
      {"exp 0-d", [](Tracing& t) { return prims::exp(in(t, {})); }, "cpu f32[]"},
      {"exp empty", [](Tracing& t) { return prims::exp(in(t, {0, 4}, dtypes::float64)); }, "cpu f64[0, 4]"},
      {"exp complex", [](Tracing& t) { return prims::exp(in(t, {2}, dtypes::complex64)); }, "cpu c64[2]"},
      {"exp int", [](Tracing& t) { return prims::exp(in(t, {2}, dtypes::int64)); }, "RuntimeError: Unsupported input dtype int64 for prims.exp"},
      {"exp half", [](Tracing& t) { return prims::exp(in(t, {2}, dtypes::float16)); }, "RuntimeError: Unsupported input dtype float16 for prims.exp"},
      {"abs complex", [](Tracing& t) { return prims::abs(in(t, {2}, dtypes::complex128)); }, "cpu f64[2]"},
      {"abs int", [](Tracing& t) { return prims::abs(in(t, {2}, dtypes::int32)); }, "cpu i32[2]"},
      {"neg bool", [](Tracing& t) { return prims::neg(in(t, {2}, dtypes::bool8)); }, "cpu b8[2]"},
      {"isfinite", [](Tracing& t) { return prims::isfinite(in(t, {2}, dtypes::float32, cuda(1))); }, "cuda:1 b8[2]"},
      {"signbit", [](Tracing& t) { return prims::signbit(in(t, {2})); }, "cpu b8[2]"},
      {"bitwise_not float", [](Tracing& t) { return prims::bitwise_not(in(t, {2})); }, "RuntimeError: Unsupported input dtype float32 for prims.bitwise_not"},
      {"bitwise_not bool", [](Tracing& t) { return prims::bitwise_not(in(t, {2}, dtypes::bool8)); }, "cpu b8[2]"},
      {"erf complex", [](Tracing& t) { return prims::erf(in(t, {2}, dtypes::complex64)); }, "RuntimeError: Unsupported input dtype complex64 for prims.erf"},
      {"imag", [](Tracing& t) { return prims::imag(in(t, {2}, dtypes::complex64)); }, "cpu f32[2]"},
      {"number", [](Tracing& t) { return prims::exp(2.0); }, "TypeError: prims.exp: expected at least one tensor input"},
  });
}

TEST_CASE("elementwise binary prims: same shape, dtype and device, CPU scalars exempt") {
  run({
      {"same", [](Tracing& t) { return prims::add(in(t, {2, 3}), in(t, {2, 3})); }, "cpu f32[2, 3]"},
      {"empty", [](Tracing& t) { return prims::mul(in(t, {0, 3}), in(t, {0, 3})); }, "cpu f32[0, 3]"},
      {"number", [](Tracing& t) { return prims::add(in(t, {2, 3}), 2.0); }, "cpu f32[2, 3]"},
      {"number first", [](Tracing& t) { return prims::sub(1, in(t, {4}, dtypes::int64)); }, "cpu i64[4]"},
      {"cpu scalar", [](Tracing& t) { return prims::add(in(t, {}), in(t, {2, 3})); }, "cpu f32[2, 3]"},
      {"cpu scalar with cuda", [](Tracing& t) { return prims::mul(in(t, {2}, dtypes::float32, cuda(0)), in(t, {})); }, "cuda:0 f32[2]"},
      {"comparison", [](Tracing& t) { return prims::lt(in(t, {2}), in(t, {2})); }, "cpu b8[2]"},
      {"bitwise ints", [](Tracing& t) { return prims::bitwise_and(in(t, {2}, dtypes::int8), in(t, {2}, dtypes::int8)); }, "cpu i8[2]"},
      {"shapes", [](Tracing& t) { return prims::add(in(t, {2, 3}), in(t, {3, 2})); },
       "RuntimeError: Shapes were expected to be the same, but got shapes (2, 3) and (3, 2)!"},
      {"broadcast is not a prim's job", [](Tracing& t) { return prims::add(in(t, {2, 1}), in(t, {2, 2})); },
       "RuntimeError: Shapes were expected to be the same, but got shapes (2, 1) and (2, 2)!"},
      {"dtypes", [](Tracing& t) { return prims::add(in(t, {2}), in(t, {2}, dtypes::float64)); },
       "RuntimeError: Expected all tensors to have the same dtype, but found float32 and float64!"},
      {"devices", [](Tracing& t) { return prims::add(in(t, {2}, dtypes::float32, cuda(0)), in(t, {2})); },
       "RuntimeError: Expected all tensors to be on the same device, but found cuda:0 and cpu!"},
      {"half", [](Tracing& t) { return prims::add(in(t, {2}, dtypes::bfloat16), in(t, {2}, dtypes::bfloat16)); },
       "RuntimeError: Unsupported input dtype bfloat16 for prims.add"},
      {"where", [](Tracing& t) { return prims::where(in(t, {2}, dtypes::bool8), in(t, {2}), 0.0); }, "cpu f32[2]"},
      {"where pred", [](Tracing& t) { return prims::where(in(t, {2}), in(t, {2}), 0.0); },
       "RuntimeError: where: expected pred to be a boolean tensor or a bool"},
      {"lerp", [](Tracing& t) { return prims::lerp(in(t, {3}), in(t, {3}), 0.5); }, "cpu f32[3]"},
  });
}

TEST_CASE("shape prims") {
  run({
      {"broadcast_in_dim", [](Tracing& t) { return prims::broadcast_in_dim(in(t, {2, 1}), {3, 2, 4}, {1, 2}); }, "cpu f32[3, 2, 4]"},
      {"broadcast_in_dim 0-d", [](Tracing& t) { return prims::broadcast_in_dim(in(t, {}), {2, 2}, {}); }, "cpu f32[2, 2]"},
      {"broadcast_in_dim count", [](Tracing& t) { return prims::broadcast_in_dim(in(t, {2, 1}), {2, 2}, {0}); },
       "RuntimeError: Expected one broadcast dimension (received 1) for each dimension of a (2)"},
      {"broadcast_in_dim order", [](Tracing& t) { return prims::broadcast_in_dim(in(t, {2, 1}), {2, 2}, {1, 0}); },
       "RuntimeError: Expected broadcast dimensions to be strictly increasing, but got [1, 0]"},
      {"broadcast_in_dim length", [](Tracing& t) { return prims::broadcast_in_dim(in(t, {3}), {2, 2}, {1}); },
       "RuntimeError: Can't broadcast a tensor with shape (3,) to shape (2, 2) with broadcast dimensions [1]: dimension 0 has length 3 but the target length is 2"},
      {"reshape", [](Tracing& t) { return prims::reshape(in(t, {2, 3}), {3, 2}); }, "cpu f32[3, 2]"},
      {"reshape 0-d", [](Tracing& t) { return prims::reshape(in(t, {1, 1}), {}); }, "cpu f32[]"},
      {"reshape numel", [](Tracing& t) { return prims::reshape(in(t, {2, 3}), {4}); },
       "RuntimeError: Attempting to reshape a.shape=(2, 3) to shape=(4,), but a.numel=6 is different from the number of elements in shape, 4"},
      {"slice", [](Tracing& t) { return prims::slice_prim(in(t, {10, 4}), {1, 0}, {9, 4}, {3, 1}); }, "cpu f32[3, 4]"},
      {"slice empty", [](Tracing& t) { return prims::slice_prim(in(t, {10}), {4}, {4}, {1}); }, "cpu f32[0]"},
      {"slice end", [](Tracing& t) { return prims::slice_prim(in(t, {10}), {0}, {11}, {1}); },
       "RuntimeError: Expected the end index 11 for dimension 0 to be less than or equal to the length of the dimension 10"},
      {"slice start", [](Tracing& t) { return prims::slice_prim(in(t, {10}), {5}, {4}, {1}); },
       "RuntimeError: Expected the start index 5 for dimension 0 to be less than or equal to the end index 4"},
      {"slice stride", [](Tracing& t) { return prims::slice_prim(in(t, {10}), {0}, {4}, {0}); },
       "RuntimeError: Expected the stride 0 for dimension 0 to be positive"},
      {"squeeze", [](Tracing& t) { return prims::squeeze(in(t, {1, 3, 1}), {0, -1}); }, "cpu f32[3]"},
      {"squeeze length", [](Tracing& t) { return prims::squeeze(in(t, {2, 3}), {1}); },
       "RuntimeError: squeeze: dimension 1 has length 3, but only dimensions of length 1 can be squeezed"},
      {"transpose", [](Tracing& t) { return prims::transpose(in(t, {2, 3, 4}), {2, 0, 1}); }, "cpu f32[4, 2, 3]"},
      {"transpose duplicate", [](Tracing& t) { return prims::transpose(in(t, {2, 3}), {0, 0}); },
       "RuntimeError: Duplicate value in list of dimensions [0, 0]!"},
      {"transpose range", [](Tracing& t) { return prims::transpose(in(t, {2, 3}), {0, 2}); },
       "IndexError: Dimension out of range (expected to be in range of [-2, 1], but got 2)"},
      {"cat", [](Tracing& t) { return prims::cat({in(t, {2, 3}), in(t, {4, 3})}, 0); }, "cpu f32[6, 3]"},
      {"cat sizes", [](Tracing& t) { return prims::cat({in(t, {2, 3}), in(t, {2, 4})}, 0); },
       "RuntimeError: cat: sizes of tensors must match except in dimension 0, but got (2, 3) and (2, 4)"},
      {"pad", [](Tracing& t) { return prims::pad(in(t, {3, 2}), 0.0, {{{1, 2, 1}}, {{0, 0, 0}}}); }, "cpu f32[8, 2]"},
      {"pad crop", [](Tracing& t) { return prims::pad(in(t, {5}), 0.0, {{{-1, -2, 0}}}); }, "cpu f32[2]"},
      {"flip", [](Tracing& t) { return prims::flip(in(t, {2, 3}), {1}); }, "cpu f32[2, 3]"},
  });
}

TEST_CASE("unfold: the samples and error inputs of Thunder's unfold OpInfo") {
  // The cases of the seed's contributor guide (003): shape, dim, size, step.
  run({
      {"()", [](Tracing& t) { return prims::unfold(in(t, {}), 0, 1, 3); }, "cpu f32[1]"},
      {"() -1", [](Tracing& t) { return prims::unfold(in(t, {}), -1, 0, 5); }, "cpu f32[0]"},
      {"(0,)", [](Tracing& t) { return prims::unfold(in(t, {0}), 0, 0, 1); }, "cpu f32[1, 0]"},
      {"(8,)", [](Tracing& t) { return prims::unfold(in(t, {8}), 0, 2, 1); }, "cpu f32[7, 2]"},
      {"(6, 2)", [](Tracing& t) { return prims::unfold(in(t, {6, 2}), 0, 2, 2); }, "cpu f32[3, 2, 2]"},
      {"size", [](Tracing& t) { return prims::unfold(in(t, {}), 0, 2, 1); }, "RuntimeError: Maximum size for tensor at dimension 0 is 1 but size is 2"},
      {"step", [](Tracing& t) { return prims::unfold(in(t, {0}), 0, 0, -1); }, "RuntimeError: Step is -1 but must be > 0"},
      {"dim", [](Tracing& t) { return prims::unfold(in(t, {8}), 1, 2, 1); },
       "IndexError: Dimension out of range (expected to be in range of [-1, 0], but got 1)"},
      {"negative size", [](Tracing& t) { return prims::unfold(in(t, {8}), 0, -5, 1); }, "RuntimeError: Size is -5 but must be >= 0"},
  });
}

TEST_CASE("creation and conversion prims") {
  run({
      {"convert", [](Tracing& t) { return prims::convert_element_type(in(t, {2}), dtypes::float16); }, "cpu f16[2]"},
      {"device_put", [](Tracing& t) { return prims::device_put(in(t, {2}), cuda(0)); }, "cuda:0 f32[2]"},
      {"full", [](Tracing&) { return prims::full({2, 0}, 1.0, Device::cpu(), dtypes::float64); }, "cpu f64[2, 0]"},
      {"full shape", [](Tracing&) { return prims::full({-1}, 1.0, Device::cpu(), dtypes::float64); },
       "RuntimeError: prims.full: expected a shape of non-negative lengths, but got (-1,)"},
      {"iota", [](Tracing&) { return prims::iota(5, 0, 1, Device::cpu(), dtypes::int64); }, "cpu i64[5]"},
      {"iota float", [](Tracing&) { return prims::iota(5, 0, 1, Device::cpu(), dtypes::float32); },
       "RuntimeError: iota: expected an integer dtype, but got float32"},
      {"uniform", [](Tracing&) { return prims::uniform({3}, 0.0, 1.0, cuda(0), dtypes::bfloat16); }, "cuda:0 bf16[3]"},
      {"randn int", [](Tracing&) { return prims::randn({3}, Device::cpu(), dtypes::int32); },
       "RuntimeError: randn: expected an inexact dtype, but got int32"},
  });
}

TEST_CASE("reduction prims") {
  run({
      {"sum", [](Tracing& t) { return prims::sum(in(t, {2, 3, 4}), {0, 2}); }, "cpu f32[3]"},
      {"sum all", [](Tracing& t) { return prims::sum(in(t, {2, 3}), {0, 1}); }, "cpu f32[]"},
      {"sum empty", [](Tracing& t) { return prims::sum(in(t, {0, 3}), {0}); }, "cpu f32[3]"},
      {"amax 0-d", [](Tracing& t) { return prims::amax(in(t, {}), {}); }, "cpu f32[]"},
      {"prod int", [](Tracing& t) { return prims::prod(in(t, {4}, dtypes::int64), {0}); }, "cpu i64[]"},
      {"sum duplicate", [](Tracing& t) { return prims::sum(in(t, {2, 3}), {1, -1}); },
       "RuntimeError: Duplicate value in list of dimensions [1, -1]!"},
      {"var complex", [](Tracing& t) { return prims::var(in(t, {2, 3}, dtypes::complex64), {1}, 1); }, "cpu f32[2]"},
      {"var_mean", [](Tracing& t) { return Value::tuple({prims::var_mean(in(t, {2, 3}), {1}, 0).first, prims::var_mean(in(t, {2, 3}), {1}, 0).second}); },
       "cpu f32[2], cpu f32[2]"},
      {"var int", [](Tracing& t) { return prims::var(in(t, {2}, dtypes::int64), {0}, 1); }, "RuntimeError: var: expected an inexact dtype, but got int64"},
      {"argmax", [](Tracing& t) { return prims::argmax(in(t, {2, 3}), 1); }, "cpu i64[2]"},
      {"argmax None", [](Tracing& t) { return prims::argmax(in(t, {2, 3}), None{}); }, "cpu i64[]"},
      {"argmin empty", [](Tracing& t) { return prims::argmin(in(t, {0, 3}), 0); },
       "RuntimeError: Expected reduction dim to have a non-zero length, but got a tensor with a zero-length reduction dim"},
      {"topk", [](Tracing& t) { auto [v, i] = prims::topk(in(t, {5, 7}), 3, 1, true, true); return Value::tuple({v, i}); },
       "cpu f32[5, 3], cpu i64[5, 3]"},
      {"topk k", [](Tracing& t) { auto [v, i] = prims::topk(in(t, {5}), 6, 0, true, true); return Value::tuple({v, i}); },
       "RuntimeError: selected index k out of range: k is 6 but the dimension has length 5"},
  });
}

TEST_CASE("indexing prims") {
  run({
      {"take", [](Tracing& t) { return prims::take(in(t, {5, 3}), in(t, {4}, dtypes::int64), 0); }, "cpu f32[4, 3]"},
      {"take float index", [](Tracing& t) { return prims::take(in(t, {5, 3}), in(t, {4}), 0); },
       "RuntimeError: prims.take: expected index to have an integer dtype, but got float32"},
      {"take_along_axis", [](Tracing& t) { return prims::take_along_axis(in(t, {4, 5}), in(t, {4, 1}, dtypes::int64), 1); }, "cpu f32[4, 1]"},
      {"take_along_axis shape", [](Tracing& t) { return prims::take_along_axis(in(t, {4, 5}), in(t, {3, 1}, dtypes::int64), 1); },
       "RuntimeError: take_along_axis: index shape (3, 1) and tensor shape (4, 5) must agree in every dimension but 1"},
      {"scatter_add", [](Tracing& t) { return prims::scatter_add(in(t, {4, 5}), in(t, {4, 2}, dtypes::int64), in(t, {4, 2}), 1); }, "cpu f32[4, 5]"},
      {"index_add", [](Tracing& t) { return prims::index_add(in(t, {4, 5}), in(t, {2}, dtypes::int64), in(t, {2, 5}), 0); }, "cpu f32[4, 5]"},
      {"index_add value", [](Tracing& t) { return prims::index_add(in(t, {4, 5}), in(t, {2}, dtypes::int64), in(t, {3, 5}), 0); },
       "RuntimeError: index_add: expected value of shape (2, 5), but got (3, 5)"},
  });
}

TEST_CASE("matmul, linear, embedding, convolution prims") {
  run({
      {"dot", [](Tracing& t) { return prims::matmul(in(t, {3}), in(t, {3})); }, "cpu f32[]"},
      {"mm", [](Tracing& t) { return prims::matmul(in(t, {2, 3}), in(t, {3, 4})); }, "cpu f32[2, 4]"},
      {"mv", [](Tracing& t) { return prims::matmul(in(t, {2, 3}), in(t, {3})); }, "cpu f32[2]"},
      {"bmm", [](Tracing& t) { return prims::matmul(in(t, {5, 2, 3}), in(t, {5, 3, 4})); }, "cpu f32[5, 2, 4]"},
      {"k", [](Tracing& t) { return prims::matmul(in(t, {2, 3}), in(t, {4, 4})); }, "RuntimeError: Expected a.shape[-1]=3 to be equal to b.shape[-2]=4"},
      {"batch", [](Tracing& t) { return prims::matmul(in(t, {5, 2, 3}), in(t, {1, 3, 4})); },
       "RuntimeError: Expected the batch dimensions of a (5, 2, 3) and b (1, 3, 4) to be equal"},
      {"linear", [](Tracing& t) { return prims::linear(in(t, {8, 4, 16}), in(t, {32, 16}), in(t, {32})); }, "cpu f32[8, 4, 32]"},
      {"linear no bias", [](Tracing& t) { return prims::linear(in(t, {16}), in(t, {32, 16}), None{}); }, "cpu f32[32]"},
      {"linear k", [](Tracing& t) { return prims::linear(in(t, {8, 15}), in(t, {32, 16}), None{}); },
       "RuntimeError: Expected w.shape[1]=16 to be equal to a.shape[-1]=15"},
      {"embedding", [](Tracing& t) { return prims::embedding(in(t, {2, 7}, dtypes::int64), in(t, {100, 8}), -1, false); }, "cpu f32[2, 7, 8]"},
      {"embedding float", [](Tracing& t) { return prims::embedding(in(t, {2}), in(t, {100, 8}), -1, false); },
       "RuntimeError: Expected a.dtype=float32 to be int64 or int32"},
      {"conv2d", [](Tracing& t) { return prims::convolution(in(t, {1, 3, 32, 32}), in(t, {8, 3, 3, 3}), in(t, {8}), {2}, {1}, {1}, false, {0}, 1); },
       "cpu f32[1, 8, 16, 16]"},
      {"conv groups", [](Tracing& t) { return prims::convolution(in(t, {1, 4, 8, 8}), in(t, {8, 2, 3, 3}), None{}, {1}, {0}, {1}, false, {0}, 2); },
       "cpu f32[1, 8, 6, 6]"},
      {"conv channels", [](Tracing& t) { return prims::convolution(in(t, {1, 4, 8, 8}), in(t, {8, 3, 3, 3}), None{}, {1}, {0}, {1}, false, {0}, 1); },
       "RuntimeError: convolution: input has 4 channels, but weight of shape (8, 3, 3, 3) with groups=1 expects 3"},
  });
}
