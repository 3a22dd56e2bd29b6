// The channels-last twins of fusion regions (executors/fuser/channels_last.h): which regions get
// one, the twin's shapes and broadcasts, and the kernel generated for it.
#include "test_util.h"
#include "thundercc/executors/fuser/channels_last.h"
#include "thundercc/executors/fuser/kernel_source.h"
#include "thundercc/executors/fuser/region_analysis.h"
#include "thundercc/extend.h"
#include "thundercc/langs/torch.h"
#include "thundercc/passes/passes.h"

using namespace thundercc;
using namespace thundercc::testing;

namespace {

// The one fusion region of `program`'s execution trace, compiled with the fuser first.
template <class Program>
std::optional<BoundSymbol> twin_of(Program program, std::vector<std::string>* input_shapes = nullptr) {
  Tracing t;
  t.trace.output = program(t);
  auto compiled = compile_program(t.trace, {&ExecutorRegistry::global().get("fuser"), &ExecutorRegistry::global().get("torch")});
  const BoundSymbol* region = nullptr;
  for (const auto& b : compiled.execution.bound_symbols)
    if (fuser::is_fusion_region(b)) region = &b;
  REQUIRE(region != nullptr);
  std::optional<BoundSymbol> twin = fuser::channels_last_twin(*region);
  if (twin && input_shapes)
    for (const auto& a : twin->args) input_shapes->push_back(a.as_tensor().meta().type_string());
  return twin;
}

}  // namespace

TEST_CASE("a region that broadcasts into a 4-d domain gets a twin over NHWC memory") {
  std::vector<std::string> shapes;
  auto twin = twin_of(
      [](Tracing& t) {
        Tensor x = in(t, {2, 8, 4, 5}), scale = in(t, {2, 8, 1, 1}), shift = in(t, {8, 1, 1}), rows = in(t, {4, 1});
        return Value(ltorch::add(ltorch::add(ltorch::mul(x, scale), shift), rows));
      },
      &shapes);
  REQUIRE(twin);
  // The scale and x permuted; the [C, 1, 1] shift read as [1, 1, C]; the [H, 1] rows as they are.
  CHECK(shapes == std::vector<std::string>{"cpu f32[2, 1, 1, 8]", "cpu f32[2, 4, 5, 8]", "cpu f32[1, 1, 8]", "cpu f32[4, 1]"});
  CHECK(twin->output.items()[0].as_tensor().shape() == Shape{2, 4, 5, 8});
  for (const auto& b : twin->subsymbols)
    if (b.sym->id == "prims.broadcast_in_dim") CHECK(b.args[1].as_ints() == std::vector<int64_t>{2, 4, 5, 8});
  // Its kernel reads x's memory in order, the scale per image and channel (the columns), the
  // shift per channel and the rows per H.
  fuser::GeneratedKernel k = fuser::generate_kernel(*twin, fuser::Target::CPU);
  INFO(k.source);
  for (const char* read : {"in1[row * tcc_columns + j]", "in0[0 + i0 * tcc_in0_stride0 + j]", "in2[0 + j]", "in3[0 + i1 * tcc_in3_stride1]"})
    CHECK(k.source.find(read) != std::string::npos);
}

TEST_CASE("regions without a twin: elementwise reads, reductions, broadcasts out of NHWC order") {
  // Every input read element by element: the region's own kernel reads any one dense layout.
  CHECK_FALSE(twin_of([](Tracing& t) { return Value(ltorch::tanh(ltorch::add(in(t, {2, 8, 4, 4}), in(t, {2, 8, 4, 4})))); }));
  // A reduction over the last dimension indexes rows of the NCHW domain.
  CHECK_FALSE(twin_of([](Tracing& t) { return Value(ltorch::softmax(ltorch::mul(in(t, {2, 8, 4, 4}), in(t, {2, 8, 1, 1})), -1)); }));
  // [C, H, 1] lands in NHWC as [H, 1, C]: its memory would be read in another order.
  CHECK_FALSE(twin_of([](Tracing& t) { return Value(ltorch::mul(in(t, {2, 8, 4, 4}), in(t, {8, 4, 1}))); }));
  // Not 4-d.
  CHECK_FALSE(twin_of([](Tracing& t) { return Value(ltorch::mul(in(t, {8, 4, 4}), in(t, {8, 1, 1}))); }));
}
