// The compile command's driver: one trace.json through loading, the passes, the kernels' build
// and the plan to the files `thundercc compile` writes, all of them or none.
#include "thundercc/driver/compile.h"

#include <spdlog/spdlog.h>

#include <filesystem>
#include <future>
#include <sstream>

#include "thundercc/errors.h"
#include "thundercc/executors/fuser/kernel_library.h"
#include "thundercc/executors/fuser/nvrtc.h"
#include "thundercc/ir/printer.h"
#include "thundercc/plan/plan_codec.h"
#include "thundercc/support/beside.h"
#include "thundercc/serialize/trace_file.h"
#include "thundercc/support/files.h"
#include "thundercc/support/phase_timer.h"

namespace thundercc {
namespace {

// As clang's -disable-free: what a compile built (the parsed file, the traces, the plan) is left
// for the process's exit to return all at once instead of being freed object by object.
template <class T>
void keep_until_exit(T&& value) {
  static auto* kept = new std::vector<std::shared_ptr<void>>();  // never deleted, on purpose
  kept->push_back(std::make_shared<std::decay_t<T>>(std::forward<T>(value)));
}

// A compile's heap grows to about 30 times its trace.json (a 96-layer GPT-2 stack: 1.5 MB of
// trace, 46 MB resident). Warming 20 times that took the stack's compile from 1 to 0.92 of its
// time, and its peak memory from 62 to 57 MB (with jemalloc's single arena, cli/main.cpp);
// warming more added memory and no speed. Below 256 KB of trace, not worth a thread.
constexpr uintmax_t kWarmHeapPerTraceByte = 20;
constexpr uintmax_t kWarmHeapFrom = uintmax_t{256} << 10;
constexpr uintmax_t kWarmHeapAtMost = uintmax_t{512} << 20;

}  // namespace

std::vector<const Executor*> executor_list(const std::string& names) {
  if (names.empty()) {
    std::string why;
    if (!ExecutorRegistry::global().get("fuser").available(&why))
      spdlog::warn("the fuser is left out of the default executors: {}", why);
    return ExecutorRegistry::global().default_list();
  }
  std::vector<const Executor*> out;
  std::stringstream ss(names);
  std::string name;
  while (std::getline(ss, name, ','))
    if (!name.empty()) out.push_back(&ExecutorRegistry::global().get(name));
  return out;
}

ParsedTrace::ParsedTrace(const std::string& path) {
  // The heap is warmed beside the loading (support/heap_warming.h).
  std::error_code unknown_size;
  const uintmax_t trace_bytes = std::filesystem::file_size(path, unknown_size);
  if (!unknown_size && trace_bytes >= kWarmHeapFrom) warming_.emplace(std::min<uintmax_t>(kWarmHeapPerTraceByte * trace_bytes, kWarmHeapAtMost));
  auto parse = [path] { return parse_trace_file(path); };
  // --time-passes times each phase alone, on the thread that takes the document.
  document_ = PhaseTimer::enabled() ? std::async(std::launch::deferred, parse) : run_beside(parse);
}

nlohmann::json ParsedTrace::take() { return document_.get(); }

void compile_file(const std::string& path, const CompileOptions& options, bool free_at_exit, ParsedTrace* parsed) {
  PhaseTimer whole("compile " + path);
  std::optional<ParsedTrace> read_here;
  if (!parsed) parsed = &read_here.emplace(path);
  auto loaded = load_trace_document(parsed->take(), path, options.names);
  if (!loaded.symbols.empty() && (options.distributed.mode != Distributed::Mode::None || options.optimizer.kind != Optimizer::Kind::None))
    throw LoadError(path + ": a trace with symbolic sizes (capture --dynamic) compiles with neither --distributed nor --optimizer yet");
  CompiledProgram program;
  try {
    PhaseTimer timer("passes");
    // --print-after-all prints the traced program too; otherwise the passes take it over.
    program = compile_program(options.print_after_all ? Trace(loaded.traced) : std::move(loaded.traced), options.executors, options.mode,
                              options.print_after_all, options.distributed, options.optimizer);
  } catch (const ThunderError& e) {
    throw LoadError(path + ": " + e.what());
  }
  std::string stem = std::filesystem::path(path).stem().string();
  std::filesystem::path dir(options.out_dir);
  AtomicFiles files;  // published only once all are written
  // The printed traces need nothing the kernels and the plan make: they are printed on a
  // second thread beside them, or, with --time-passes, in a phase of their own.
  // A trace with symbolic sizes is compiled (and printed) at the sizes it was captured at.
  const std::string sizes = size_symbols_comment(loaded.symbols);
  auto print_trace = [&](const Trace& t) { return sizes + thundercc::print_trace(t); };
  auto print_traces = [&] {
    std::vector<std::pair<std::string, std::string>> printed;
    if (program.backward) {
      printed.emplace_back((dir / (stem + ".forward.trace.py")).string(), print_trace(program.execution));
      printed.emplace_back((dir / (stem + ".backward.trace.py")).string(), print_trace(*program.backward));
      if (program.update) printed.emplace_back((dir / (stem + ".optimizer.trace.py")).string(), print_trace(*program.update));
    } else {
      printed.emplace_back((dir / (stem + ".trace.py")).string(), print_trace(program.execution));
    }
    if (program.prologue) printed.emplace_back((dir / (stem + ".prologue.trace.py")).string(), print_trace(*program.prologue));
    return printed;
  };
  std::vector<std::pair<std::string, std::string>> printed;
  std::future<std::vector<std::pair<std::string, std::string>>> printing;
  std::optional<PhaseTimer> timer;
  if (options.time_passes) {
    timer.emplace("print traces");
    printed = print_traces();
  } else {
    printing = run_beside(print_traces);
  }
  std::vector<const Trace*> traces{&program.execution};
  if (program.prologue) traces.push_back(&*program.prologue);
  if (program.backward) traces.push_back(&*program.backward);
  if (program.update) traces.push_back(&*program.update);
  std::optional<plan::UpdateTrace> update;
  if (program.update) {
    std::vector<int64_t> parameters;
    for (size_t i : optimized_parameters(program.execution)) parameters.push_back(static_cast<int64_t>(i));
    update.emplace(plan::UpdateTrace{*program.update, std::move(parameters), options.optimizer.describe()});
  }
  // The kernels are built on a third thread, beside the plan: only attach_kernels waits for them
  // (with --time-passes, they are built first, in a phase of their own).
  auto build_kernels = [&] {
    PhaseTimer timer("fusion kernels");
    try {
      return fuser::build_plan_kernels(traces, stem, options.emit_cuda);
    } catch (const ThunderError& e) {
      throw LoadError(path + ": " + e.what());
    }
  };
  fuser::PlanKernelBuild kernels;
  std::future<fuser::PlanKernelBuild> building;
  timer.reset();
  if (options.time_passes) kernels = build_kernels();
  else building = run_beside(build_kernels);
  timer.emplace("build plan");
  plan::Plan built;
  std::exception_ptr plan_failed;  // reported after the kernels' failure, as if built one after the other
  try {
    built = plan::build_plan(program.execution, program.backward ? &*program.backward : nullptr, program.saved_bytes,
                             plan::KernelRecords::Attached, update ? &*update : nullptr, program.prologue ? &*program.prologue : nullptr);
  } catch (...) {
    plan_failed = std::current_exception();
  }
  if (building.valid()) kernels = building.get();
  if (plan_failed) std::rethrow_exception(plan_failed);
  plan::attach_kernels(built, kernels.kernels);
  if (!kernels.kernels.functions.empty()) {
    files.add((dir / kernels.kernels.library).string(), kernels.library.bytes);
    spdlog::info("{}: {} fusion kernels ({} compiled, {} from the cache {})", path, kernels.kernels.functions.size(),
                 kernels.library.compiled, kernels.library.cached, fuser::kernel_cache_dir());
  }
  if (!kernels.cuda_source.empty()) {
    const PlanKernels::Cuda& cuda = kernels.kernels.cuda;
    files.add((dir / (stem + ".kernels.cu")).string(), kernels.cuda_source);
    if (!cuda.ptx.empty()) {
      files.add((dir / cuda.ptx).string(), kernels.ptx);
    } else {
      std::string why;
      fuser::nvrtc_available(&why);
      spdlog::warn("{}: wrote the CUDA kernels' source only: {}", path, why);
    }
    if (!cuda.emulation.empty()) files.add((dir / cuda.emulation).string(), kernels.emulation.bytes);
  }
  built.seed = options.seed;
  if (!loaded.symbols.empty()) {
    std::vector<std::string> executors;
    for (const Executor* e : options.executors) executors.push_back(e->name());
    built.dynamic = plan::Dynamic{loaded.symbols, loaded.document, std::move(executors), options.mode == GradMode::Inputs, options.names};
  }
  if (options.distributed.mode == Distributed::Mode::Fsdp) built.world_size = options.distributed.world_size;
  timer.emplace("write plan JSON");
  // One value per line, unindented: diffable, and 30% smaller than indented (a 96-layer plan: 1.4 MB).
  files.add((dir / (stem + ".plan.json")).string(), plan::encode_plan(built));
  timer.reset();
  if (free_at_exit) keep_until_exit(std::move(built));
  if (printing.valid()) printed = printing.get();
  for (auto& [file, text] : printed) files.add(file, std::move(text));
  if (options.print_after_all) {
    files.add((dir / (stem + ".0.traced.py")).string(), print_trace(loaded.traced));
    for (size_t i = 0; i < program.stages.size(); ++i)
      files.add((dir / (stem + "." + std::to_string(i + 1) + ".py")).string(), print_trace(program.stages[i].trace));
  }
  timer.emplace("write files");
  make_output_folder(dir.string());
  files.commit();
  // A kernel file of this name that this compile did not write is an earlier compile's (another
  // --executors, no --emit-cuda): left beside the plan, it would be taken for this plan's.
  for (const std::string& kernel_file : {stem + ".kernels.so", stem + ".kernels.cu", stem + ".kernels.ptx", stem + ".cuda_emulation.so"}) {
    const std::filesystem::path stale = dir / kernel_file;
    if (!files.wrote(stale.string()) && std::filesystem::is_regular_file(std::filesystem::symlink_status(stale)))
      std::filesystem::remove(stale);
  }
  timer.reset();
  if (program.backward)
    spdlog::info("{}: wrote {} and {} (saved for backward: {} bytes)", path, (dir / (stem + ".forward.trace.py")).string(),
                 (dir / (stem + ".backward.trace.py")).string(), program.saved_bytes);
  else
    spdlog::info("{}: wrote {}", path, (dir / (stem + ".trace.py")).string());
  if (free_at_exit) {
    keep_until_exit(std::move(loaded));
    keep_until_exit(std::move(program));
  }
}

}  // namespace thundercc
