// The torch language: decompositions read as Thunder's, operators on proxies, output metadata of
// samples (0-d, empty, broadcasting, numbers, dtypes), and error inputs. The Python test
// tests/python/test_meta_vs_torch.py checks the same ops' metadata against PyTorch itself.

#include "test_util.h"
#include "thundercc/ir/printer.h"
#include "thundercc/langs/torch.h"

using namespace thundercc;
using namespace thundercc::testing;


TEST_CASE("operators on tensor proxies call the torch language") {
  Tracing t;
  Tensor a = t.input("a", {2, 3});
  // One call per statement: C++ leaves the order of evaluating operands unspecified.
  Tensor negated = -(a * 2);
  t.trace.output = negated + 1.5 / a;
  CHECK(body_of(t.trace) ==
        "  # a: \"cpu f32[2, 3]\"\n"
        "  t0 = ltorch.mul(a, 2)  # t0: \"cpu f32[2, 3]\"\n"
        "    # t0 = prims.mul(a, 2.0)  # t0: \"cpu f32[2, 3]\"\n"
        "  t1 = ltorch.neg(t0)  # t1: \"cpu f32[2, 3]\"\n"
        "    # t1 = prims.neg(t0)  # t1: \"cpu f32[2, 3]\"\n"
        "  t2 = ltorch.true_divide(1.5, a)  # t2: \"cpu f32[2, 3]\"\n"
        "    # t2 = prims.div(1.5, a)  # t2: \"cpu f32[2, 3]\"\n"
        "  t3 = ltorch.add(t1, t2, alpha=1)  # t3: \"cpu f32[2, 3]\"\n"
        "    # t3 = prims.add(t1, t2)  # t3: \"cpu f32[2, 3]\"\n"
        "  return t3\n");
}

TEST_CASE("softmax decomposes as Thunder's: upcast, amax, exp, sum, divide, downcast") {
  Tracing t;
  Tensor x = t.input("x", {4, 8}, dtypes::bfloat16);
  t.trace.output = ltorch::softmax(x, -1);
  CHECK(body_of(t.trace) ==
        "  # x: \"cpu bf16[4, 8]\"\n"
        "  t10 = ltorch.softmax(x, -1, dtype=None)  # t10: \"cpu bf16[4, 8]\"\n"
        "    # t0 = ltorch.to(x, dtypes.float32, None, device=None, dtype=None, copy=False, memory_format=None)  # t0: \"cpu f32[4, 8]\"\n"
        "      # t0 = prims.convert_element_type(x, dtypes.float32)  # t0: \"cpu f32[4, 8]\"\n"
        "    # t2 = ltorch.amax(t0, (-1,), True)  # t2: \"cpu f32[4, 1]\"\n"
        "      # t1 = prims.amax(t0, (1,))  # t1: \"cpu f32[4]\"\n"
        "      # t2 = prims.broadcast_in_dim(t1, [4, 1], (0,))  # t2: \"cpu f32[4, 1]\"\n"
        "    # t4 = ltorch.sub(t0, t2, alpha=1)  # t4: \"cpu f32[4, 8]\"\n"
        "      # t3 = prims.broadcast_in_dim(t2, [4, 8], (0, 1))  # t3: \"cpu f32[4, 8]\"\n"
        "      # t4 = prims.sub(t0, t3)  # t4: \"cpu f32[4, 8]\"\n"
        "    # t5 = ltorch.exp(t4)  # t5: \"cpu f32[4, 8]\"\n"
        "      # t5 = prims.exp(t4)  # t5: \"cpu f32[4, 8]\"\n"
        "    # t7 = ltorch.sum(t5, (-1,), True, dtype=None)  # t7: \"cpu f32[4, 1]\"\n"
        "      # t6 = prims.sum(t5, (1,))  # t6: \"cpu f32[4]\"\n"
        "      # t7 = prims.broadcast_in_dim(t6, [4, 1], (0,))  # t7: \"cpu f32[4, 1]\"\n"
        "    # t9 = ltorch.true_divide(t5, t7)  # t9: \"cpu f32[4, 8]\"\n"
        "      # t8 = prims.broadcast_in_dim(t7, [4, 8], (0, 1))  # t8: \"cpu f32[4, 8]\"\n"
        "      # t9 = prims.div(t5, t8)  # t9: \"cpu f32[4, 8]\"\n"
        "    # t10 = ltorch.to(t9, dtypes.bfloat16, None, device=None, dtype=None, copy=False, memory_format=None)  # t10: \"cpu bf16[4, 8]\"\n"
        "      # t10 = prims.convert_element_type(t9, dtypes.bfloat16)  # t10: \"cpu bf16[4, 8]\"\n"
        "  return t10\n");
}

