// The thundercc command line: parses the commands and calls the library (the compile driver,
// driver/compile.h; the runtime for `run`). The compile-side commands never load LibTorch.
#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <dlfcn.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>

#include "thundercc/autodiff/autodiff.h"
#include "thundercc/builtins.h"
#include "thundercc/diff/trace_diff.h"
#include "thundercc/driver/compile.h"
#include "thundercc/driver/reduce.h"
#include "thundercc/errors.h"
#include "thundercc/ir/printer.h"
#include "thundercc/langs/prims.h"
#include "thundercc/passes/passes.h"
#include "thundercc/plan/plan_codec.h"
#include "thundercc/plugin.h"
#include "thundercc/serialize/trace_file.h"
#include "thundercc/support/cli_validators.h"
#include "thundercc/support/files.h"
#include "thundercc/support/interrupts.h"
#include "thundercc/support/phase_timer.h"

// jemalloc's options, read when it starts (CMakeLists.txt links it; without it, an unused symbol):
// its memory on transparent huge pages. Page faults are a large share of a compile in a VM; a
// 96-layer GPT-2 stack takes a quarter of the faults and compiles about 1.5x faster. One arena
// for every thread: the compile's threads reuse the pages the heap warming faulted in
// (support/heap_warming.h), and the stack's peak memory is 11 MB lower.
extern "C" {
const char* malloc_conf = "thp:always,metadata_thp:always,narenas:1";
}

