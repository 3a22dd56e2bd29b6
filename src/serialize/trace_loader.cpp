// Loading trace.json: parse, check against schemas/trace.schema.json (compiled in), decode, then
// re-trace every bound symbol so its meta function checks the recorded metadata.

#include <cctype>
#include <exception>
#include <optional>
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "thundercc/errors.h"
#include "thundercc/ir/printer.h"
#include "thundercc/ir/pyliteral.h"
#include "thundercc/ir/rewrite.h"
#include "thundercc/serialize/schema.h"
#include "thundercc/serialize/size_symbols.h"
#include "thundercc/serialize/trace_file.h"
#include "thundercc/support/beside.h"
#include "thundercc/support/files.h"
#include "thundercc/support/phase_timer.h"

namespace thundercc {
namespace {

using json = nlohmann::json;

std::string describe(const TensorMeta& m) {
  return m.type_string() + (m.requires_grad ? " (requires_grad=True)" : "");
}

// Walks the recorded and computed outputs together, mapping recorded proxies to computed ones.
void match_outputs(const Value& recorded, const Value& computed, ValueMap& map, std::vector<std::string>& mismatches) {
  if (recorded.is_tensor()) {
    const auto& r = recorded.as_tensor();
    if (!computed.is_tensor()) {
      mismatches.push_back(str("recorded ", r.name(), ": ", describe(r.meta()), "\n  computed: ", py_repr(computed), " (not a tensor)"));
      return;
    }
    const auto& c = computed.as_tensor();
    if (!(r.meta() == c.meta()))
      mismatches.push_back(str("recorded ", r.name(), ": ", describe(r.meta()), "\n  computed ", c.name(), ": ", describe(c.meta())));
    map.set(recorded, computed);
    return;
  }
  if (recorded.is_number_proxy()) {
    const auto& r = recorded.as_number_proxy();
    if (!computed.is_number() || computed.number_kind() != r->kind)
      mismatches.push_back(str("recorded ", r->name, ": ", number_kind_name(r->kind), "\n  computed: ", py_repr(computed)));
    map.set(recorded, computed);
    return;
  }
  if (recorded.is_sequence()) {
    if (!computed.is_sequence() || computed.items().size() != recorded.items().size()) {
      mismatches.push_back(str("recorded a sequence of ", recorded.items().size(), " outputs\n  computed: ", py_repr(computed)));
      return;
    }
    for (size_t i = 0; i < recorded.items().size(); ++i) match_outputs(recorded.items()[i], computed.items()[i], map, mismatches);
  }
}

// The stable name of a statement: its module scope and op, and how many statements of that scope
// and op came before ("h_0_mlp_gelu_0"); a name owes nothing to the statements elsewhere.
class StatementNames {
 public:
  std::string next(const BoundSymbol& b) {
    std::string base;
    for (char c : b.scope) base += std::isalnum(static_cast<unsigned char>(c)) ? c : '_';
    if (!base.empty()) base += '_';
    std::string_view op = b.sym->name;
    while (!op.empty() && op.front() == '_') op.remove_prefix(1);
    while (!op.empty() && op.back() == '_') op.remove_suffix(1);
    base += op;
    return base + "_" + std::to_string(ordinals_[base]++);
  }