TEST_CASE("elementwise ops: broadcasting, numbers, promotion") {
  using namespace ltorch;
  run({
      {"broadcast", [](Tracing& t) { return add(in(t, {3, 1, 5}), in(t, {4, 1})); }, "cpu f32[3, 4, 5]"},
      {"0-d and empty", [](Tracing& t) { return mul(in(t, {}), in(t, {0, 2})); }, "cpu f32[0, 2]"},
      {"int and float number", [](Tracing& t) { return add(in(t, {2}, dtypes::int32), 2.5); }, "cpu f32[2]"},
      {"int and int number", [](Tracing& t) { return mul(in(t, {2}, dtypes::int16), 3); }, "cpu i16[2]"},
      {"0-d double does not win", [](Tracing& t) { return add(in(t, {2}, dtypes::float16), in(t, {}, dtypes::float64)); }, "cpu f16[2]"},
      {"true division of ints", [](Tracing& t) { return true_divide(in(t, {2}, dtypes::int64), in(t, {2}, dtypes::int64)); }, "cpu f32[2]"},
      {"comparison", [](Tracing& t) { return lt(in(t, {2, 2}), in(t, {2, 1}, dtypes::int64)); }, "cpu b8[2, 2]"},
      {"bool pow", [](Tracing& t) { return ltorch::pow(in(t, {2}, dtypes::bool8), in(t, {2}, dtypes::bool8)); }, "cpu i64[2]"},
      {"abs complex", [](Tracing& t) { return ltorch::abs(in(t, {2}, dtypes::complex64)); }, "cpu f32[2]"},
      {"exp int", [](Tracing& t) { return ltorch::exp(in(t, {2}, dtypes::int64)); }, "cpu f32[2]"},
      {"sigmoid half", [](Tracing& t) { return sigmoid(in(t, {2}, dtypes::float16)); }, "cpu f16[2]"},
      {"where", [](Tracing& t) { return where(in(t, {2, 1}, dtypes::bool8), in(t, {3}), 0); }, "cpu f32[2, 3]"},
      {"where pred", [](Tracing& t) { return where(in(t, {2}), in(t, {2}), 0); },
       "RuntimeError: where expected condition to be a boolean tensor, but got float32"},
      {"masked_fill", [](Tracing& t) { return masked_fill(in(t, {2, 3}, dtypes::bfloat16), in(t, {3}, dtypes::bool8), -1e9); }, "cpu bf16[2, 3]"},
      {"clamp", [](Tracing& t) { return op("torch.clamp", {in(t, {2}, dtypes::int64), 0.5}); }, "cpu f32[2]"},
      {"gelu tanh", [](Tracing& t) { return op("torch.nn.functional.gelu", {in(t, {2})}, {{"approximate", "tanh"}}); }, "cpu f32[2]"},
      {"gelu bad", [](Tracing& t) { return op("torch.nn.functional.gelu", {in(t, {2})}, {{"approximate", "erf"}}); },
       "ValueError: gelu does not support the approximate='erf' argument"},
      {"floor_divide ints", [](Tracing& t) { return op("torch.floor_divide", {in(t, {2}, dtypes::int32), -3}); }, "cpu i32[2]"},
      {"div trunc", [](Tracing& t) { return op("torch.div", {in(t, {2}), 2}, {{"rounding_mode", "trunc"}}); }, "cpu f32[2]"},
      {"logical_not", [](Tracing& t) { return logical_not(in(t, {2})); }, "cpu b8[2]"},
  });
}