namespace {

using namespace thundercc;

// Runs `body` for one input file; its failure is reported as that file's error, and the caller
// goes on with the next file. Returns whether it succeeded.
template <class Body>
bool for_file(const std::string& path, Body&& body) {
  try {
    body();
    return true;
  } catch (const std::runtime_error& e) {  // LoadError, and files that cannot be written
    spdlog::error("{}", e.what());
  } catch (const nlohmann::json::exception& e) {  // a shape the schema let through and the decoder did not expect
    spdlog::error("{}: malformed: {}", path, e.what());
  }
  return false;
}

int validate(const std::vector<std::string>& paths) {
  int failures = 0;
  for (const auto& path : paths)
    failures += !for_file(path, [&] {
      auto loaded = load_trace_file(path);
      spdlog::info("{}: ok ({} bound symbols)", path, loaded.recorded.bound_symbols.size());
    });
  return failures == 0 ? 0 : 1;
}

int print(const std::string& path, int depth, NameStyle names) {
  auto loaded = load_trace_file(path, names);
  std::cout << size_symbols_comment(loaded.symbols) << print_trace(loaded.traced, {.depth = depth});
  return 0;
}

// `first`: the first path's trace, parsed already.
int compile(const std::vector<std::string>& paths, const CompileOptions& options, ParsedTrace* first) {
  int failures = 0;
  for (const auto& path : paths)
    // Only the last file's objects wait for exit: with several files, memory would pile up.
    failures += !for_file(path, [&] { compile_file(path, options, &path == &paths.back(), &path == &paths.front() ? first : nullptr); });
  if (options.time_passes) std::cerr << PhaseTimer::report();
  return failures == 0 ? 0 : 1;
}

// A trace.json is traced and printed (each statement with its source line); any other file is
// a printed trace, as `print` or `compile` wrote it.
std::vector<PrintedLine> lines_to_diff(const std::string& path, NameStyle names) {
  if (path.ends_with(".json")) return printed_lines(load_trace_file(path, names).traced);
  return printed_lines(read_file(path, limits::kTraceBytes));
}

// `thundercc diff A B`: as diff(1), 0 when the programs are the same up to renaming, 1 when they
// differ, 2 when a file cannot be read.
int diff(const std::string& a, const std::string& b, int context, NameStyle names) {
  std::vector<PrintedLine> a_lines, b_lines;
  try {
    a_lines = lines_to_diff(a, names);
    b_lines = lines_to_diff(b, names);
  } catch (const std::runtime_error& e) {
    spdlog::error("{}", e.what());
    return 2;
  }
  TraceDiff d = diff_traces(a_lines, b_lines, a, b, context);
  std::cout << d.text;
  spdlog::info("{} lines removed, {} added", d.removed, d.added);
  return d.text.empty() ? 0 : 1;
}

// The symbols of the languages (prims, torch language), not executors' operators.
std::vector<const Symbol*> language_symbols(bool prims_only, bool torch_only) {
  std::vector<const Symbol*> out;
  for (const Symbol* s : SymbolTable::global().all())
    if (!((prims_only && !s->is_prim) || (torch_only && s->is_prim) || !s->executor.empty() || s == &prims::python_del()))
      out.push_back(s);
  return out;
}

// What `ops` says of a symbol beyond its signature: which executors run it whole, how it differentiates.
struct OpFacts {
  std::string kind, whole, grad;
};
OpFacts facts_of(const Symbol& s) {
  OpFacts f;
  f.kind = s.is_prim ? "prim" : s.has_tag("IN_PLACE") ? "in place (functionalized)" : "decomposition";
  for (const Executor* ex : ExecutorRegistry::global().default_list())
    if (ex->implementations().count(s.id)) f.whole += (f.whole.empty() ? "" : ", ") + ex->name();
  if (f.whole.empty()) f.whole = s.is_prim ? "none" : "(its decomposition)";
  f.grad = has_grad_rule(s) ? "rule" : s.is_prim ? "none" : "through its decomposition";
  return f;
}

// The coverage table (docs/ops.md): per symbol, what it is, which executors run it whole, and
// how it differentiates.
void list_ops_markdown(bool prims_only, bool torch_only) {
  std::cout << "| op | kind | run whole by | grad |\n|---|---|---|---|\n";
  for (const Symbol* s : language_symbols(prims_only, torch_only)) {
    std::string names = "`" + s->id + "`";
    for (const auto& a : s->aliases) names += ", `" + a + "`";
    OpFacts f = facts_of(*s);
    std::cout << "| " << names << " | " << f.kind << " | " << f.whole << " | " << f.grad << " |\n";
  }
}

void print_op_line(const Symbol& s) {
  std::cout << s.id << "(" << s.signature.str() << ")" << (s.is_prim ? "  [prim]" : "") << (has_grad_rule(s) ? "  [grad]" : "")
            << (s.has_tag("RANDOM_OP") ? "  [random]" : "");
  if (!s.aliases.empty()) {
    std::cout << "  aliases:";
    for (const auto& a : s.aliases) std::cout << " " << a;
  }
  std::cout << "\n";
}

int list_ops(bool prims_only, bool torch_only, bool ids_only, const std::string& format) {
  if (format == "markdown") {
    list_ops_markdown(prims_only, torch_only);
    return 0;
  }
  for (const Symbol* s : language_symbols(prims_only, torch_only)) {
    if (ids_only) {
      // Every id a captured program may use, one per line: what the front end accepts.
      std::cout << s->id << "\n";
      for (const auto& a : s->aliases) std::cout << a << "\n";
      continue;
    }
    print_op_line(*s);
  }
  return 0;
}

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t above = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

std::string last_component(const std::string& id) { return id.substr(id.rfind('.') + 1); }

// `thundercc ops NAME`: the symbols NAME names (an id, an alias, or their last component, as
// `softmax`, or as printed traces name them, `Tensor.mH`, `ltorch.istft`), with what runs them and
// how they differentiate; else the nearest names.
int look_up_op(const std::string& name) {
  const std::string printed = "torch." + (name.rfind("ltorch.", 0) == 0 ? name.substr(7) : name);
  std::vector<const Symbol*> found;
  std::vector<std::pair<size_t, std::string>> near;
  for (const Symbol* s : language_symbols(false, false)) {
    std::vector<std::string> ids{s->id};
    ids.insert(ids.end(), s->aliases.begin(), s->aliases.end());
    bool match = false;
    for (const auto& id : ids) {
      match = match || id == name || id == printed || last_component(id) == name;
      const std::string& compared = name.find('.') == std::string::npos ? last_component(id) : id;
      near.emplace_back(edit_distance(name, compared), id);
    }
    if (match) found.push_back(s);
  }
  if (found.empty()) {
    std::sort(near.begin(), near.end());
    std::string suggestions;
    const size_t limit = std::max<size_t>(2, name.size() / 3);
    for (size_t i = 0, shown = 0; i < near.size() && shown < 5 && near[i].first <= limit; ++i)
      if (suggestions.find(near[i].second) == std::string::npos) {
        suggestions += (shown++ ? ", " : "") + near[i].second;
      }
    std::cerr << "error: thundercc has no op '" << name << "'" << (suggestions.empty() ? "" : "; did you mean " + suggestions + "?")
              << " (thundercc ops lists them all)\n";
    return 1;
  }
  for (const Symbol* s : found) {
    print_op_line(*s);
    OpFacts f = facts_of(*s);
    std::cout << "  " << f.kind << "; run whole by: " << f.whole << "; gradient: " << f.grad << "\n";
  }
  return 0;
}

}  // namespace

