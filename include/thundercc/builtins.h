// What thundercc ships, registered by one explicit call that every program using the library makes
// first (the CLI, the runtime's `run`, the tests, the benchmarks): nothing registers itself on
// first use, so the order is the one written in builtins.cpp and can be read there.
#pragma once

namespace thundercc {

// The prims, the torch language, the grad rules, then the torch and fuser executors (executors
// register operators for the symbols already there). Idempotent.
void register_builtins();

}  // namespace thundercc
