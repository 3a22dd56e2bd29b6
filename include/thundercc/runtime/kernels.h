// Kernels: what runs an executor's operator at run time, with real tensors (LibTorch). A kernel
// is registered under its operator's id ("torch:torch.mul", "my_executor:my_op") and receives a
// KernelCall: the instruction's arguments, bound once when the plan is loaded (slots and decoded
// constants), and the slots its outputs go to.
#pragma once

#include <ATen/core/Tensor.h>

#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "thundercc/ir/value.h"

namespace thundercc::runtime {

// One argument of an instruction, bound at load.
struct BoundArg {
  enum class Kind : uint8_t { Constant, Slot, Slots };
  Kind kind = Kind::Constant;
  int slot = -1;           // Slot: a tensor
  std::vector<int> slots;  // Slots: a tuple or list of tensors
  Value constant;          // Constant: anything else
};

class KernelCall;

// Read access to one argument, converted to what ATen takes.
class ArgView {
 public:
  ArgView(const BoundArg* arg, const std::vector<at::Tensor>* slots, const char* what)
      : arg_(arg), slots_(slots), what_(what) {}
  bool present() const { return arg_ != nullptr; }
  bool is_none() const { return !arg_ || (arg_->kind == BoundArg::Kind::Constant && arg_->constant.is_none()); }
  bool is_tensor() const { return arg_ && arg_->kind == BoundArg::Kind::Slot; }
  const at::Tensor& tensor() const;
  c10::optional<at::Tensor> optional_tensor() const;
  std::vector<at::Tensor> tensors() const;
  const Value& value() const;  // a constant
  int64_t integer() const;
  c10::optional<int64_t> optional_integer() const;
  double real() const;
  bool flag() const;
  c10::optional<bool> optional_flag() const;
  std::vector<int64_t> ints() const;
  at::Scalar scalar() const;
  c10::optional<at::Scalar> optional_scalar() const;
  at::ScalarType dtype() const;
  c10::optional<at::ScalarType> optional_dtype() const;
  at::Device device() const;
  std::string string() const;
  // A number as a tensor that promotes as a Python number does (a "wrapped number"); a tensor as is.
  at::Tensor tensor_or_wrapped_number() const;

 private:
  const BoundArg* arg_;
  const std::vector<at::Tensor>* slots_;
  const char* what_;
};

struct Instruction;

class KernelCall {
 public:
  // `draw_seed` seeds the generator of a random op: the plan's seed mixed with the run's number.
  KernelCall(const Instruction& instruction, std::vector<at::Tensor>& slots, uint64_t draw_seed = 0)
      : instruction_(instruction), slots_(slots), draw_seed_(draw_seed) {}
  size_t size() const;                     // positional arguments
  ArgView arg(size_t i) const;             // positional argument i
  ArgView kwarg(std::string_view name) const;  // a keyword argument (absent: is_none())
  void set_output(size_t k, at::Tensor t);
  size_t num_outputs() const;
  // The buffer the plan gives output k (a tensor of the output's shape and dtype in the plan's
  // arena), or null. An operator tagged kOutBuffer writes output k into it and sets it as output k.
  const at::Tensor* buffer(size_t k) const;
  // A CPU generator for a random op, seeded from the plan's seed, the run's number and the op's
  // stream (the value it draws): the same values on every executor and in every process. A kernel
  // for another device draws on the CPU and copies, so that devices agree too.
  at::Generator generator() const;
  // Whether the program keeps activations channels-last where a kernel can (an inference
  // program: a convolution then leaves its result so; a training step's backward, ATen's
  // convolution_backward, runs slower on them).
  bool keeps_channels_last() const;
  // Whether positional argument i is one of the program's inputs (a parameter, a prologue's
  // result), which stays the same tensor from run to run unless the caller replaces it; other
  // tensors (intermediates in the plan's buffers) are rewritten each run through raw pointers,
  // which no version counter sees.
  bool is_program_input(size_t i) const;

 private:
  const Instruction& instruction_;
  std::vector<at::Tensor>& slots_;
  uint64_t draw_seed_;
};

using Kernel = std::function<void(KernelCall&)>;

// Whether `t` lies channels-last (NHWC memory behind a 4-d NCHW shape) and not also contiguous:
// as an inference program's convolutions leave their results (KernelCall::keeps_channels_last).
inline bool is_channels_last(const at::Tensor& t) {
  return t.dim() == 4 && !t.is_contiguous() && t.is_contiguous(at::MemoryFormat::ChannelsLast);
}

// `result` copied into the plan's `buffer` for it, which must have its shape: copy_ would broadcast
// a smaller result (from a plan whose recorded shapes were edited) over the buffer.
at::Tensor& copy_into(at::Tensor& buffer, const at::Tensor& result);

// The result of an operator tagged kOutBuffer: written by `into` (an out= call) into `buffer`
// when the plan gives one (KernelCall::buffer), else made by `make`.
template <class Into, class Make>
at::Tensor into_buffer_or_make(const at::Tensor* buffer, Into&& into, Make&& make) {
  if (!buffer) return make();
  at::Tensor out = *buffer;
  into(out);
  return out;
}

struct Instruction {
  std::string op;
  const Kernel* kernel = nullptr;
  std::vector<BoundArg> args;
  std::vector<std::pair<std::string, BoundArg>> kwargs;
  std::vector<int> outputs;  // -1 for outputs that are not tensors
  std::vector<at::Tensor> buffers;  // per output: its planned buffer, or undefined
  std::vector<int> free;
  std::string statement;
  std::string source;  // the user's FILE:LINE, or empty
  bool fresh = false;  // the plan assumed its outputs are no views: checked after each run of it
  uint64_t stream = 0;  // a random op's: a hash of the name of the value it draws
  std::vector<std::optional<TensorMeta>> expect;  // a plugin's instruction: its outputs, checked after its kernel
  bool channels_last = false;  // KernelCall::keeps_channels_last
  std::vector<bool> input_args;  // KernelCall::is_program_input, by positional argument
  std::string executor;                           // the executor that claimed it, for messages
};

class KernelRegistry {
 public:
  static KernelRegistry& global();
  void add(const std::string& op, Kernel kernel);
  const Kernel* find(const std::string& op) const;
  size_t size() const { return kernels_.size(); }

 private:
  std::unordered_map<std::string, Kernel> kernels_;
};

// The torch executor's kernels (torch_kernels.cpp), by operator id.
void register_torch_kernels(KernelRegistry& registry);
// What a program that runs plans calls first: register_builtins (builtins.h), then the torch
// executor's kernels into the global registry. Idempotent.
void register_builtin_kernels();

// Mixes two 64-bit values into a seed (splitmix64's finalizer over their combination), so that
// neighbouring seeds, runs and streams draw unrelated values; and a stream name's id.
uint64_t mix_seed(uint64_t a, uint64_t b);
uint64_t stream_id(const std::string& name);
// thundercc dtypes and devices as ATen's.
at::ScalarType to_aten(DType d);
DType from_aten(at::ScalarType t);
at::Device to_aten(const Device& d);
Device from_aten(const at::Device& d);
// Under NCCL a rank runs the plan's CUDA device on a GPU of its own (runtime/rank_placement.h):
// the two device indices are swapped in to_aten and from_aten (a swap is its own inverse, so no
// two devices become one). Set once, before a plan binds.
void swap_cuda_devices(int plan_device, int rank_device);

}  // namespace thundercc::runtime
