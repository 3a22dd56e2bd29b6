#include <algorithm>

#include "thundercc/errors.h"
#include "thundercc/extend.h"

namespace thundercc {

const Symbol& Executor::register_operator(const std::string& name, std::string_view signature, MetaFunction like_or_meta,
                                          const OperatorOptions& options) {
  Symbol s;
  s.id = !options.id.empty() ? options.id : name_ + ":" + (options.module.empty() ? name : options.module + "." + name);
  s.name = name;
  s.module = options.module;
  s.signature = Signature::parse(signature);
  s.meta = std::move(like_or_meta);
  s.is_prim = !options.is_like;
  s.executor = name_;
  s.omit_default_kwargs = options.omit_default_kwargs;
  s.tags = options.tags;
  return SymbolTable::global().add(std::move(s));
}

void Executor::register_implementation(const std::string& symbol_id, Implementation impl) {
  const Symbol& sym = SymbolTable::global().get(symbol_id);
  check(impl.op != nullptr || impl.execution_transform, [&] {
    return str("executor ", name_, ": the implementation of ", symbol_id, " needs an operator or an execution transform");
  });
  implementations_[sym.id] = std::move(impl);
}

const Implementation* Executor::implementation_for(const Symbol& sym, const Args& args) const {
  auto it = implementations_.find(sym.id);
  if (it == implementations_.end()) return nullptr;
  if (it->second.checker && !it->second.checker(args)) return nullptr;
  return &it->second;
}

ExecutorRegistry& ExecutorRegistry::global() {
  static auto* registry = new ExecutorRegistry();  // never destroyed, as the symbol table
  return *registry;
}

Executor& ExecutorRegistry::add(const std::string& name, const std::string& version) {
  check(find(name) == nullptr, [&] { return str("an executor named '", name, "' is already registered"); });
  executors_.push_back(std::make_unique<Executor>(name, version));
  return *executors_.back();
}

Executor* ExecutorRegistry::find(const std::string& name) const {
  for (const auto& e : executors_)
    if (e->name() == name) return e.get();
  return nullptr;
}

Executor& ExecutorRegistry::get(const std::string& name) const {
  Executor* e = find(name);
  if (!e) {
    std::string known;
    for (const auto& x : executors_) known += (known.empty() ? "" : ", ") + x->name();
    throw ThunderError("ValueError", str("unknown executor '", name, "' (known: ", known, ")"));
  }
  return *e;
}

std::vector<const Executor*> ExecutorRegistry::default_list() const {
  std::vector<const Executor*> out;
  for (const auto& e : executors_)
    if (!plugin_of(e->name()).empty()) out.push_back(e.get());
  if (get("fuser").available()) out.push_back(&get("fuser"));
  out.push_back(&get("torch"));
  return out;
}

std::string ExecutorRegistry::plugin_of(const std::string& executor) const {
  auto it = plugins_.find(executor);
  return it == plugins_.end() ? "" : it->second;
}

void ExecutorRegistry::set_plugin(const std::string& executor, const std::string& plugin) { plugins_[executor] = plugin; }

Executor& add_operator_executor(const std::string& name, const std::map<std::string, OperatorMapEntry>& op_map,
                                const std::string& version) {
  Executor& ex = ExecutorRegistry::global().add(name, version);
  for (const auto& [symbol_id, entry] : op_map) {
    const Symbol& sym = SymbolTable::global().get(symbol_id);
    // The operator is shaped like the symbol: same signature, same metadata.
    const Symbol& op = ex.register_operator(entry.impl_name, sym.signature.str(), sym.meta, {.is_like = !sym.is_prim});
    ex.register_implementation(symbol_id, Implementation{.op = &op, .checker = entry.checker});
  }
  return ex;
}

}  // namespace thundercc
