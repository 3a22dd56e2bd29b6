// The reducer: delta debugging over a failing trace's statements, then over the values it returns.
// A candidate keeps some of the program's statements in order; a value a kept statement reads but
// no kept statement makes becomes an input of the candidate (with the metadata it had), and the
// candidate returns the values its statements make and none of them reads. Each candidate is
// compiled and run by this same executable in processes of their own (a crash or a hang is an
// outcome like any other), and "fails the same way" means: the same error (its first error line up
// to numbers, or the text given with --expect-error), or for `differs`, outputs or gradients that
// differ from the torch executor's run of the same candidate on the same random inputs.
#include "thundercc/driver/reduce.h"

#include <spdlog/spdlog.h>
#include <stdlib.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstring>
#include <iomanip>
#include <limits>
#include <filesystem>
#include <iostream>
#include <numeric>
#include <set>
#include <unordered_set>

#include "thundercc/errors.h"
#include "thundercc/ir/pyliteral.h"
#include "thundercc/ir/rewrite.h"
#include "thundercc/serialize/trace_file.h"
#include "thundercc/support/delta_debugging.h"
#include "thundercc/support/files.h"
#include "thundercc/support/progress.h"
#include "thundercc/support/subprocess.h"

namespace fs = std::filesystem;

namespace thundercc {
namespace {

const char* failure_name(Failure f) {
  switch (f) {
    case Failure::CompileFails: return "compile-fails";
    case Failure::RunFails: return "run-fails";
    case Failure::Differs: return "differs";
  }
  return "";
}

const char* how_it_passes(Failure f) {
  switch (f) {
    case Failure::CompileFails: return "it compiles";
    case Failure::RunFails: return "its plan runs on random inputs (run --fill random)";
    case Failure::Differs:
      return "its outputs and gradients match the torch executor's on random inputs (run --fill random), within --rtol and --atol";
  }
  return "";
}

// A folder of its own under the system's temporary folder, removed with everything in it.
class TemporaryFolder {
 public:
  TemporaryFolder() {
    std::string pattern = (fs::temp_directory_path() / "thundercc-reduce-XXXXXX").string();
    if (!::mkdtemp(pattern.data())) throw std::runtime_error(str("cannot make a temporary folder: ", std::strerror(errno)));
    path_ = pattern;
  }
  ~TemporaryFolder() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  fs::path path_;
};

// The original's statements at `statements` (indices, in order) as a program of their own: what
// they read and do not make comes in as inputs; they return `returned`, or when it is null, every
// value they make that none of them reads.
Trace candidate_trace(const Trace& original, const std::vector<size_t>& statements, const std::vector<Value>* returned = nullptr) {
  Trace t;
  t.name = original.name;
  std::unordered_set<const void*> made, read;
  std::vector<Value> read_from_outside;
  for (size_t i : statements) {
    const BoundSymbol& b = original.bound_symbols[i];
    for (const auto& v : b.input_proxies()) {
      const void* key = proxy_key(v);
      if (!made.count(key) && !read.count(key)) read_from_outside.push_back(v);
      read.insert(key);
    }
    for (const auto& v : b.output_proxies()) made.insert(proxy_key(v));
    t.bound_symbols.push_back(b);
  }
  std::unordered_set<const void*> original_inputs;
  for (const auto& in : original.inputs) {
    bool used = false;
    for_each_proxy(in.value, [&](const Value& v) {
      original_inputs.insert(proxy_key(v));
      used = used || read.count(proxy_key(v));
    });
    if (used) t.inputs.push_back(in);
  }
  for (const auto& v : read_from_outside)
    if (!original_inputs.count(proxy_key(v)))
      t.inputs.push_back({v.is_tensor() ? v.as_tensor().name() : v.as_number_proxy()->name, v, {}, {}});
  Values outputs;
  if (returned) {
    outputs = *returned;
  } else {
    for (const auto& b : t.bound_symbols)
      for (const auto& v : b.output_proxies())
        if (!read.count(proxy_key(v))) outputs.push_back(v);
  }
  t.output = Value::tuple(std::move(outputs));
  return t;
}

// The kept statements that the returned values depend on.
std::vector<size_t> statements_reaching(const Trace& original, const std::vector<size_t>& statements, const std::vector<Value>& returned) {
  std::unordered_set<const void*> needed;
  for (const auto& v : returned) needed.insert(proxy_key(v));
  std::vector<size_t> kept;
  for (auto it = statements.rbegin(); it != statements.rend(); ++it) {
    const BoundSymbol& b = original.bound_symbols[*it];
    bool reaches = false;
    for (const auto& v : b.output_proxies()) reaches = reaches || needed.count(proxy_key(v));
    if (!reaches) continue;
    for (const auto& v : b.input_proxies()) needed.insert(proxy_key(v));
    kept.insert(kept.begin(), *it);
  }
  return kept;
}

std::vector<Value> returned_values(const Trace& t) {
  std::vector<Value> values;
  for_each_proxy(t.output, [&](const Value& v) { values.push_back(v); });
  return values;
}

struct Outcome {
  bool failed = false;    // in the way asked (compile-fails: the compile; run-fails: the run; differs: the comparison)
  std::string signature;  // what the failure looks like, numbers masked; empty when it did not fail
  std::string message;    // the failure as the user reads it: its first error message, as printed
  std::string output;     // what the failing process printed
  // Differs: the furthest difference over its tolerance (infinite for a shape, dtype or integer
  // mismatch). Float rounding makes differences of a few tolerances where the program's values
  // are random; a bug's are far larger, and a candidate keeps a bug only if it keeps its size.
  double excess = 0;
};

// The largest "(a difference of D, A allowed)" that `run --expect` printed, as D / A.
double largest_excess(const std::string& output) {
  static const std::string kMarker = "(a difference of ";
  double largest = 0;
  bool mismatch_without_size = false;
  for (size_t at = 0; (at = output.find("error: ", at)) != std::string::npos; ++at) {
    size_t line_end = output.find('\n', at);
    std::string line = output.substr(at, line_end == std::string::npos ? std::string::npos : line_end - at);
    size_t marker = line.find(kMarker);
    if (marker == std::string::npos) {
      mismatch_without_size = true;
      continue;
    }
    double difference = 0, allowed = 0;
    if (std::sscanf(line.c_str() + marker + kMarker.size(), "%lf, %lf allowed", &difference, &allowed) != 2) continue;
    // A NaN against a number differs by NaN: as a shape mismatch does, past any tolerance.
    double excess = std::isnan(difference) || std::isnan(allowed) ? std::numeric_limits<double>::infinity() : difference / allowed;
    largest = std::max(largest, excess);
  }
  return mismatch_without_size ? std::numeric_limits<double>::infinity() : largest;
}

// A process's first error message (its "error: " line and the lines that continue it), or how it
// ended when it printed none, without the temporary folder's path.
std::string first_error(const ProcessResult& r, const std::string& temporary_folder) {
  if (r.timed_out) return "timed out";
  if (r.signal) return str("killed by signal ", r.signal, " (", strsignal(r.signal), ")");
  std::string message, last;
  size_t start = 0;
  while (start < r.output.size()) {
    size_t end = r.output.find('\n', start);
    if (end == std::string::npos) end = r.output.size();
    std::string l = r.output.substr(start, end - start);
    if (!l.empty()) last = l;
    bool starts_message = l.rfind("error: ", 0) == 0;
    if (message.empty() ? starts_message : !starts_message && l.rfind("  ", 0) == 0) message += (message.empty() ? "" : "\n") + l;
    else if (!message.empty()) break;
    start = end + 1;
  }
  if (message.empty()) message = last;
  for (size_t at; (at = message.find(temporary_folder)) != std::string::npos;) message.erase(at, temporary_folder.size() + 1);
  return message;
}

// The first line of the first error message, numbers masked: statement indices and slots move as
// statements go, the error stays.
std::string signature_of(const std::string& message) {
  std::string line = message.substr(0, message.find('\n'));
  std::string masked;
  for (char c : line)
    if (!std::isdigit(static_cast<unsigned char>(c))) masked += c;
    else if (masked.empty() || masked.back() != '#') masked += '#';
  return masked;
}

// Compiles and runs candidates, and says how each fails.
class Oracle {
 public:
  Oracle(const ReduceOptions& options, const std::string& name)
      : options_(options), self_(fs::read_symlink("/proc/self/exe").string()), name_(name) {}

