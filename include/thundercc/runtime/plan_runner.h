// Executes a plan (plan/plan.h, decoded from plan.json by plan/plan_codec.h) with LibTorch.
// Loading binds every instruction once: kernels are looked up, constants converted, slots
// resolved, so running does no lookups.
#pragma once

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <tuple>

#include "thundercc/plan/plan.h"
#include "thundercc/runtime/kernels.h"
#include "thundercc/runtime/tensor_files.h"

namespace thundercc::runtime {

class FusedKernels;
class LinearEpilogue;

// Checks tensors against specifications (count, shape, dtype, device), naming the first that differs.
void check_against(const std::vector<InputSpec>& specs, const std::vector<at::Tensor>& tensors);

// Where a plan's fusion kernels come from. A plan is data: by default the runner generates them
// from the regions the plan records and builds them itself, for this machine, in the user's
// kernel cache. The libraries `compile` wrote beside the plan are native code from whoever wrote
// the plan: loaded only with `trust_kernels` (run --trust-kernels).
struct KernelOptions {
  bool emulate_cuda = false;   // CPU regions run their CUDA kernels under the emulator (plans compiled with --emit-cuda)
  bool trust_kernels = false;  // load the kernels compiled beside the plan instead of building them
};


// Runs one program of a plan (the forward, or the backward).
class PlanRunner {
 public:
  // Throws std::runtime_error naming `where` and the place in the plan. Fusion instructions run
  // the kernels of `kernels` (the plan's), which must outlive the runner. `channels_last`: the
  // program keeps activations channels-last (KernelCall::keeps_channels_last).
  PlanRunner(const plan::Program& program, const std::string& where, const FusedKernels* kernels = nullptr, bool channels_last = false);

  const std::vector<InputSpec>& inputs() const { return inputs_; }
  // Checks the inputs against the specification, as Thunder's prologue does.
  void check_inputs(const std::vector<at::Tensor>& inputs) const;
  // The seed of the random ops' draws; each run draws anew (the run's number is mixed in), and a
  // new seed starts the count again.
  void set_seed(uint64_t seed) {
    seed_ = seed;
    runs_ = 0;
  }
  // Continues the random ops' draws as after `runs` runs (a resumed training).
  void set_runs(uint64_t runs) { runs_ = runs; }
  // Runs once; returns the outputs, flattened in order (undefined tensors for None). With
  // `instruction_ns`, also times each instruction (summed into it).
  std::vector<at::Tensor> run(const std::vector<at::Tensor>& inputs, std::vector<double>* instruction_ns = nullptr);
  const std::vector<Instruction>& instructions() const { return instructions_; }
  // A timed run's instructions (a run given `instruction_ns`): when each started and how long it
  // took (steady clock, ns), the bytes the caching allocator held after it (run --profile-json),
  // and a matrix product's or convolution's arithmetic, 2 flops a multiply-add (0 for any other
  // operator), from which run --profile prints its rate.
  struct Span {
    double start_ns, duration_ns;
    size_t live_bytes;
    double flops;
  };
  const std::vector<Span>& last_timed_run() const { return spans_; }
  // Its results are made outside inference mode, so that they keep a version counter (a
  // prologue's, which later runs read as long as their version holds).
  void keep_versions() { versioned_results_ = true; }
  // The bytes of the arena the plan's memory plan laid out (0: none), allocated at load.
  int64_t arena_bytes() const { return arena_.defined() ? arena_.numel() : 0; }

 private:
  // Allocates the arena and makes each planned output's tensor in it, once for all runs.
  void bind_arena(const plan::Program& program, const std::string& where);
  bool in_arena(const at::Tensor& t) const;  // whether its storage lies in the arena

  // A kernel's failure as an error naming the plan, the instruction and its arguments.
  [[noreturn]] void fail(size_t index, const std::string& problem) const;

