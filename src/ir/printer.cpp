#include "thundercc/ir/printer.h"

#include <map>
#include <set>

#include "thundercc/ir/pyliteral.h"

namespace thundercc {
namespace {

// The import line that brings a printing module (or a value namespace) into scope.
const std::map<std::string, std::string>& import_lines() {
  static const std::map<std::string, std::string> lines{
      {"ltorch", "import thunder.torch as ltorch"},
      {"prims", "import thunder.core.prims as prims"},
      {"dtypes", "import thunder.core.dtypes as dtypes"},
      {"devices", "import thunder.core.devices as devices"},
      {"torch", "import torch"},
      {"torchex", "import thunder.executors.torchex as torchex"},
  };
  return lines;
}

std::string print_output(const Value& out) {
  if (out.is_tensor() || out.is_number_proxy()) return py_repr(out);
  if (out.is_sequence()) {
    std::string s = "(";
    const auto& items = out.items();
    for (size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + print_output(items[i]);
    return s + (items.size() == 1 ? ",)" : ")");
  }
  return "_";
}

std::string statement(const BoundSymbol& bsym) {
  if (bsym.sym->printer) return bsym.sym->printer(bsym);
  Kwargs kwargs;
  for (const auto& [k, v] : bsym.kwargs) {
    if (bsym.sym->omit_default_kwargs) {
      int i = bsym.sym->signature.index_of(k);
      if (i >= 0 && bsym.sym->signature.params[i].default_value == v) continue;
    }
    kwargs.emplace_back(k, v);
  }
  std::string call = print_call(*bsym.sym, bsym.args, kwargs);
  if (bsym.output.is_none()) return call;
  std::string line = print_output(bsym.output);
  line += " = ";
  line += call;
  if (bsym.output.is_tensor() || bsym.output.is_number_proxy()) {
    line += "  # ";
    append_py_repr(line, bsym.output);
    line += ": \"";
    if (bsym.output.is_tensor()) bsym.output.as_tensor().meta().append_type_string(line);
    else line += type_string(bsym.output);
    line += '"';
  }
  return line;
}

void print_nested(std::string& out, const BoundSymbol& bsym, const std::string& indent, bool commented, int depth,
                  const PrintOptions& options) {
  for (const auto& h : bsym.header) {
    out += indent;
    out += "# ";
    out += h;
    out += '\n';
  }
  out += indent;
  if (commented) out += "# ";
  out += statement(bsym);
  out += '\n';
  if (depth >= options.depth || bsym.subsymbols.empty()) return;
  std::string deeper = indent + "  ";
  for (const auto& sub : bsym.subsymbols) print_nested(out, sub, deeper, true, depth + 1, options);
}

void note_value_modules(const Value& v, std::set<std::string>& modules) {
  switch (v.kind()) {
    case Value::Kind::DType: modules.insert("dtypes"); break;
    case Value::Kind::Device: modules.insert("devices"); break;
    case Value::Kind::Tuple: case Value::Kind::List:
      for (const auto& x : v.items()) note_value_modules(x, modules);
      break;
    default: break;
  }
}

}  // namespace

std::string type_string(const Value& proxy) {
  if (proxy.is_tensor()) return proxy.as_tensor().meta().type_string();
  const auto& n = proxy.as_number_proxy();
  std::string s = number_kind_name(n->kind);
  if (n->value) s += " " + py_repr(*n->value);
  return s;
}

std::string print_call(const Symbol& sym, const Values& args, const Kwargs& kwargs) {
  std::string s = sym.qualified_name();
  s += '(';
  bool first = true;
  for (const auto& a : args) {
    if (!first) s += ", ";
    append_py_repr(s, a);
    first = false;
  }
  for (const auto& [k, v] : kwargs) {
    if (!first) s += ", ";
    (s += k) += '=';
    append_py_repr(s, v);
    first = false;
  }
  s += ')';
  return s;
}

std::string print_bound_symbol(const BoundSymbol& bsym, const PrintOptions& options) {
  std::string out;
  print_nested(out, bsym, "", false, 0, options);
  out.pop_back();  // no trailing newline
  return out;
}

std::string print_trace(const Trace& trace, const PrintOptions& options) {
  std::set<std::string> modules{"torch"};
  bool uses_tensor_methods = false;
  for (const auto& b : trace.bound_symbols) {
    if (b.sym->printer) continue;  // del and the like need no import
    if (b.sym->module == "Tensor") uses_tensor_methods = true;
    else if (b.sym->module.starts_with("torch.")) continue;  // torch.nn.functional.linear needs only `import torch`
    else if (!b.sym->module.empty()) modules.insert(b.sym->module);
    for (const auto& a : b.args) note_value_modules(a, modules);
    for (const auto& [k, v] : b.kwargs) note_value_modules(v, modules);
  }
  std::set<std::string> imports;  // sorted by the text, which sorts by module name
  for (const auto& m : modules) {
    auto it = import_lines().find(m);
    imports.insert(it != import_lines().end() ? it->second : "import " + m);
  }

  std::string out;
  if (!trace.provenance.empty()) out += "# Constructed by " + trace.provenance + "\n";
  for (const auto& line : imports) out += line + "\n";
  if (uses_tensor_methods) out += "from torch import Tensor\n";
  out += "from thunder.executors.torchex import no_autocast\n\n";
  out += "@torch.no_grad()\n@no_autocast\ndef " + trace.name + "(";
  for (size_t i = 0; i < trace.inputs.size(); ++i) out += (i ? ", " : "") + trace.inputs[i].name;
  out += "):\n";
  for (const auto& in : trace.inputs) {
    std::vector<Value> proxies;
    if (in.value.is_tensor() || in.value.is_number_proxy()) proxies.push_back(in.value);
    else in.value.for_each_tensor([&](const Tensor& t) { proxies.emplace_back(t); });
    if (in.value.is_sequence()) out += "  # " + in.name + ": \"Collection\"\n";
    for (const auto& p : proxies) out += "  # " + py_repr(p) + ": \"" + type_string(p) + "\"\n";
    if (in.value.is_sequence() && !proxies.empty()) {  // unpacked as Thunder's unpack_sequence prints
      out += "  ";
      for (const auto& p : proxies) out += py_repr(p) + ", ";
      out += "= " + in.name + "\n";
    }
  }
  for (const auto& b : trace.bound_symbols) print_nested(out, b, "  ", false, 0, options);
  out += "  return " + py_repr(trace.output) + "\n";
  return out;
}

}  // namespace thundercc
