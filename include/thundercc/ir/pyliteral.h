// Python literals: parsing the defaults written in signatures ("None", "1e-05", "'mean'", "(1, 2)")
// and printing values as Python's repr does, the form every printed trace uses.
#pragma once

#include <string>
#include <string_view>

#include "thundercc/ir/value.h"

namespace thundercc {

Value parse_py_literal(std::string_view text);

// Python's repr of a float: shortest round-trip digits, "1.0", "1e-05", "1e+16",
// and Thunder's float('inf') / -float('inf') / float('NaN') for non-finite values.
std::string float_repr(double x);

// Python's repr of a str: quotes chosen as Python chooses them, backslashes, quotes and control
// characters escaped, so no text can end the literal.
std::string string_repr(std::string_view s);

// Text for a Python comment, kept on its one line whatever it holds: line breaks and other control
// characters escaped as a str's repr escapes them.
std::string comment_text(std::string_view s);

// Whether `name` can name a value in a printed trace: a Python identifier, not a keyword, and not
// one of the names the printed trace itself uses (torch, ltorch, prims, float, ...).
bool is_printable_name(std::string_view name);

// A value as it appears in a printed trace: proxies by name, constants as Python literals.
std::string py_repr(const Value& v);
// The same, appended to `out` (printing a trace appends every argument of every statement).
void append_py_repr(std::string& out, const Value& v);

}  // namespace thundercc