TEST_CASE("reductions") {
  using namespace ltorch;
  run({
      {"sum all", [](Tracing& t) { return sum(in(t, {2, 3})); }, "cpu f32[]"},
      {"sum keepdim", [](Tracing& t) { return sum(in(t, {2, 3}), Dims{1}, true); }, "cpu f32[2, 1]"},
      {"sum int", [](Tracing& t) { return sum(in(t, {2, 3}, dtypes::int32), Dims{0}); }, "cpu i64[3]"},
      {"sum bool", [](Tracing& t) { return sum(in(t, {2}, dtypes::bool8)); }, "cpu i64[]"},
      {"sum half", [](Tracing& t) { return sum(in(t, {2}, dtypes::float16)); }, "cpu f16[]"},
      {"sum 0-d", [](Tracing& t) { return sum(in(t, {}), Dims{0}); }, "cpu f32[]"},
      {"mean", [](Tracing& t) { return mean(in(t, {2, 3, 4}), Dims{0, -1}); }, "cpu f32[3]"},
      {"mean int", [](Tracing& t) { return mean(in(t, {2}, dtypes::int64)); },
       "RuntimeError: mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. Got: int64"},
      {"var_mean", [](Tracing& t) { auto [v, m] = var_mean(in(t, {2, 3}), {1}, 1, true); return Value::tuple({v, m}); }, "cpu f32[2, 1], cpu f32[2, 1]"},
      {"std complex", [](Tracing& t) { return op("torch.std", {in(t, {4}, dtypes::complex64)}); }, "cpu f32[]"},
      {"argmax keepdim", [](Tracing& t) { return op("torch.argmax", {in(t, {2, 3}), 1, true}); }, "cpu i64[2, 1]"},
      {"amax empty dims", [](Tracing& t) { return amax(in(t, {2, 3}), {}); }, "cpu f32[]"},
      {"logsumexp", [](Tracing& t) { return logsumexp(in(t, {2, 3}), {1}); }, "cpu f32[2]"},
      {"log_softmax", [](Tracing& t) { return log_softmax(in(t, {2, 3}, dtypes::float16), 1); }, "cpu f16[2, 3]"},
      {"softmax dim", [](Tracing& t) { return softmax(in(t, {2, 3}), 2); },
       "IndexError: Dimension out of range (expected to be in range of [-2, 1], but got 2)"},
  });
}

