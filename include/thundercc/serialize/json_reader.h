// A JSON reader for the documents thundercc loads, building nlohmann::json twice as fast as
// nlohmann's own parser (whose lexer reads a character at a time through an input adapter), and
// checking the input limits as it goes. It handles what traces and plans hold: ASCII text with
// the common escapes. Anything else it declines rather than guesses at (non-ASCII bytes, \u
// escapes outside the BMP's ASCII-safe range, numbers out of range, malformed text); the caller
// then parses with nlohmann, which gives the reference result or the error message.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

namespace thundercc {

// Called with a problem when an input limit is passed (nesting, key and string lengths, integers
// beyond 64-bit signed); it must throw.
using JsonLimitError = std::function<void(const std::string& problem)>;

// The document, or nullopt where the reader declines the text.
std::optional<nlohmann::json> read_json(std::string_view text, const JsonLimitError& fail);

// The same limits for a text nlohmann parses instead: nesting, checked on the text before parsing
// (brackets inside strings do not count), then keys, strings and integers on its document, each
// value named by the key of its member (the nearest one for items of an array), as read_json does.
void check_json_nesting(std::string_view text, const JsonLimitError& fail);
void check_json_values(const nlohmann::json& doc, const JsonLimitError& fail);

}  // namespace thundercc
