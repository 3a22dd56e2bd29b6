// Zeller and Hildebrandt's ddmin ("Simplifying and Isolating Failure-Inducing Input", 2002): the
// reducer's search. Given a list that fails a test, it returns a sublist that still fails and from
// which no single element can be removed without the failure going away (1-minimal), testing
// subsets and complements at ever finer granularity. A lone cause among n elements takes about
// 2 log2(n) tests; `fails` is never asked twice about the same sublist.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <map>
#include <vector>

namespace thundercc {

// `fails(items)` must hold for `items` itself; the order of the elements is kept.
template <class T>
std::vector<T> ddmin(std::vector<T> items, const std::function<bool(const std::vector<T>&)>& fails) {
  std::map<std::vector<T>, bool> asked;
  auto test = [&](const std::vector<T>& candidate) {
    auto [it, fresh] = asked.try_emplace(candidate, false);
    if (fresh) it->second = fails(candidate);
    return it->second;
  };
  size_t granularity = 2;
  while (items.size() >= 2) {
    granularity = std::min(granularity, items.size());
    // The items in `granularity` chunks of nearly equal size.
    std::vector<std::vector<T>> chunks(granularity);
    for (size_t i = 0; i < items.size(); ++i) chunks[i * granularity / items.size()].push_back(items[i]);
    bool reduced = false;
    for (const auto& chunk : chunks)
      if (test(chunk)) {
        items = chunk;
        granularity = 2;
        reduced = true;
        break;
      }
    for (size_t c = 0; !reduced && granularity > 2 && c < chunks.size(); ++c) {
      std::vector<T> complement;
      for (size_t k = 0; k < chunks.size(); ++k)
        if (k != c) complement.insert(complement.end(), chunks[k].begin(), chunks[k].end());
      if (test(complement)) {
        items = std::move(complement);
        granularity = std::max<size_t>(granularity - 1, 2);
        reduced = true;
      }
    }
    if (reduced) continue;
    if (granularity >= items.size()) break;
    granularity = std::min(items.size(), granularity * 2);
  }
  return items;
}

}  // namespace thundercc