 private:
  std::unordered_map<std::string, int64_t> ordinals_;
};

// The one result a statement computed takes the statement's own name (t_mlp_gelu_0 rather than
// the last of its decomposition's values); results passed through, or several results, keep theirs.
void name_result_after_statement(BoundSymbol& b, const std::string& stem, NameSet& names) {
  auto results = b.output_proxies();
  if (results.size() != 1) return;
  const Value& result = results.front();
  const std::string& old = result.is_tensor() ? result.as_tensor().name() : result.as_number_proxy()->name;
  size_t underscore = old.find('_');
  if (underscore == std::string::npos || old.compare(underscore + 1, stem.size() + 1, stem + "_") != 0) return;
  std::string name = old.substr(0, underscore + 1) + stem;
  if (names.contains(name)) return;
  ValueMap rename;
  if (result.is_tensor()) rename.set(result, make_named_tensor(name, result.as_tensor().meta()));
  else rename.set(result, Value(make_named_number(name, result.as_number_proxy()->kind, result.as_number_proxy()->value)));
  rename.apply(b);
}

// Re-tracing remembered: a program repeats itself (a 96-layer stack calls the same ops on the
// same shapes 96 times), and what a call records depends only on its symbol, its arguments'
// values, its tensors' metadata and which arguments are the same tensor. A repeated call is the
// first one's bound symbol with its proxies renamed: the first call's inputs to this call's, the
// proxies it made to names taken again in the order it took them, so the trace is the one calling
// again gives. Thunder's name style only (the stable one names values after their statement), and
// only calls whose made values are all tensors named in one run of the counter.
class RetraceMemo {
 public:
  // The call's key (its tensors, in order of first appearance, into `inputs`), or "" where a
  // number proxy is among its arguments.
  static std::string key(const Symbol& sym, const Values& args, const Kwargs& kwargs, std::vector<Value>& inputs) {
    std::string key = sym.id;
    key += '\0';
    for (const auto& a : args)
      if (!append(key, a, inputs)) return "";
    for (const auto& [k, v] : kwargs) {
      key += k;
      key += '\0';
      if (!append(key, v, inputs)) return "";
    }
    return key;
  }

  enum class Seen { Never, Replayable, NotReplayable };
  Seen seen(const std::string& key) const {
    auto it = calls_.find(key);
    if (it == calls_.end()) return Seen::Never;
    return it->second.replayable ? Seen::Replayable : Seen::NotReplayable;
  }

  // Records a replayable remembered call again, into the active trace.
  void replay(const std::string& key, const std::vector<Value>& inputs, NameSet& names) const {
    const Call& call = calls_.at(key);
    ValueMap rename;
    for (size_t i = 0; i < inputs.size(); ++i) rename.set(call.inputs[i], inputs[i]);
    for (const auto& [prefix, made] : call.made)
      rename.set(made, Tensor(std::make_shared<const TensorProxyNode>(TensorProxyNode{names.make(prefix), made.as_tensor().meta()})));
    BoundSymbol b = call.bsym;
    rename.apply(b);
    tracing::active_sink().push_back(std::move(b));
  }

