// `thundercc diff`: two printed traces compared by structure. Lines are first aligned with every
// value's name erased, the names of the first trace are then mapped onto those of the second
// through the aligned lines, and what still differs after that renaming is the real change,
// printed as a unified diff. So a program compiled before and after a change, whatever its names
// (Thunder's counter renumbers every value after the change), diffs by what changed.
#pragma once

#include <string>
#include <vector>

#include "thundercc/ir/trace.h"

namespace thundercc {

struct PrintedLine {
  std::string text;
  std::string source;  // the user's line that made the statement ("model.py:12"), when known
};

// The lines of a printed trace (a file `thundercc print` or `compile` wrote), without sources.
std::vector<PrintedLine> printed_lines(const std::string& text);
// A traced program printed, each statement's lines with the statement's source.
std::vector<PrintedLine> printed_lines(const Trace& traced);

struct TraceDiff {
  std::string text;  // the unified diff; empty when the traces are the same up to renaming
  int removed = 0, added = 0;
};

// `a_label` and `b_label` head the diff (the files' names). `context`: unchanged lines shown
// around each change.
TraceDiff diff_traces(const std::vector<PrintedLine>& a, const std::vector<PrintedLine>& b, const std::string& a_label,
                      const std::string& b_label, int context = 3);

}  // namespace thundercc
