// The unit tests' entry point: the built-in symbols, grad rules and executors are registered
// first, as every program using thundercc does (builtins.h).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include "thundercc/builtins.h"

int main(int argc, char** argv) {
  thundercc::register_builtins();
  return Catch::Session().run(argc, argv);
}
