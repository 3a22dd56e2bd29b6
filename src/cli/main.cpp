// The thundercc command line. The compile-side commands (validate, print, ops) never load LibTorch.
#include <CLI/CLI.hpp>
#include <spdlog/sinks/stdout_color_sinks.h>
#include <spdlog/spdlog.h>

#include <iostream>

#include "thundercc/errors.h"
#include "thundercc/ir/printer.h"
#include "thundercc/serialize/trace_file.h"

namespace {

using namespace thundercc;

int validate(const std::vector<std::string>& paths) {
  int failures = 0;
  for (const auto& path : paths) {
    try {
      auto loaded = load_trace_file(path);
      spdlog::info("{}: ok ({} bound symbols)", path, loaded.recorded.bound_symbols.size());
    } catch (const LoadError& e) {
      spdlog::error("{}", e.what());
      ++failures;
    }
  }
  return failures == 0 ? 0 : 1;
}

int print(const std::string& path, int depth) {
  auto loaded = load_trace_file(path);
  std::cout << print_trace(loaded.traced, {.depth = depth});
  return 0;
}

int list_ops(bool prims_only, bool torch_only, bool ids_only) {
  for (const Symbol* s : SymbolTable::global().all()) {
    if ((prims_only && !s->is_prim) || (torch_only && s->is_prim)) continue;
    if (ids_only) {
      // Every id a captured program may use, one per line: what the front end accepts.
      std::cout << s->id << "\n";
      for (const auto& a : s->aliases) std::cout << a << "\n";
      continue;
    }
    std::cout << s->id << "(" << s->signature.str() << ")" << (s->is_prim ? "  [prim]" : "");
    if (!s->aliases.empty()) {
      std::cout << "  aliases:";
      for (const auto& a : s->aliases) std::cout << " " << a;
    }
    std::cout << "\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  auto logger = spdlog::stderr_color_st("thundercc");
  logger->set_pattern("%^%l%$: %v");
  spdlog::set_default_logger(logger);

  CLI::App app{"thundercc: a trace compiler for PyTorch programs, in the style of Lightning Thunder"};
  app.require_subcommand(1);
  bool verbose = false;
  app.add_flag("-v,--verbose", verbose, "report progress on stderr");

  std::vector<std::string> validate_paths;
  auto* validate_cmd = app.add_subcommand("validate", "check traces against the schema and the meta functions");
  validate_cmd->add_option("traces", validate_paths, "trace.json files")->required();

  std::string print_path;
  int depth = std::numeric_limits<int>::max();
  auto* print_cmd = app.add_subcommand("print", "print a trace as Thunder does, with its decompositions");
  print_cmd->add_option("trace", print_path, "a trace.json file")->required();
  print_cmd->add_option("--depth", depth, "levels of subsymbols to show (0: none)")->check(CLI::NonNegativeNumber);

  bool prims_only = false, torch_only = false, ids_only = false;
  auto* ops_cmd = app.add_subcommand("ops", "list every symbol with its signature");
  ops_cmd->add_flag("--prims", prims_only, "only the prims");
  ops_cmd->add_flag("--torch", torch_only, "only the torch language");
  ops_cmd->add_flag("--ids", ids_only, "only the ids and aliases, one per line");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // Usage errors exit 2, as Python's argparse does; --help exits 0.
    return app.exit(e) == 0 ? 0 : 2;
  }
  spdlog::set_level(verbose ? spdlog::level::info : spdlog::level::warn);

  try {
    if (*validate_cmd) return validate(validate_paths);
    if (*print_cmd) return print(print_path, depth);
    if (*ops_cmd) return list_ops(prims_only, torch_only, ids_only);
  } catch (const LoadError& e) {
    spdlog::error("{}", e.what());
    return 1;
  } catch (const std::exception& e) {
    spdlog::error("internal error: {}", e.what());
    return 2;
  }
  return 0;
}
