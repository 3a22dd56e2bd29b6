// Traces: a function's signature, its bound symbols in order, and what it returns. A series of
// traces made by passes shares one NameSet, so a name is never reused across the series. Names
// come in one of two styles: Thunder's, one counter shared by all prefixes (t0, i1, t2), and the
// stable style, where a name says which statement of the program made it (t_mlp_gelu_0,
// t_mlp_gelu_0_3), so that a change to one statement leaves the names of the others alone and
// printed traces diff by what changed. Either way names already taken are skipped.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "thundercc/ir/symbol.h"

namespace thundercc {

enum class NameStyle : uint8_t { Thunder, Stable };

class NameSet {
 public:
  // The most names one compilation may make: what bounds the work and memory a trace can ask of
  // the compiler (a split into 2^40 pieces, an adaptive pool with a billion windows).
  static constexpr int64_t kMaxNames = 1'000'000;
  explicit NameSet(NameStyle style = NameStyle::Thunder) : style_(style) {}
  // The next free name: "<prefix><counter>" in Thunder's style; in the stable style
  // "<prefix>_<stem>_<k>", k counting within the open tracing::NameStem. Throws past kMaxNames.
  std::string make(std::string_view prefix);
  void reserve(const std::string& name);  // throws if already taken
  bool contains(const std::string& name) const { return used_.count(name) != 0; }
  NameStyle style() const { return style_; }
  // Thunder's style: how many numbered names were taken so far (the next one's number, unless taken).
  int64_t counter() const { return counter_; }

 private:
  NameStyle style_;
  int64_t counter_ = 0;
  std::unordered_map<std::string, int64_t> stem_counters_;  // stable style: "<prefix>_<stem>" -> next k
  std::unordered_set<std::string> used_;
};

struct TraceInput {
  std::string name;
  Value value;  // a tensor proxy, a number proxy, or a collection of them
  // A module's parameter or buffer: the state_dict keys that hold it (several for a tied weight).
  std::vector<std::string> fqn;
  // FSDP (--distributed fsdp): the input is this rank's shard of a tensor of this shape, its
  // first dimension (zero-padded to a multiple of the world size) split evenly over the ranks.
  std::optional<Shape> shard_of;
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
// The stem of the names made while it is open, in the stable style (ignored in Thunder's): the
// statement on whose behalf values are made. The outermost open stem wins, so that values are
// named for the statement of the program they serve, however deep the rewriting that makes them
// (a grad rule run inside the grad transform's statement, a claim inside a region's).
class NameStem {
 public:
  explicit NameStem(std::string stem);
  ~NameStem();
  NameStem(const NameStem&) = delete;
  NameStem& operator=(const NameStem&) = delete;

 private:
  std::string stem_;
  bool opened_;
};
// The stem for values made on behalf of a statement (its grad rule's, its executor's, its fusion
// region's): its first result's name without the "<prefix>_" (t_mlp_gelu_0 -> mlp_gelu_0), or
// its symbol's name for a statement with no result.
std::string statement_stem(const BoundSymbol& b);
}  // namespace tracing

// A tensor proxy with a given name (inputs keep their names), reserved in the active trace.
Tensor make_named_tensor(const std::string& name, TensorMeta meta);
NumberProxy make_named_number(const std::string& name, NumberKind kind, std::optional<Value> value);

}  // namespace thundercc
