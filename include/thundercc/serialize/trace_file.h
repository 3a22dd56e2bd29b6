// trace.json: the captured program. Reading decodes it into a *recorded* trace, whose bound
// symbols are the calls as the front end saw them (arguments as written, outputs with the metadata
// PyTorch produced); writing encodes a recorded trace back, so read-then-write is the identity.
// load_trace_file also checks the file against the schema and the meta functions and returns the
// trace as thundercc traces it (decompositions included, names as Thunder assigns them or in the stable style).
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "thundercc/errors.h"
#include "thundercc/ir/trace.h"
#include "thundercc/serialize/size_symbols.h"
#include "thundercc/serialize/value_codec.h"

namespace thundercc {

inline constexpr const char* kTraceFormat = "thundercc.trace";
inline constexpr int kTraceFormatVersion = 1;

// Decodes a document that already passed the schema. Throws LoadError on semantic errors
// (undefined or duplicate names, unknown symbols), with `where` prefixing messages.
Trace decode_trace(const nlohmann::json& doc, const std::string& where);
nlohmann::json encode_trace(const Trace& recorded);

// Re-traces a recorded trace: every bound symbol is called again (binding its arguments, running
// its meta function and decomposition) and the computed output metadata must equal the recorded.
// In the stable name style a statement's result is named for its module scope, its op and how
// many such statements came before (t_mlp_c_fc_linear_0), the values its decomposition makes
// after that name (t_mlp_gelu_0_2). A call repeated with the same arguments (the same metadata
// for tensors) is replayed from the first one, renamed; `replayed` (if given) counts those.
Trace retrace(const Trace& recorded, const std::string& where, NameStyle names = NameStyle::Thunder, size_t* replayed = nullptr);

struct LoadedTrace {
  Trace recorded;
  Trace traced;
  // The parsed file. Kept here so that its owner chooses when to free it: freeing a large
  // document takes a good share of loading it (the compile command frees it at exit).
  nlohmann::json document;
  // A capture with --dynamic: its symbolic sizes (the traces above are specialized at their hints).
  std::vector<SizeSymbol> symbols;
};

// Reads, schema-checks, decodes and re-traces a trace.json.
LoadedTrace load_trace_file(const std::string& path, NameStyle names = NameStyle::Thunder);
// The same, from text already in memory (`where` names it in messages).
LoadedTrace load_trace_text(const std::string& text, const std::string& where, NameStyle names = NameStyle::Thunder);
// load_trace_file's two steps, for a caller with other work to do beside the first: reading and
// parsing (which looks no symbol up), then schema-checking, decoding and re-tracing.
nlohmann::json parse_trace_file(const std::string& path);
LoadedTrace load_trace_document(nlohmann::json document, const std::string& where, NameStyle names = NameStyle::Thunder);
// A symbolic trace (a `document` with symbols, already schema-checked) specialized at `sizes`,
// decoded and re-traced; `where` names it in messages.
LoadedTrace load_trace_at_sizes(const nlohmann::json& symbolic, const SizeBinding& sizes, const std::string& where,
                                NameStyle names = NameStyle::Thunder);
// Reads, schema-checks and decodes a trace.json, without re-tracing it: the recorded trace of a
// program whose meta functions reject it (what `thundercc reduce` shrinks).
Trace read_recorded_trace_file(const std::string& path);

}  // namespace thundercc