TEST_CASE("shape ops, indexing and creation") {
  using namespace ltorch;
  run({
      {"reshape -1", [](Tracing& t) { return reshape(in(t, {2, 3, 4}), {-1, 4}); }, "cpu f32[6, 4]"},
      {"view bad", [](Tracing& t) { return op("torch.Tensor.view", {in(t, {2, 3}), 4, -1}); },
       "RuntimeError: shape '[4, -1]' is invalid for input of size 6"},
      {"flatten", [](Tracing& t) { return flatten(in(t, {2, 3, 4, 5}), 1, 2); }, "cpu f32[2, 12, 5]"},
      {"flatten 0-d", [](Tracing& t) { return flatten(in(t, {})); }, "cpu f32[1]"},
      {"permute", [](Tracing& t) { return op("torch.permute", {in(t, {2, 3, 4}), 2, 0, 1}); }, "cpu f32[4, 2, 3]"},
      {"transpose", [](Tracing& t) { return transpose(in(t, {2, 3, 4}), 0, -1); }, "cpu f32[4, 3, 2]"},
      {"t", [](Tracing& t) { return op("torch.t", {in(t, {2, 3})}); }, "cpu f32[3, 2]"},
      {"expand", [](Tracing& t) { return op("torch.Tensor.expand", {in(t, {3, 1}), 2, -1, 4}); }, "cpu f32[2, 3, 4]"},
      {"unsqueeze", [](Tracing& t) { return unsqueeze(in(t, {2, 3}), -1); }, "cpu f32[2, 3, 1]"},
      {"squeeze", [](Tracing& t) { return op("torch.squeeze", {in(t, {1, 2, 1})}); }, "cpu f32[2]"},
      {"cat promotes", [](Tracing& t) { return cat({in(t, {2, 3}), in(t, {1, 3}, dtypes::float64)}, 0); }, "cpu f64[3, 3]"},
      {"stack", [](Tracing& t) { return op("torch.stack", {Value::list({in(t, {2, 3}), in(t, {2, 3})}), 1}); }, "cpu f32[2, 2, 3]"},
      {"split", [](Tracing& t) { return call("torch.split", {in(t, {5, 2}), 2}); }, "cpu f32[2, 2], cpu f32[2, 2], cpu f32[1, 2]"},
      {"split sizes", [](Tracing& t) { return call("torch.split", {in(t, {5, 2}), Value::list({1, 3})}); },
       "RuntimeError: split_with_sizes expects split_sizes to sum exactly to 5 (input tensor's size at dimension 0), but got split_sizes=[1, 3]"},
      {"chunk", [](Tracing& t) { return call("torch.chunk", {in(t, {2, 7}), 3, 1}); }, "cpu f32[2, 3], cpu f32[2, 3], cpu f32[2, 1]"},
      {"narrow", [](Tracing& t) { return narrow(in(t, {4, 6}), 1, -4, 2); }, "cpu f32[4, 2]"},
      {"getitem", [](Tracing& t) { return op("torch.Tensor.__getitem__", {in(t, {4, 5, 6}), Value::tuple({1, Slice{std::nullopt, std::nullopt, 2}, None{}, EllipsisValue{}})}); },
       "cpu f32[3, 1, 6]"},
      {"getitem negative", [](Tracing& t) { return op("torch.Tensor.__getitem__", {in(t, {4, 5}), Value::tuple({EllipsisValue{}, Slice{-2, std::nullopt, std::nullopt}})}); },
       "cpu f32[4, 2]"},
      {"getitem bounds", [](Tracing& t) { return op("torch.Tensor.__getitem__", {in(t, {4}), 4}); },
       "IndexError: index 4 is out of bounds for dimension 0 with size 4"},
      {"getitem tensor", [](Tracing& t) { return op("torch.Tensor.__getitem__", {in(t, {5, 3}), in(t, {2}, dtypes::int64)}); }, "cpu f32[2, 3]"},
      {"to", [](Tracing& t) { return to(in(t, {2}), dtypes::float64); }, "cpu f64[2]"},
      {"to device", [](Tracing& t) { return op("torch.Tensor.to", {in(t, {2}), "cuda:0"}); }, "cuda:0 f32[2]"},
      {"tril", [](Tracing& t) { return op("torch.tril", {in(t, {3, 4})}); }, "cpu f32[3, 4]"},
      {"zeros", [](Tracing&) { return op("torch.zeros", {2, 3}); }, "cpu f32[2, 3]"},
      {"ones int", [](Tracing&) { return op("torch.ones", {Value::tuple({2})}, {{"dtype", TorchDType{dtypes::int64}}}); }, "cpu i64[2]"},
      {"full", [](Tracing&) { return op("torch.full", {Value::tuple({2}), true}); }, "cpu b8[2]"},
      {"arange", [](Tracing&) { return op("torch.arange", {10}); }, "cpu i64[10]"},
      {"arange float", [](Tracing&) { return op("torch.arange", {0, 1, 0.25}); }, "cpu f32[4]"},
      {"zeros_like", [](Tracing& t) { return zeros_like(in(t, {2}, dtypes::int32)); }, "cpu i32[2]"},
  });
}

