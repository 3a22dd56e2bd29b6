// bytes -> trace.json loading: JSON parsing within the limits, the schema, decoding (names,
// symbols, argument binding) and re-tracing against the meta functions (load_trace_text, what
// `thundercc validate` does after reading the file), then encoding the recorded trace back.
#include <cstddef>
#include <cstdint>
#include <string>

#include "fuzz_support.h"
#include "thundercc/builtins.h"
#include "thundercc/serialize/trace_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  thundercc::register_builtins();
  std::string text(reinterpret_cast<const char*>(data), size);
  thundercc_fuzz::rejecting([&] {
    thundercc::LoadedTrace loaded = thundercc::load_trace_text(text, "fuzz.json");
    (void)thundercc::encode_trace(loaded.recorded).dump();
  });
  return 0;
}