// `thundercc run ...` and `thundercc package ...` are served by libthundercc_runtime (LibTorch),
// loaded only for them; `entry` is the runtime's function for the command.
int run_with_runtime(const char* entry, int argc, char** argv) {
  auto dir = std::filesystem::read_symlink("/proc/self/exe").parent_path();
  std::string library = (dir / "libthundercc_runtime.so").string();
  if (!std::filesystem::exists(library))  // installed: bin/thundercc, LIBDIR/libthundercc_runtime.so
    library = (dir.parent_path() / THUNDERCC_INSTALLED_LIBDIR / "libthundercc_runtime.so").string();
  void* handle = dlopen(library.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!handle) {
    std::fprintf(stderr, "error: cannot load the runtime %s: %s\n", library.c_str(), dlerror());
    return 1;
  }
  using Main = int (*)(int, char**);
  auto command_main = reinterpret_cast<Main>(dlsym(handle, entry));
  if (!command_main) {
    std::fprintf(stderr, "error: %s has no %s\n", library.c_str(), entry);
    return 1;
  }
  return command_main(argc, argv);
}

// A validator for an option naming one of `choices`: it turns the name into the value for CLI11 to
// store, and help and errors list the names (CLI11's CheckedTransformer prints an enum's mapping
// as "{stable->,thunder->}").
template <class T>
CLI::Validator one_of(const std::map<std::string, T>& choices) {
  std::string names;
  for (const auto& [name, value] : choices) names += (names.empty() ? "" : ", ") + name;
  return CLI::Validator(
      [choices, names](std::string& input) -> std::string {
        auto it = choices.find(input);
        if (it == choices.end()) return "'" + input + "' is not one of " + names;
        input = std::to_string(static_cast<int64_t>(it->second));
        return "";
      },
      "one of " + names);
}

