// Symbolic sizes in trace.json. A capture with `--dynamic INPUT:DIM[:MIN:MAX]` records a symbol
// for each such dimension (its input, dimension, range and the size it was captured at: its hint)
// and writes every integer of the trace that changes with the sizes as an expression of the
// symbols, {"symint": "16*s0"}. The compiler's meta functions and passes work on concrete shapes:
// a symbolic trace is *specialized*, every expression evaluated, at its hints for `compile` (and
// every other command that reads a trace), and by the runtime at the sizes a call's inputs have.
#pragma once

#include <cstdint>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace thundercc {

struct SizeSymbol {
  std::string name;   // s0, or the name the capture gave it
  std::string input;  // the input whose dimension it is
  int64_t dim = 0;
  int64_t min = 1, max = 1;
  int64_t hint = 1;  // the size captured
  // "s0 = x.shape[0] in [1, 64]"
  std::string describe() const;
};

// Each symbol's value by name.
using SizeBinding = std::map<std::string, int64_t>;

// The document's symbols (none for a static trace), checked: ranges hold their hints, a symbol
// named on several dimensions has one range and hint. Throws LoadError prefixed with `where`.
std::vector<SizeSymbol> read_size_symbols(const nlohmann::json& doc, const std::string& where);
SizeBinding hint_binding(const std::vector<SizeSymbol>& symbols);
// The line a trace printed at its hints starts with ("# Symbolic sizes, ..."); empty for none.
std::string size_symbols_comment(const std::vector<SizeSymbol>& symbols);

// The value of an expression of the symbols (EXPR := SUM | "(" SUM ")/" INT; SUM: terms joined by
// " + " and " - "; a term an integer, or an optional integer coefficient times symbols, joined by
// "*"). Throws ThunderError for bad syntax, an unknown symbol, an overflow, or a division that is
// not exact (the capture fitted it where it was).
int64_t evaluate_size_expression(const std::string& expression, const SizeBinding& values);

// Whether `v` holds a size expression anywhere.
bool holds_size_expressions(const nlohmann::json& v);

// The trace with every {"symint": EXPR} replaced by its value at `values` and "symbols" dropped:
// the static trace a capture at those sizes would have recorded. Throws LoadError naming the
// statement whose expression has no value there (a division that is not exact, a negative size).
nlohmann::json specialize_trace(const nlohmann::json& doc, const SizeBinding& values, const std::string& where);

}  // namespace thundercc
