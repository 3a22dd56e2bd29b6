// The extension API, mirroring thunder.extend. An executor says, per symbol, whether it takes a
// particular call (its checker sees the proxies) and how: by one of its own operators, or by an
// execution transform that records any number of operations in place of the call. New operators
// are registered with `like` (a function over proxies whose calls become the operator's
// decomposition, and give its metadata) or `meta` (a function that returns output proxies).
//
// Everything here works on proxies at compile time and never touches LibTorch; what runs the
// operators at run time is registered with the kernels (thundercc/runtime/kernels.h). The built-in
// torch executor is registered through this same API.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "thundercc/ir/trace.h"

namespace thundercc {

using Checker = std::function<bool(const Args&)>;
// Records the operations that replace a call and returns their result (proxies).
using ExecutionTransform = std::function<Value(const Args&)>;
// A joint forward-backward rule (used by autodiff).
using GradTransform = std::function<Value(const Args&)>;

struct Implementation {
  const Symbol* op = nullptr;                // run the call as this operator, with the same arguments
  ExecutionTransform execution_transform;   // or replace it with what this records
  Checker checker;                           // empty: always takes the call
  GradTransform grad_transform;
};

// A pass an executor brings (a fusion pass, say): it runs right after claiming, when the executor
// is in the compilation's executor list. Symbols it makes (a fusion region's) go into
// `compilation_symbols`, the compilation's own table, never the global one. It is given the trace
// to keep (a function of `const Trace&` serves too): a pass may move statements out of it.
struct ExecutorPass {
  std::string name;  // its provenance
  std::function<Trace(Trace, SymbolTable& compilation_symbols)> run;
};

struct OperatorOptions {
  std::string module;                // printed as module.name(...); empty: bare name(...)
  bool is_like = true;               // the function is `like` (traced as a decomposition), else `meta`
  bool omit_default_kwargs = false;  // print keyword arguments only where they differ from the defaults
  std::string id;                    // the operator's id (and its kernel's); default "<executor>:<module.>name"
  std::vector<std::string> tags;     // the symbol's tags: kOutBuffer, kFreshOutputs, ...
};

// Memory planning (plan/memory_plan.h) trusts these tags of an operator. kOutBuffer: its kernel
// writes every tensor output into the buffer the plan gives it (an out= variant), so the output
// is fresh storage the plan may place in its arena; an operator without it may return views of
// its inputs. kOutMayAliasInput: an output's buffer may be an input's of the same shape that
// dies at this statement (each element is read before its place is written, as ATen's
// elementwise kernels do).
// kFreshOutputs: its outputs never share storage with its inputs (checked at run time: an output
// found in the arena is an error), so they keep no input's buffer alive.
inline constexpr const char* kOutBuffer = "OUT_BUFFER";
inline constexpr const char* kFreshOutputs = "FRESH_OUTPUTS";
inline constexpr const char* kOutMayAliasInput = "OUT_MAY_ALIAS_INPUT";

class Executor {
 public:
  Executor(std::string name, std::string version) : name_(std::move(name)), version_(std::move(version)) {}

  const std::string& name() const { return name_; }
  const std::string& version() const { return version_; }

  // A new operation, printed bare as `name(...)` (or `module.name(...)`), identified as
  // "<executor>:<module.>name". `like` is traced as its decomposition; `meta` makes it a leaf.
  const Symbol& register_operator(const std::string& name, std::string_view signature, MetaFunction like_or_meta,
                                  const OperatorOptions& options = {});
  // How this executor runs an existing symbol.
  void register_implementation(const std::string& symbol_id, Implementation impl);

  // The implementation of `sym` this executor would use for this call, or null.
  const Implementation* implementation_for(const Symbol& sym, const Args& args) const;
  const std::map<std::string, Implementation>& implementations() const { return implementations_; }

  void register_pass(ExecutorPass pass) { passes_.push_back(std::move(pass)); }
  const std::vector<ExecutorPass>& passes() const { return passes_; }

  // Whether the executor can run on this machine (the fuser needs a C++ compiler for its kernels);
  // `why` is set to what is missing. An executor that cannot is left out of the default list.
  using Availability = std::function<bool(std::string* why)>;
  void set_availability(Availability check) { availability_ = std::move(check); }
  bool available(std::string* why = nullptr) const { return !availability_ || availability_(why); }

 private:
  std::string name_;
  std::string version_;
  std::map<std::string, Implementation> implementations_;  // by the symbol's canonical id
  std::vector<ExecutorPass> passes_;
  Availability availability_;  // empty: always
};

// Every executor known to this process, in registration order. "torch" is always there.
class ExecutorRegistry {
 public:
  static ExecutorRegistry& global();
  Executor& add(const std::string& name, const std::string& version);
  Executor* find(const std::string& name) const;
  Executor& get(const std::string& name) const;  // throws when unknown
  // The default list: plugins' executors in registration order, then fuser (when the C++
  // compiler its kernels need runs), then torch.
  std::vector<const Executor*> default_list() const;
  // Which plugin registered an executor (empty for built-in ones).
  std::string plugin_of(const std::string& executor) const;
  void set_plugin(const std::string& executor, const std::string& plugin);

 private:
  std::vector<std::unique_ptr<Executor>> executors_;
  std::map<std::string, std::string> plugins_;
};

// The older API of the seeds: add_operator_executor(name, {symbol id: (impl name, checker)}).
// Each entry becomes an operator named `impl name`, shaped like the symbol it implements.
struct OperatorMapEntry {
  std::string impl_name;
  Checker checker;
};
Executor& add_operator_executor(const std::string& name, const std::map<std::string, OperatorMapEntry>& op_map,
                                const std::string& version = "0.1");

}  // namespace thundercc