  int tests() const { return tests_; }

  Outcome test(const Trace& candidate) {
    ++tests_;
    const fs::path& dir = folder_.path();
    fs::remove_all(dir / "plan");
    fs::remove_all(dir / "reference");
    std::string trace_path = (dir / (name_ + ".json")).string();
    write_file_atomically(trace_path, encode_trace(candidate).dump(1) + "\n");

    std::vector<std::string> compile{self_, "compile", trace_path, "-o", (dir / "plan").string()};
    if (!options_.executors.empty()) compile.insert(compile.end(), {"--executors", options_.executors});
    for (const auto& p : options_.plugins) compile.insert(compile.end(), {"--plugin", p});
    compile.insert(compile.end(), options_.compile_options.begin(), options_.compile_options.end());
    ProcessResult compiled = execute(compile);
    if (options_.until == Failure::CompileFails) return outcome(!compiled.succeeded(), compiled);
    if (!compiled.succeeded()) return {};
    std::string plan = (dir / "plan" / (name_ + ".plan.json")).string();
    bool training = fs::exists(dir / "plan" / (name_ + ".backward.trace.py"));

    if (options_.until == Failure::RunFails) {
      ProcessResult ran = execute(run_command(plan));
      return outcome(!ran.succeeded(), ran);
    }

    // Differs: the same candidate through the torch executor, on the same inputs.
    std::vector<std::string> reference_compile{self_, "compile", trace_path, "-o", (dir / "reference").string(), "--executors", "torch"};
    reference_compile.insert(reference_compile.end(), options_.compile_options.begin(), options_.compile_options.end());
    if (!execute(reference_compile).succeeded()) return {};
    std::string expected = (dir / "reference" / "outputs.pt").string(), expected_grads = (dir / "reference" / "grads.pt").string();
    auto reference = run_command((dir / "reference" / (name_ + ".plan.json")).string());
    reference.insert(reference.end(), {"--outputs", expected});
    if (training) reference.insert(reference.end(), {"--grads-out", expected_grads});
    if (!execute(reference).succeeded()) return {};
    auto run = run_command(plan);
    run.insert(run.end(), {"--expect", expected});
    if (training) run.insert(run.end(), {"--expect-grads", expected_grads});
    run.insert(run.end(), {"--rtol", str(options_.rtol), "--atol", str(options_.atol)});
    ProcessResult compared = execute(run);
    // `run` reports a difference as "error: PLAN: outputs: ..." or "...: gradients: ...".
    bool differs = compared.exit_code == 1 && (compared.output.find(": outputs: ") != std::string::npos ||
                                               compared.output.find(": gradients: ") != std::string::npos);
    if (!differs) return {};
    double excess = largest_excess(compared.output);
    std::string what = str("its outputs or gradients differ from the torch executor's, by up to ", std::setprecision(3), excess, " times the tolerance");
    return {true, what, what, compared.output, excess};
  }

