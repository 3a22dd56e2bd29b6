// plan.json as C++ types: what `thundercc run` needs and nothing it must re-derive. The plan
// builder (plan_builder.cpp) makes them from the execution traces: every tensor gets a slot; each
// statement becomes an instruction naming the operator (and so the kernel) that runs it, its
// arguments as slots and constants, its output slots, the slots to free after it (from the
// trace's `del` statements) and the buffers memory planning gave its outputs. plan_codec.cpp alone
// writes and reads their JSON (plan_codec.h); the runtime binds from these types.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "thundercc/executors/fuser/kernel_library.h"
#include "thundercc/ir/trace.h"
#include "thundercc/serialize/size_symbols.h"

namespace thundercc::plan {

// An instruction's argument, or a program's output, over slots: a tensor's slot, a constant (a
// value with no tensor in it), or a tuple, list or dict of operands.
struct Operand {
  enum class Kind { Slot, Constant, Tuple, List, Dict };
  Kind kind = Kind::Constant;
  int slot = -1;
  Value constant;                 // Constant (None included)
  std::vector<Operand> items;     // Tuple, List, Dict (its values)
  std::vector<std::string> keys;  // Dict
};

// A planned output's place in the program's arena.
struct Buffer {
  int64_t offset = 0;  // a multiple of MemoryPlan::kAlignment
  TensorMeta tensor;
};

// What a fusion instruction runs: the region itself, its prims as a trace (what `run` generates
// and builds its kernels from: a plan is data), and the kernels `compile` generated for it, by
// which the runner checks that it generates the same: the CPU function of the plan's kernel
// library, or the CUDA function of its PTX module with its grid, or both (--emit-cuda), over the
// tensors it was generated for.
struct Fusion {
  Trace region;  // named for the region's symbol; inputs: the tensors it reads; output: a tuple of those it writes
  // The region's canonical text (fuser::region_signature, which also keys its kernel): regions
  // equal in it are one region, which the plan stores once.
  std::string signature;
  std::optional<std::string> function;
  std::optional<std::string> cuda_function;
  std::optional<int64_t> grid;
  std::vector<TensorMeta> inputs, outputs;
};

struct Instruction {
  std::string op;        // the operator's id, which names its kernel
  std::string executor;  // the executor that claimed it
  std::vector<Operand> args;
  std::vector<std::pair<std::string, Operand>> kwargs;
  std::vector<int> outputs;  // one slot per output, -1 for an output that is not a tensor
  std::vector<int> free;     // slots freed after it
  std::string statement;     // the trace's statement, for messages
  std::string source;        // where the user wrote it ("model.py:12"), for messages; empty when unknown
  std::optional<Fusion> fusion;
  std::vector<std::optional<Buffer>> buffers;  // empty, or one per output (none: not planned)
  bool fresh = false;  // its outputs never share storage with the arena (checked at run time)
  // A random op's stream: the name of the value it draws. Its draws depend on the plan's seed,
  // this name and how many times the program has run, never on where the instruction runs, so
  // that every executor that runs the op gets the same values.
  std::optional<std::string> stream;
  // The tensor each output must be (none for one that is not a tensor; empty for a fusion
  // instruction, whose kernels are checked against the region), checked after its kernel: a
  // plugin's wrong result is blamed on the plugin, a plan edited to record other types is refused.
  std::vector<std::optional<TensorMeta>> expect;
};

struct Input {
  std::string name;
  int slot = 0;
  TensorMeta tensor;
  std::vector<std::string> fqn;  // a module's parameter or buffer: its state_dict keys (run --weights)
  std::optional<Shape> shard_of;  // FSDP: this rank's shard of a tensor of this shape (ir/trace.h)
};

// The arena memory planning laid out, and what it saved (for `compile -v`).
struct Arena {
  int64_t bytes = 0, buffers = 0, buffer_bytes = 0, in_place = 0;
};

// One program: the forward, or a training step's backward.
struct Program {
  std::vector<Input> inputs;
  int64_t slots = 0;
  std::vector<int> free_at_start;
  std::vector<Instruction> instructions;
  Operand output;
  std::optional<Arena> arena;
  // A backward's inputs are the forward's `saved` tensors (saved_bytes of them), then the cotangents.
  int64_t saved = 0, saved_bytes = 0;
};

struct PluginExecutor {
  std::string name, version;
};

// The plan's kernel library (the CPU regions') and CUDA kernels, files next to the plan, each
// checked against its SHA-256 before it is loaded, and loaded only when the user trusts them
// (run --trust-kernels); `isa`: the CPU features the library may use (-march=native), which the
// running CPU must have.
struct LibraryFile {
  std::string library, sha256;
};
struct KernelLibraryRecord {
  std::string library, sha256, compiler, flags;
  std::vector<std::string> isa;
};
struct CudaKernelsRecord {
  int64_t block = 0;
  std::optional<std::string> ptx;  // the PTX module's file; absent: NVRTC was not found
  std::string sha256, compiler, arch;  // of the PTX module
  std::optional<LibraryFile> emulation;  // the emulation library (with --emit-cuda)
};

// The optimizer's step (compile --optimizer), run after the backward. Its inputs: the forward's
// inputs at `parameters` (updated in place), their gradients, then the optimizer's state (zeros
// before the first step), also updated in place.
struct Update {
  Program program;
  std::vector<int64_t> parameters;
  std::string optimizer;  // as torch.optim's constructor call, for messages
};

// What an inference program's last inputs are computed from (the batch norms folded into
// convolutions, passes/fold_batch_norm.cpp): its inputs are the forward's inputs at `reads`, its
// outputs the forward's last inputs, in order. The runtime runs it only when those it reads change.
struct Prologue {
  Program program;
  std::vector<int64_t> reads;
};

// A plan compiled from a symbolic trace (capture --dynamic): the plan itself is for the sizes
// captured (the symbols' hints); for inputs of other sizes in the symbols' ranges, the runtime
// specializes the trace at their sizes and compiles it as `compile` did (specialize.h).
struct Dynamic {
  std::vector<SizeSymbol> symbols;
  nlohmann::json trace;                // the symbolic trace.json
  std::vector<std::string> executors;  // as compiled: by name, in priority order
  bool input_gradients = false;        // compile --transform grad
  NameStyle names = NameStyle::Thunder;
};

struct Plan {
  std::string name;
  int64_t seed = 0;  // of the random ops (compile --seed; run --seed overrides)
  int64_t world_size = 0;  // the ranks it must run on (FSDP's shards fix it); 0: any number
  Program forward;  // with a backward, it returns (outputs, saved_for_backward)
  std::optional<Program> backward;
  std::optional<Update> update;
  std::optional<Prologue> prologue;
  std::vector<PluginExecutor> plugins;  // the plugin executors it needs
  std::optional<KernelLibraryRecord> kernels;
  std::optional<CudaKernelsRecord> cuda_kernels;
  std::optional<Dynamic> dynamic;

