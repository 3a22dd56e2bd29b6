// Traces: a function's signature, its bound symbols in order, and what it returns. A series of
// traces made by passes shares one NameSet, so a name is never reused across the series; names
// come from one counter shared by all prefixes (t0, i1, t2), skipping names already taken.
#pragma once

#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "thundercc/ir/symbol.h"

namespace thundercc {

class NameSet {
 public:
  // The most names one compilation may make: what bounds the work and memory a trace can ask of
  // the compiler (a split into 2^40 pieces, an adaptive pool with a billion windows).
  static constexpr int64_t kMaxNames = 1'000'000;
  std::string make(std::string_view prefix);  // next free "<prefix><counter>"; throws past kMaxNames
  void reserve(const std::string& name);      // throws if already taken
  bool contains(const std::string& name) const { return used_.count(name) != 0; }

 private:
  int64_t counter_ = 0;
  std::unordered_set<std::string> used_;
};

struct TraceInput {
  std::string name;
  Value value;  // a tensor proxy, a number proxy, or a collection of them
};

struct Trace {
  std::string name = "computation";  // the printed function's name
  std::vector<TraceInput> inputs;
  std::vector<BoundSymbol> bound_symbols;
  Value output;
  std::string provenance;  // printed as "# Constructed by <provenance>"
  std::shared_ptr<NameSet> names = std::make_shared<NameSet>();

  // A new trace of the same series: shares the name set and the signature.
  Trace derive(std::string provenance_text) const;
};

// Makes a trace the active one: proxies are named by it and called symbols are recorded into it.
// Scopes nest: a symbol's decomposition is recorded into a nested scope.
class TracingScope {
 public:
  explicit TracingScope(Trace& trace);
  ~TracingScope();
  TracingScope(const TracingScope&) = delete;
  TracingScope& operator=(const TracingScope&) = delete;

 private:
  Trace* previous_trace_;
  std::vector<BoundSymbol>* previous_sink_;
};

namespace tracing {
Trace& active_trace();  // throws if none is active
std::vector<BoundSymbol>& active_sink();
// Redirects recording into `sink` for the lifetime of the guard (used to collect subsymbols).
class SinkGuard {
 public:
  explicit SinkGuard(std::vector<BoundSymbol>& sink);
  ~SinkGuard();

 private:
  std::vector<BoundSymbol>* previous_;
};
// While a prim's meta function runs, its inexact outputs require grad when any input does (and
// no NoGradScope is open).
class GradScope {
 public:
  explicit GradScope(const std::vector<Value>& inputs);
  ~GradScope();

 private:
  bool previous_;
};
// Values made while it is open never require grad (Tensor.detach's, torch.no_grad's).
class NoGradScope {
 public:
  NoGradScope();
  ~NoGradScope();

 private:
  bool previous_;
};
bool outputs_require_grad();
}  // namespace tracing

// A tensor proxy with a given name (inputs keep their names), reserved in the active trace.
Tensor make_named_tensor(const std::string& name, TensorMeta meta);
NumberProxy make_named_number(const std::string& name, NumberKind kind, std::optional<Value> value);

}  // namespace thundercc