 private:
  std::vector<std::string> run_command(const std::string& plan) const {
    std::vector<std::string> run{self_, "run", plan, "--fill", "random"};
    if (options_.seed) run.insert(run.end(), {"--seed", std::to_string(*options_.seed)});
    for (const auto& p : options_.plugins) run.insert(run.end(), {"--plugin", p});
    return run;
  }

  ProcessResult execute(const std::vector<std::string>& argv) const { return run_process(argv, options_.timeout_seconds); }

  Outcome outcome(bool failed, const ProcessResult& r) const {
    if (!failed) return {};
    std::string message = first_error(r, folder_.path().string());
    return {true, signature_of(message), message, r.output};
  }

  const ReduceOptions& options_;
  std::string self_, name_;
  TemporaryFolder folder_;
  int tests_ = 0;
};

// The Python target a statement's result is assigned to: "t0", "(t2, t3, t4)".
std::string assignment_target(const Value& v) {
  if (v.is_tensor() || v.is_number_proxy()) return py_repr(v);
  if (!v.is_sequence()) return "_";
  std::string out = "(";
  for (const auto& x : v.items()) out += assignment_target(x) + ", ";
  if (!v.items().empty()) out.resize(out.size() - (v.items().size() == 1 ? 1 : 2));
  return out + ")";
}

std::string call_text(const BoundSymbol& b) {
  std::string out = (b.called_as.empty() ? b.sym->id : b.called_as) + "(";
  bool first = true;
  for (const auto& a : b.args) {
    out += first ? "" : ", ";
    append_py_repr(out, a);
    first = false;
  }
  for (const auto& [k, v] : b.kwargs) {
    out += (first ? "" : ", ") + k + "=";
    append_py_repr(out, v);
    first = false;
  }
  return out + ")";
}

// Text a trace or the user gave (a failure's message, file names) as comment lines: each line
// escaped, so that nothing in it becomes a statement of the script.
std::string commented(const std::string& text, const std::string& prefix = "#   ") {
  std::string out;
  for (size_t from = 0;;) {
    size_t end = text.find('\n', from);
    out += prefix + comment_text(std::string_view(text).substr(from, end == std::string::npos ? std::string::npos : end - from)) + "\n";
    if (end == std::string::npos) return out;
    from = end + 1;
  }
}

// A word of a shell command, quoted when it holds more than letters, digits and ./_-+=,:.
std::string shell_word(const std::string& word) {
  const bool plain = !word.empty() && std::all_of(word.begin(), word.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("./_-+=,:", c);
  });
  if (plain) return word;
  std::string out = "'";
  for (char c : word) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string join(const std::vector<std::string>& parts, const std::string& separator) {
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : separator) + p;
  return out;
}

// A PyTorch script that runs the reduced program eagerly on the inputs `thundercc run --fill
// random` draws (same generator, same order), and saves both beside itself for `run --inputs
// ... --expect ...`. The captured calls are torch's own functions, so each statement is one call.
std::string eager_script(const Trace& t, const std::string& stem, const std::string& what, const std::string& failure,
                         const ReduceOptions& options) {
  // Everything a trace or the user gave is data here: comments hold it escaped, literals as reprs.
  std::string compile_flags = options.executors.empty() ? "" : " --executors " + shell_word(options.executors), run_flags;
  for (const auto& p : options.plugins) {  // absolute: the commands run in the script's folder
    compile_flags += " --plugin " + shell_word(fs::absolute(p).string());
    run_flags += " --plugin " + shell_word(fs::absolute(p).string());
  }
  for (const auto& o : options.compile_options) compile_flags += " " + shell_word(o);
  const int64_t seed = options.seed.value_or(0);
  // Python reads an encoding from a comment on the first or the second line (PEP 263: a
  // `coding=utf_7` there would decode escaped text into code): both are fixed text.
  std::string s = "# -*- coding: utf-8 -*-\n# Written by `thundercc reduce`.\n";
  s += commented(what + ", as `thundercc reduce` left it:", "# ") + commented(failure);
  s += "# This runs it in eager PyTorch on the inputs `thundercc run --fill random --seed " + std::to_string(seed) +
       "` draws, and saves\n# them (before the program runs) and its outputs beside this file, so that, in this file's folder,\n";
  s += commented("/usr/bin/python3 " + shell_word(stem + ".py"));
  s += commented("thundercc compile " + shell_word(stem + ".json") + compile_flags);
  s += commented("thundercc run " + shell_word(stem + ".plan.json") + " --inputs " + shell_word(stem + ".inputs.pt") + " --expect " +
                 shell_word(stem + ".expected.pt") + run_flags);
  s += "# compares thundercc's plan with eager PyTorch.\nfrom pathlib import Path\n\nimport torch\n\n\n";
  // Printed traces name dtypes and devices as Thunder's: dtypes.float32, devices.Device("cpu").
  std::set<std::string> dtypes;
  std::function<void(const Value&)> collect = [&](const Value& v) {
    if (v.kind() == Value::Kind::DType) dtypes.insert(str("    ", v.as_dtype().full_name(), " = torch.", v.as_dtype().torch_name(), "\n"));
    if (v.is_sequence())
      for (const auto& x : v.items()) collect(x);
  };
  for (const auto& b : t.bound_symbols) {
    for (const auto& a : b.args) collect(a);
    for (const auto& [k, v] : b.kwargs) collect(v);
  }
  s += "class dtypes:\n    pass\n";
  for (const auto& line : dtypes) s += line;
  s += "\n\nclass devices:\n    Device = torch.device\n\n\n";
  s += "def make_inputs():\n    torch.manual_seed(" + std::to_string(seed) + ")\n";
  std::vector<std::string> arguments, tensors;
  for (const auto& in : t.inputs) {
    for_each_proxy(in.value, [&](const Value& v) {
      if (v.is_number_proxy()) {
        const auto& n = v.as_number_proxy();
        s += "    " + n->name + " = " + (n->value ? py_repr(*n->value) : "0") + "\n";
        return;
      }
      const Tensor& x = v.as_tensor();
      std::string options = str(", dtype=torch.", x.dtype().torch_name(), ", device=", string_repr(x.device().str()), ")");
      s += "    " + x.name() + " = " +
           (x.dtype().is_inexact() ? "torch.randn(" + shape_repr(x.shape()) + options
                                   : "torch.randint(0, 2, " + shape_repr(x.shape()) + options) +
           (x.requires_grad() ? ".requires_grad_()" : "") + "\n";
      tensors.push_back(x.name());
    });
    if (!in.value.is_tensor() && !in.value.is_number_proxy()) s += "    " + in.name + " = " + py_repr(in.value) + "\n";
    arguments.push_back(in.name);
  }
  s += "    return [" + join(arguments, ", ") + "], [" + join(tensors, ", ") + "]\n\n\n";
  s += "def program(" + join(arguments, ", ") + "):\n";
  for (const auto& b : t.bound_symbols) {
    s += "    ";
    if (!b.output.is_none()) s += assignment_target(b.output) + " = ";
    s += call_text(b) + (b.source.empty() ? "" : "  # " + comment_text(b.source)) + "\n";
  }
  s += "    return " + py_repr(t.output) + "\n\n\n";
  // The program runs on copies: a statement may write into its input (add_), and an input that
  // requires grad is a leaf that may not be written.
  s += "if __name__ == \"__main__\":\n    here = Path(__file__).resolve().parent\n    arguments, tensors = make_inputs()\n";
  s += "    torch.save([x.detach().clone() for x in tensors], here / " + string_repr(stem + ".inputs.pt") + ")\n";
  s += "    outputs = program(*[x.clone() if isinstance(x, torch.Tensor) else x for x in arguments])\n";
  // As run writes outputs: one value alone, a sequence's items, a dict's values.
  s += "    outputs = list(outputs.values()) if isinstance(outputs, dict) else outputs if isinstance(outputs, (tuple, list)) else [outputs]\n";
  s += "    torch.save([x.detach() if isinstance(x, torch.Tensor) else x for x in outputs], here / " + string_repr(stem + ".expected.pt") + ")\n";
  s += "    for i, x in enumerate(outputs):\n        print(f\"output {i}:\", x)\n";
  return s;
}

}  // namespace