  // Its programs in the order they run: the prologue, the forward, the backward, the update.
  std::vector<const Program*> programs() const {
    std::vector<const Program*> out;
    if (prologue) out.push_back(&prologue->program);
    out.push_back(&forward);
    if (backward) out.push_back(&*backward);
    if (update) out.push_back(&update->program);
    return out;
  }
  std::vector<Program*> programs() {
    std::vector<Program*> out;
    for (const Program* p : std::as_const(*this).programs()) out.push_back(const_cast<Program*>(p));
    return out;
  }
};

// Builds the plan of an execution trace and, for a training step, its backward trace (and the
// optimizer's step, whose first inputs are the forward's inputs at `update->parameters`).
struct UpdateTrace {
  const Trace& trace;
  std::vector<int64_t> parameters;
  std::string optimizer;
};
// Where a plan's fusion instructions get their kernels: from `compile`'s kernel build, whose
// records attach_kernels adds to the plan (so that the plan is built while the kernels are), or
// none: a plan specialized at run time, whose runtime generates them.
enum class KernelRecords { Attached, None };
Plan build_plan(const Trace& execution_trace, const Trace* backward = nullptr, int64_t saved_bytes = 0,
                KernelRecords kernels = KernelRecords::None, const UpdateTrace* update = nullptr, const Trace* prologue = nullptr);
// Adds the kernel build's records to a plan built with KernelRecords::Attached: each fusion
// instruction's functions and region signature, and the kernel files.
void attach_kernels(Plan& plan, const PlanKernels& kernels);

}  // namespace thundercc::plan
