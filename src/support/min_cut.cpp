#include "thundercc/support/min_cut.h"

#include <algorithm>
#include <deque>

namespace thundercc {

void MinCut::add_edge(int from, int to, int64_t capacity) {
  edges_of_[from].push_back(static_cast<int>(edges_.size()));
  edges_.push_back({to, capacity});
  edges_of_[to].push_back(static_cast<int>(edges_.size()));
  edges_.push_back({from, 0});
}

bool MinCut::levels_from(int source, int sink) {
  level_.assign(edges_of_.size(), -1);
  level_[source] = 0;
  std::deque<int> queue{source};
  while (!queue.empty()) {
    int n = queue.front();
    queue.pop_front();
    for (int e : edges_of_[n])
      if (edges_[e].capacity > 0 && level_[edges_[e].to] < 0) {
        level_[edges_[e].to] = level_[n] + 1;
        queue.push_back(edges_[e].to);
      }
  }
  return level_[sink] >= 0;
}

// Pushes up to `limit` along shortest residual paths (iteratively: the graphs are deep chains).
int64_t MinCut::push(int source, int sink, int64_t limit) {
  std::vector<int> path;  // edges from the source
  int node = source;
  int64_t pushed = 0;
  while (true) {
    if (node == sink) {
      int64_t flow = limit - pushed;
      for (int e : path) flow = std::min(flow, edges_[e].capacity);
      for (int e : path) {
        edges_[e].capacity -= flow;
        edges_[e ^ 1].capacity += flow;
      }
      pushed += flow;
      if (pushed == limit) return pushed;
      path.clear();
      node = source;
      continue;
    }
    auto& next = next_edge_[node];
    while (next < static_cast<int>(edges_of_[node].size())) {
      const Edge& e = edges_[edges_of_[node][next]];
      if (e.capacity > 0 && level_[e.to] == level_[node] + 1) break;
      ++next;
    }
    if (next < static_cast<int>(edges_of_[node].size())) {
      path.push_back(edges_of_[node][next]);
      node = edges_[path.back()].to;
      continue;
    }
    // A dead end: retreat one edge, and never try this node again in this phase.
    if (path.empty()) return pushed;
    level_[node] = -1;
    path.pop_back();
    node = path.empty() ? source : edges_[path.back()].to;
  }
}

int64_t MinCut::solve(int source, int sink) {
  int64_t flow = 0;
  while (flow < kInfinite && levels_from(source, sink)) {
    next_edge_.assign(edges_of_.size(), 0);
    flow += push(source, sink, kInfinite - flow);
  }
  // The sink side: what reaches the sink through edges with residual capacity. The edges into
  // a node are the partners of the edges listed at it.
  sink_side_.assign(edges_of_.size(), false);
  sink_side_[sink] = true;
  std::vector<int> stack{sink};
  while (!stack.empty()) {
    int n = stack.back();
    stack.pop_back();
    for (int out : edges_of_[n]) {
      int from = edges_[out].to;
      if (edges_[out ^ 1].capacity > 0 && !sink_side_[from]) {
        sink_side_[from] = true;
        stack.push_back(from);
      }
    }
  }
  return flow;
}

}  // namespace thundercc
