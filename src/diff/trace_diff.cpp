// thundercc diff: aligns two printed traces by structure, ignoring how their values are named.
//
// A name is an identifier the trace defines: a parameter, an assignment's target (in statements
// and in the commented subsymbols) or a region the trace calls (fuser_3). Three steps:
//  1. Myers' diff of the lines with every name erased aligns the programs' structure;
//  2. the names of aligned lines correspond, in order: each name of the first trace is mapped to
//     its counterpart in the second (the first correspondence wins);
//  3. Myers' diff of the first trace renamed so against the second is the real change.
// Step 1 alone would hide a changed operand (a + b against a + c); step 3 shows it.
#include "thundercc/diff/trace_diff.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <limits>
#include <map>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "thundercc/errors.h"
#include "thundercc/ir/printer.h"

namespace thundercc {
namespace {

// A line cut into identifiers and the text between them (strings kept whole, never searched).
struct Token {
  std::string text;
  bool identifier = false;
  bool attribute = false;  // follows a '.': part of a qualified name (prims.add), never a value's name
};

bool starts_identifier(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool continues_identifier(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::vector<Token> tokenize(const std::string& line) {
  std::vector<Token> tokens;
  auto text = [&](char c) {
    if (tokens.empty() || tokens.back().identifier) tokens.push_back({});
    tokens.back().text += c;
  };
  for (size_t i = 0; i < line.size();) {
    char c = line[i];
    if (c == '"' || c == '\'') {  // a string literal: "cpu f32[2, 2]", 'tanh'
      size_t end = i + 1;
      while (end < line.size() && line[end] != c) end += line[end] == '\\' ? 2 : 1;
      for (size_t k = i; k <= std::min(end, line.size() - 1); ++k) text(line[k]);
      i = end + 1;
    } else if (starts_identifier(c) && (i == 0 || !continues_identifier(line[i - 1]))) {
      size_t end = i;
      while (end < line.size() && continues_identifier(line[end])) ++end;
      bool attribute = i > 0 && line[i - 1] == '.';
      tokens.push_back({line.substr(i, end - i), true, attribute});
      i = end;
    } else {
      text(c);
      ++i;
    }
  }
  return tokens;
}

// The statement part of a line: indentation and a comment's "# " taken off.
std::string_view statement_of(std::string_view line) {
  while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
  if (line.starts_with("# ")) line.remove_prefix(2);
  return line;
}

const std::unordered_set<std::string>& python_words() {
  static const std::unordered_set<std::string> words{"def", "return", "del", "import", "from", "as", "None", "True", "False",
                                                     "tuple", "list", "dict", "slice", "float", "int", "bool", "complex"};
  return words;
}

// Every name the trace defines (see the top of the file).
std::unordered_set<std::string> defined_names(const std::vector<std::vector<Token>>& lines, const std::vector<PrintedLine>& printed) {
  std::unordered_set<std::string> names;
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string_view statement = statement_of(printed[i].text);
    const auto& tokens = lines[i];
    if (printed[i].text.starts_with("def ")) {
      for (const auto& t : tokens)
        if (t.identifier && t.text != "def") names.insert(t.text);
      continue;
    }
    // "name: ..." annotates a parameter; "a, b = ...", "(a, b) = ..." assign.
    size_t assign = statement.find(" = ");
    size_t annotation = statement.find(": ");
    size_t lhs_end = assign != std::string_view::npos ? assign : annotation;
    if (lhs_end != std::string_view::npos &&
        std::all_of(statement.begin(), statement.begin() + lhs_end, [](char c) { return continues_identifier(c) || std::strchr("(), []", c); })) {
      for (const auto& t : tokenize(std::string(statement.substr(0, lhs_end))))
        if (t.identifier && !python_words().count(t.text)) names.insert(t.text);
    }
    // A region or helper the trace defines is called by its bare name.
    for (size_t k = 0; k + 1 < tokens.size(); ++k)
      if (tokens[k].identifier && !tokens[k].attribute && !python_words().count(tokens[k].text) && tokens[k + 1].text.starts_with("("))
        names.insert(tokens[k].text);
  }
  return names;
}

struct Analyzed {
  std::vector<std::vector<Token>> tokens;
  std::unordered_set<std::string> names;
  std::vector<std::string> erased;  // each line with its names replaced by one mark
  std::vector<bool> signature;      // the line is a function's signature (def f(a, b):)
};

Analyzed analyze(const std::vector<PrintedLine>& printed) {
  Analyzed a;
  for (const auto& line : printed) {
    a.tokens.push_back(tokenize(line.text));
    a.signature.push_back(line.text.starts_with("def "));
  }
  a.names = defined_names(a.tokens, printed);
  for (const auto& tokens : a.tokens) {
    std::string erased;
    for (const auto& t : tokens) erased += t.identifier && !t.attribute && a.names.count(t.text) ? "\x01" : t.text;
    a.erased.push_back(std::move(erased));
  }
  return a;
}

// Myers' O(ND) diff: the pairs (i, j) of equal lines of the longest common subsequence it finds.
// Past kMaxEdits edits (programs unrelated to each other) the lines between the common prefix
// and suffix are all reported as changed: still a correct diff, only not the shortest.
constexpr int64_t kMaxEdits = 3000;

std::vector<std::pair<size_t, size_t>> common_lines(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  std::vector<std::pair<size_t, size_t>> pairs;
  size_t prefix = 0;
  while (prefix < a.size() && prefix < b.size() && a[prefix] == b[prefix]) pairs.emplace_back(prefix, prefix), ++prefix;
  size_t suffix = 0;
  while (suffix < a.size() - prefix && suffix < b.size() - prefix && a[a.size() - 1 - suffix] == b[b.size() - 1 - suffix]) ++suffix;
  const int64_t n = static_cast<int64_t>(a.size() - prefix - suffix), m = static_cast<int64_t>(b.size() - prefix - suffix);
  auto equal = [&](int64_t x, int64_t y) { return a[prefix + x] == b[prefix + y]; };
  const int64_t limit = std::min(n + m, kMaxEdits);
  std::vector<int64_t> v(2 * limit + 3, 0);
  const int64_t offset = limit + 1;
  std::vector<std::vector<int64_t>> rounds;  // v[-d..d] after round d
  bool found = false;
  for (int64_t d = 0; d <= limit && !found; ++d) {
    for (int64_t k = -d; k <= d; k += 2) {
      int64_t x = (k == -d || (k != d && v[offset + k - 1] < v[offset + k + 1])) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      int64_t y = x - k;
      while (x < n && y < m && equal(x, y)) ++x, ++y;
      v[offset + k] = x;
      if (x >= n && y >= m) found = true;
    }
    rounds.emplace_back(v.begin() + offset - d, v.begin() + offset + d + 1);
  }
  std::vector<std::pair<size_t, size_t>> middle;
  if (found) {
    int64_t x = n, y = m;
    for (int64_t d = static_cast<int64_t>(rounds.size()) - 1; d > 0; --d) {
      const auto& previous = rounds[d - 1];  // v[-(d-1)..d-1]
      auto at = [&](int64_t k) { return previous[k + d - 1]; };
      int64_t k = x - y;
      int64_t prev_k = (k == -d || (k != d && at(k - 1) < at(k + 1))) ? k + 1 : k - 1;
      int64_t prev_x = at(prev_k), prev_y = prev_x - prev_k;
      while (x > prev_x && y > prev_y) middle.emplace_back(--x, --y);
      x = prev_x, y = prev_y;
    }
    while (x > 0 && y > 0) middle.emplace_back(--x, --y);
    std::reverse(middle.begin(), middle.end());
  }
  for (auto [x, y] : middle) pairs.emplace_back(prefix + x, prefix + y);
  for (size_t s = suffix; s > 0; --s) pairs.emplace_back(a.size() - s, b.size() - s);
  return pairs;
}

// The first trace's lines with its names replaced by their counterparts in the second. The
// parameters of aligned signatures correspond first, in order (a program's inputs keep their
// identity); then each aligned line votes for the correspondences of its names, taken one to one,
// the most voted first (a value is used on many lines, a line aligned by chance votes once).
std::vector<std::string> renamed_onto(const Analyzed& a, const Analyzed& b, const std::vector<std::pair<size_t, size_t>>& aligned) {
  auto names_of = [](const Analyzed& t, size_t line) {
    std::vector<std::string> out;
    for (const auto& tok : t.tokens[line])
      if (tok.identifier && !tok.attribute && t.names.count(tok.text)) out.push_back(tok.text);
    return out;
  };
  struct Votes {
    int64_t count = 0;
    size_t first = 0;  // the first vote's order: ties go to the earlier correspondence
  };
  std::map<std::pair<std::string, std::string>, Votes> votes;
  constexpr int64_t kParameter = std::numeric_limits<int64_t>::max();
  size_t order = 0;
  for (auto [i, j] : aligned) {
    auto from = names_of(a, i), to = names_of(b, j);
    bool signature = a.signature[i];
    for (size_t k = 0; k < from.size() && k < to.size(); ++k) {
      auto [it, inserted] = votes.try_emplace({from[k], to[k]}, Votes{0, order++});
      it->second.count = signature ? kParameter : it->second.count + (it->second.count != kParameter);
    }
  }
  std::vector<std::pair<const std::pair<std::string, std::string>*, Votes>> ranked;
  for (const auto& [pair, v] : votes) ranked.emplace_back(&pair, v);
  std::sort(ranked.begin(), ranked.end(), [](const auto& x, const auto& y) {
    return x.second.count != y.second.count ? x.second.count > y.second.count : x.second.first < y.second.first;
  });
  std::unordered_map<std::string, std::string> onto;
  std::unordered_set<std::string> taken;
  for (const auto& [pair, v] : ranked)
    if (!onto.count(pair->first) && !taken.count(pair->second)) {
      onto[pair->first] = pair->second;
      taken.insert(pair->second);
    }
  // A name of A with no counterpart that B uses for another value is primed (t124'): the diff
  // never shows one name for two values.
  for (const auto& name : a.names)
    if (!onto.count(name) && b.names.count(name)) onto[name] = name + "'";
  std::vector<std::string> out;
  for (const auto& tokens : a.tokens) {
    std::string line;
    for (const auto& t : tokens) {
      auto it = t.identifier && !t.attribute ? onto.find(t.text) : onto.end();
      line += it != onto.end() ? it->second : t.text;
    }
    out.push_back(std::move(line));
  }
  return out;
}

struct Edit {
  char kind;  // ' ', '-', '+'
  size_t a, b;  // the line in each trace (for '-' the next line of b, for '+' the next of a)
};

std::vector<Edit> edit_script(size_t n, size_t m, const std::vector<std::pair<size_t, size_t>>& common) {
  std::vector<Edit> edits;
  size_t i = 0, j = 0;
  for (auto [x, y] : common) {
    while (i < x) edits.push_back({'-', i++, j});
    while (j < y) edits.push_back({'+', i, j++});
    edits.push_back({' ', i++, j++});
  }
  while (i < n) edits.push_back({'-', i++, j});
  while (j < m) edits.push_back({'+', i, j++});
  return edits;
}

std::string hunk_range(size_t start, size_t count) {
  // Unified diff's convention: an empty range names the line before it.
  return count == 0 ? str(start, ",0") : count == 1 ? str(start + 1) : str(start + 1, ",", count);
}

}  // namespace

std::vector<PrintedLine> printed_lines(const std::string& text) {
  std::vector<PrintedLine> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back({line, ""});
  return lines;
}

std::vector<PrintedLine> printed_lines(const Trace& traced) {
  std::vector<PrintedLine> lines = printed_lines(print_trace(traced));
  // Each statement prints one line at the body's indentation (its subsymbols, commented, below it).
  std::vector<size_t> statement_lines;
  for (size_t i = 0; i < lines.size(); ++i) {
    const std::string& t = lines[i].text;
    if (t.starts_with("  ") && t.size() > 2 && t[2] != ' ' && t[2] != '#' && !t.starts_with("  return")) statement_lines.push_back(i);
  }
  if (statement_lines.size() != traced.bound_symbols.size()) return lines;  // not one line each: no sources
  for (size_t s = 0; s < statement_lines.size(); ++s) {
    size_t end = s + 1 < statement_lines.size() ? statement_lines[s + 1] : lines.size();
    for (size_t i = statement_lines[s]; i < end && (i == statement_lines[s] || lines[i].text.starts_with("    ")); ++i)
      lines[i].source = traced.bound_symbols[s].source;
  }
  return lines;
}

TraceDiff diff_traces(const std::vector<PrintedLine>& a, const std::vector<PrintedLine>& b, const std::string& a_label,
                      const std::string& b_label, int context) {
  Analyzed ta = analyze(a), tb = analyze(b);
  std::vector<std::string> a_renamed = renamed_onto(ta, tb, common_lines(ta.erased, tb.erased));
  std::vector<std::string> b_text;
  for (const auto& line : b) b_text.push_back(line.text);
  std::vector<Edit> edits = edit_script(a.size(), b.size(), common_lines(a_renamed, b_text));

  TraceDiff diff;
  std::vector<size_t> changes;
  for (size_t e = 0; e < edits.size(); ++e)
    if (edits[e].kind != ' ') changes.push_back(e);
  if (changes.empty()) return diff;
  const size_t ctx = static_cast<size_t>(std::max(context, 0));
  diff.text = str("--- ", a_label, "\t(names mapped onto ", b_label, "'s)\n+++ ", b_label, "\n");
  for (size_t c = 0; c < changes.size();) {
    size_t first = changes[c] >= ctx ? changes[c] - ctx : 0, last = changes[c];
    while (c < changes.size() && changes[c] <= last + 2 * ctx + 1) last = changes[c++];
    last = std::min(last + ctx, edits.size() - 1);
    size_t a_count = 0, b_count = 0;
    std::string body, source;
    for (size_t e = first; e <= last; ++e) {
      const Edit& edit = edits[e];
      if (edit.kind != '+') ++a_count;
      if (edit.kind != '-') ++b_count;
      if (edit.kind == '-') ++diff.removed;
      if (edit.kind == '+') ++diff.added;
      const std::string& where = edit.kind == '-' ? a[edit.a].source : edit.kind == '+' ? b[edit.b].source : "";
      if (source.empty() && !where.empty()) source = where;
      body += edit.kind;
      body += edit.kind == '-' ? a_renamed[edit.a] : edit.kind == '+' ? b[edit.b].text : b[edit.b].text;
      body += '\n';
    }
    diff.text += str("@@ -", hunk_range(edits[first].a, a_count), " +", hunk_range(edits[first].b, b_count), " @@",
                     source.empty() ? "" : " at " + source, "\n", body);
  }
  return diff;
}

}  // namespace thundercc