void reduce_file(const std::string& path, const ReduceOptions& options) {
  const Trace original = read_recorded_trace_file(path);
  const std::string name = fs::path(path).stem().string();
  const std::string stem = name + ".reduced";
  const fs::path out = fs::path(options.out_dir);
  make_output_folder(out.string());  // as compile -o does
  const auto started = std::chrono::steady_clock::now();
  Oracle oracle(options, name);

  Outcome first = oracle.test(original);
  if (!first.failed) {
    throw LoadError(str(path, ": does not fail as --until ", failure_name(options.until), " asks: ", how_it_passes(options.until)));
  }
  // A usage error of the options given after -- fails every candidate alike: not a failure to keep.
  if (first.output.find("Run with --help") != std::string::npos)
    throw LoadError(str(path, ": compile refuses the options given after --: ", first.output.substr(0, first.output.find('\n'))));
  // A hang is a failure to keep, but not when the limit is shorter than any compile or run: then
  // every candidate "fails the same way", and the result would be an arbitrary program.
  if (first.message == "timed out" && oracle.test(candidate_trace(original, {})).message == "timed out")
    throw LoadError(str(path, ": it times out, but so does a program of none of its statements: --timeout ", options.timeout_seconds,
                        " s is shorter than a compile and a run take; give a larger one"));
  if (!options.expect_error.empty() && first.output.find(options.expect_error) == std::string::npos)
    throw LoadError(str(path, ": fails, but its output has no '", options.expect_error, "':\n", first.output));
  const std::string failure = options.expect_error.empty() ? first.signature : options.expect_error;
  const std::string shown = options.expect_error.empty() ? first.message : "an output with '" + options.expect_error + "' in it";
  spdlog::info("{}: {}: {}", path, failure_name(options.until), shown);

  const double least_excess = std::max(1.0, first.excess / 10);
  ProgressLine progress(!spdlog::should_log(spdlog::level::info));
  size_t smallest = original.bound_symbols.size();
  auto same = [&](const Trace& candidate, const std::string& what) {
    progress.show(str("reduce: test ", oracle.tests() + 1, ", trying ", candidate.bound_symbols.size(), " of ", original.bound_symbols.size(),
                      " statements; the smallest that fails so far has ", smallest));
    Outcome o = oracle.test(candidate);
    bool kept = o.failed && (!options.expect_error.empty()        ? o.output.find(failure) != std::string::npos
                             : options.until == Failure::Differs ? o.excess >= least_excess
                                                                  : o.signature == failure);
    if (kept) smallest = std::min(smallest, candidate.bound_symbols.size());
    spdlog::info("test {}: {} statement(s), {} input(s): {}", oracle.tests(), candidate.bound_symbols.size(),
                 candidate.inputs.size(), kept ? "fails the same way (" + what + ")" : o.failed ? "fails otherwise: " + o.signature : "passes");
    return kept;
  };

  std::vector<size_t> statements(original.bound_symbols.size());
  std::iota(statements.begin(), statements.end(), 0);
  Trace reduced = original;
  // Every statement, returning what nothing reads: where the search over statements starts.
  if (same(candidate_trace(original, statements), "every statement")) {
    statements = ddmin<size_t>(statements, [&](const std::vector<size_t>& s) { return same(candidate_trace(original, s), "statements"); });
    // Then the values it returns, then the statements none of those needs.
    Trace whole = candidate_trace(original, statements);
    std::vector<Value> leaves = returned_values(whole);
    std::vector<size_t> indices(leaves.size());
    std::iota(indices.begin(), indices.end(), 0);
    auto pick = [&](const std::vector<size_t>& kept) {
      std::vector<Value> values;
      for (size_t i : kept) values.push_back(leaves[i]);
      return values;
    };
    std::vector<Value> returned = pick(ddmin<size_t>(indices, [&](const std::vector<size_t>& kept) {
      std::vector<Value> values = pick(kept);
      return same(candidate_trace(original, statements, &values), "outputs");
    }));
    reduced = candidate_trace(original, statements, &returned);
    std::vector<size_t> needed = statements_reaching(original, statements, returned);
    if (needed.size() < statements.size() && same(candidate_trace(original, needed, &returned), "needed statements"))
      reduced = candidate_trace(original, needed, &returned);
  } else {
    spdlog::warn("{}: the failure needs the program's own outputs: only its statements' order is kept", path);
  }

  AtomicFiles files;
  files.add((out / (stem + ".json")).string(), encode_trace(reduced).dump(1) + "\n");
  files.add((out / (stem + ".py")).string(),
            eager_script(reduced, stem, str("The smallest program of ", path, " found that ", failure_name(options.until)), shown, options));
  files.commit();
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  std::cout << path << ": " << failure_name(options.until) << ": " << shown << "\n"
            << "reduced from " << original.bound_symbols.size() << " statements to " << reduced.bound_symbols.size() << ", "
            << original.inputs.size() << " inputs to " << reduced.inputs.size() << ", in " << oracle.tests() << " tests ("
            << str(std::fixed, std::setprecision(1), seconds) << " s): " << (out / (stem + ".json")).string() << ", "
            << (out / (stem + ".py")).string() << "\n";
  for (const auto& b : reduced.bound_symbols)
    std::cout << "  " << (b.output.is_none() ? "" : assignment_target(b.output) + " = ") << call_text(b)
              << (b.source.empty() ? "" : "  # " + comment_text(b.source)) << "\n";  // no terminal escapes from a trace
}

}  // namespace thundercc
