// Stable names (--names stable) and thundercc diff: names made per statement, and two printed
// traces compared by structure whatever their names.
#include <cstring>

#include "test_util.h"
#include "thundercc/diff/trace_diff.h"
#include "thundercc/serialize/trace_file.h"

using namespace thundercc;
using namespace thundercc::testing;

namespace {

std::vector<PrintedLine> lines(const std::string& text) { return printed_lines(text); }

// The changed lines of a diff (its '-' and '+' lines, without the two file headers).
std::vector<std::string> changes(const TraceDiff& d) {
  std::vector<std::string> out;
  for (const auto& line : printed_lines(d.text))
    if ((line.text.starts_with("-") || line.text.starts_with("+")) && !line.text.starts_with("---") && !line.text.starts_with("+++"))
      out.push_back(line.text);
  return out;
}

const char* kBefore =
    "def fun(a, b):\n"
    "  t0 = ltorch.mul(b, a)  # t0: \"cpu f32[2, 2]\"\n"
    "    # t0 = prims.mul(b, a)  # t0: \"cpu f32[2, 2]\"\n"
    "  t1 = ltorch.add(a, t0)  # t1: \"cpu f32[2, 2]\"\n"
    "  t2 = ltorch.exp(t1)  # t2: \"cpu f32[2, 2]\"\n"
    "  return t2\n";

}  // namespace

TEST_CASE("stable names: a statement's result is named for its scope, op and ordinal; its decomposition's values after it") {
  auto loaded = load_trace_file("traces/add_mul.json", NameStyle::Stable);
  CHECK(print_trace(loaded.traced) == read_text("tests/golden/add_mul.stable.print.py"));
  // Thunder's names, the default, are untouched.
  CHECK(print_trace(load_trace_file("traces/add_mul.json").traced) == read_text("tests/golden/add_mul.print.py"));
}

TEST_CASE("stable names: the outermost statement names what is made on its behalf") {
  Trace trace;
  trace.names = std::make_shared<NameSet>(NameStyle::Stable);
  TracingScope scope(trace);
  {
    tracing::NameStem outer("mlp_gelu_0");
    tracing::NameStem inner("ignored");
    CHECK(trace.names->make("t") == "t_mlp_gelu_0_0");
    CHECK(trace.names->make("t") == "t_mlp_gelu_0_1");
    CHECK(trace.names->make("i") == "i_mlp_gelu_0_0");
  }
  CHECK(trace.names->make("t") == "t_0");
  // Thunder's style ignores stems: one counter for every prefix.
  NameSet thunder;
  tracing::NameStem stem("mlp_gelu_0");
  CHECK(thunder.make("t") == "t0");
  CHECK(thunder.make("i") == "i1");
}

TEST_CASE("diff: traces that differ only in names are the same") {
  std::string renamed = kBefore;
  for (auto [from, to] : {std::pair{"t0", "t7"}, {"t1", "t8"}, {"t2", "t9"}, {"a,", "x,"}, {"(a", "(x"}, {"a)", "x)"}})
    for (size_t at; (at = renamed.find(from)) != std::string::npos;) renamed.replace(at, std::strlen(from), to);
  REQUIRE(renamed.find("t0") == std::string::npos);
  TraceDiff d = diff_traces(lines(kBefore), lines(renamed), "a.py", "b.py");
  CHECK(d.text.empty());
  CHECK(d.removed + d.added == 0);
}

TEST_CASE("diff: a changed operand is a change, though the lines align with names erased") {
  std::string after = kBefore;
  after.replace(after.find("ltorch.add(a, t0)"), 17, "ltorch.add(b, t0)");
  TraceDiff d = diff_traces(lines(kBefore), lines(after), "a.py", "b.py");
  CHECK(changes(d) == std::vector<std::string>{"-  t1 = ltorch.add(a, t0)  # t1: \"cpu f32[2, 2]\"",
                                               "+  t1 = ltorch.add(b, t0)  # t1: \"cpu f32[2, 2]\""});
}

TEST_CASE("diff: a statement inserted before renumbered ones shows alone, in a unified diff") {
  // Thunder's counter renumbers everything after the new statement; the diff maps the old names
  // onto the new and shows the insertion only.
  const char* after =
      "def fun(a, b):\n"
      "  t0 = ltorch.neg(b)  # t0: \"cpu f32[2, 1]\"\n"
      "  t1 = ltorch.mul(t0, a)  # t1: \"cpu f32[2, 2]\"\n"
      "    # t1 = prims.mul(t0, a)  # t1: \"cpu f32[2, 2]\"\n"
      "  t2 = ltorch.add(a, t1)  # t2: \"cpu f32[2, 2]\"\n"
      "  t3 = ltorch.exp(t2)  # t3: \"cpu f32[2, 2]\"\n"
      "  return t3\n";
  TraceDiff d = diff_traces(lines(kBefore), lines(after), "a.py", "b.py", 1);
  CHECK(d.text ==
        "--- a.py\t(names mapped onto b.py's)\n"
        "+++ b.py\n"
        "@@ -1,4 +1,5 @@\n"
        " def fun(a, b):\n"
        "-  t1 = ltorch.mul(b, a)  # t1: \"cpu f32[2, 2]\"\n"
        "-    # t1 = prims.mul(b, a)  # t1: \"cpu f32[2, 2]\"\n"
        "+  t0 = ltorch.neg(b)  # t0: \"cpu f32[2, 1]\"\n"
        "+  t1 = ltorch.mul(t0, a)  # t1: \"cpu f32[2, 2]\"\n"
        "+    # t1 = prims.mul(t0, a)  # t1: \"cpu f32[2, 2]\"\n"
        "   t2 = ltorch.add(a, t1)  # t2: \"cpu f32[2, 2]\"\n");
  CHECK(d.removed == 2);
  CHECK(d.added == 3);
}

TEST_CASE("diff: fusion regions are names too; a trace.json's statements carry their source lines") {
  const char* before = "def f(a):\n  (t3,) = fuser_0(a)\n  (t5,) = fuser_1(t3)\n  return t5\n";
  const char* after = "def f(a):\n  (t4,) = fuser_2(a)\n  (t9,) = fuser_7(t4)\n  return t9\n";
  CHECK(diff_traces(lines(before), lines(after), "a", "b").text.empty());

  auto loaded = load_trace_file("traces/gpt2_block.json");
  auto printed = printed_lines(loaded.traced);
  size_t sourced = 0;
  for (const auto& line : printed) sourced += line.source.starts_with("examples/models/gpt2_block.py:");
  CHECK(sourced > loaded.traced.bound_symbols.size());  // statements and their subsymbols
  auto changed = printed;
  for (auto& line : changed)
    if (line.text.find("ltorch.softmax(") != std::string::npos) line.text.replace(line.text.find("-1"), 2, "-2");
  TraceDiff d = diff_traces(printed, changed, "a", "b", 0);
  CHECK(d.text.find(" @@ at examples/models/gpt2_block.py:25\n") != std::string::npos);
  CHECK(d.removed == 1);
  CHECK(d.added == 1);
}
