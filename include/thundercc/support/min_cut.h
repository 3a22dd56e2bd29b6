// A minimum s-t cut of a directed graph with integer capacities (Dinic's maximum flow), for
// rematerialization: which values to save so that the rest can be recomputed at the least cost.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

namespace thundercc {

class MinCut {
 public:
  static constexpr int64_t kInfinite = std::numeric_limits<int64_t>::max() / 4;

  explicit MinCut(int nodes) : edges_of_(nodes) {}
  int add_node() {
    edges_of_.emplace_back();
    return static_cast<int>(edges_of_.size()) - 1;
  }
  void add_edge(int from, int to, int64_t capacity);

  // Solves and returns the cut's capacity (kInfinite or more when every cut is infinite). Of
  // the minimum cuts, the one nearest the sink: a node is on the sink side exactly when it can
  // still reach the sink in the residual graph.
  int64_t solve(int source, int sink);
  bool on_sink_side(int node) const { return sink_side_[node]; }

 private:
  struct Edge {
    int to;
    int64_t capacity;  // residual
  };
  bool levels_from(int source, int sink);
  int64_t push(int source, int sink, int64_t limit);

  std::vector<Edge> edges_;               // an edge at 2i, its reverse at 2i + 1
  std::vector<std::vector<int>> edges_of_;
  std::vector<int> level_, next_edge_;
  std::vector<bool> sink_side_;
};

}  // namespace thundercc