  // Remembers `bsym`, the call made while the name counter went from `first` to `end`.
  void remember(std::string key, std::vector<Value> inputs, const BoundSymbol& bsym, int64_t first, int64_t end) {
    std::unordered_set<const void*> seen;
    for (const auto& in : inputs) seen.insert(proxy_key(in));
    std::vector<std::pair<int64_t, std::pair<std::string, Value>>> made;
    bool memoizable = true;
    auto visit = [&](const Value& v) {
      if (!seen.insert(proxy_key(v)).second) return;
      if (!v.is_tensor()) {
        memoizable = false;
        return;
      }
      const std::string& name = v.as_tensor().name();
      size_t digits = name.find_last_not_of("0123456789") + 1;
      int64_t number = -1;
      if (digits > 0 && digits < name.size() && name.size() - digits < 18) number = std::stoll(name.substr(digits));
      if (number < first || number >= end) memoizable = false;
      made.push_back({number, {name.substr(0, digits), v}});
    };
    for_each_proxy(bsym, visit);
    Call& call = calls_[std::move(key)];
    if (!memoizable || static_cast<int64_t>(made.size()) != end - first) return;
    std::sort(made.begin(), made.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    call.replayable = true;
    call.bsym = bsym;
    call.inputs = std::move(inputs);
    for (auto& [number, m] : made) call.made.push_back(std::move(m));
  }

 private:
  struct Call {
    bool replayable = false;
    BoundSymbol bsym;
    std::vector<Value> inputs;
    std::vector<std::pair<std::string, Value>> made;  // name prefix and proxy, in the order named
  };

  static bool append(std::string& key, const Value& v, std::vector<Value>& inputs) {
    key += static_cast<char>('A' + static_cast<int>(v.kind()));
    if (v.is_number_proxy()) return false;
    if (v.is_tensor()) {
      const void* id = proxy_key(v);
      size_t i = 0;
      while (i < inputs.size() && proxy_key(inputs[i]) != id) ++i;
      if (i == inputs.size()) inputs.push_back(v);
      key += std::to_string(i);
      v.as_tensor().meta().append_type_string(key);
      if (v.as_tensor().requires_grad()) key += '!';
      key += ';';
      return true;
    }
    if (v.is_sequence()) {
      for (const auto& x : v.items())
        if (!append(key, x, inputs)) return false;
      key += ')';
      return true;
    }
    if (v.kind() == Value::Kind::Dict) {
      for (const auto& [k, x] : v.dict_items()) {
        key += k;
        key += '\0';
        if (!append(key, x, inputs)) return false;
      }
      key += '}';
      return true;
    }
    append_py_repr(key, v);
    key += ';';
    return true;
  }

  std::unordered_map<std::string, Call> calls_;
};

}  // namespace

Trace retrace(const Trace& recorded, const std::string& where, NameStyle names, size_t* replayed) {
  Trace traced;
  traced.name = recorded.name;
  traced.names = std::make_shared<NameSet>(names);
  StatementNames statement_names;
  TracingScope scope(traced);
  ValueMap map;
  RetraceMemo memo;
  // Inputs keep their names and metadata; they are reserved in the new trace's name set.
  for (const auto& in : recorded.inputs) {
    traced.names->reserve(in.name);
    for (const auto& t : tensors_in(in.value))
      if (t.name() != in.name) traced.names->reserve(t.name());
    traced.inputs.push_back(in);
  }
  for (size_t i = 0; i < recorded.bound_symbols.size(); ++i) {
    const auto& b = recorded.bound_symbols[i];
    std::string at = where + ": /bound_symbols/" + std::to_string(i);
    Values args;
    for (const auto& a : b.args) args.push_back(map.apply(a));
    Kwargs kwargs;
    for (const auto& [k, v] : b.kwargs) kwargs.emplace_back(k, map.apply(v));
    // The program's own line, as the front end recorded it, ends every message about a statement.
    std::string line = b.source.empty() ? "" : "\n  at " + b.source;
    std::string stem = names == NameStyle::Stable ? statement_names.next(b) : "";
    try {
      tracing::NameStem naming(stem);
      std::vector<Value> inputs;
      std::string key = names == NameStyle::Thunder ? RetraceMemo::key(*b.sym, args, kwargs, inputs) : "";
      const auto seen = key.empty() ? RetraceMemo::Seen::NotReplayable : memo.seen(key);
      if (seen == RetraceMemo::Seen::Replayable) {
        memo.replay(key, inputs, *traced.names);
        if (replayed) ++*replayed;
      } else {
        const int64_t first = traced.names->counter();
        call(*b.sym, args, kwargs);
        if (seen == RetraceMemo::Seen::Never) memo.remember(std::move(key), std::move(inputs), traced.bound_symbols.back(), first, traced.names->counter());
      }
    } catch (const ThunderError& e) {
      throw LoadError(str(at, ": ", e.type(), ": ", e.what(), "\n  in ", print_call(*b.sym, args, kwargs), line));
    }
    auto& bsym = traced.bound_symbols.back();
    if (names == NameStyle::Stable) name_result_after_statement(bsym, stem, *traced.names);
    const Value& computed = bsym.output;
    bsym.source = b.source;
    bsym.scope = b.scope;
    std::vector<std::string> mismatches;
    match_outputs(b.output, computed, map, mismatches);
    if (!mismatches.empty()) {
      std::string msg = str(at, ": the recorded output metadata do not match the meta function's for\n  ",
                            print_bound_symbol(bsym, {.depth = 0}));
      for (const auto& m : mismatches) msg += "\n  " + m;
      throw LoadError(msg + line);
    }
  }
  traced.output = map.apply(recorded.output);
  return traced;
}

namespace {

// The trace of a schema-checked document: `decoded`, where decoding it as it is succeeded, else
// (a trace with symbols, or size expressions in place of numbers) decoded at its symbols' hints,
// which `symbols` gets.
Trace decode_checked(const json& doc, const std::string& where, std::vector<SizeSymbol>& symbols, std::optional<Trace> decoded,
                     std::exception_ptr failed) {
  try {
    if (decoded) return std::move(*decoded);
    // Without symbols, a size expression is a symbol's unknown value: specializing names it.
    if (failed && !holds_size_expressions(doc)) std::rethrow_exception(failed);
    PhaseTimer timer("decode at the symbols' hints");
    symbols = read_size_symbols(doc, where);
    return decode_trace(specialize_trace(doc, hint_binding(symbols), where), where);
  } catch (const ThunderError& e) {
    throw LoadError(str(where, ": ", e.what()));
  }
}

json parse_trace_text(const std::string& text, const std::string& where) {
  PhaseTimer timer("parse JSON");
  return parse_json_document(text, where);
}

// Schema-checks and decodes a parsed trace.json (a symbolic trace at its hints); `symbols` gets
// its symbols.
Trace decode_trace_document(const json& document, const std::string& where, std::vector<SizeSymbol>& symbols) {
  // Another thundercc file (a plan given to compile) is named for what it is.
  if (document.is_object() && document.contains("format") && document["format"].is_string() && document["format"] != kTraceFormat)
    throw LoadError(str(where, ": /format: '", document["format"].get<std::string>(), "' is not a trace (format '", kTraceFormat,
                        "'); a plan (NAME.plan.json) is run with thundercc run"));
  auto check = [&] {
    PhaseTimer timer("check schema");
    check_schema(document, SchemaKind::Trace, where);
  };
  // A trace without symbols is decoded beside the schema check, on a second thread, since both
  // only read the document (with --time-passes, one after the other, each timed alone). The
  // check's verdict comes first: a document it refuses is reported as such, whatever the decoder
  // made of it, and nothing is re-traced before it passes. The decoder reads every member with
  // checked access, so an invalid document makes it throw, never read out of bounds.
  std::optional<Trace> decoded;
  std::exception_ptr failed;
  auto decode = [&] {
    PhaseTimer timer("decode");
    try {
      decoded = decode_trace(document, where);
    } catch (...) {
      failed = std::current_exception();
    }
  };
  if (document.contains("symbols")) {
    check();
  } else if (PhaseTimer::enabled()) {
    check();
    decode();
  } else {
    auto checking = run_beside(check);
    decode();
    checking.get();
  }
  return decode_checked(document, where, symbols, std::move(decoded), failed);
}

}  // namespace

LoadedTrace load_trace_text(const std::string& text, const std::string& where, NameStyle names) {
  return load_trace_document(parse_trace_text(text, where), where, names);
}

json parse_trace_file(const std::string& path) { return parse_trace_text(read_file(path, limits::kTraceBytes), path); }

LoadedTrace load_trace_document(json document, const std::string& where, NameStyle names) {
  LoadedTrace loaded;
  loaded.document = std::move(document);
  loaded.recorded = decode_trace_document(loaded.document, where, loaded.symbols);
  PhaseTimer timer("re-trace (meta functions)");
  loaded.traced = retrace(loaded.recorded, where, names);
  return loaded;
}

LoadedTrace load_trace_at_sizes(const json& symbolic, const SizeBinding& sizes, const std::string& where, NameStyle names) {
  LoadedTrace loaded;
  try {
    loaded.recorded = decode_trace(specialize_trace(symbolic, sizes, where), where);
  } catch (const ThunderError& e) {
    throw LoadError(str(where, ": ", e.what()));
  }
  loaded.traced = retrace(loaded.recorded, where, names);
  return loaded;
}

Trace read_recorded_trace_file(const std::string& path) {
  std::vector<SizeSymbol> symbols;
  return decode_trace_document(parse_trace_file(path), path, symbols);
}

LoadedTrace load_trace_file(const std::string& path, NameStyle names) {
  PhaseTimer timer("load " + path);
  return load_trace_document(parse_trace_file(path), path, names);
}

}  // namespace thundercc