TEST_CASE("neural network ops") {
  using namespace ltorch;
  run({
      {"matmul nd@2d", [](Tracing& t) { return matmul(in(t, {2, 3, 4}), in(t, {4, 5})); }, "cpu f32[2, 3, 5]"},
      {"matmul batch broadcast", [](Tracing& t) { return matmul(in(t, {2, 1, 3, 4}), in(t, {5, 4, 6})); }, "cpu f32[2, 5, 3, 6]"},
      {"matmul vector", [](Tracing& t) { return matmul(in(t, {4}), in(t, {2, 4, 5})); }, "cpu f32[2, 5]"},
      {"linear", [](Tracing& t) { return op("torch.nn.functional.linear", {in(t, {8, 16}), in(t, {4, 16}), in(t, {4})}); }, "cpu f32[8, 4]"},
      {"embedding", [](Tracing& t) { return op("torch.nn.functional.embedding", {in(t, {2, 5}, dtypes::int64), in(t, {10, 3})}); }, "cpu f32[2, 5, 3]"},
      {"layer_norm", [](Tracing& t) { return op("torch.nn.functional.layer_norm", {in(t, {2, 3, 8}, dtypes::bfloat16), Value::tuple({8}), in(t, {8}, dtypes::bfloat16), in(t, {8}, dtypes::bfloat16)}); },
       "cpu bf16[2, 3, 8]"},
      {"layer_norm shape", [](Tracing& t) { return op("torch.nn.functional.layer_norm", {in(t, {2, 3}), Value::tuple({4})}); },
       "RuntimeError: Given normalized_shape=[4], expected input with shape [*, 4], but got input of size (2, 3)"},
      {"dropout eval", [](Tracing& t) { return op("torch.nn.functional.dropout", {in(t, {2})}, {{"training", false}}); }, "cpu f32[2]"},
      {"dropout", [](Tracing& t) { return dropout(in(t, {2, 2}), 0.1, true); }, "cpu f32[2, 2]"},
      {"nll_loss none", [](Tracing& t) { return op("torch.nn.functional.nll_loss", {in(t, {4, 5}), in(t, {4}, dtypes::int64)}, {{"reduction", "none"}}); }, "cpu f32[4]"},
      {"cross_entropy", [](Tracing& t) { return op("torch.nn.functional.cross_entropy", {in(t, {4, 5}), in(t, {4}, dtypes::int64)}); }, "cpu f32[]"},
      {"cross_entropy smoothing", [](Tracing& t) { return op("torch.nn.functional.cross_entropy", {in(t, {4, 5, 3}), in(t, {4, 3}, dtypes::int64)}, {{"reduction", "none"}, {"label_smoothing", 0.1}}); },
       "cpu f32[4, 3]"},
      {"cross_entropy probabilities", [](Tracing& t) { return op("torch.nn.functional.cross_entropy", {in(t, {4, 5}), in(t, {4, 5})}, {{"reduction", "sum"}}); }, "cpu f32[]"},
      {"cross_entropy smoothing range", [](Tracing& t) { return op("torch.nn.functional.cross_entropy", {in(t, {4, 5}), in(t, {4}, dtypes::int64)}, {{"label_smoothing", 1.5}}); },
       "RuntimeError: label_smoothing must be between 0.0 and 1.0. Got: 1.5"},
      {"cross_entropy target", [](Tracing& t) { return op("torch.nn.functional.cross_entropy", {in(t, {4, 5}), in(t, {3}, dtypes::int64)}); },
       "RuntimeError: Expected target of shape (4,) for input of shape (4, 5), but got (3,)"},
      {"sdpa causal", [](Tracing& t) { return op("torch.nn.functional.scaled_dot_product_attention", {in(t, {2, 4, 8, 16}), in(t, {2, 4, 8, 16}), in(t, {2, 4, 8, 16})}, {{"is_causal", true}}); },
       "cpu f32[2, 4, 8, 16]"},
      {"conv2d", [](Tracing& t) { return op("torch.nn.functional.conv2d", {in(t, {2, 3, 16, 16}), in(t, {8, 3, 3, 3}), in(t, {8})}, {{"padding", 1}}); }, "cpu f32[2, 8, 16, 16]"},
      {"conv2d same", [](Tracing& t) { return op("torch.nn.functional.conv2d", {in(t, {3, 16, 16}), in(t, {8, 3, 5, 5})}, {{"padding", "same"}}); }, "cpu f32[8, 16, 16]"},
      {"max_pool2d", [](Tracing& t) { return op("torch.nn.functional.max_pool2d", {in(t, {2, 8, 15, 15}), 2}); }, "cpu f32[2, 8, 7, 7]"},
      {"max_pool2d ceil", [](Tracing& t) { return op("torch.nn.functional.max_pool2d", {in(t, {2, 8, 15, 15}), 3, 2, 1}, {{"ceil_mode", true}}); }, "cpu f32[2, 8, 8, 8]"},
      {"adaptive_avg_pool2d", [](Tracing& t) { return op("torch.nn.functional.adaptive_avg_pool2d", {in(t, {2, 8, 7, 7}), 1}); }, "cpu f32[2, 8, 1, 1]"},
      {"adaptive_avg_pool2d size", [](Tracing& t) { return op("torch.nn.functional.adaptive_avg_pool2d", {in(t, {2, 8, 5, 7}), Value::tuple({})}); },
       "RuntimeError: adaptive_avg_pool2d: output_size must be an int or a pair, but got ()"},
      {"adaptive_avg_pool2d uneven", [](Tracing& t) { return op("torch.nn.functional.adaptive_avg_pool2d", {in(t, {2, 8, 5, 7}), Value::tuple({2, 3})}); }, "cpu f32[2, 8, 2, 3]"},
      {"batch_norm eval", [](Tracing& t) { return op("torch.nn.functional.batch_norm", {in(t, {2, 8, 5, 5}), in(t, {8}), in(t, {8}), in(t, {8}), in(t, {8})}); }, "cpu f32[2, 8, 5, 5]"},
  });
}
