#include "thundercc/ir/trace.h"

#include "thundercc/errors.h"

namespace thundercc {

namespace {
// The outermost open NameStem's stem, or none. A pointer: a thread_local with a destructor would
// register a TLS destructor in every thread of every program that loads the IR.
thread_local const std::string* g_stem = nullptr;
}  // namespace

std::string NameSet::make(std::string_view prefix) {
  check(static_cast<int64_t>(used_.size()) < kMaxNames,
        [] { return str("the program makes more than ", kMaxNames, " values, the limit of one compilation"); });
  if (style_ == NameStyle::Stable) {
    std::string base = std::string(prefix) + "_" + (g_stem ? *g_stem + "_" : "");
    int64_t& k = stem_counters_[base];
    while (true) {
      std::string name = base + std::to_string(k++);
      if (used_.insert(name).second) return name;
    }
  }
  while (true) {
    std::string name = std::string(prefix) + std::to_string(counter_++);
    if (used_.insert(name).second) return name;
  }
}

void NameSet::reserve(const std::string& name) {
  check(used_.insert(name).second, [&] { return str("the name '", name, "' is already in use"); });
}

Trace Trace::derive(std::string provenance_text) const {
  Trace t;
  t.name = name;
  t.inputs = inputs;
  t.names = names;
  t.provenance = std::move(provenance_text);
  return t;
}

namespace {
thread_local Trace* g_trace = nullptr;
thread_local std::vector<BoundSymbol>* g_sink = nullptr;
thread_local bool g_outputs_require_grad = false;
thread_local bool g_no_grad = false;
}  // namespace

TracingScope::TracingScope(Trace& trace) : previous_trace_(g_trace), previous_sink_(g_sink) {
  g_trace = &trace;
  g_sink = &trace.bound_symbols;
}

TracingScope::~TracingScope() {
  g_trace = previous_trace_;
  g_sink = previous_sink_;
}

namespace tracing {

Trace& active_trace() {
  check(g_trace != nullptr, "no trace is active: symbols can only be called inside a TracingScope");
  return *g_trace;
}

std::vector<BoundSymbol>& active_sink() {
  active_trace();
  return *g_sink;
}

SinkGuard::SinkGuard(std::vector<BoundSymbol>& sink) : previous_(g_sink) { g_sink = &sink; }
SinkGuard::~SinkGuard() { g_sink = previous_; }

GradScope::GradScope(const std::vector<Value>& inputs) : previous_(g_outputs_require_grad) {
  g_outputs_require_grad = false;
  if (g_no_grad) return;
  for (const auto& v : inputs)
    if (v.is_tensor() && v.as_tensor().requires_grad()) g_outputs_require_grad = true;
}
GradScope::~GradScope() { g_outputs_require_grad = previous_; }

NoGradScope::NoGradScope() : previous_(g_no_grad) { g_no_grad = true; }
NoGradScope::~NoGradScope() { g_no_grad = previous_; }

bool outputs_require_grad() { return g_outputs_require_grad; }

NameStem::NameStem(std::string stem) : stem_(std::move(stem)), opened_(g_stem == nullptr && !stem_.empty()) {
  if (opened_) g_stem = &stem_;
}
NameStem::~NameStem() {
  if (opened_) g_stem = nullptr;
}

std::string statement_stem(const BoundSymbol& b) {
  for (const auto& v : b.output_proxies()) {
    const std::string& name = v.is_tensor() ? v.as_tensor().name() : v.as_number_proxy()->name;
    size_t underscore = name.find('_');
    return underscore == std::string::npos ? name : name.substr(underscore + 1);
  }
  return b.sym->name;
}

}  // namespace tracing

Tensor make_named_tensor(const std::string& name, TensorMeta meta) {
  check_shape(meta.shape, meta.dtype);
  tracing::active_trace().names->reserve(name);
  meta.requires_grad = meta.requires_grad && meta.dtype.is_inexact();
  return Tensor(std::make_shared<const TensorProxyNode>(TensorProxyNode{name, std::move(meta)}));
}

NumberProxy make_named_number(const std::string& name, NumberKind kind, std::optional<Value> value) {
  tracing::active_trace().names->reserve(name);
  return std::make_shared<const NumberProxyNode>(NumberProxyNode{name, kind, std::move(value)});
}

}  // namespace thundercc
