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

// A value as it appears in a printed trace: proxies by name, constants as Python literals.
std::string py_repr(const Value& v);

}  // namespace thundercc