  std::string where_;
  bool channels_last_ = false;  // the constructor's: outputs kept channels-last are returned contiguous
  bool versioned_results_ = false;
  std::vector<InputSpec> inputs_;
  std::vector<Instruction> instructions_;
  std::vector<std::unique_ptr<Kernel>> fused_kernels_;  // what fusion instructions point to
  // By instruction: a linear's, where it and the activation after it may run as one cuBLASLt call
  // (runtime/linear_epilogue.h); null elsewhere.
  std::vector<std::shared_ptr<const LinearEpilogue>> epilogues_;
  std::vector<int> free_at_start_;
  std::vector<int> output_slots_;
  size_t num_slots_ = 0;
  std::vector<at::Tensor> slots_;
  at::Tensor arena_;  // what the instructions' buffers point into
  uint64_t seed_ = 0, runs_ = 0;
  std::vector<Span> spans_;
};

// A whole plan: its forward program and, for a training step, its backward. The forward of a
// training step also returns what it saves for the backward; `forward` keeps that and returns
// only the outputs.
//
// Embedding a plan (examples/embed_plan): load it, give it the module's weights by name, run it
// on the other inputs by name.
//
//   auto plan = Plan::load("out/model.plan.json");
//   plan->set_weights(read_state_dict("weights.pt"));   // what torch.save(model.state_dict()) wrote
//   std::vector<at::Tensor> outputs = plan->run({{"x", x}});
//
// A dynamic plan (compiled from a capture with --dynamic) takes inputs of any size in its symbols'
// ranges: the first call at other sizes compiles the plan's trace for them (a few tens of
// milliseconds: the fusion kernels take their sizes as an argument, so those built for the
// plan's own sizes serve), which later calls at those sizes reuse.
//
// One Plan runs one call at a time (its buffers are reused from run to run): calls on one Plan
// from several threads are serialized. For calls in parallel, load one Plan per thread and give
// each the same weight tensors: they are held, not copied, so the weights are in memory once.
class Plan {
 public:
  // Reads, checks and binds a plan.json (kernels built for this machine, or loaded from beside it
  // with `kernels.trust_kernels`), or a package (thundercc package), whose weights it then holds. The plugin executors it needs must have been loaded
  // (thundercc/plugin.h). Throws LoadError naming the file and the problem.
  static std::unique_ptr<Plan> load(const std::string& path, KernelOptions kernels = {});
  // Binds a decoded plan; throws LoadError naming `where`, the plan file's path (with
  // `kernels.trust_kernels`, a plan's kernel library is found next to it). With
  // `kernels.emulate_cuda`, fusion regions on the CPU run their CUDA kernels under the emulator,
  // to test them without a GPU.
  Plan(const plan::Plan& plan, const std::string& where, KernelOptions kernels = {});
  ~Plan();
  // The programs that run for the sizes of the last call (specialize).
  PlanRunner& forward_program() { return active_->forward_; }
  bool has_backward() const { return backward_.has_value(); }
  // The inputs a caller gives (the forward program's, less those the prologue computes).
  const std::vector<InputSpec>& inputs() const { return inputs_; }
  // Checks the inputs against them, as Thunder's prologue does (and, for a dynamic plan, the
  // sizes of its symbolic dimensions against the symbols' ranges).
  void check_inputs(const std::vector<at::Tensor>& inputs) const;
  // Makes the plan for the inputs' sizes the one that runs: a dynamic plan's own for the sizes it
  // was captured at, or one compiled for these sizes at their first call and kept. `forward` calls
  // it; call it first to read the programs that will run (forward_program, cotangents).
  void specialize(const std::vector<at::Tensor>& inputs);
  // How many plans compiled for other sizes are kept (each holds its programs and arena): past
  // the limit, the one used longest ago is dropped and compiled again when those sizes come back.
  // The default is THUNDERCC_SPECIALIZED_PLANS where set, else 16.
  void set_specialized_limit(size_t plans) { specialized_limit_ = std::max<size_t>(plans, 1); }
  static size_t default_specialized_limit();
  size_t specialized_plans() const { return specialized_.size(); }  // kept now
  // The cotangents the backward takes, one per output that requires grad.
  std::vector<InputSpec> cotangents() const;

