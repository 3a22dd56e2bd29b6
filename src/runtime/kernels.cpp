#include "thundercc/runtime/kernels.h"

#include <ATen/CPUGeneratorImpl.h>
#include <ATen/ScalarOps.h>

#include <mutex>

#include "thundercc/builtins.h"
#include "thundercc/errors.h"
#include "thundercc/ir/pyliteral.h"

namespace thundercc::runtime {

KernelRegistry& KernelRegistry::global() {
  static auto* registry = new KernelRegistry();  // never destroyed, as the symbol table
  return *registry;
}

void register_builtin_kernels() {
  static std::once_flag once;
  std::call_once(once, [] {
    register_builtins();
    register_torch_kernels(KernelRegistry::global());
  });
}

void KernelRegistry::add(const std::string& op, Kernel kernel) { kernels_[op] = std::move(kernel); }

const Kernel* KernelRegistry::find(const std::string& op) const {
  auto it = kernels_.find(op);
  return it == kernels_.end() ? nullptr : &it->second;
}

at::ScalarType to_aten(DType d) {
  switch (d.type) {
    case ScalarType::Bool8: return at::kBool;
    case ScalarType::UInt8: return at::kByte;
    case ScalarType::Int8: return at::kChar;
    case ScalarType::Int16: return at::kShort;
    case ScalarType::Int32: return at::kInt;
    case ScalarType::Int64: return at::kLong;
    case ScalarType::BFloat16: return at::kBFloat16;
    case ScalarType::Float16: return at::kHalf;
    case ScalarType::Float32: return at::kFloat;
    case ScalarType::Float64: return at::kDouble;
    case ScalarType::Complex32: return at::kComplexHalf;
    case ScalarType::Complex64: return at::kComplexFloat;
    case ScalarType::Complex128: return at::kComplexDouble;
    default: throw ThunderError("NotImplementedError", thundercc::str("dtype ", d.full_name(), " is not supported by LibTorch 1.13"));
  }
}

DType from_aten(at::ScalarType t) {
  for (const auto& d : DType::all())
    if (d.bytes() > 1 || !d.is_float()) {  // float8 types have no ATen counterpart here
      if (to_aten(d) == t) return d;
    }
  throw ThunderError("NotImplementedError", thundercc::str("ATen dtype ", c10::toString(t), " has no thundercc counterpart"));
}

namespace {
int swapped_plan_device = 0, swapped_rank_device = 0;  // equal: nothing swapped
int swap_cuda_index(int index) {
  return index == swapped_plan_device ? swapped_rank_device : index == swapped_rank_device ? swapped_plan_device : index;
}
}  // namespace

void swap_cuda_devices(int plan_device, int rank_device) {
  swapped_plan_device = plan_device;
  swapped_rank_device = rank_device;
}

at::Device to_aten(const Device& d) {
  switch (d.type) {
    case Device::Type::CPU: return at::Device(at::kCPU);
    case Device::Type::CUDA:
      // Said plainly here: ATen's own message lists every backend it has.
      if (!at::hasCUDA()) throw ThunderError("RuntimeError", d.str() + " is not available: this LibTorch was built without CUDA");
      return at::Device(at::kCUDA, static_cast<c10::DeviceIndex>(swap_cuda_index(d.index)));
    case Device::Type::Meta: return at::Device(at::kMeta);
  }
  return at::Device(at::kCPU);
}

Device from_aten(const at::Device& d) {
  if (d.is_cuda()) return Device{Device::Type::CUDA, swap_cuda_index(d.has_index() ? d.index() : 0)};
  if (d.is_meta()) return Device{Device::Type::Meta, 0};
  return Device::cpu();
}

namespace {
[[noreturn]] void bad_arg(const char* what, const std::string& wanted) {
  throw ThunderError("TypeError", thundercc::str(what, ": expected ", wanted));
}

// A slot an argument reads: a bad plan may read one never written or already freed.
const at::Tensor& filled(const std::vector<at::Tensor>& slots, int slot) {
  const at::Tensor& t = slots[slot];
  if (!t.defined()) throw ThunderError("RuntimeError", str("slot ", slot, " holds no tensor here (never written, or freed before this instruction)"));
  return t;
}
}  // namespace

const at::Tensor& ArgView::tensor() const {
  if (!is_tensor()) bad_arg(what_, "a tensor");
  return filled(*slots_, arg_->slot);
}

c10::optional<at::Tensor> ArgView::optional_tensor() const {
  if (is_none()) return c10::nullopt;
  return tensor();
}

std::vector<at::Tensor> ArgView::tensors() const {
  if (!arg_) bad_arg(what_, "a sequence of tensors");
  if (arg_->kind == BoundArg::Kind::Slot) return {filled(*slots_, arg_->slot)};
  if (arg_->kind != BoundArg::Kind::Slots) bad_arg(what_, "a sequence of tensors");
  std::vector<at::Tensor> out;
  out.reserve(arg_->slots.size());
  for (int s : arg_->slots) out.push_back(filled(*slots_, s));
  return out;
}

const Value& ArgView::value() const {
  if (!arg_ || arg_->kind != BoundArg::Kind::Constant) bad_arg(what_, "a constant");
  return arg_->constant;
}

int64_t ArgView::integer() const { return value().as_int(); }
c10::optional<int64_t> ArgView::optional_integer() const {
  if (is_none()) return c10::nullopt;
  return integer();
}
double ArgView::real() const { return value().as_float(); }
bool ArgView::flag() const { return value().as_bool(); }
c10::optional<bool> ArgView::optional_flag() const {
  if (is_none()) return c10::nullopt;
  return flag();
}
std::vector<int64_t> ArgView::ints() const {
  const Value& v = value();
  // A var-positional shape arrives as a tuple of ints or a tuple holding one sequence.
  if (v.kind() == Value::Kind::Tuple && v.items().size() == 1 && v.items()[0].is_sequence()) return v.items()[0].as_ints();
  return v.as_ints();
}
std::string ArgView::string() const { return value().as_string(); }

at::Scalar ArgView::scalar() const {
  const Value& v = value();
  switch (v.number_kind()) {
    case NumberKind::Bool: return at::Scalar(v.as_bool());
    case NumberKind::Int: return at::Scalar(v.as_int());
    case NumberKind::Float: return at::Scalar(v.as_float());
    case NumberKind::Complex: return at::Scalar(c10::complex<double>(v.as_complex().real(), v.as_complex().imag()));
  }
  return at::Scalar(0);
}

c10::optional<at::Scalar> ArgView::optional_scalar() const {
  if (is_none()) return c10::nullopt;
  return scalar();
}

at::ScalarType ArgView::dtype() const { return to_aten(value().as_dtype()); }

c10::optional<at::ScalarType> ArgView::optional_dtype() const {
  if (is_none()) return c10::nullopt;
  return dtype();
}

at::Device ArgView::device() const { return to_aten(value().as_any_device()); }

at::Tensor ArgView::tensor_or_wrapped_number() const {
  if (is_tensor()) return tensor();
  at::Tensor t = c10::scalar_to_tensor(scalar());
  t.unsafeGetTensorImpl()->set_wrapped_number(true);
  return t;
}

size_t KernelCall::size() const { return instruction_.args.size(); }

ArgView KernelCall::arg(size_t i) const {
  return ArgView(i < instruction_.args.size() ? &instruction_.args[i] : nullptr, &slots_, instruction_.op.c_str());
}

ArgView KernelCall::kwarg(std::string_view name) const {
  for (const auto& [k, v] : instruction_.kwargs)
    if (k == name) return ArgView(&v, &slots_, instruction_.op.c_str());
  return ArgView(nullptr, &slots_, instruction_.op.c_str());
}

void KernelCall::set_output(size_t k, at::Tensor t) {
  // A slot holds plain values: ATen returns some results as lazily conjugated or negated views
  // (ifft of a real tensor), which the generated kernels, reading memory, would take as they lie.
  if (t.defined() && (t.is_conj() || t.is_neg())) t = t.resolve_conj().resolve_neg();
  if (k < instruction_.outputs.size() && instruction_.outputs[k] >= 0) slots_[instruction_.outputs[k]] = std::move(t);
}

size_t KernelCall::num_outputs() const { return instruction_.outputs.size(); }

const at::Tensor* KernelCall::buffer(size_t k) const {
  return k < instruction_.buffers.size() && instruction_.buffers[k].defined() ? &instruction_.buffers[k] : nullptr;
}

bool KernelCall::keeps_channels_last() const { return instruction_.channels_last; }

at::Tensor& copy_into(at::Tensor& buffer, const at::Tensor& result) {
  if (!buffer.sizes().equals(result.sizes()))
    throw std::runtime_error(thundercc::str("its kernel computed a ", result.sizes(), " result, but the plan's buffer for it is ",
                                            buffer.sizes(), " (the plan records another shape than the kernel computes)"));
  return buffer.copy_(result);
}

bool KernelCall::is_program_input(size_t i) const { return i < instruction_.input_args.size() && instruction_.input_args[i]; }

at::Generator KernelCall::generator() const {
  return at::make_generator<at::CPUGeneratorImpl>(mix_seed(draw_seed_, instruction_.stream));
}

uint64_t mix_seed(uint64_t a, uint64_t b) {
  uint64_t z = a + 0x9e3779b97f4a7c15ULL * (b + 1);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

uint64_t stream_id(const std::string& name) {
  uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a
  for (unsigned char c : name) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

}  // namespace thundercc::runtime
