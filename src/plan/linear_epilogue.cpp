// The linears whose activation a cuBLASLt epilogue could compute (plan/linear_epilogue.h): the
// region after the linear is compared, prim for prim, with the torch language's decomposition of
// the activation, written out below as the plans print it.
#include "thundercc/plan/linear_epilogue.h"

#include <algorithm>
#include <map>

#include "thundercc/errors.h"
#include "thundercc/ir/pyliteral.h"

namespace thundercc::plan {
namespace {

// relu: where(a < 0, 0, a); gelu's tanh approximation: 0.5 a (1 + tanh(sqrt(2 / pi) (a + 0.044715 a^3))).
const std::vector<std::string> kRelu{"prims.lt(x, 0.0)", "prims.where(t0, 0.0, x)"};
const std::vector<std::string> kGeluTanh{
    "prims.mul(x, x)",   "prims.mul(t0, x)", "prims.mul(0.044715, t1)", "prims.add(x, t2)", "prims.mul(0.7978845608028654, t3)",
    "prims.mul(0.5, x)", "prims.tanh(t4)",   "prims.add(1.0, t6)",      "prims.mul(t5, t7)"};

// The region's prims with its input named x and the k-th prim's result tk; empty where a prim
// makes other than one tensor.
std::vector<std::string> canonical_prims(const Trace& region) {
  std::map<const TensorProxyNode*, std::string> names{{region.inputs.at(0).value.as_tensor().node(), "x"}};
  std::vector<std::string> lines;
  auto text = [&](const Value& v) {
    if (!v.is_tensor()) return py_repr(v);
    auto it = names.find(v.as_tensor().node());
    return it == names.end() ? std::string("?") : it->second;
  };
  for (const BoundSymbol& b : region.bound_symbols) {
    if (!b.output.is_tensor()) return {};
    std::string line = b.sym->id + "(";
    for (size_t k = 0; k < b.args.size(); ++k) line += (k ? ", " : "") + text(b.args[k]);
    for (const auto& [key, value] : b.kwargs) line += ", " + key + "=" + text(value);
    lines.push_back(line + ")");
    names[b.output.as_tensor().node()] = "t" + std::to_string(lines.size() - 1);
  }
  return lines;
}

}  // namespace

const char* activation_name(Activation a) { return a == Activation::relu ? "relu" : "gelu_tanh"; }

std::string epilogue_mismatch(const Program& program, size_t linear, Activation* activation) {
  const Instruction& l = program.instructions.at(linear);
  if (l.op != "torch:torch.nn.functional.linear" && l.op != "torch:prims.linear") return "not a linear";
  if (l.outputs.size() != 1 || l.outputs[0] < 0 || l.expect.empty() || !l.expect[0]) return "its result's type is not recorded";
  const TensorMeta& result = *l.expect[0];
  if (result.device.type != Device::Type::CUDA) return "on " + result.device.str() + ": cuBLASLt runs CUDA tensors";
  if (result.dtype != dtypes::float32) return str("of ", result.dtype.short_name(), ": the epilogue is matched for float32 only");
  if (linear + 1 >= program.instructions.size()) return "the program's last instruction";
  const Instruction& a = program.instructions[linear + 1];
  if (!a.fusion) return "the next instruction is not a fusion region";
  if (a.args.size() != 1 || a.args[0].kind != Operand::Kind::Slot || a.args[0].slot != l.outputs[0] || a.outputs.size() != 1 ||
      a.fusion->region.inputs.size() != 1)
    return "the next region reads other tensors than the linear's result, or writes more than one";
  if (std::find(a.free.begin(), a.free.end(), l.outputs[0]) == a.free.end())
    return "the linear's result lives on after the activation (saved for the backward, or an output)";
  const std::vector<std::string> prims = canonical_prims(a.fusion->region);
  if (prims == kRelu) *activation = Activation::relu;
  else if (prims == kGeluTanh) *activation = Activation::gelu_tanh;
  else return "the next region is not ReLU or tanh GELU of the linear's result";
  if (a.fusion->outputs.size() != 1 || a.fusion->outputs[0].shape != result.shape || a.fusion->outputs[0].dtype != result.dtype)
    return "the activation's result is of another type";
  return "";
}

std::vector<EpiloguePair> linear_epilogues(const Program& program) {
  std::vector<EpiloguePair> pairs;
  for (size_t i = 0; i < program.instructions.size(); ++i) {
    Activation activation;
    if (epilogue_mismatch(program, i, &activation).empty()) pairs.push_back({i, activation});
  }
  return pairs;
}

}  // namespace thundercc::plan