  std::vector<at::Tensor> forward(const std::vector<at::Tensor>& inputs, std::vector<double>* instruction_ns = nullptr);
  // The gradient of every input tensor (undefined where none flows), after `forward`.
  std::vector<at::Tensor> backward(const std::vector<at::Tensor>& cotangents, std::vector<double>* instruction_ns = nullptr);
  PlanRunner* backward_program() { return active_->backward_ ? &*active_->backward_ : nullptr; }
  // Overrides the plan's seed of its random ops (run --seed).
  void set_seed(uint64_t seed);
  // The random ops draw as they would after `steps` forwards and backwards (run --resume).
  void set_steps_done(uint64_t steps);

  // Weights by name: the module's parameters and buffers (the inputs capture recorded state_dict
  // keys for), from a state_dict's (key, tensor) pairs. Strict, as load_state_dict is: a missing,
  // extra or mismatched key is an error naming it (LoadError, naming `where`). The tensors are
  // held, not copied, for the runs that follow; calling it again swaps them.
  void set_weights(const std::vector<std::pair<std::string, at::Tensor>>& state_dict, const std::string& where = "weights");
  // The weights held, per input (undefined for an input that is not a module's parameter or buffer).
  const std::vector<at::Tensor>& weights() const { return weights_; }
  // Runs the forward with the weights held and the other inputs by name (the names of
  // inputs(); every input that is not a weight, none unknown); returns the outputs, flattened in
  // order. Safe to call from several threads: the calls are serialized.
  std::vector<at::Tensor> run(const std::map<std::string, at::Tensor>& inputs);

  // The optimizer's step (compile --optimizer): whether the plan has one, which, the inputs it
  // updates (indices into inputs()), and the specifications of its state (zeros before the first
  // step).
  bool has_optimizer() const { return update_.has_value(); }
  const std::string& optimizer() const { return optimizer_; }
  const std::vector<int64_t>& parameters() const { return parameters_; }
  std::vector<InputSpec> optimizer_state() const;
  // Updates the parameters among `inputs` and the optimizer's `state` in place, from the gradients
  // `backward` returned.
  void update(const std::vector<at::Tensor>& inputs, const std::vector<at::Tensor>& grads, const std::vector<at::Tensor>& state);

 private:
  std::unique_ptr<FusedKernels> kernels_;  // declared first: the runners use it
  PlanRunner forward_;
  std::vector<InputSpec> inputs_;
  // An inference plan's prologue (batch norms folded into convolutions): run when the tensors it
  // reads (inputs at prologue_reads_) change, its results kept as the forward's last inputs.
  std::optional<PlanRunner> prologue_;
  std::vector<int64_t> prologue_reads_;
  std::vector<at::Tensor> prologue_results_;
  std::vector<std::tuple<const void*, const void*, int64_t>> prologue_key_;
  std::optional<PlanRunner> backward_;
  std::optional<PlanRunner> update_;
  std::vector<int64_t> parameters_;
  std::string optimizer_;
  size_t num_saved_ = 0;
  std::vector<at::Tensor> saved_;
  std::vector<at::Tensor> weights_;
  std::mutex running_;  // run's calls, one at a time

  // A dynamic plan: what specializing needs, the plans compiled for other sizes, and the one that
  // runs now (this one, or one of those).
  std::optional<plan::Dynamic> dynamic_;
  std::string name_;  // the plan's, for the plans specialized from it
  std::vector<std::pair<SizeSymbol, size_t>> symbols_;  // with the input each is a dimension of
  SizeBinding own_sizes_;
  struct Specialized {
    std::unique_ptr<Plan> plan;
    uint64_t last_used;  // specializations_ when it last ran
  };
  std::map<SizeBinding, Specialized> specialized_;
  size_t specialized_limit_ = default_specialized_limit();
  uint64_t specializations_ = 0;
  Plan* active_ = this;
  std::string where_;
  KernelOptions kernel_options_;
  uint64_t seed_ = 0, steps_done_ = 0;
  // The symbols' values at these inputs' sizes; throws naming the input and the symbol's range.
  SizeBinding sizes_of(const std::vector<at::Tensor>& inputs) const;
};

}  // namespace thundercc::runtime
