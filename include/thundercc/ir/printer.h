// Prints traces exactly as Thunder prints them (thunder-notes section 2): provenance, imports,
// decorators, the signature with one type comment per input, one statement per bound symbol
// with its decomposition as indented comments, and the return. Deterministic: no timings.
#pragma once

#include <limits>
#include <string>

#include "thundercc/ir/trace.h"

namespace thundercc {

struct PrintOptions {
  int depth = std::numeric_limits<int>::max();  // how many levels of subsymbols to show
};

std::string print_trace(const Trace& trace, const PrintOptions& options = {});
// One bound symbol with its subsymbols, unindented: the form used in error messages.
std::string print_bound_symbol(const BoundSymbol& bsym, const PrintOptions& options = {});
// Just the call, without an output: "ltorch.mul(b, a)".
std::string print_call(const Symbol& sym, const Values& args, const Kwargs& kwargs);
// The type string of a proxy: "cpu f32[2, 2]", "int 5".
std::string type_string(const Value& proxy);

}  // namespace thundercc
