// The passes from a traced program to its execution traces. Each returns a new trace of the same
// series (sharing names) whose provenance names the pass, as Thunder's "# Constructed by" line does.
// Passes take their trace by value: a caller done with it moves it in, and its bound symbols move
// on instead of being copied with their subsymbols.
#pragma once

#include <functional>
#include <optional>
#include <unordered_set>
#include <vector>

#include "thundercc/extend.h"
#include "thundercc/ir/rewrite.h"
#include "thundercc/ir/trace.h"
#include "thundercc/passes/pass_manager.h"

namespace thundercc {

// In-place ops replaced by their out-of-place forms; modified program inputs written back with
// prims.copy_ at the end (functionalization.cpp).
Trace functionalization(const Trace& trace);
// Whether a bound symbol modifies its first argument (an IN_PLACE symbol, or inplace=True).
bool mutates_first_argument(const BoundSymbol& b);
// Keeps what the outputs need, and bound symbols tagged DONT_DCE.
Trace dead_code_elimination(Trace trace);
// Reuses the result of an earlier identical call (same symbol and arguments), except random ops.
Trace common_subexpression_elimination(Trace trace);
// Its core, for any statement list (a fusion region's too): the merged statements' outputs map to
// the earlier ones' in `replaced`; a statement for which `must_stay` holds is kept even so.
std::vector<BoundSymbol> merge_common_subexpressions(std::vector<BoundSymbol> statements, ValueMap& replaced,
                                                     const std::function<bool(const BoundSymbol&)>& must_stay);
// Lets executors claim the bound symbols, in list order (see claim_executors.cpp).
Trace transform_for_execution(Trace trace, const std::vector<const Executor*>& executors);
// After each statement, `del` the values no later statement reads.
Trace delete_last_used(Trace trace);

// A joint forward-backward trace (see transforms/autodiff.h) split in two (forward_backward_split.cpp).
struct ForwardBackward {
  Trace forward;   // returns (outputs, saved_for_backward)
  Trace backward;  // backward_fn(saved_for_backward, cotangents) -> one gradient per input tensor
  int64_t saved_bytes = 0;
};
// With `regather` (ZeRO-3), the backward gathers FSDP's parameters again instead of the forward
// saving them whole.
ForwardBackward split_forward_backward(const Trace& joint, bool regather = false);

// Of the forward values the backward reads, those the forward saves and the statements the
// backward recomputes the others with (rematerialization.cpp).
struct SavedForBackward {
  std::vector<Value> saved;                    // in definition order
  int64_t bytes = 0;                           // their size
  std::vector<const BoundSymbol*> recomputed;  // forward statements, in order
};
SavedForBackward rematerialize(const Trace& forward, const std::unordered_set<const void*>& read_by_backward,
                               bool regather = false);

// Data parallelism: the backward all-reduces (averages over the ranks) the gradients it returns,
// each started where it is computed (or, with buckets, where its bucket fills) and waited for at
// the end (distributed_data_parallel.cpp).
Trace distributed_data_parallel(Trace backward, int64_t bucket_bytes);
// Fully sharded data parallelism, on the program before the grad transform: every parameter
// becomes an input holding this rank's shard (TraceInput::shard_of), gathered before its first use
// (fully_sharded_data_parallel.cpp).
Trace fully_sharded_data_parallel(Trace program, int64_t world_size);
// A program and the prologue that computes some of its inputs from others (the module's tensors),
// which the runtime runs only when those change.
struct WithPrologue {
  Trace program;  // its inputs: the original ones, then the prologue's results
  std::optional<Trace> prologue;
};
// Inference: each convolution that only an eval-mode batch norm reads takes a weight and bias with
// the batch norm folded in, which the prologue computes (fold_batch_norm.cpp).
WithPrologue fold_batch_norm(Trace program);
// Each prims.wait moved down to just before the first statement that reads its result, so that
// communication overlaps the statements in between (sort_waits.cpp).
Trace sort_waits(Trace trace);

// The standard pass lists. Executors' own passes run right after claiming.
PassManager execution_passes(const std::vector<const Executor*>& executors);  // DCE, CSE, claiming, DCE, DLU
PassManager joint_passes();    // the grad transform's joint trace: DCE, CSE
PassManager claiming_passes(const std::vector<const Executor*>& executors);  // claiming, DCE, DLU

enum class GradMode {
  Auto,    // a training step (forward and backward) when an input requires grad, else inference
  Inputs,  // seed 001's grad: one trace returning the input gradients
};

// How a training step is spread over the ranks of a process group.
struct Distributed {
  // ddp: each rank runs the whole step on its shard of the batch; gradients averaged.
  // fsdp: the same, with the parameters sharded over world_size ranks too.
  enum class Mode { None, Ddp, Fsdp };
  Mode mode = Mode::None;
  int64_t bucket_bytes = 0;  // ddp: gradients all-reduced together, up to this many bytes (0: each alone)
  int64_t world_size = 0;    // fsdp: the ranks the parameters are sharded over
  int zero = 2;              // fsdp: 2, the forward saves the gathered parameters the backward reads; 3, it gathers them again
};

// The optimizer a training step's plan ends with (compile --optimizer): torch.optim's SGD (with
// momentum and weight decay) or AdamW, with their hyper-parameters' defaults.
struct Optimizer {
  enum class Kind { None, Sgd, AdamW };
  Kind kind = Kind::None;
  double lr = 1e-3, momentum = 0, weight_decay = 0, beta1 = 0.9, beta2 = 0.999, eps = 1e-8;
  std::string describe() const;  // as torch.optim's constructor call
};

// The inputs of `program` the optimizer updates: those that require grad, in input order.
std::vector<size_t> optimized_parameters(const Trace& program);

// The optimizer's step as a trace (optimizer_step.cpp): its inputs are the parameters, their
// gradients (`grad_<name>`), then the optimizer's state (per parameter: SGD's momentum buffer,
// AdamW's two averages; then AdamW's step count), all updated in place.
Trace optimizer_step_trace(const Trace& program, const Optimizer& optimizer);

struct CompiledProgram {
  // With keep_stages, every trace made, in order (names prefixed "forward: ", "backward: ").
  std::vector<PassStage> stages;
  Trace execution;                // the inference trace, or the training step's forward
  std::optional<Trace> backward;  // the training step's backward
  std::optional<Trace> update;    // the optimizer's step, after the backward (compile --optimizer)
  std::optional<Trace> prologue;  // what an inference program's inputs are computed from (fold_batch_norm)
  int64_t saved_bytes = 0;        // what the forward saves for the backward
  // The symbols this compilation made (its traces may refer to them): alive as long as the program.
  std::shared_ptr<SymbolTable> symbols;
};

// Takes the trace by value: a caller done with it moves it in.
CompiledProgram compile_program(Trace traced, const std::vector<const Executor*>& executors,
                                GradMode mode = GradMode::Auto, bool keep_stages = false,
                                Distributed distributed = {}, Optimizer optimizer = {});

}  // namespace thundercc