int main(int argc, char** argv) {
  // Ctrl-C leaves no temporary file and no child behind.
  install_interrupt_handlers(argc >= 2 && std::string_view(argv[1]) == "reduce");
  if (argc >= 2 && std::string_view(argv[1]) == "run") return run_with_runtime("thundercc_run_main", argc - 1, argv + 1);
  if (argc >= 2 && std::string_view(argv[1]) == "package") return run_with_runtime("thundercc_package_main", argc - 1, argv + 1);

  auto logger = spdlog::stderr_color_st("thundercc");
  logger->set_pattern("%^%l%$: %v");
  spdlog::set_default_logger(logger);

  CLI::App app{"thundercc: a trace compiler for PyTorch programs, in the style of Lightning Thunder"};
  app.footer("thundercc run PLAN [options]: execute a plan with LibTorch (thundercc run --help)\n"
             "thundercc package PLAN --weights STATE_DICT.pt -o FILE.tcc: the plan and its weights in one file (thundercc package --help)");
  app.require_subcommand(1);
  // The formats' versions beside the program's: what a plan or trace of this build must say.
  app.set_version_flag("--version", str("thundercc ", THUNDERCC_VERSION, " (trace format ", kTraceFormatVersion, ", plan format ",
                                        plan::kFormatVersion, ")"));
  bool verbose = false;
  app.add_flag("-v,--verbose", verbose, "report progress on stderr");
  app.fallthrough();  // -v after the command too (thundercc validate -v ...)

  std::vector<std::string> validate_paths;
  auto* validate_cmd = app.add_subcommand("validate", "check traces against the schema and the meta functions");
  validate_cmd->add_option("traces", validate_paths, "trace.json files")->required();

  std::string print_path;
  int depth = std::numeric_limits<int>::max();
  auto* print_cmd = app.add_subcommand("print", "print a trace as Thunder does, with its decompositions");
  print_cmd->add_option("trace", print_path, "a trace.json file")->required();
  print_cmd->add_option("--depth", depth, "levels of subsymbols to show (0: none)")->check(CLI::NonNegativeNumber);
  // Values named as Thunder's counter names them, or for the statement that made them.
  const std::map<std::string, NameStyle> name_styles{{"thunder", NameStyle::Thunder}, {"stable", NameStyle::Stable}};
  const char* names_help =
      "thunder: t0, t1, ... as Thunder's counter assigns them (default); stable: named for the module, op and statement "
      "that made them (t_mlp_c_fc_linear_0), so that a change elsewhere in the program renames nothing here";
  NameStyle print_names = NameStyle::Thunder;
  print_cmd->add_option("--names", print_names, names_help)->transform(one_of(name_styles));

  std::vector<std::string> compile_paths, plugins;
  CompileOptions compile_options;
  std::string transform;
  auto* compile_cmd = app.add_subcommand("compile", "write the execution trace (NAME.trace.py) and the plan (NAME.plan.json)");
  compile_cmd->add_option("traces", compile_paths, "trace.json files")->required();
  CLI::Option* compile_out_option = compile_cmd->add_option("-o,--output-dir", compile_options.out_dir, "where to write (default: the current folder)");
  std::string executor_names;  // empty: the default list
  compile_cmd->add_option("--executors", executor_names, "executors in priority order, comma separated (default: plugins', then fuser, then torch)");
  compile_cmd->add_option("--plugin", plugins, "a plugin library to load (repeatable)");
  compile_cmd->add_flag("--print-after-all", compile_options.print_after_all, "also write each pass's trace (NAME.N.py)");
  compile_cmd->add_flag("--emit-cuda", compile_options.emit_cuda,
                        "also generate every fusion region's CUDA kernel: NAME.kernels.cu, its PTX by NVRTC (NAME.kernels.ptx) and the library that runs them under the CUDA emulator (NAME.cuda_emulation.so, for thundercc run --cuda-emulate)");
  compile_cmd->add_option("--transform", transform, "grad: one trace returning the input gradients (outputs seeded with ones)")
      ->check(CLI::IsMember({"grad"}));
  compile_cmd->add_option("--seed", compile_options.seed, "the seed the plan records for its random ops (default 0)")
      ->check(cli::whole_number(0, INT64_MAX));
  compile_cmd->add_flag("--time-passes", compile_options.time_passes, "print the wall time of each phase and pass on stderr");
  compile_cmd->add_option("--names", compile_options.names, names_help)->transform(one_of(name_styles));
  const std::map<std::string, Distributed::Mode> distributed_modes{{"ddp", Distributed::Mode::Ddp}, {"fsdp", Distributed::Mode::Fsdp}};
  auto* distributed_option =
      compile_cmd
          ->add_option("--distributed", compile_options.distributed.mode,
                       "a data-parallel training step (run under torchrun): ddp, the backward averages each gradient over the "
                       "ranks; fsdp, the parameters are sharded over --world-size ranks too, gathered to be used, their "
                       "gradients reduce-scattered")
          ->transform(one_of(distributed_modes));
  compile_cmd->add_option("--world-size", compile_options.distributed.world_size, "fsdp: the number of ranks the plan runs on")
      ->check(CLI::Range(1, 1 << 16));
  auto* zero_option =
      compile_cmd->add_option("--zero", compile_options.distributed.zero,
                              "fsdp: 2 (default), the forward saves the gathered parameters the backward reads; 3, the backward "
                              "gathers them again, so that no whole parameter outlives its use")
          ->check(CLI::IsMember({2, 3}));
  const CLI::Validator finite = cli::finite_number();
  double bucket_mb = 25;
  auto* bucket_option = compile_cmd->add_option("--bucket-mb", bucket_mb, "ddp: all-reduce the gradients in buckets of this many MB (default 25, as PyTorch DDP's bucket_cap_mb; 0: each gradient alone)")
      ->check(finite & CLI::Range(0.0, 1e6))
      ->needs(distributed_option);
  const std::map<std::string, Optimizer::Kind> optimizers{{"sgd", Optimizer::Kind::Sgd}, {"adamw", Optimizer::Kind::AdamW}};
  auto* optimizer_option =
      compile_cmd
          ->add_option("--optimizer", compile_options.optimizer.kind,
                       "sgd or adamw: the training step ends with torch.optim's update of the parameters, in place (run --steps N trains)")
          ->transform(one_of(optimizers));
  std::optional<double> lr, weight_decay;
  std::vector<double> betas;
  compile_cmd->add_option("--lr", lr, "the learning rate (adamw: default 0.001; sgd: required)")->check(finite & CLI::PositiveNumber)->needs(optimizer_option);
  compile_cmd->add_option("--momentum", compile_options.optimizer.momentum, "sgd: momentum (default 0)")
      ->check(finite & CLI::Range(0.0, 1.0))->needs(optimizer_option);
  compile_cmd->add_option("--weight-decay", weight_decay, "weight decay (default: sgd 0, adamw 0.01, as torch.optim's)")
      ->check(cli::finite_number_from(0))->needs(optimizer_option);
  // As torch.optim.AdamW: a beta of 1 divides by 1 - beta^t = 0 (every loss NaN).
  const CLI::Validator below_one([](std::string& text) -> std::string { return std::strtod(text.c_str(), nullptr) < 1 ? "" : "must be below 1, but got " + text; }, "<1");
  compile_cmd->add_option("--betas", betas, "adamw: B1,B2 (default 0.9,0.999), each in [0, 1)")->delimiter(',')->expected(2)
      ->check(finite & CLI::Range(0.0, 1.0) & below_one)->needs(optimizer_option);
  compile_cmd->add_option("--eps", compile_options.optimizer.eps, "adamw: added to the denominator (default 1e-8)")
      ->check(finite & CLI::PositiveNumber)->needs(optimizer_option);

  std::string diff_a, diff_b;
  int diff_context = 3;
  NameStyle diff_names = NameStyle::Stable;
  auto* diff_cmd = app.add_subcommand(
      "diff", "compare two traces (trace.json) or printed traces by structure, ignoring how values are named; exit 0 if the same, 1 if not, 2 on a bad file");
  diff_cmd->add_option("a", diff_a, "the trace before")->required();
  diff_cmd->add_option("b", diff_b, "the trace after")->required();
  diff_cmd->add_option("-U,--context", diff_context, "unchanged lines shown around a change (default 3)")->check(CLI::NonNegativeNumber);
  diff_cmd->add_option("--names", diff_names, "how a trace.json's values are named in the diff (default stable)")
      ->transform(one_of(name_styles));

  bool prims_only = false, torch_only = false, ids_only = false;
  auto* ops_cmd = app.add_subcommand("ops", "list every symbol with its signature");
  ops_cmd->add_flag("--prims", prims_only, "only the prims");
  ops_cmd->add_flag("--torch", torch_only, "only the torch language");
  ops_cmd->add_flag("--ids", ids_only, "only the ids and aliases, one per line");
  std::string op_name;
  ops_cmd->add_option("name", op_name, "look one op up (an id, an alias, or a name such as softmax) and suggest near names");
  std::string ops_format = "text";
  ops_cmd->add_option("--format", ops_format, "text, or markdown: the coverage table (docs/ops.md)")
      ->check(CLI::IsMember({"text", "markdown"}));

  ReduceOptions reduce_options;
  std::string reduce_path;
  auto* reduce_cmd = app.add_subcommand(
      "reduce", "shrink a failing trace.json to a smallest program that fails the same way (delta debugging), written as NAME.reduced.json with an eager PyTorch script NAME.reduced.py");
  reduce_cmd->add_option("trace", reduce_path, "a trace.json file")->required();
  reduce_cmd->add_option("compile_options", reduce_options.compile_options,
                         "after --: compile's options for every candidate (-- --optimizer sgd --lr 0.1, --distributed ddp, --names stable)");
  const std::map<std::string, Failure> failures{
      {"compile-fails", Failure::CompileFails}, {"run-fails", Failure::RunFails}, {"differs", Failure::Differs}};
  reduce_cmd
      ->add_option("--until", reduce_options.until,
                   "the failure to keep: compile-fails, thundercc compile exits with an error; run-fails, its plan's run on "
                   "random inputs does; differs, the plan's outputs or gradients differ from the plan compiled with --executors torch")
      ->transform(one_of(failures))
      ->required();
  reduce_cmd->add_option("-o,--output-dir", reduce_options.out_dir, "where to write (default: the current folder)");
  reduce_cmd->add_option("--expect-error", reduce_options.expect_error,
                         "the same failure is one whose output has this text (default: the first error line, numbers aside)");
  reduce_cmd->add_option("--executors", reduce_options.executors, "compile's --executors for every candidate");
  reduce_cmd->add_option("--plugin", plugins, "a plugin library, loaded by every compile and run (repeatable)");
  reduce_cmd->add_option("--rtol", reduce_options.rtol, "differs: the relative tolerance (default 1e-3: a candidate's inputs are random, and float rounding that sums in another order differs by more than float32's default 1.3e-6)")->check(cli::finite_number_from(0));
  reduce_cmd->add_option("--atol", reduce_options.atol, "differs: the absolute tolerance (default 1e-3)")->check(cli::finite_number_from(0));
  reduce_cmd->add_option("--seed", reduce_options.seed, "run's --seed: the random inputs' and the random ops' (default 0)")
      ->check(cli::whole_number(0, INT64_MAX));
  reduce_cmd->add_option("--timeout", reduce_options.timeout_seconds, "seconds a compile or a run may take (default 300, at most a day)")
      ->check(finite & CLI::Range(1e-3, 86400.0));

  try {
    app.parse(argc, argv);
    // The optimizer's options that depend on which it is; torch.optim's defaults for the rest.
    Optimizer& optimizer = compile_options.optimizer;
    const bool sgd = optimizer.kind == Optimizer::Kind::Sgd;
    if (sgd && !lr) throw CLI::ValidationError("--optimizer sgd needs --lr (torch.optim.SGD has no default learning rate)");
    if (sgd && (!betas.empty() || compile_cmd->get_option("--eps")->count()))
      throw CLI::ValidationError("--betas and --eps are AdamW's: --optimizer sgd takes --lr, --momentum and --weight-decay");
    if (!sgd && compile_cmd->get_option("--momentum")->count())
      throw CLI::ValidationError("--momentum is SGD's: --optimizer adamw takes --lr, --betas, --eps and --weight-decay");
    optimizer.lr = lr.value_or(1e-3);
    optimizer.weight_decay = weight_decay.value_or(sgd ? 0.0 : 1e-2);
    if (!betas.empty()) std::tie(optimizer.beta1, optimizer.beta2) = std::pair(betas[0], betas[1]);
  } catch (const CLI::ParseError& e) {
    // Usage errors exit 2, as Python's argparse does; --help exits 0.
    return app.exit(e) == 0 ? 0 : 2;
  }
  spdlog::set_level(verbose ? spdlog::level::info : spdlog::level::warn);
  if (compile_options.time_passes) PhaseTimer::enable();
  // Registering the built-in symbols and executors takes a few ms and needs no trace; parsing a
  // trace looks no symbol up: a compile's first trace is parsed meanwhile.
  std::optional<ParsedTrace> first_trace;
  if (*compile_cmd && !compile_paths.empty()) first_trace.emplace(compile_paths.front());
  register_builtins();

  try {
    for (const auto& plugin : plugins) load_plugin(plugin, nullptr);
    if (*validate_cmd) return validate(validate_paths);
    if (*compile_cmd) {
      compile_options.mode = transform == "grad" ? GradMode::Inputs : GradMode::Auto;
      compile_options.distributed.bucket_bytes = static_cast<int64_t>(bucket_mb * (1 << 20));
      const bool fsdp = compile_options.distributed.mode == Distributed::Mode::Fsdp;
      // Usage errors: exit 2, as CLI11's.
      const char* misuse = fsdp && compile_options.distributed.world_size == 0 ? "--distributed fsdp needs --world-size N: the parameters' shards depend on it"
                           : !fsdp && compile_options.distributed.world_size > 0 ? "--world-size is for --distributed fsdp (a ddp plan runs on any number of ranks)"
                           : !fsdp && zero_option->count() ? "--zero is for --distributed fsdp --world-size N"
                           : fsdp && bucket_option->count() ? "--bucket-mb is for --distributed ddp (fsdp gathers and reduces each parameter alone)"
                                                            : nullptr;
      if (misuse) {
        spdlog::error("{}", misuse);
        return 2;
      }
      compile_options.executors = executor_list(executor_names);
      // Writing into the current folder is the default, but not a silent one.
      if (!compile_out_option->count())
        std::fprintf(stderr, "thundercc compile: writing into the current folder (-o DIR writes elsewhere)\n");
      return compile(compile_paths, compile_options, first_trace ? &*first_trace : nullptr);
    }
    if (*print_cmd) return print(print_path, depth, print_names);
    if (*reduce_cmd) {
      executor_list(reduce_options.executors);  // an unknown executor is an error now, not a failure of every candidate
      reduce_options.plugins = plugins;
      reduce_file(reduce_path, reduce_options);
      return 0;
    }
    if (*diff_cmd) return diff(diff_a, diff_b, diff_context, diff_names);
    if (*ops_cmd) return op_name.empty() ? list_ops(prims_only, torch_only, ids_only, ops_format) : look_up_op(op_name);
  } catch (const Interrupted&) {
    spdlog::error("interrupted: nothing was written");
    return 130;  // as a shell reports a process that SIGINT ended
  } catch (const LoadError& e) {
    spdlog::error("{}", e.what());
    return 1;
  } catch (const ThunderError& e) {
    spdlog::error("{}", e.what());
    return 1;
  } catch (const std::runtime_error& e) {
    spdlog::error("{}", e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    spdlog::error("out of memory: the input asks for more memory than this machine has");
    return 1;
  } catch (const std::exception& e) {
    spdlog::error("internal error: {}", e.what());
    return 2;
  }
  return 0;
}
