// Neural-network ops of the torch language: matmul and linear, normalization, losses,
// attention, convolution and pooling.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <limits>

#include "langs/torch_registry.h"
#include "thundercc/ir/pyliteral.h"

namespace thundercc::ltorch {
namespace {

using langs::canonicalize_dim;
using langs::is_one;

Tensor matmul_impl(const Tensor& a, const Tensor& b) {
  if (a.ndim() <= 2 && b.ndim() <= 2) return prims::matmul(a, b);
  if (a.ndim() > 2 && b.ndim() <= 2) {
    // Fold the batch dimensions of a into its rows (counted from the shape: with an inner
    // dimension of 0 the element count says nothing of them).
    Shape out_shape(a.shape().begin(), a.shape().end() - 1);
    int64_t rows = 1;
    for (int64_t d : out_shape) rows *= d;
    if (b.ndim() == 2) out_shape.push_back(b.shape()[1]);
    Tensor folded = reshape(a, {rows, a.shape().back()});
    return reshape(prims::matmul(folded, b), out_shape);
  }
  // Both batched (or a is 1-D): expand the batch dimensions to their common shape.
  Shape batch_a(a.shape().begin(), a.shape().end() - std::min<int64_t>(a.ndim(), 2));
  Shape batch_b(b.shape().begin(), b.shape().end() - std::min<int64_t>(b.ndim(), 2));
  Shape batch = langs::broadcast_shapes({batch_a, batch_b});
  auto with_batch = [&](const Tensor& t) {
    if (t.ndim() < 2) return t;
    Shape s = batch;
    s.insert(s.end(), t.shape().end() - 2, t.shape().end());
    return t.shape() == s ? t : expand(t, s);
  };
  Tensor a_batched = with_batch(a);
  return prims::matmul(a_batched, with_batch(b));
}

// An int or a sequence of n ints, as n ints (each below 2^31, so window arithmetic cannot overflow).
std::vector<int64_t> n_tuple(const Value& v, size_t n, const char* what) {
  auto xs = v.as_ints();
  if (xs.size() == 1) xs.assign(n, xs[0]);
  check(xs.size() == n, [&] { return str(what, " must be an int or a tuple of ", n, " ints, but got ", py_repr(v)); });
  for (auto x : xs) check(x > -(int64_t{1} << 31) && x < (int64_t{1} << 31), [&] { return str(what, " must be below 2^31 in magnitude, but got ", py_repr(v)); });
  return xs;
}

// Per-sample losses from log-probabilities, class indices and an optional class weight.
struct NllTerms {
  Tensor loss;         // -w[t] * logp[t], zero where ignored
  Tensor weight_used;  // w[t] (or 1), zero where ignored: the mean's denominator
};

NllTerms nll_terms(const Tensor& logp, const Tensor& target, const Value& weight, int64_t ignore_index) {
  int64_t class_dim = logp.ndim() >= 2 ? 1 : 0;
  check(target.dtype().is_integer(), [&] {
    return str("nll_loss: expected target to have an integer dtype, but got ", target.dtype().full_name());
  });
  Shape expected = logp.shape();
  expected.erase(expected.begin() + class_dim);
  check(target.shape() == expected, [&] {
    return str("Expected target of shape ", shape_repr(expected), " for input of shape ", shape_repr(logp.shape()),
               ", but got ", shape_repr(target.shape()));
  });
  Tensor keep = ne(target, ignore_index);
  Tensor safe_target = where(keep, target, int64_t{0});
  Tensor picked = squeeze(prims::take_along_axis(logp, unsqueeze(safe_target, class_dim), class_dim), {class_dim});
  Tensor loss = -picked;
  Tensor w = full_like(loss, 1.0);
  if (!weight.is_none()) {
    Tensor flat_target = reshape(safe_target, {safe_target.numel()});
    w = reshape(prims::take(weight.as_tensor(), flat_target, 0), safe_target.shape());
    loss = loss * w;
  }
  return {where(keep, loss, 0.0), where(keep, w, 0.0)};
}

Tensor reduce_loss(const Tensor& loss, const Tensor& denominator, const std::string& reduction) {
  if (reduction == "none") return loss;
  if (reduction == "sum") return sum(loss);
  check(reduction == "mean", [&] { return str(reduction, " is not a valid value for reduction"); }, "ValueError");
  Tensor total = sum(loss);
  return total / sum(denominator);
}

Tensor cross_entropy_impl(const Args& x) {
  const auto& a = x.tensor("a");
  const auto& target = x.tensor("target");
  const auto& reduction = x["reduction"].as_string();
  double smoothing = x.real("label_smoothing");
  check(smoothing >= 0.0 && smoothing <= 1.0, [&] {
    return str("label_smoothing must be between 0.0 and 1.0. Got: ", float_repr(smoothing));
  });
  check(a.ndim() >= 1, "cross_entropy: expected an input of at least 1 dimension");
  int64_t class_dim = a.ndim() >= 2 ? 1 : 0;
  int64_t classes = a.shape()[class_dim];
  Tensor logp = log_softmax(a, class_dim);

  if (target.dtype().is_inexact()) {
    // Class probabilities.
    check(target.shape() == a.shape(), "cross_entropy: probability targets must have the input's shape");
    Tensor p = smoothing > 0 ? target * (1.0 - smoothing) + smoothing / static_cast<double>(classes) : target;
    Tensor weighted = logp * p;
    if (!x.is_none("weight")) {
      Shape wshape(a.ndim(), 1);
      wshape[class_dim] = classes;
      weighted = weighted * reshape(x.tensor("weight"), wshape);
    }
    Tensor loss = -sum(weighted, Dims{class_dim});
    if (reduction == "none") return loss;
    if (reduction == "sum") return sum(loss);
    check(reduction == "mean", [&] { return str(reduction, " is not a valid value for reduction"); }, "ValueError");
    return sum(loss) / static_cast<double>(std::max<int64_t>(a.numel() / std::max<int64_t>(classes, 1), 1));
  }

  if (smoothing == 0.0)
    return op("torch.nn.functional.nll_loss", {logp, target, x["weight"], x["size_average"], x["ignore_index"], x["reduce"], x["reduction"]});

  auto terms = nll_terms(logp, target, x["weight"], x.integer("ignore_index"));
  Tensor weighted = logp;
  if (!x.is_none("weight")) {
    Shape wshape(a.ndim(), 1);
    wshape[class_dim] = classes;
    weighted = weighted * reshape(x.tensor("weight"), wshape);
  }
  Tensor keep = ne(target, x["ignore_index"]);
  Tensor smooth = where(keep, -sum(weighted, Dims{class_dim}), 0.0);
  Tensor nll = reduce_loss(terms.loss, terms.weight_used, reduction);
  Tensor smooth_reduced = reduce_loss(smooth, terms.weight_used, reduction);
  Tensor nll_part = (1.0 - smoothing) * nll;
  Tensor smooth_part = smooth_reduced * (smoothing / static_cast<double>(classes));
  return nll_part + smooth_part;
}

// The attention's output and its weights (after dropout): scaled_dot_product_attention, and
// PyTorch 1.13's _scaled_dot_product_attention, which returns both (scale: 1/sqrt(E) by default).
std::pair<Tensor, Tensor> attention_impl(const Args& x, std::optional<double> given_scale) {
  const auto& q = x.tensor("query");
  const auto& k = x.tensor("key");
  const auto& v = x.tensor("value");
  check(q.ndim() >= 2 && k.ndim() >= 2 && v.ndim() >= 2, "scaled_dot_product_attention expects inputs of at least 2 dimensions");
  int64_t L = q.shape()[q.ndim() - 2], S = k.shape()[k.ndim() - 2], E = q.shape().back();
  double scale = given_scale.value_or(1.0 / std::sqrt(static_cast<double>(E)));
  Tensor scores = matmul(q, transpose(k, -2, -1)) * scale;
  const auto neg_inf = -std::numeric_limits<double>::infinity();
  if (x.flag("is_causal")) {
    check(x.is_none("attn_mask"), "scaled_dot_product_attention: explicit attn_mask should not be set when is_causal=True", "ValueError");
    Tensor causal = op("torch.tril", {full({L, S}, true, q.device(), dtypes::bool8)});
    scores = masked_fill(scores, logical_not(causal), neg_inf);
  } else if (!x.is_none("attn_mask")) {
    const auto& mask = x.tensor("attn_mask");
    scores = mask.dtype().is_bool() ? masked_fill(scores, logical_not(mask), neg_inf) : scores + mask;
  }
  Tensor weights = softmax(scores, -1);
  double p = x.real("dropout_p");
  if (p > 0.0) weights = dropout(weights, p, true);
  return {matmul(weights, v), weights};
}

// torch.einsum over letters (no ellipsis): operands are
// folded left to right. A letter only one operand has and the output lacks is summed away first;
// a pair is then one batched matmul, each operand permuted to (batch, free, contracted) and
// reshaped to three dimensions, the product reshaped and permuted to the output's order.
Tensor einsum_impl(const std::string& equation, const std::vector<Tensor>& inputs) {
  std::string spec;
  for (char c : equation)
    if (c != ' ') spec += c;
  check(spec.find("...") == std::string::npos, "einsum with an ellipsis is not supported yet", "NotImplementedError");
  auto arrow = spec.find("->");
  std::string lhs = spec.substr(0, arrow);
  std::vector<std::string> terms;
  for (size_t start = 0;;) {
    auto comma = lhs.find(',', start);
    terms.push_back(lhs.substr(start, comma - start));
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  check(terms.size() == inputs.size(), [&] {
    return str("einsum(): ", terms.size(), " operands were specified in the equation, but ", inputs.size(), " were given");
  });
  std::string output;
  if (arrow != std::string::npos) output = spec.substr(arrow + 2);
  else {  // implicit output: the letters used once, in alphabetical order
    std::string all;
    for (const auto& term : terms) all += term;
    for (char c = 'A'; c <= 'z'; ++c)
      if (std::count(all.begin(), all.end(), c) == 1) output += c;
  }
  // A letter repeated within an operand reads its diagonal: the two dims become one, last.
  std::vector<Tensor> operands = inputs;
  for (size_t i = 0; i < terms.size(); ++i) {
    auto& term = terms[i];
    check(static_cast<int64_t>(term.size()) == operands[i].ndim(), [&] {
      return str("einsum(): the number of subscripts in the equation (", term.size(), ") does not match the number of dimensions (",
                 operands[i].ndim(), ") for operand ", i);
    });
    for (size_t d = 0; d < term.size(); ++d) {
      auto again = term.find(term[d], d + 1);
      if (again == std::string::npos) continue;
      check(operands[i].shape()[d] == operands[i].shape()[again], [&] {
        return str("einsum(): subscript ", term[d], " is repeated for operand ", i, " but the sizes don't match, ",
                   operands[i].shape()[d], " != ", operands[i].shape()[again]);
      });
      operands[i] = op("torch.diagonal", {Value(operands[i]), int64_t{0}, static_cast<int64_t>(d), static_cast<int64_t>(again)});
      term = term.substr(0, d) + term.substr(d + 1, again - d - 1) + term.substr(again + 1) + term[d];
      d = static_cast<size_t>(-1);  // the term changed: look again from its start
    }
  }
  std::map<char, int64_t> size;
  for (size_t i = 0; i < terms.size(); ++i) {
    const auto& term = terms[i];
    for (size_t d = 0; d < term.size(); ++d) {
      char c = term[d];
      check(std::isalpha(static_cast<unsigned char>(c)), [&] { return str("einsum(): invalid subscript given at index ", d, " in the equation string"); });
      int64_t n = operands[i].shape()[d];
      auto [it, fresh] = size.emplace(c, n);
      check(fresh || it->second == n || n == 1 || it->second == 1, [&] {
        return str("einsum(): operands do not broadcast with remapped shapes (original->remapped)");
      });
      it->second = std::max(it->second, n);
    }
  }
  // Sums away the letters of `term` that neither `keep` nor the output has.
  auto reduce = [&](Tensor t, std::string& term, const std::string& keep) {
    Dims dims;
    std::string kept;
    for (size_t d = 0; d < term.size(); ++d) {
      if (keep.find(term[d]) == std::string::npos && output.find(term[d]) == std::string::npos) dims.push_back(static_cast<int64_t>(d));
      else kept += term[d];
    }
    term = kept;
    return dims.empty() ? t : sum(t, dims);
  };
  auto permuted = [](const Tensor& t, const std::string& from, const std::string& to) {
    Dims order;
    for (char c : to) order.push_back(static_cast<int64_t>(from.find(c)));
    bool identity = true;
    for (size_t i = 0; i < order.size(); ++i) identity = identity && order[i] == static_cast<int64_t>(i);
    return identity ? t : permute(t, order);
  };
  std::string term = terms[0];
  std::string rest_letters;
  for (size_t i = 1; i < terms.size(); ++i) rest_letters += terms[i];
  Tensor acc = reduce(operands[0], term, rest_letters);
  for (size_t i = 1; i < terms.size(); ++i) {
    std::string later;
    for (size_t j = i + 1; j < terms.size(); ++j) later += terms[j];
    std::string other = terms[i];
    Tensor b = reduce(operands[i], other, term + later);
    // Letters of both: batch when needed later, else contracted; letters of one: free.
    std::string batch, contracted, left, right;
    for (char c : term) {
      bool in_b = other.find(c) != std::string::npos, needed = output.find(c) != std::string::npos || later.find(c) != std::string::npos;
      (in_b ? (needed ? batch : contracted) : left) += c;
    }
    for (char c : other)
      if (term.find(c) == std::string::npos) right += c;
    auto numel_of = [&](const std::string& letters) {
      int64_t n = 1;
      for (char c : letters) n *= size[c];
      return n;
    };
    auto shaped = [&](const Tensor& t, const std::string& from, const std::string& order, Shape three) {
      Tensor p = permuted(t, from, order);
      Shape full_shape;
      for (char c : order) full_shape.push_back(size[c]);
      if (p.shape() != full_shape) p = expand(p, full_shape);  // size-1 dims broadcast against the other operand
      return reshape(p, three);
    };
    Tensor a3 = shaped(acc, term, batch + left + contracted, {numel_of(batch), numel_of(left), numel_of(contracted)});
    Tensor b3 = shaped(b, other, batch + contracted + right, {numel_of(batch), numel_of(contracted), numel_of(right)});
    std::string result = batch + left + right;
    Shape result_shape;
    for (char c : result) result_shape.push_back(size[c]);
    acc = reshape(matmul(a3, b3), result_shape);
    term = result;
  }
  std::string no_keep;
  acc = reduce(acc, term, no_keep);
  check(term.size() == output.size(), [&] { return str("einsum(): output subscript ", output, " is not among the operands' subscripts"); });
  return permuted(acc, term, output);
}

// torch.lstm, torch.gru, torch.rnn_tanh and torch.rnn_relu (nn.LSTM, nn.GRU, nn.RNN): each layer
// and direction unrolled over the captured sequence. The input projection of every step is one linear; each step adds the hidden state's
// projection and applies the gates. Parameters come flat, per layer and direction: w_ih, w_hh,
// then b_ih, b_hh with biases, then w_hr for an LSTM with projections. In training, dropout
// applies between layers.
enum class Cell { Lstm, Gru, Tanh, Relu };

// One step of a cell: from the input's projection `gi` (w_ih x + b_ih) and the hidden state's `gh`
// (w_hh h + b_hh), the new hidden state, and for an LSTM the new cell state in `c`.
Tensor cell_step(Cell cell, const Tensor& gi, const Tensor& gh, const Tensor& h, std::optional<Tensor>& c) {
  switch (cell) {
    case Cell::Lstm: {
      Value gates = call("torch.chunk", {gi + gh, 4, 1});
      auto gate = [&](int k) { return gates.items()[k].as_tensor(); };
      Tensor forget = sigmoid(gate(1)) * *c;
      Tensor input_gate = sigmoid(gate(0));
      c = forget + input_gate * tanh(gate(2));
      Tensor output_gate = sigmoid(gate(3));
      return output_gate * tanh(*c);
    }
    case Cell::Tanh: return tanh(gi + gh);
    case Cell::Relu: return op("torch.relu", {gi + gh});
    case Cell::Gru: break;
  }
  Value i = call("torch.chunk", {gi, 3, 1}), g = call("torch.chunk", {gh, 3, 1});
  auto part = [](const Value& v, int k) { return v.items()[k].as_tensor(); };
  Tensor r = sigmoid(part(i, 0) + part(g, 0));
  Tensor z = sigmoid(part(i, 1) + part(g, 1));
  Tensor n = tanh(part(i, 2) + r * part(g, 2));
  Tensor new_part = (1 - z) * n;
  return new_part + z * h;
}

// torch.lstm_cell, gru_cell, rnn_tanh_cell, rnn_relu_cell (nn.LSTMCell, GRUCell, RNNCell): one
// step, on a batch or (1-d input) on one sample.
Value cell_impl(const Args& x, Cell cell) {
  Tensor input = x.tensor("input");
  const bool unbatched = input.ndim() == 1;
  auto batched = [&](const Tensor& t) { return unbatched ? unsqueeze(t, 0) : t; };
  auto unbatch = [&](const Tensor& t) { return unbatched ? squeeze(t, {0}) : t; };
  Tensor h = batched(cell == Cell::Lstm ? x["hx"].items().at(0).as_tensor() : x.tensor("hx"));
  std::optional<Tensor> c;
  if (cell == Cell::Lstm) c = batched(x["hx"].items().at(1).as_tensor());
  Tensor gi = op("torch.nn.functional.linear", {batched(input), x["w_ih"], x["b_ih"]});
  Tensor gh = op("torch.nn.functional.linear", {h, x["w_hh"], x["b_hh"]});
  Tensor next = cell_step(cell, gi, gh, h, c);
  if (cell == Cell::Lstm) return Value::tuple({unbatch(next), unbatch(*c)});
  return unbatch(next);
}

// A packed sequence's batch sizes (how many sequences are still running at each step), as the
// front end records them: specialized to the values seen at capture, which a guard checks.
std::vector<int64_t> batch_sizes_of(const Value& v, const char* name) {
  check(v.is_sequence(), [&] { return str(name, ": expected the batch sizes as a list of integers"); });
  std::vector<int64_t> sizes = v.as_ints();
  for (size_t t = 0; t < sizes.size(); ++t)
    check(sizes[t] > 0 && (t == 0 || sizes[t] <= sizes[t - 1]), [&] {
      return str(name, ": expected positive, non-increasing batch sizes, but got ", langs::dims_repr(sizes));
    });
  return sizes;
}

// With batch_sizes (a packed sequence), `input` is the packed data (every sequence's step t, then
// step t + 1, ...): step t runs on the first batch_sizes[t] rows of the state; a sequence's state
// stays as its last step left it, and in reverse a sequence starts from its initial state at its
// last step. Without, the input is padded (T, N, F), every sequence running every step.
Value recurrent_impl(const Args& x, Cell cell) {
  const bool lstm = cell == Cell::Lstm;
  const char* name = lstm ? "lstm" : cell == Cell::Gru ? "gru" : cell == Cell::Tanh ? "rnn_tanh" : "rnn_relu";
  check(x["params"].is_sequence(), [&] { return str(name, ": expected a list of parameters"); });
  const bool packed = !x.is_none("batch_sizes");
  Tensor input = x.tensor("input");
  std::vector<int64_t> sizes;
  if (packed) {
    sizes = batch_sizes_of(x["batch_sizes"], name);
    int64_t total = 0;
    for (auto n : sizes) total += n;
    check(input.ndim() == 2 && input.shape()[0] == total, [&] {
      return str(name, ": expected packed data of ", total, " rows (the batch sizes' sum), but got ", shape_repr(input.shape()));
    });
  } else {
    check(input.ndim() == 3, [&] { return str(name, ": expected a 3-D input, but got ", shape_repr(input.shape())); });
    if (x.flag("batch_first")) input = transpose(input, 0, 1);  // (T, N, F)
  }
  const int64_t layers = x.integer("num_layers"), directions = x.flag("bidirectional") ? 2 : 1;
  std::vector<Tensor> params;
  for (const auto& p : x["params"].items()) params.push_back(p.as_tensor());
  const bool bias = x.flag("has_biases");
  const size_t per = params.size() / static_cast<size_t>(layers * directions);
  const bool projected = lstm && per == (bias ? 5u : 3u);
  check(per * layers * directions == params.size() && per == (bias ? 4u : 2u) + (projected ? 1u : 0u), [&] {
    return str(name, ": expected ", layers * directions, " sets of parameters, but got ", params.size(), " tensors");
  });
  Tensor h0 = lstm ? x["hx"].items().at(0).as_tensor() : x.tensor("hx");
  std::optional<Tensor> c0;
  if (lstm) c0 = x["hx"].items().at(1).as_tensor();
  const int64_t T = packed ? static_cast<int64_t>(sizes.size()) : input.shape()[0];
  std::vector<int64_t> offsets(sizes.size(), 0);  // where each step's rows start in packed data
  for (size_t t = 1; t < sizes.size(); ++t) offsets[t] = offsets[t - 1] + sizes[t - 1];
  auto at_index = [](const Tensor& t, int64_t i) { return op("torch.Tensor.__getitem__", {t, i}); };
  auto rows = [](const Tensor& t) { return t.shape()[0]; };
  // The first n rows of a state; in reverse, rows not yet running join from the initial state.
  auto first_rows = [&](const Tensor& state, int64_t n) { return rows(state) == n ? state : narrow(state, 0, 0, n); };
  auto joined = [&](const Tensor& state, const Tensor& initial, int64_t n) {
    return rows(state) == n ? state : cat({state, narrow(initial, 0, rows(state), n - rows(state))}, 0);
  };
  auto rest_of = [&](const Tensor& next, const Tensor& state) {
    return rows(next) == rows(state) ? next : cat({next, narrow(state, 0, rows(next), rows(state) - rows(next))}, 0);
  };
  std::vector<Tensor> last_h, last_c;
  Tensor layer_input = input;
  for (int64_t layer = 0; layer < layers; ++layer) {
    std::vector<Tensor> outputs;
    for (int64_t direction = 0; direction < directions; ++direction) {
      const int64_t index = layer * directions + direction;
      auto param = [&](size_t k) { return params[index * per + k]; };
      Value b_ih = bias ? Value(param(2)) : Value(None{}), b_hh = bias ? Value(param(3)) : Value(None{});
      const Tensor initial_h = at_index(h0, index);
      std::optional<Tensor> initial_c;
      if (lstm) initial_c = at_index(*c0, index);
      Tensor h = initial_h;
      std::optional<Tensor> c = initial_c;
      Tensor projected_inputs = op("torch.nn.functional.linear", {layer_input, param(0), b_ih});  // (T, N, gates), or packed
      std::vector<Tensor> steps(T);
      for (int64_t s = 0; s < T; ++s) {
        const int64_t step = direction == 0 ? s : T - 1 - s;
        const int64_t running = packed ? sizes[step] : rows(h);
        Tensor gi = packed ? narrow(projected_inputs, 0, offsets[step], running) : at_index(projected_inputs, step);
        // What the step starts from: forward, the running rows of the state; in reverse, the state
        // with the sequences whose last step this is joining from their initial state.
        auto entering = [&](const Tensor& current, const Tensor& initial) {
          if (direction == 0) return first_rows(current, running);
          return s == 0 ? first_rows(initial, running) : joined(current, initial, running);
        };
        // Forward, the sequences that ended keep their last state below the running rows.
        auto leaving = [&](const Tensor& next, const Tensor& current) { return direction == 0 ? rest_of(next, current) : next; };
        Tensor state = entering(h, initial_h);
        std::optional<Tensor> cell_state;
        if (lstm) cell_state = entering(*c, *initial_c);
        Tensor gh = op("torch.nn.functional.linear", {state, param(1), b_hh});
        Tensor next = cell_step(cell, gi, gh, state, cell_state);
        if (projected) next = op("torch.nn.functional.linear", {next, param(bias ? 4 : 2)});
        steps[step] = next;
        h = leaving(next, h);
        if (lstm) c = leaving(*cell_state, *c);
      }
      Values stacked(steps.begin(), steps.end());
      outputs.push_back(packed ? op("torch.cat", {Value::list(std::move(stacked)), 0}) : op("torch.stack", {Value::list(std::move(stacked)), 0}));
      last_h.push_back(h);
      if (lstm) last_c.push_back(*c);
    }
    layer_input = directions == 1 ? outputs[0] : cat(outputs, -1);
    if (x.flag("train") && layer + 1 < layers) layer_input = dropout(layer_input, x.real("dropout"), true);
  }
  Tensor output = x.flag("batch_first") && !packed ? transpose(layer_input, 0, 1) : layer_input;
  auto stacked = [](const std::vector<Tensor>& ts) { return op("torch.stack", {Value::list(Values(ts.begin(), ts.end())), 0}); };
  if (lstm) return Value::tuple({output, stacked(last_h), stacked(last_c)});
  return Value::tuple({output, stacked(last_h)});
}

// torch._pack_padded_sequence (pack_padded_sequence): the running sequences' rows of each step
// of a padded (T, B, *) input, concatenated, and the batch sizes. The lengths are specialized to
// the values seen at capture (the front end records them with a guard).
Value pack_padded_sequence_impl(const Args& x) {
  Tensor input = x.tensor("input");
  if (x.flag("batch_first")) input = transpose(input, 0, 1);
  std::vector<int64_t> lengths = x["lengths"].as_ints();
  check(input.ndim() >= 2 && input.shape()[1] == static_cast<int64_t>(lengths.size()), [&] {
    return str("Expected `len(lengths)` to be equal to batch_size, but got ", lengths.size(), " (batch_size=", input.ndim() >= 2 ? input.shape()[1] : 0, ")");
  });
  check(!lengths.empty() && lengths.back() > 0, "Length of all samples has to be greater than 0, but found an element in 'lengths' that is <= 0");
  for (size_t i = 1; i < lengths.size(); ++i)
    check(lengths[i] <= lengths[i - 1], "`lengths` array must be sorted in decreasing order when `enforce_sorted` is True. You can pass "
                                        "`enforce_sorted=False` to pack_padded_sequence and/or pack_sequence to sidestep this requirement if "
                                        "you do not need ONNX exportability.");
  check(lengths[0] <= input.shape()[0], [&] { return str("the longest length, ", lengths[0], ", exceeds the input's ", input.shape()[0], " steps"); });
  std::vector<Tensor> parts;
  Values sizes;
  for (int64_t t = 0; t < lengths[0]; ++t) {
    int64_t running = std::count_if(lengths.begin(), lengths.end(), [&](int64_t l) { return l > t; });
    parts.push_back(narrow(op("torch.select", {input, 0, t}), 0, 0, running));
    sizes.push_back(running);
  }
  Tensor batch_sizes = prims::tensor_from_sequence(Value::list(std::move(sizes)), Device::cpu(), dtypes::int64);
  return Value::tuple({cat(parts, 0), batch_sizes});
}

// torch._pad_packed_sequence (pad_packed_sequence): the packed data back in (T, B, *), padded
// with padding_value, and each sequence's length.
Value pad_packed_sequence_impl(const Args& x) {
  const Tensor& data = x.tensor("data");
  std::vector<int64_t> sizes = batch_sizes_of(x["batch_sizes"], "pad_packed_sequence");
  const int64_t steps = static_cast<int64_t>(sizes.size()), batch = sizes.empty() ? 0 : sizes[0];
  int64_t total = x.integer("total_length") < 0 ? steps : x.integer("total_length");
  check(total >= steps, [&] {
    return str("Expected total_length to be at least the length of the longest sequence input, but got total_length=", total,
               " and max sequence length being ", steps);
  });
  // t with `more` rows of padding_value after its last along dim 0.
  auto padded_rows = [&](const Tensor& t, int64_t more) {
    if (more == 0) return t;
    std::vector<int64_t> pad(2 * (t.ndim() - 1), 0);  // F.pad's amounts start from the last dim
    pad.push_back(0);
    pad.push_back(more);
    return op("torch.nn.functional.pad", {t, Value::ints(pad), "constant", x["padding_value"]});
  };
  std::vector<Tensor> padded_steps;
  for (int64_t t = 0, offset = 0; t < steps; offset += sizes[t], ++t)
    padded_steps.push_back(padded_rows(narrow(data, 0, offset, sizes[t]), batch - sizes[t]));
  Tensor out = padded_rows(op("torch.stack", {Value::list(Values(padded_steps.begin(), padded_steps.end())), 0}), total - steps);
  Values lengths;
  for (int64_t i = 0; i < batch; ++i)
    lengths.push_back(static_cast<int64_t>(std::count_if(sizes.begin(), sizes.end(), [&](int64_t n) { return n > i; })));
  Tensor length_tensor = prims::tensor_from_sequence(Value::list(std::move(lengths)), Device::cpu(), dtypes::int64);
  return Value::tuple({x.flag("batch_first") ? transpose(out, 0, 1) : out, length_tensor});
}

// F.multi_head_attention_forward (nn.MultiheadAttention, the Transformer layers): the input
// projections as linear (one for self-attention, whose three projections share the input), the
// heads split, scaled-dot-product attention, the heads merged, the output projection. The masks
// (attn_mask, key_padding_mask; True means "do not attend") become one additive float mask. With
// need_weights the attention is written out, since its probabilities are a result.
Value multi_head_attention_impl(const Args& x) {
  for (const char* unsupported : {"bias_k", "bias_v", "static_k", "static_v"})
    check(x.is_none(unsupported), [&] { return str("multi_head_attention_forward with ", unsupported, " is not supported yet"); }, "NotImplementedError");
  check(!x.flag("add_zero_attn"), "multi_head_attention_forward with add_zero_attn=True is not supported yet", "NotImplementedError");
  Tensor query = x.tensor("query"), key = x.tensor("key"), value = x.tensor("value");
  const bool batched = query.ndim() == 3;
  check(batched || query.ndim() == 2, [&] { return str("query should be unbatched 2D or batched 3D tensor but received ", query.ndim(), "-D query tensor"); });
  const bool self_attention = query.same(key) && key.same(value);
  if (!batched) {
    query = unsqueeze(query, 1);
    key = self_attention ? query : unsqueeze(key, 1);
    value = self_attention ? query : unsqueeze(value, 1);
  }
  const int64_t L = query.shape()[0], N = query.shape()[1], E = query.shape()[2], S = key.shape()[0];
  const int64_t H = x.integer("num_heads");
  check(E == x.integer("embed_dim_to_check"), [&] { return str("was expecting embedding dimension of ", x.integer("embed_dim_to_check"), ", but got ", E); });
  check(H > 0 && E % H == 0, [&] { return str("embed_dim ", E, " not divisible by num_heads ", H); });
  const int64_t head_dim = E / H;

  auto bias_part = [&](int64_t i) -> Value {
    return x.is_none("in_proj_bias") ? Value(None{}) : Value(narrow(x.tensor("in_proj_bias"), 0, i * E, E));
  };
  Tensor q, k, v;
  if (x.flag("use_separate_proj_weight")) {
    q = op("torch.nn.functional.linear", {query, x.tensor("q_proj_weight"), bias_part(0)});
    k = op("torch.nn.functional.linear", {key, x.tensor("k_proj_weight"), bias_part(1)});
    v = op("torch.nn.functional.linear", {value, x.tensor("v_proj_weight"), bias_part(2)});
  } else if (self_attention) {
    Value qkv = call("torch.chunk", {op("torch.nn.functional.linear", {query, x.tensor("in_proj_weight"), x["in_proj_bias"]}), 3, -1});
    q = qkv.items()[0].as_tensor();
    k = qkv.items()[1].as_tensor();
    v = qkv.items()[2].as_tensor();
  } else {
    const auto& w = x.tensor("in_proj_weight");
    q = op("torch.nn.functional.linear", {query, narrow(w, 0, 0, E), bias_part(0)});
    k = op("torch.nn.functional.linear", {key, narrow(w, 0, E, E), bias_part(1)});
    v = op("torch.nn.functional.linear", {value, narrow(w, 0, 2 * E, E), bias_part(2)});
  }
  // (T, N, E) -> (N, H, T, head_dim)
  auto heads = [&](const Tensor& t, int64_t T) { return permute(reshape(t, {T, N, H, head_dim}), {1, 2, 0, 3}); };
  q = heads(q, L);
  k = heads(k, S);
  v = heads(v, S);

  // One additive mask of shape (N, H, L, S), or none.
  std::optional<Tensor> mask;
  const double neg_inf = -std::numeric_limits<double>::infinity();
  auto additive = [&](const Tensor& m) {
    return m.dtype().is_bool() ? masked_fill(full(m.shape(), 0.0, m.device(), q.dtype().strong()), m, neg_inf) : m;
  };
  if (!x.is_none("attn_mask")) {
    Tensor m = x.tensor("attn_mask");
    check(m.ndim() == 2 || m.ndim() == 3, "attn_mask's dimension is not supported: it must be 2D or 3D");
    m = additive(m);
    mask = m.ndim() == 2 ? m : reshape(m, {N, H, L, S});
  }
  if (!x.is_none("key_padding_mask")) {
    Tensor kpm = x.tensor("key_padding_mask");
    kpm = additive(batched ? kpm : unsqueeze(kpm, 0));
    kpm = reshape(kpm, {N, 1, 1, S});
    mask = mask ? *mask + kpm : kpm;
  }
  const double p = x.flag("training") ? x.real("dropout_p") : 0.0;
  Tensor attended;
  Value weights = None{};
  if (x.flag("need_weights")) {
    Tensor q_scaled = q * (1.0 / std::sqrt(static_cast<double>(head_dim)));
    Tensor scores = matmul(q_scaled, transpose(k, -2, -1));
    if (mask) scores = scores + *mask;
    Tensor probabilities = softmax(scores, -1);
    weights = x.flag("average_attn_weights") ? mean(probabilities, Dims{1}) : probabilities;
    if (!batched) weights = squeeze(weights.as_tensor(), {0});
    if (p > 0.0) probabilities = dropout(probabilities, p, true);
    attended = matmul(probabilities, v);
  } else {
    attended = op("torch.nn.functional.scaled_dot_product_attention", {q, k, v, mask ? Value(*mask) : Value(None{}), p});
  }
  // (N, H, L, head_dim) -> (L, N, E), projected.
  Tensor merged = reshape(permute(attended, {2, 0, 1, 3}), {L, N, E});
  Tensor out = op("torch.nn.functional.linear", {merged, x.tensor("out_proj_weight"), x["out_proj_bias"]});
  if (!batched) out = squeeze(out, {1});
  return Value::tuple({out, weights});
}


std::vector<int64_t> conv_padding(const Value& padding, const Tensor& weight, const std::vector<int64_t>& stride,
                                  const std::vector<int64_t>& dilation) {
  size_t n = stride.size();
  if (padding.kind() != Value::Kind::String) return n_tuple(padding, n, "padding");
  const auto& mode = padding.as_string();
  if (mode == "valid") return std::vector<int64_t>(n, 0);
  check(mode == "same", [&] { return str("Invalid padding string: '", mode, "'"); }, "ValueError");
  for (auto s : stride) check(s == 1, "padding='same' is not supported for strided convolutions", "ValueError");
  std::vector<int64_t> out;
  for (size_t i = 0; i < n; ++i) {
    int64_t total = dilation[i] * (weight.shape()[2 + i] - 1);
    check(total % 2 == 0, "padding='same' with an asymmetric padding is not supported yet", "NotImplementedError");
    out.push_back(total / 2);
  }
  return out;
}

// conv1d/2d/3d and conv_transpose1d/2d/3d: an unbatched input gets a batch of one.
Tensor conv_impl(const Args& x, size_t n, bool transposed) {
  Tensor a = x.tensor("a");
  const auto& weight = x.tensor("weight");
  const int64_t batched_rank = static_cast<int64_t>(n) + 2;
  bool unbatched = a.ndim() == batched_rank - 1;
  check(unbatched || a.ndim() == batched_rank, [&] {
    return str("Expected ", batched_rank - 1, "D (unbatched) or ", batched_rank, "D (batched) input to conv", transposed ? "_transpose" : "",
               n, "d, but got input of size: ", shape_repr(a.shape()));
  });
  if (unbatched) a = unsqueeze(a, 0);
  auto stride = n_tuple(x["stride"], n, "stride");
  auto dilation = n_tuple(x["dilation"], n, "dilation");
  std::vector<int64_t> padding, output_padding(n, 0);
  if (transposed) {
    padding = n_tuple(x["padding"], n, "padding");
    output_padding = n_tuple(x["output_padding"], n, "output_padding");
  } else {
    padding = conv_padding(x["padding"], weight, stride, dilation);
  }
  Tensor out = prims::convolution(a, weight, x["bias"], stride, padding, dilation, transposed, output_padding, x.integer("groups"));
  return unbatched ? squeeze(out, {0}) : out;
}

// embedding_bag: the rows of weight that each bag's indices pick, summed, averaged or maxed. Bags
// are the rows of a 2-d input, or the runs of a 1-d input starting at each offset; a position's
// bag is how many offsets lie at or before it, minus one (a table of positions x offsets, so no
// value decides a shape). Entries equal to padding_idx take no part; empty bags give zeros.
Tensor embedding_bag_impl(const Args& x) {
  Tensor indices = x.tensor("a");
  const auto& weight = x.tensor("weight");
  const std::string& mode = x["mode"].as_string();
  check(x.is_none("max_norm"), "embedding_bag with max_norm is not supported yet", "NotImplementedError");
  check(!x.flag("scale_grad_by_freq"), "embedding_bag with scale_grad_by_freq=True is not supported yet", "NotImplementedError");
  check(mode == "sum" || mode == "mean" || mode == "max", [&] { return str("mode has to be one of sum, mean or max, but got ", mode); });
  check(indices.ndim() == 1 || indices.ndim() == 2, "input has to be 1D or 2D Tensor");
  check(weight.ndim() == 2, "'weight' must be 2-D");
  check(x.is_none("per_sample_weights") || mode == "sum",
        "embedding_bag: per_sample_weights was not None. per_sample_weights is only supported for mode='sum'");
  Device device = indices.device();
  int64_t dim = weight.shape()[1];
  Tensor bag_of;  // each position's bag
  int64_t bags;
  std::optional<Tensor> counted;  // positions that belong to a bag (include_last_offset's tail does not)
  if (indices.ndim() == 2) {
    check(x.is_none("offsets"), "if input is 2D, then offsets has to be None, as input is treated is a mini-batch of fixed length sequences.");
    bags = indices.shape()[0];
    int64_t length = indices.shape()[1];
    bag_of = reshape(expand(unsqueeze(prims::iota(bags, 0, 1, device, dtypes::int64), 1), {bags, length}), {bags * length});
    indices = reshape(indices, {indices.numel()});
  } else {
    check(!x.is_none("offsets") && x.tensor("offsets").ndim() == 1, "offsets has to be a 1D Tensor");
    Tensor offsets = x.tensor("offsets");
    bags = offsets.shape()[0];
    Tensor positions = unsqueeze(prims::iota(indices.shape()[0], 0, 1, device, dtypes::int64), 1);
    if (x.flag("include_last_offset")) {
      bags -= 1;
      Tensor end = narrow(offsets, 0, bags, 1);
      counted = lt(positions, unsqueeze(end, 0));
      offsets = narrow(offsets, 0, 0, bags);
    }
    Tensor started = ge(positions, unsqueeze(offsets, 0));
    bag_of = sub(sum(started, Dims{1}), int64_t{1});
    if (counted) counted = squeeze(*counted, Dims{1});
  }
  // float16 and bfloat16 bags are summed in float32 and rounded once, as ATen's kernel does.
  DType computation = core::computation_dtype(weight.dtype());
  Tensor rows = prims::take(weight, indices, 0);
  if (computation != weight.dtype()) rows = to(rows, computation);
  Tensor member = full({indices.shape()[0]}, true, device, dtypes::bool8);
  if (!x.is_none("padding_idx")) {
    int64_t padding_idx = x.integer("padding_idx"), rows_in_weight = weight.shape()[0];
    check(padding_idx < rows_in_weight && padding_idx >= -rows_in_weight, "padding_idx must be within the number of embeddings", "AssertionError");
    member = ne(indices, padding_idx < 0 ? padding_idx + rows_in_weight : padding_idx);
  }
  if (counted) member = op("torch.logical_and", {member, *counted});
  if (mode == "max") {
    // [bags, positions], one recording call per statement (argument order is the compiler's).
    Tensor bag_ids = unsqueeze(prims::iota(bags, 0, 1, device, dtypes::int64), 1);
    Tensor position_bags = unsqueeze(bag_of, 0);
    Tensor same_bag = eq(bag_ids, position_bags);
    Tensor members = unsqueeze(member, 0);
    Tensor in_bag = op("torch.logical_and", {same_bag, members});
    double lowest = -std::numeric_limits<double>::infinity();
    Tensor in_bag_rows = unsqueeze(in_bag, 2);
    Tensor all_rows = unsqueeze(rows, 0);
    Tensor candidates = where(in_bag_rows, all_rows, lowest);
    Tensor extreme = amax(candidates, {1});
    Tensor any_member = op("torch.any", {in_bag, int64_t{1}, true});
    Tensor result = where(any_member, extreme, core::maybe_convert_to_dtype(int64_t{0}, computation));
    return core::convert(result, weight.dtype());
  }
  Tensor kept = where(unsqueeze(member, 1), rows, core::maybe_convert_to_dtype(int64_t{0}, computation));
  if (!x.is_none("per_sample_weights")) kept = mul(kept, unsqueeze(x.tensor("per_sample_weights"), 1));
  // Positions outside every bag (before the first offset) are parked in bag 0 with nothing to add.
  Tensor safe_bag = where(ge(bag_of, int64_t{0}), bag_of, int64_t{0});
  Tensor sums = prims::index_add(full({bags, dim}, 0, device, kept.dtype().strong()), safe_bag, kept, 0);
  if (mode == "sum") return core::convert(sums, weight.dtype());
  Tensor ones = to(member, sums.dtype());
  Tensor counts = prims::index_add(full({bags}, 0, device, sums.dtype().strong()), safe_bag, ones, 0);
  Tensor divisor = where(gt(counts, int64_t{0}), counts, int64_t{1});
  return core::convert(true_divide(sums, unsqueeze(divisor, 1)), weight.dtype());
}

// The windows of a pooling over the last n = 2 or 3 dimensions: the input padded (`padding` on both
// sides, then what ceil mode's last window overhangs on the right), unfolded so that each window
// is n trailing dimensions, (..., H', W', kh, kw) for 2-d.
struct PoolWindows {
  std::vector<std::array<int64_t, 3>> padding, overhang;  // prims.pad configs
  std::vector<int64_t> kernel, stride, dilation;
  Shape out_size;

  Tensor windows(const Tensor& a, const Value& padding_value, const Value& overhang_value) const {
    Tensor w;
    if (padding_value == overhang_value) {  // one pad does both
      auto both = padding;
      for (size_t d = 0; d < both.size(); ++d) both[d][1] += overhang[d][1];
      w = prims::pad(a, padding_value, both);
    } else {
      w = prims::pad(prims::pad(a, padding_value, padding), overhang_value, overhang);
    }
    int64_t n = static_cast<int64_t>(kernel.size());
    for (int64_t i = 0; i < n; ++i) w = prims::unfold(w, a.ndim() - n + i, dilation[i] * (kernel[i] - 1) + 1, stride[i]);
    if (std::any_of(dilation.begin(), dilation.end(), [](int64_t d) { return d > 1; })) {
      std::vector<int64_t> start(w.ndim(), 0), end(w.shape()), step(w.ndim(), 1);
      for (int64_t i = 0; i < n; ++i) step[w.ndim() - n + i] = dilation[i];
      w = prims::slice_prim(w, start, end, step);
    }
    return w;
  }
  // The trailing dims that hold each window.
  Dims window_dims(const Tensor& windows) const {
    Dims dims;
    for (int64_t i = static_cast<int64_t>(kernel.size()); i > 0; --i) dims.push_back(windows.ndim() - i);
    return dims;
  }
};

PoolWindows pool_windows(const Args& x, const char* name, bool has_dilation, int64_t spatial = 2) {
  const auto& a = x.tensor("a");
  check(a.ndim() == spatial + 1 || a.ndim() == spatial + 2, [&] {
    return str(name, ": expected a ", spatial + 1, "D or ", spatial + 2, "D input, but got ", shape_repr(a.shape()));
  });
  PoolWindows p;
  p.kernel = n_tuple(x["kernel_size"], spatial, "kernel_size");
  p.stride = x.is_none("stride") || (x["stride"].is_sequence() && x["stride"].items().empty()) ? p.kernel
                                                                                                : n_tuple(x["stride"], spatial, "stride");
  auto padding = n_tuple(x["padding"], spatial, "padding");
  p.dilation = has_dilation ? n_tuple(x["dilation"], spatial, "dilation") : std::vector<int64_t>(spatial, 1);
  auto positive = [](const std::vector<int64_t>& xs) { return std::all_of(xs.begin(), xs.end(), [](int64_t v) { return v > 0; }); };
  // PyTorch's messages; a zero stride or kernel would divide by zero below.
  check(positive(p.kernel) && positive(p.stride), "stride should not be zero");
  check(positive(p.dilation), [&] {
    std::string got;
    const char* axes = spatial == 3 ? "THW" : "HW";
    for (int64_t i = 0; i < spatial; ++i) got += str(i ? " " : "", "dilation", axes[i], ": ", p.dilation[i]);
    return str("dilation should be greater than zero, but got ", got);
  });
  int64_t least_padding = *std::min_element(padding.begin(), padding.end());
  check(least_padding >= 0, [&] { return str("pad must be non-negative, but got pad: ", least_padding); });
  bool ceil_mode = x.flag("ceil_mode");
  p.padding.assign(a.ndim(), {0, 0, 0});
  p.overhang.assign(a.ndim(), {0, 0, 0});
  for (int64_t i = 0; i < spatial; ++i) {
    int64_t dim = a.ndim() - spatial + i, n = a.shape()[dim];
    int64_t window = p.dilation[i] * (p.kernel[i] - 1) + 1;
    check(padding[i] * 2 <= p.kernel[i], "pad should be at most half of effective kernel size");
    int64_t span = n + 2 * padding[i] - window;
    int64_t out = (ceil_mode ? (span + p.stride[i] - 1) / p.stride[i] : span / p.stride[i]) + 1;
    // In ceil mode the last window must start inside the input or its left padding.
    if (ceil_mode && (out - 1) * p.stride[i] >= n + padding[i]) --out;
    check(out > 0, [&] { return str(name, ": the output size is too small for input ", shape_repr(a.shape())); });
    int64_t needed = (out - 1) * p.stride[i] + window;  // what the windows cover, from the padded start
    int64_t past = needed - n - 2 * padding[i];          // beyond the right padding (ceil mode), or before it (< 0)
    p.padding[dim] = {padding[i], padding[i], 0};
    p.overhang[dim] = {0, past, 0};
    p.out_size.push_back(out);
  }
  return p;
}

Value max_pool_impl(const Args& x, int64_t spatial) {
  const auto& a = x.tensor("a");
  std::string name = str("max_pool", spatial, "d");
  check(a.dtype().is_float(), [&] { return str(name, ": only floating point inputs are supported"); }, "NotImplementedError");
  PoolWindows p = pool_windows(x, name.c_str(), true, spatial);
  double lowest = -std::numeric_limits<double>::infinity();
  Tensor windows = p.windows(a, lowest, lowest);
  bool with_indices = x.flag("return_indices");
  if (!a.requires_grad() && !with_indices) return prims::amax(windows, p.window_dims(windows));
  // In training, the value is picked at each window's first maximum, so that the gradient goes
  // there alone, as PyTorch's max pooling routes it (amax's gradient would share it among ties,
  // which 16-bit floats make common). Its index in the input's spatial plane is read from a tensor
  // of positions windowed alike (a window of -inf alone may name a padding position, -1).
  Shape flat_shape(windows.shape().begin(), windows.shape().end() - spatial);
  flat_shape.push_back(numel(Shape(windows.shape().end() - spatial, windows.shape().end())));
  Tensor flat = reshape(windows, flat_shape);
  const int64_t last = flat.ndim() - 1;
  Tensor first = unsqueeze(prims::argmax(flat, last), last);
  Tensor picked = prims::take_along_axis(flat, first, last);
  Shape out_shape(flat_shape.begin(), flat_shape.end() - 1);
  Tensor values = reshape(picked, out_shape);
  if (!with_indices) return values;
  Shape plane(a.shape().end() - spatial, a.shape().end()), positioned(a.ndim() - spatial, 1);
  positioned.insert(positioned.end(), plane.begin(), plane.end());
  Tensor positions = reshape(prims::iota(numel(plane), 0, 1, a.device(), dtypes::int64), positioned);
  Shape unbatched = flat_shape;
  std::fill(unbatched.begin(), unbatched.begin() + (a.ndim() - spatial), 1);
  Tensor position_windows = reshape(p.windows(positions, int64_t{-1}, int64_t{-1}), unbatched);
  Tensor indices = prims::take_along_axis(expand(position_windows, flat_shape), first, last);
  return Value::tuple({values, reshape(indices, out_shape)});
}

// The window sums over divisors: divisor_override, or how many of a window's elements lie in the
// input (count_include_pad=False) or in the input and its padding (True), never the ceil-mode
// overhang; the counts come from pooling a tensor of ones padded alike.
Tensor avg_pool_impl(const Args& x, int64_t spatial) {
  const auto& a = x.tensor("a");
  std::string name = str("avg_pool", spatial, "d");
  check(!a.dtype().is_bool() && !a.dtype().is_complex(), [&] { return str(name, ": inputs of dtype ", a.dtype().full_name(), " are not supported"); });
  PoolWindows p = pool_windows(x, name.c_str(), false, spatial);
  Tensor windows = p.windows(a, int64_t{0}, int64_t{0});
  Dims window_dims = p.window_dims(windows);
  // Integers are summed in their own dtype and divided with truncation, as PyTorch's kernel does.
  auto divided = [&](const Tensor& sums, const Value& divisor) -> Tensor {
    if (a.dtype().is_inexact()) return true_divide(sums, divisor);
    Tensor q = op("torch.div", {sums, divisor}, {{"rounding_mode", std::string("trunc")}});
    return q.dtype().type == a.dtype().type ? q : to(q, a.dtype());
  };
  Tensor sums = sum(windows, window_dims, false);
  if (!a.dtype().is_inexact() && sums.dtype().type != a.dtype().type) sums = to(sums, a.dtype());
  if (!x.is_none("divisor_override")) {
    check(x.integer("divisor_override") != 0, "divisor must be not zero");
    return divided(sums, x.integer("divisor_override"));
  }
  Shape plane(a.shape().end() - spatial, a.shape().end());
  Tensor ones = full(plane, 1, a.device(), a.dtype().strong());
  PoolWindows plane_windows = p;
  plane_windows.padding.erase(plane_windows.padding.begin(), plane_windows.padding.end() - spatial);
  plane_windows.overhang.erase(plane_windows.overhang.begin(), plane_windows.overhang.end() - spatial);
  Tensor counted = plane_windows.windows(ones, x.flag("count_include_pad") ? int64_t{1} : int64_t{0}, int64_t{0});
  return divided(sums, sum(counted, plane_windows.window_dims(counted)));
}

// adaptive_{avg,max}_pool{1,2,3}d: the mean (maximum) of each window [floor(i*n/o), ceil((i+1)*n/o))
// of every spatial dimension; when the sizes divide, one reshape. A maximum is each window's first
// (ATen's kernel keeps the first of equal values), which takes the whole gradient; with
// return_indices, its flat index in the input's spatial plane too, read from a tensor of positions
// pooled alike.
Value adaptive_pool_impl(const Args& x, int64_t spatial, bool max) {
  std::string name = str(max ? "adaptive_max_pool" : "adaptive_avg_pool", spatial, "d");
  const auto& a = x.tensor("a");
  check(a.ndim() == spatial + 1 || a.ndim() == spatial + 2, [&] {
    return str(name, ": expected a ", spatial + 1, "D or ", spatial + 2, "D input, but got ", shape_repr(a.shape()));
  });
  Shape batch(a.shape().begin(), a.shape().end() - spatial), in(a.shape().end() - spatial, a.shape().end());
  const auto& requested = x["output_size"];
  check(requested.is_int_like() || (requested.is_sequence() && static_cast<int64_t>(requested.items().size()) == spatial), [&] {
    return str(name, ": output_size must be an int or ", spatial == 2 ? std::string("a pair") : str("a tuple of ", spatial), ", but got ", py_repr(requested));
  });
  Shape out;
  for (int64_t i = 0; i < spatial; ++i) {
    const Value& s = requested.is_int_like() ? requested : requested.items().at(i);
    out.push_back(s.is_none() ? in[i] : s.as_int());
  }
  check(std::all_of(out.begin(), out.end(), [](int64_t o) { return o > 0 && o < (int64_t{1} << 31); }),
        [&] { return str(name, ": output size must be positive and below 2^31"); });
  bool with_indices = max && x.flag("return_indices");
  bool pick = max && (with_indices || a.requires_grad());
  int64_t plane = numel(in);
  Tensor positions = pick ? reshape(prims::iota(plane, 0, 1, a.device(), dtypes::int64), in) : Tensor();
  // The windows of t (spatial dims last) as one trailing dimension, for sizes that divide.
  auto even_windows = [&](const Tensor& t) {
    Shape t_batch(t.shape().begin(), t.shape().end() - spatial), split = t_batch, merged = t_batch;
    Dims order;
    int64_t b = static_cast<int64_t>(t_batch.size());
    for (int64_t d = 0; d < b; ++d) order.push_back(d);
    for (int64_t i = 0; i < spatial; ++i) {
      split.insert(split.end(), {out[i], in[i] / out[i]});
      order.push_back(b + 2 * i);
      merged.push_back(out[i]);
    }
    for (int64_t i = 0; i < spatial; ++i) order.push_back(b + 2 * i + 1);
    merged.push_back(plane / numel(out));
    return reshape(permute(reshape(t, split), order), merged);
  };
  // One window's reduction over its trailing dimension: (value, index) of a maximum, or the mean.
  auto reduced = [&](const Tensor& w, const Tensor& w_positions) -> std::pair<Tensor, Tensor> {
    int64_t last = w.ndim() - 1;
    if (!pick) return {max ? amax(w, {last}) : mean(w, Dims{last}), Tensor()};
    Tensor first = unsqueeze(prims::argmax(w, last), last);
    Tensor value = squeeze(prims::take_along_axis(w, first, last), {last});
    if (!with_indices) return {value, Tensor()};
    Tensor everywhere = expand(w_positions, w.shape());
    return {value, squeeze(prims::take_along_axis(everywhere, first, last), {last})};
  };
  bool divides = true;
  for (int64_t i = 0; i < spatial; ++i) divides = divides && in[i] % out[i] == 0;
  Tensor values, indices;
  if (divides && !pick) {  // one reshape, reduced over each window's dims in place
    Shape split = batch;
    Dims window_dims;
    for (int64_t i = 0; i < spatial; ++i) {
      split.insert(split.end(), {out[i], in[i] / out[i]});
      window_dims.push_back(static_cast<int64_t>(split.size()) - 1);
    }
    Tensor windows = reshape(a, split);
    return max ? amax(windows, window_dims) : mean(windows, window_dims);
  }
  if (divides) {
    Tensor windows = even_windows(a);
    Tensor position_windows = even_windows(positions);
    std::tie(values, indices) = reduced(windows, position_windows);
  } else {
    // Uneven windows, one by one, each flattened.
    check(numel(out) <= 65536, [&] {
      return str(name, ": output size ", shape_repr(out), " does not divide the input size ", shape_repr(in),
                 " and has more than 65536 windows, which are decomposed one by one");
    }, "NotImplementedError");
    std::vector<Tensor> window_values, window_indices;
    for (int64_t k = 0; k < numel(out); ++k) {
      Tensor w = a, w_positions = positions;
      for (int64_t i = spatial - 1, rest = k; i >= 0; rest /= out[i], --i) {
        int64_t o = rest % out[i], start = o * in[i] / out[i], stop = ((o + 1) * in[i] + out[i] - 1) / out[i];
        w = narrow(w, static_cast<int64_t>(batch.size()) + i, start, stop - start);
        if (pick) w_positions = narrow(w_positions, i, start, stop - start);
      }
      Tensor flat = flatten(w, static_cast<int64_t>(batch.size()));
      auto [value, index] = reduced(flat, pick ? flatten(w_positions) : Tensor());
      window_values.push_back(value);
      if (with_indices) window_indices.push_back(index);
    }
    Shape result = batch;
    result.insert(result.end(), out.begin(), out.end());
    values = reshape(op("torch.stack", {Value::list(Values(window_values.begin(), window_values.end())), -1}), result);
    if (with_indices) indices = reshape(op("torch.stack", {Value::list(Values(window_indices.begin(), window_indices.end())), -1}), result);
  }
  if (!with_indices) return values;
  return Value::tuple({values, indices});
}

// max_unpool{1,2,3}d: zeros of the output size, each value written where its index points in the
// spatial plane (the maximum it came from). The output size, given or computed, within a stride of
// (in - 1) * stride + kernel - 2 * padding as PyTorch requires.
Tensor max_unpool_impl(const Args& x, int64_t spatial) {
  std::string name = str("max_unpool", spatial, "d");
  const auto& a = x.tensor("a");
  const auto& indices = x.tensor("indices");
  check(a.ndim() == spatial + 1 || a.ndim() == spatial + 2, [&] {
    return str(name, ": expected a ", spatial + 1, "D or ", spatial + 2, "D input, but got ", shape_repr(a.shape()));
  });
  check(indices.shape() == a.shape(), [&] {
    return str("Expected shape of indices to be same as that of the input tensor (", shape_repr(a.shape()), ") but got indices tensor with shape: ",
               shape_repr(indices.shape()));
  });
  check(indices.dtype().type == ScalarType::Int64, "elements in indices should be type int64");
  std::vector<int64_t> kernel = n_tuple(x["kernel_size"], spatial, "kernel_size");
  std::vector<int64_t> stride = x.is_none("stride") ? kernel : n_tuple(x["stride"], spatial, "stride");
  std::vector<int64_t> padding = n_tuple(x["padding"], spatial, "padding");
  Shape batch(a.shape().begin(), a.shape().end() - spatial), out;
  for (int64_t i = 0; i < spatial; ++i) out.push_back((a.shape()[a.ndim() - spatial + i] - 1) * stride[i] + kernel[i] - 2 * padding[i]);
  if (!x.is_none("output_size")) {
    std::vector<int64_t> given = x.ints("output_size");
    if (static_cast<int64_t>(given.size()) == spatial + 2) given.erase(given.begin(), given.begin() + 2);
    check(static_cast<int64_t>(given.size()) == spatial, [&] {
      return str("output_size should be a sequence containing ", spatial, " or ", spatial + 2, " elements, but it has a length of '", given.size(), "'");
    }, "ValueError");
    for (int64_t i = 0; i < spatial; ++i)
      check(given[i] > out[i] - stride[i] && given[i] < out[i] + stride[i], [&] {
        return str("invalid output_size \"", shape_repr(given), "\" (dim ", i, " must be between ", out[i] - stride[i], " and ", out[i] + stride[i], ")");
      }, "ValueError");
    out = given;
  }
  Shape flat_in = batch, flat_out = batch, result = batch;
  flat_in.push_back(numel(Shape(a.shape().end() - spatial, a.shape().end())));
  flat_out.push_back(numel(out));
  result.insert(result.end(), out.begin(), out.end());
  Tensor zeros = full(flat_out, 0, a.device(), a.dtype().strong());
  Tensor values = reshape(a, flat_in);
  Tensor placed = prims::scatter(zeros, reshape(indices, flat_in), values, static_cast<int64_t>(flat_in.size()) - 1);
  return reshape(placed, result);
}

// interpolate, nearest, (bi/tri)linear and bicubic over the trailing spatial dimensions
// (align_corners either way): per dimension, source indices (and weights) computed from iota, then
// taken with prims.take. Bicubic is separable: Keys' cubic convolution (A = -0.75) along the
// width, then the height, as ATen's kernel combines its rows, its taps clamped to the edges.
Tensor interpolate_impl(const Args& x) {
  const auto& a = x.tensor("a");
  const auto& mode = x["mode"].as_string();
  check(!x.flag("antialias"), "interpolate with antialias=True is not supported yet", "NotImplementedError");
  const int64_t spatial = a.ndim() - 2;
  check(spatial >= 1 && spatial <= 3, [&] { return str("interpolate: expected a 3D, 4D or 5D input, but got ", shape_repr(a.shape())); });
  bool linear = mode == "linear" || mode == "bilinear" || mode == "trilinear";
  bool cubic = mode == "bicubic";
  bool area = mode == "area";
  check(mode == "nearest" || linear || cubic || area, [&] { return str("interpolate: mode '", mode, "' is not supported yet"); }, "NotImplementedError");
  check(!cubic || spatial == 2, [&] { return str("Got ", a.ndim(), "D input, but bicubic mode needs 4D input"); }, "NotImplementedError");
  check(!linear || mode == std::vector<std::string>{"linear", "bilinear", "trilinear"}[spatial - 1], [&] {
    return str("Got ", a.ndim(), "D input, but ", mode, " mode needs ", mode == "linear" ? 3 : mode == "bilinear" ? 4 : 5, "D input");
  }, "NotImplementedError");
  check(x.is_none("size") != x.is_none("scale_factor"), "only one of size or scale_factor should be defined", "ValueError");
  std::vector<int64_t> out_size;
  std::vector<double> scales;  // input / output, as PyTorch computes source indices
  bool use_scale = !x.is_none("scale_factor") && !(x["recompute_scale_factor"].kind() == Value::Kind::Bool && x.flag("recompute_scale_factor"));
  for (int64_t d = 0; d < spatial; ++d) {
    int64_t in = a.shape()[2 + d];
    if (!x.is_none("size")) {
      const auto& size = x["size"];
      out_size.push_back(size.is_int_like() ? size.as_int() : size.items().at(d).as_int());
    } else {
      const auto& sf = x["scale_factor"];
      double f = sf.is_number() ? sf.as_float() : sf.items().at(d).as_float();
      out_size.push_back(static_cast<int64_t>(std::floor(in * f)));
      if (use_scale) scales.push_back(1.0 / f);
    }
    check(out_size.back() > 0, "interpolate: the output size must be positive");
    if (static_cast<int64_t>(scales.size()) <= d) scales.push_back(static_cast<double>(in) / static_cast<double>(out_size.back()));
  }
  // 'area' is adaptive average pooling to the output size.
  if (area) return op(str("torch.nn.functional.adaptive_avg_pool", spatial, "d"), {a, Value::ints(out_size)});
  const bool weighted = linear || cubic;
  bool align = weighted && x["align_corners"].kind() == Value::Kind::Bool && x.flag("align_corners");
  // Linear and cubic modes weigh in float32 for float16 and bfloat16 (as ATen's kernels do), rounding once.
  DType computation = weighted ? core::computation_dtype(a.dtype()) : a.dtype();
  Tensor out = computation == a.dtype() ? a : to(a, computation);
  for (int64_t k = 0; k < spatial; ++k) {
    const int64_t d = cubic ? spatial - 1 - k : k;
    int64_t dim = 2 + d, in = a.shape()[dim], n = out_size[d];
    // Source coordinates of the output positions, in float32 as PyTorch computes them.
    Tensor pos = to(prims::iota(n, 0, 1, a.device(), dtypes::int64), a.dtype().type == ScalarType::Float64 ? dtypes::float64 : dtypes::float32);
    if (!weighted) {
      Tensor index = op("torch.clamp", {to(prims::floor(pos * scales[d]), dtypes::int64), None{}, in - 1});
      out = prims::take(out, index, dim);
      continue;
    }
    Shape weight_shape(out.ndim(), 1);
    weight_shape[dim] = n;
    if (cubic) {
      // Unlike linear's, cubic's source coordinate is not clamped at 0: its taps are.
      Tensor src = align ? pos * (n > 1 ? static_cast<double>(in - 1) / static_cast<double>(n - 1) : 0.0) : (pos + 0.5) * scales[d] - 0.5;
      Tensor floor_src = prims::floor(src);
      Tensor t = src - floor_src;
      Tensor base = to(floor_src, dtypes::int64);
      constexpr double A = -0.75;
      auto near = [](const Tensor& s) { return ((s * (A + 2) - (A + 3)) * s) * s + 1; };     // |s| <= 1
      auto far = [](const Tensor& s) { return ((s * A - 5 * A) * s + 8 * A) * s - 4 * A; };  // 1 < |s| < 2
      Tensor t_plus_one = t + 1;
      Tensor one_minus_t = 1 - t;
      Tensor two_minus_t = 2 - t;
      std::vector<Tensor> weights;
      weights.push_back(far(t_plus_one));
      weights.push_back(near(t));
      weights.push_back(near(one_minus_t));
      weights.push_back(far(two_minus_t));
      Tensor sum;
      for (int64_t tap = 0; tap < 4; ++tap) {
        Tensor index = op("torch.clamp", {base + (tap - 1), 0, in - 1});
        Tensor w = to(reshape(weights[tap], weight_shape), out.dtype());
        Tensor term = prims::take(out, index, dim) * w;
        sum = tap == 0 ? term : sum + term;
      }
      out = sum;
      continue;
    }
    Tensor src = align ? pos * (n > 1 ? static_cast<double>(in - 1) / static_cast<double>(n - 1) : 0.0)
                       : op("torch.clamp", {(pos + 0.5) * scales[d] - 0.5, 0.0});
    Tensor i0 = op("torch.clamp", {to(prims::floor(src), dtypes::int64), None{}, in - 1});
    Tensor i1 = op("torch.clamp", {i0 + 1, None{}, in - 1});
    Tensor lambda = src - to(i0, src.dtype());
    Tensor w1 = to(reshape(lambda, weight_shape), out.dtype());
    Tensor w0 = 1 - w1;
    Tensor left = prims::take(out, i0, dim) * w0;
    Tensor right = prims::take(out, i1, dim) * w1;
    out = left + right;
  }
  return out.dtype() == a.dtype() ? out : to(out, a.dtype());
}

// group_norm: the statistics of each group of channels of each sample.
Tensor group_norm_impl(const Args& x) {
  const auto& a = x.tensor("a");
  int64_t groups = x.integer("num_groups");
  check(a.ndim() >= 2, "group_norm: expected an input of at least 2 dimensions");
  int64_t N = a.shape()[0], C = a.shape()[1];
  check(groups > 0 && C % groups == 0, [&] { return str("Expected number of channels in input to be divisible by num_groups, but got input of shape ", shape_repr(a.shape()), " and num_groups=", groups); });
  DType computation = core::computation_dtype(a.dtype());
  Tensor a_ = a.dtype() == computation ? a : to(a, computation);
  Tensor grouped = reshape(a_, {N, groups, a.numel() / std::max<int64_t>(N * groups, 1)});
  auto [var_, mean_] = var_mean(grouped, Dims{2}, 0, true);
  Tensor rstd = rsqrt(var_ + x.real("eps"));
  Tensor out = reshape((grouped - mean_) * rstd, a.shape());
  Shape param_shape(a.ndim(), 1);
  param_shape[1] = C;
  if (!x.is_none("weight")) out = out * reshape(x.tensor("weight"), param_shape);
  if (!x.is_none("bias")) out = out + reshape(x.tensor("bias"), param_shape);
  return out.dtype() == a.dtype() ? out : to(out, a.dtype());
}

// instance_norm: each channel of each sample normalized by its own statistics (use_input_stats),
// or by the running statistics. The running statistics' update is the front end's to record, as
// batch_norm's (lerp_ after the call).
Tensor instance_norm_impl(const Args& x) {
  const auto& a = x.tensor("a");
  check(a.ndim() >= 3, "instance_norm: expected an input of at least 3 dimensions");
  Shape param_shape(a.ndim(), 1);
  param_shape[1] = a.shape()[1];
  DType computation = core::computation_dtype(a.dtype());
  Tensor a_ = a.dtype() == computation ? a : to(a, computation);
  Tensor mean_, rstd;
  if (x.flag("use_input_stats")) {
    Dims dims;
    for (int64_t d = 2; d < a.ndim(); ++d) dims.push_back(d);
    Tensor var_;
    std::tie(var_, mean_) = var_mean(a_, dims, 0, true);
    rstd = rsqrt(var_ + x.real("eps"));
  } else {
    check(!x.is_none("running_mean") && !x.is_none("running_var"), "Expected running_mean and running_var to be defined when use_input_stats is false",
          "ValueError");
    mean_ = reshape(x.tensor("running_mean"), param_shape);
    rstd = rsqrt(reshape(x.tensor("running_var"), param_shape) + x.real("eps"));
  }
  Tensor out = (a_ - mean_) * rstd;
  if (!x.is_none("weight")) out = out * reshape(x.tensor("weight"), param_shape);
  if (!x.is_none("bias")) out = out + reshape(x.tensor("bias"), param_shape);
  return out.dtype() == a.dtype() ? out : to(out, a.dtype());
}

Tensor batch_norm_impl(const Args& x) {
  const auto& a = x.tensor("a");
  check(a.ndim() >= 2, [&] { return str("batch_norm: expected an input of at least 2 dimensions, but got ", shape_repr(a.shape())); });
  int64_t C = a.shape()[1];
  Shape param_shape(a.ndim(), 1);
  param_shape[1] = C;
  DType computation = core::computation_dtype(a.dtype());
  // Low-precision statistics and parameters are widened too: ATen computes the whole
  // normalization in float and rounds once.
  auto widened = [&](const char* param) {
    Tensor p = reshape(x.tensor(param), param_shape);
    return p.dtype().is_float() && p.dtype().bytes() < computation.bytes() ? to(p, computation) : p;
  };
  Tensor a_ = a.dtype() == computation ? a : to(a, computation);
  Tensor mean_, var_;
  if (x.flag("training")) {
    Dims dims{0};
    for (int64_t d = 2; d < a.ndim(); ++d) dims.push_back(d);
    std::tie(var_, mean_) = var_mean(a_, dims, 0, true);
  } else {
    check(!x.is_none("running_mean") && !x.is_none("running_var"), "batch_norm: running_mean and running_var must be given when training=False");
    mean_ = widened("running_mean");
    var_ = widened("running_var");
  }
  Tensor rstd = rsqrt(var_ + x.real("eps"));
  Tensor out = (a_ - mean_) * rstd;
  if (!x.is_none("weight")) out = out * widened("weight");
  if (!x.is_none("bias")) out = out + widened("bias");
  return out.dtype() == a.dtype() ? out : to(out, a.dtype());
}

Tensor layer_norm_impl(const Args& x) {
  const auto& a = x.tensor("a");
  auto normalized = x.ints("normalized_shape");
  auto n = static_cast<int64_t>(normalized.size());
  check(n >= 1 && n <= a.ndim() && std::equal(normalized.begin(), normalized.end(), a.shape().end() - n), [&] {
    return str("Given normalized_shape=", langs::dims_repr(normalized), ", expected input with shape [*, ",
               langs::dims_repr(normalized).substr(1), ", but got input of size ", shape_repr(a.shape()));
  });
  Dims dims;
  for (int64_t d = a.ndim() - n; d < a.ndim(); ++d) dims.push_back(d);
  DType computation = core::computation_dtype(a.dtype());
  Tensor a_ = a.dtype() == computation ? a : to(a, computation);
  auto [var_, mean_] = var_mean(a_, dims, 0, true);
  Tensor rstd = rsqrt(var_ + x.real("eps"));
  Tensor out = (a_ - mean_) * rstd;
  if (!x.is_none("weight")) out = out * x.tensor("weight");
  if (!x.is_none("bias")) out = out + x.tensor("bias");
  return out.dtype() == a.dtype() ? out : to(out, a.dtype());
}

}  // namespace

Tensor matmul(const Tensor& a, const Tensor& b) { return op("torch.matmul", {a, b}); }
Tensor dropout(const Tensor& a, double p, bool training) { return op("torch.nn.functional.dropout", {a, p, training}); }

void register_nn(SymbolTable& t) {
  define(t, {{"torch.matmul", "torch.Tensor.matmul", "torch.Tensor.__matmul__"}, "a, b, /",
             [](const Args& x) -> Value { return matmul_impl(x.tensor("a"), x.tensor("b")); }});
  define(t, {{"torch.bmm", "torch.Tensor.bmm"}, "a, b, /", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    const auto& b = x.tensor("b");
    check(a.ndim() == 3 && b.ndim() == 3, [&] { return str("bmm expects 3D tensors, but got ", a.ndim(), "D and ", b.ndim(), "D"); });
    check(a.shape()[0] == b.shape()[0], "bmm expects both tensors to have the same batch size");
    return prims::matmul(a, b);
  }});
  define(t, {{"torch.mm", "torch.Tensor.mm"}, "a, b, /", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    const auto& b = x.tensor("b");
    check(a.ndim() == 2 && b.ndim() == 2, [&] { return str("mm expects 2D tensors, but got ", a.ndim(), "D and ", b.ndim(), "D"); });
    check(a.shape()[1] == b.shape()[0], [&] {
      return str("mat1 and mat2 shapes cannot be multiplied (", a.shape()[0], "x", a.shape()[1], " and ", b.shape()[0], "x", b.shape()[1], ")");
    });
    check(a.dtype().type == b.dtype().type, [&] {
      return str("expected mat1 and mat2 to have the same dtype, but got: ", a.dtype().torch_name(), " != ", b.dtype().torch_name());
    });
    return prims::matmul(a, b);
  }});
  define(t, {{"torch.outer", "torch.Tensor.outer", "torch.ger"}, "a, b, /", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    const auto& b = x.tensor("b");
    check(a.ndim() == 1 && b.ndim() == 1, "outer: expected 1-D vectors");
    return mul(unsqueeze(a, 1), b);
  }});
  define(t, {{"torch.dot", "torch.Tensor.dot"}, "a, b, /", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    const auto& b = x.tensor("b");
    check(a.ndim() == 1 && b.ndim() == 1, [&] { return str("1D tensors expected, but got ", a.ndim(), "D and ", b.ndim(), "D tensors"); });
    check(a.dtype().type == b.dtype().type, [&] { return str("dot : expected both vectors to have same dtype, but found ", a.dtype().torch_name(), " and ", b.dtype().torch_name()); });
    return prims::matmul(a, b);
  }});
  // A chain of products in the order that costs the fewest multiplications, as PyTorch orders
  // it; a 1-D first (last) operand is a row (column) vector, dropped from the result.
  define(t, {{"torch.linalg.multi_dot"}, "tensors, *, out=None", [](const Args& x) -> Value {
    check(x.is_none("out"), "multi_dot(..., out=...) is not supported", "NotImplementedError");
    std::vector<Tensor> m = tensors_in(x["tensors"]);
    check(m.size() >= 2, [&] { return str("multi_dot(): expected at least 2 tensors but got ", m.size()); });
    const bool row = m.front().ndim() == 1, column = m.back().ndim() == 1;
    if (row) m.front() = unsqueeze(m.front(), 0);
    if (column) m.back() = unsqueeze(m.back(), 1);
    for (size_t i = 0; i < m.size(); ++i)
      check(m[i].ndim() == 2, [&] { return str("multi_dot(): tensor ", i, " must be 2D but got ", m[i].ndim(), "D"); });
    const size_t n = m.size();
    std::vector<std::vector<double>> cost(n, std::vector<double>(n, 0.0));
    std::vector<std::vector<size_t>> split(n, std::vector<size_t>(n, 0));
    auto rows = [&](size_t i) { return static_cast<double>(m[i].shape()[0]); };
    auto cols = [&](size_t i) { return static_cast<double>(m[i].shape()[1]); };
    for (size_t length = 1; length < n; ++length)
      for (size_t i = 0; i + length < n; ++i) {
        size_t j = i + length;
        cost[i][j] = std::numeric_limits<double>::infinity();
        for (size_t k = i; k < j; ++k)
          if (double c = cost[i][k] + cost[k + 1][j] + rows(i) * cols(k) * cols(j); c < cost[i][j]) {
            cost[i][j] = c;
            split[i][j] = k;
          }
      }
    std::function<Tensor(size_t, size_t)> chain = [&](size_t i, size_t j) -> Tensor {
      return i == j ? m[i] : op("torch.mm", {chain(i, split[i][j]), chain(split[i][j] + 1, j)});
    };
    Tensor product = chain(0, n - 1);
    if (row) product = squeeze(product, Dims{0});
    if (column) product = squeeze(product, Dims{-1});
    return product;
  }});
  define(t, {{"torch.mv", "torch.Tensor.mv"}, "a, b, /", [](const Args& x) -> Value {
    check(x.tensor("a").ndim() == 2 && x.tensor("b").ndim() == 1, "vector + matrix @ vector expected");
    return prims::matmul(x.tensor("a"), x.tensor("b"));
  }});
  // beta * input + alpha * (a @ b), input broadcast (beta 0 ignores it, NaN included).
  auto scaled_sum = [](const Args& x, const Tensor& product) -> Value {
    // alpha and beta are cast to the result's dtype (2.5 is 2 for integers), as in PyTorch.
    DType dtype = product.dtype();
    Tensor scaled = is_one(x["alpha"]) ? product : mul(product, core::maybe_convert_to_dtype(x["alpha"], dtype));
    if (!x["beta"].is_tensor() && x["beta"].as_float() == 0.0) return scaled;
    const auto& input = x.tensor("input");
    return add(is_one(x["beta"]) ? input : mul(input, core::maybe_convert_to_dtype(x["beta"], dtype)), scaled);
  };
  // float16 and bfloat16 are computed in float32 and rounded once, as PyTorch's kernels do.
  auto low_precision_product = [scaled_sum](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    if (!a.dtype().is_low_precision()) return scaled_sum(x, prims::matmul(a, x.tensor("b")));
    DType wide = core::computation_dtype(a.dtype());
    Values widened;
    for (const char* p : {"input", "a", "b"}) widened.push_back(to(x.tensor(p), wide));
    Args wide_args(x.symbol(), {widened[0], widened[1], widened[2], x["beta"], x["alpha"]});
    return to(scaled_sum(wide_args, prims::matmul(widened[1].as_tensor(), widened[2].as_tensor())).as_tensor(), a.dtype());
  };
  define(t, {{"torch.addmm", "torch.Tensor.addmm"}, "input, a, b, /, *, beta=1, alpha=1", [low_precision_product](const Args& x) -> Value {
    check(x.tensor("a").ndim() == 2 && x.tensor("b").ndim() == 2, "addmm: expected 2-D matrices");
    return low_precision_product(x);
  }});
  define(t, {{"torch.baddbmm", "torch.Tensor.baddbmm"}, "input, a, b, /, *, beta=1, alpha=1", [low_precision_product](const Args& x) -> Value {
    check(x.tensor("a").ndim() == 3 && x.tensor("b").ndim() == 3, "baddbmm: expected 3-D tensors");
    return low_precision_product(x);
  }});
  define(t, {{"torch.addmv", "torch.Tensor.addmv"}, "input, a, b, /, *, beta=1, alpha=1", [scaled_sum](const Args& x) -> Value {
    check(x.tensor("a").ndim() == 2 && x.tensor("b").ndim() == 1, "vector + matrix @ vector expected");
    return scaled_sum(x, matmul(x.tensor("a"), x.tensor("b")));
  }}, {kRunsDecomposed});
  define(t, {{"torch.addr", "torch.Tensor.addr"}, "input, a, b, /, *, beta=1, alpha=1", [scaled_sum](const Args& x) -> Value {
    check(x.tensor("a").ndim() == 1 && x.tensor("b").ndim() == 1, "addr: expected 1-D vectors");
    return scaled_sum(x, op("torch.outer", {x["a"], x["b"]}));
  }}, {kRunsDecomposed});
  define(t, {{"torch.addbmm", "torch.Tensor.addbmm"}, "input, a, b, /, *, beta=1, alpha=1", [scaled_sum](const Args& x) -> Value {
    check(x.tensor("a").ndim() == 3 && x.tensor("b").ndim() == 3, "addbmm: expected 3-D tensors");
    return scaled_sum(x, sum(matmul(x.tensor("a"), x.tensor("b")), Dims{0}));
  }}, {kRunsDecomposed});
  define(t, {{"torch.nn.functional.linear"}, "a, w, /, bias=None",
             [](const Args& x) -> Value { return prims::linear(x.tensor("a"), x.tensor("w"), x["bias"]); }});
  // x1^T W[o] x2 + b[o] for every output feature o, over the leading dimensions.
  define(t, {{"torch.nn.functional.bilinear", "torch.bilinear"}, "x1, x2, weight, bias=None", [](const Args& x) -> Value {
    const Tensor& x1 = x.tensor("x1");
    const Tensor& x2 = x.tensor("x2");
    const Tensor& w = x.tensor("weight");
    check(x1.ndim() == x2.ndim(), [&] { return str("bilinear(): input dimensions do not match: got ", x1.ndim(), " and ", x2.ndim()); });
    check(w.ndim() == 3, [&] { return str("bilinear(): weight must be three-dimensional, but got ", w.ndim(), " dimensions"); });
    check(x1.ndim() >= 1 && Shape(x1.shape().begin(), x1.shape().end() - 1) == Shape(x2.shape().begin(), x2.shape().end() - 1),
          "bilinear(): input batch dimensions do not match");
    int64_t i = w.shape()[1], j = w.shape()[2], o = w.shape()[0];
    check(x1.shape().back() == i, [&] { return str("bilinear(): input1 size does not match weight size: got ", x1.shape().back(), " but expected ", i); });
    check(x2.shape().back() == j, [&] { return str("bilinear(): input2 size does not match weight size: got ", x2.shape().back(), " but expected ", j); });
    int64_t n = numel(Shape(x1.shape().begin(), x1.shape().end() - 1));
    Tensor rows1 = reshape(x1, {n, i});
    Tensor rows2 = reshape(x2, {n, 1, j});
    Tensor weights = reshape(permute(w, {1, 0, 2}), {i, o * j});
    Tensor left = reshape(matmul(rows1, weights), {n, o, j});
    Tensor y = sum(left * rows2, Dims{-1});
    if (!x.is_none("bias")) y = y + x.tensor("bias");
    Shape out(x1.shape().begin(), x1.shape().end() - 1);
    out.push_back(o);
    return reshape(y, out);
  }});
  define(t, {{"torch.nn.functional.embedding"},
             "a, weight, /, padding_idx=None, max_norm=None, norm_type=2.0, scale_grad_by_freq=False, sparse=False",
             [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    const auto& weight = x.tensor("weight");
    check(x.is_none("max_norm"), "embedding with max_norm is not supported yet", "NotImplementedError");
    check(a.dtype().is_integer(), [&] { return str("Expected tensor for argument #1 'indices' to have an integer dtype, but got ", a.dtype().full_name()); });
    check(weight.ndim() == 2, "'weight' must be 2-D");
    // A padding row or frequency scaling changes only the gradient, which prims.embedding's rule
    // gives; a plain lookup is a take, which the fuser can fuse.
    int64_t rows = weight.shape()[0];
    int64_t padding_idx = x.is_none("padding_idx") ? -1 : x.integer("padding_idx");
    if (!x.is_none("padding_idx")) {
      check(padding_idx < rows && padding_idx >= -rows, "Padding_idx must be within num_embeddings", "AssertionError");
      if (padding_idx < 0) padding_idx += rows;
    }
    if (!x.is_none("padding_idx") || x.flag("scale_grad_by_freq")) return prims::embedding(a, weight, padding_idx, x.flag("scale_grad_by_freq"));
    if (a.ndim() == 1) return prims::take(weight, a, 0);
    Shape out_shape = a.shape();
    out_shape.push_back(weight.shape()[1]);
    return reshape(prims::take(weight, reshape(a, {a.numel()}), 0), out_shape);
  }});
  define(t, {{"torch.nn.functional.embedding_bag"},
             "a, weight, /, offsets=None, max_norm=None, norm_type=2, scale_grad_by_freq=False, mode='mean', sparse=False, "
             "per_sample_weights=None, include_last_offset=False, padding_idx=None",
             [](const Args& x) -> Value { return embedding_bag_impl(x); }}, {kRunsDecomposed});
  define(t, {{"torch.nn.functional.layer_norm"}, "a, /, normalized_shape, weight=None, bias=None, eps=1e-05",
             [](const Args& x) -> Value { return layer_norm_impl(x); }});
  // ATen's layer norm with its saved statistics: the mean and 1 / sqrt(var + eps) over the normalized
  // dims, kept as dims of length 1; autograd gives the statistics no gradient.
  define(t, {{"torch.native_layer_norm"}, "a, normalized_shape, weight, bias, eps", [](const Args& x) -> Value {
    const Tensor& a = x.tensor("a");
    Tensor out = op("torch.nn.functional.layer_norm", {x["a"], x["normalized_shape"], x["weight"], x["bias"], x["eps"]});
    int64_t k = static_cast<int64_t>(x.ints("normalized_shape").size());
    Dims dims;
    for (int64_t d = a.ndim() - k; d < a.ndim(); ++d) dims.push_back(d);
    DType computation = core::computation_dtype(a.dtype());
    Tensor detached = op("torch.Tensor.detach", {a});
    auto [var, mean] = var_mean(core::convert(detached, computation), dims, 0, true);
    Tensor rstd = rsqrt(var + x.real("eps"));
    return Value::tuple({out, core::convert(mean, a.dtype().strong()), core::convert(rstd, a.dtype().strong())});
  }}, {kRunsDecomposed});
  define(t, {{"torch.nn.functional.batch_norm"},
             "a, /, running_mean, running_var, weight=None, bias=None, training=False, momentum=0.1, eps=1e-05",
             [](const Args& x) -> Value { return batch_norm_impl(x); }});
  define(t, {{"torch.nn.functional.nll_loss"},
             "a, /, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean'",
             [](const Args& x) -> Value {
    check(x.is_none("size_average") && x.is_none("reduce"), "nll_loss: size_average and reduce are deprecated; use reduction", "NotImplementedError");
    auto terms = nll_terms(x.tensor("a"), x.tensor("target"), x["weight"], x.integer("ignore_index"));
    return reduce_loss(terms.loss, terms.weight_used, x["reduction"].as_string());
  }});
  define(t, {{"torch.nn.functional.cross_entropy"},
             "a, /, target, weight=None, size_average=None, ignore_index=-100, reduce=None, reduction='mean', label_smoothing=0.0",
             [](const Args& x) -> Value { return cross_entropy_impl(x); }});
  define(t, {{"torch.nn.functional.scaled_dot_product_attention"},
             "query, key, value, attn_mask=None, dropout_p=0.0, is_causal=False, *, scale=None",
             [](const Args& x) -> Value {
               return attention_impl(x, x.is_none("scale") ? std::nullopt : std::optional<double>(x.real("scale"))).first;
             }}, {kRunsDecomposed, "RANDOM_OP"});
  define(t, {{"torch.nn.functional._scaled_dot_product_attention"},
             "query, key, value, attn_mask=None, dropout_p=0.0, need_attn_weights=False, is_causal=False", [](const Args& x) -> Value {
               auto [out, weights] = attention_impl(x, std::nullopt);
               return Value::tuple({out, weights});
             }}, {kRunsDecomposed, "RANDOM_OP"});
  // Each element over the mean of the squares of `size` neighbouring channels (zeros beyond the
  // edges, counted), as PyTorch computes it with an average pooling.
  define(t, {{"torch.nn.functional.local_response_norm"}, "a, /, size, alpha=0.0001, beta=0.75, k=1.0", [](const Args& x) -> Value {
    const auto& a = x.tensor("a");
    check(a.ndim() >= 3, [&] { return str("Expected 3D or higher dimensionality input (got ", a.ndim(), " dimensions)"); }, "ValueError");
    const int64_t size = x.integer("size");
    check(size > 0, "local_response_norm: size must be positive");
    std::vector<std::array<int64_t, 3>> channel_padding(a.ndim(), {0, 0, 0});
    channel_padding[1] = {size / 2, (size - 1) / 2, 0};
    Tensor squares = a * a;
    Tensor padded = prims::pad(squares, 0.0, channel_padding);
    Tensor windows = prims::unfold(padded, 1, size, 1);
    Tensor average = mean(windows, Dims{windows.ndim() - 1});
    Tensor base = average * x.real("alpha") + x.real("k");
    return true_divide(a, pow(base, x["beta"]));
  }}, {kRunsDecomposed});
  define(t, {{"torch.nn.functional.normalize"}, "a, /, p=2.0, dim=1, eps=1e-12, out=None", [](const Args& x) -> Value {
    check(x.is_none("out"), "normalize with out= is not supported", "NotImplementedError");
    const auto& a = x.tensor("a");
    Tensor norm = op("torch.linalg.vector_norm", {a, x["p"], Value::ints({x.integer("dim")}), true});
    return a / op("torch.clamp", {norm, x["eps"]});
  }});
  define(t, {{"torch.nn.functional.cosine_similarity", "torch.cosine_similarity"}, "x1, x2, /, dim=1, eps=1e-08",
             [](const Args& x) -> Value {
    // PyTorch 1.13's formula: the inputs broadcast first (a norm counts an element repeated by the
    // broadcast as often as it is repeated), then the dot product over the product of the norms,
    // each clamped to eps.
    Values both = core::maybe_broadcast({x["x1"], x["x2"]});
    const Tensor& a = both[0].as_tensor();
    const Tensor& b = both[1].as_tensor();
    Dims dim{x.integer("dim")};
    Tensor na = op("torch.clamp", {sqrt(sum(a * a, dim)), x["eps"]});
    Tensor nb = op("torch.clamp", {sqrt(sum(b * b, dim)), x["eps"]});
    Tensor dot = sum(a * b, dim);
    return dot / (na * nb);
  }});
  // On a packed sequence, batch_sizes (the front end records PyTorch's packed overload so).
  const char* recurrent = "input, hx, params, has_biases, num_layers, dropout, train, bidirectional, batch_first, *, batch_sizes=None";
  define(t, {{"torch.lstm"}, recurrent, [](const Args& x) -> Value { return recurrent_impl(x, Cell::Lstm); }});
  define(t, {{"torch.gru"}, recurrent, [](const Args& x) -> Value { return recurrent_impl(x, Cell::Gru); }});
  define(t, {{"torch.rnn_tanh"}, recurrent, [](const Args& x) -> Value { return recurrent_impl(x, Cell::Tanh); }});
  define(t, {{"torch.rnn_relu"}, recurrent, [](const Args& x) -> Value { return recurrent_impl(x, Cell::Relu); }});
  define(t, {{"torch._pack_padded_sequence"}, "input, lengths, batch_first", pack_padded_sequence_impl}, {kRunsDecomposed});
  define(t, {{"torch._pad_packed_sequence"}, "data, batch_sizes, batch_first, padding_value, total_length", pad_packed_sequence_impl}, {kRunsDecomposed});
  const struct {
    const char* id;
    Cell cell;
  } cells[] = {{"torch.lstm_cell", Cell::Lstm}, {"torch.gru_cell", Cell::Gru}, {"torch.rnn_tanh_cell", Cell::Tanh},
               {"torch.rnn_relu_cell", Cell::Relu}};
  for (const auto& [id, cell] : cells)
    define(t, {{id}, "input, hx, w_ih, w_hh, b_ih=None, b_hh=None", [cell = cell](const Args& x) -> Value { return cell_impl(x, cell); }});
  // Weight normalization: v scaled to g's norms, each taken over every dim but `dim` (all for -1).
  define(t, {{"torch._weight_norm"}, "v, g, dim=0", [](const Args& x) -> Value {
    const auto& v = x.tensor("v");
    int64_t dim = x.integer("dim");
    Dims others;
    for (int64_t d = 0; d < v.ndim(); ++d)
      if (dim == -1 || d != canonicalize_dim(v.ndim(), dim)) others.push_back(d);
    Tensor squares = v * v;
    Tensor norms = sqrt(sum(squares, others, true));
    return v * (x.tensor("g") / norms);
  }});
  define(t, {{"torch.einsum"}, "equation, /, *operands", [](const Args& x) -> Value {
    Values given = x["operands"].items();
    // einsum(eq, [a, b]) passes the operands as one list.
    if (given.size() == 1 && given[0].is_sequence()) given = given[0].items();
    std::vector<Tensor> operands;
    for (const auto& v : given) operands.push_back(v.as_tensor());
    return einsum_impl(x["equation"].as_string(), operands);
  }});
  define(t, {{"torch.nn.functional.multi_head_attention_forward"},
             "query, key, value, embed_dim_to_check, num_heads, in_proj_weight, in_proj_bias, bias_k, bias_v, add_zero_attn, "
             "dropout_p, out_proj_weight, out_proj_bias, training=True, key_padding_mask=None, need_weights=True, "
             "attn_mask=None, use_separate_proj_weight=False, q_proj_weight=None, k_proj_weight=None, v_proj_weight=None, "
             "static_k=None, static_v=None, average_attn_weights=True",
             multi_head_attention_impl}, {"RANDOM_OP"});
  for (size_t n : {1, 2, 3}) {
    std::string conv = str("torch.nn.functional.conv", n, "d"), conv_t = str("torch.nn.functional.conv_transpose", n, "d");
    define(t, {{conv.c_str(), str("torch.conv", n, "d").c_str()}, "a, /, weight, bias=None, stride=1, padding=0, dilation=1, groups=1",
               [n](const Args& x) -> Value { return conv_impl(x, n, false); }});
    define(t, {{conv_t.c_str(), str("torch.conv_transpose", n, "d").c_str()},
               "a, /, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1",
               [n](const Args& x) -> Value { return conv_impl(x, n, true); }});
  }
  // ATen's convolution, which conv*d and conv_transpose*d call: a batched input and every parameter given.
  define(t, {{"torch.convolution"}, "input, weight, bias, stride, padding, dilation, transposed, output_padding, groups",
             [](const Args& x) -> Value {
    const Tensor& a = x.tensor("input");
    check(a.ndim() >= 3, [&] { return str("convolution: expected a batched input of 3 or more dimensions, but got input of size: ", shape_repr(a.shape())); });
    size_t n = static_cast<size_t>(a.ndim() - 2);
    return prims::convolution(a, x.tensor("weight"), x["bias"], n_tuple(x["stride"], n, "stride"), n_tuple(x["padding"], n, "padding"),
                              n_tuple(x["dilation"], n, "dilation"), x.flag("transposed"), n_tuple(x["output_padding"], n, "output_padding"),
                              x.integer("groups"));
  }});
  for (int64_t n : {2, 3}) {
    std::string max_pool = str("torch.nn.functional.max_pool", n, "d"), avg_pool = str("torch.nn.functional.avg_pool", n, "d");
    define(t, {{max_pool.c_str(), str("torch.max_pool", n, "d").c_str(), str(max_pool, "_with_indices").c_str()},
               "a, /, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False",
               [n](const Args& x) -> Value { return max_pool_impl(x, n); }});
    define(t, {{avg_pool.c_str()},
               "a, /, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True, divisor_override=None",
               [n](const Args& x) -> Value { return avg_pool_impl(x, n); }});
  }
  for (int64_t n : {1, 2, 3}) {
    std::string max_pool = str("torch.nn.functional.adaptive_max_pool", n, "d"), avg_pool = str("torch.nn.functional.adaptive_avg_pool", n, "d");
    std::string with_indices = max_pool + "_with_indices", torch_avg_pool = str("torch.adaptive_avg_pool", n, "d");
    define(t, {{max_pool.c_str(), with_indices.c_str()}, "a, /, output_size, return_indices=False",
               [n](const Args& x) -> Value { return adaptive_pool_impl(x, n, true); }});
    define(t, {{avg_pool.c_str(), torch_avg_pool.c_str()}, "a, /, output_size", [n](const Args& x) -> Value { return adaptive_pool_impl(x, n, false); }});
    std::string max_unpool = str("torch.nn.functional.max_unpool", n, "d");
    define(t, {{max_unpool.c_str()}, "a, indices, kernel_size, stride=None, padding=0, output_size=None",
               [n](const Args& x) -> Value { return max_unpool_impl(x, n); }}, {kRunsDecomposed});
  }
  // The 1-d poolings: the 2-d ones over a height of 1 (kernel, stride, padding and dilation of the
  // height: 1, 1, 0, 1), `extra` being the arguments after padding.
  auto pool1d = [](const char* pool2d, std::vector<std::pair<const char*, int64_t>> extra) {
    return [pool2d, extra](const Args& x) -> Value {
      auto with_height = [](const Value& v, int64_t height) { return Value::ints({height, v.as_ints().at(0)}); };
      bool default_stride = x.is_none("stride") || (x["stride"].is_sequence() && x["stride"].items().empty());
      Values args{unsqueeze(x.tensor("a"), -2), with_height(x["kernel_size"], 1),
                  with_height(default_stride ? x["kernel_size"] : x["stride"], 1), with_height(x["padding"], 0)};
      for (const auto& [param, height] : extra) args.push_back(height < 0 ? x[param] : with_height(x[param], height));
      Tensor out = op(pool2d, args);
      return squeeze(out, {out.ndim() - 2});
    };
  };
  // (With indices, the windows of the one spatial dimension directly: they index its length.)
  define(t, {{"torch.nn.functional.max_pool1d", "torch.max_pool1d", "torch.nn.functional.max_pool1d_with_indices"},
             "a, /, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False",
             [as_2d = pool1d("torch.nn.functional.max_pool2d", {{"dilation", 1}, {"ceil_mode", -1}, {"return_indices", -1}})](const Args& x) -> Value {
               return x.flag("return_indices") ? max_pool_impl(x, 1) : as_2d(x);
             }});
  define(t, {{"torch.nn.functional.avg_pool1d", "torch.avg_pool1d"},
             "a, /, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True",
             pool1d("torch.nn.functional.avg_pool2d", {{"ceil_mode", -1}, {"count_include_pad", -1}})});
  define(t, {{"torch.nn.functional.interpolate"},
             "a, /, size=None, scale_factor=None, mode='nearest', align_corners=None, recompute_scale_factor=None, antialias=False",
             [](const Args& x) -> Value { return interpolate_impl(x); }}, {kRunsDecomposed});
  define(t, {{"torch.nn.functional.group_norm"}, "a, /, num_groups, weight=None, bias=None, eps=1e-05",
             [](const Args& x) -> Value { return group_norm_impl(x); }});
  define(t, {{"torch.nn.functional.instance_norm"},
             "a, /, running_mean=None, running_var=None, weight=None, bias=None, use_input_stats=True, momentum=0.1, eps=1e-05",
             [](const Args& x) -> Value { return instance_norm_impl(x); }});
  define(t, {{"torch.nn.functional.pairwise_distance", "torch.pairwise_distance"}, "x1, x2, /, p=2.0, eps=1e-06, keepdim=False",
             [](const Args& x) -> Value {
    Tensor difference = x.tensor("x1") - x.tensor("x2") + x.real("eps");
    return op("torch.linalg.vector_norm", {difference, x["p"], Value::ints({-1}), x["keepdim"]});
  }});
  define(t, {{"torch.nn.functional.pixel_shuffle", "torch.pixel_shuffle"}, "input, upscale_factor", [](const Args& x) -> Value {
    const auto& a = x.tensor("input");
    int64_t r = x.integer("upscale_factor");
    check(a.ndim() >= 3, "pixel_shuffle expects input to have at least 3 dimensions");
    int64_t C = a.shape()[a.ndim() - 3], H = a.shape()[a.ndim() - 2], W = a.shape()[a.ndim() - 1];
    check(r > 0 && C % (r * r) == 0, "pixel_shuffle expects its input's 'channel' dimension to be divisible by the square of upscale_factor");
    Shape batch(a.shape().begin(), a.shape().end() - 3);
    int64_t b = static_cast<int64_t>(batch.size());
    Shape split = batch;
    split.insert(split.end(), {C / (r * r), r, r, H, W});
    Dims order;
    for (int64_t d = 0; d < b; ++d) order.push_back(d);
    order.insert(order.end(), {b, b + 3, b + 1, b + 4, b + 2});  // (c, H, r, W, r)
    Shape result = batch;
    result.insert(result.end(), {C / (r * r), H * r, W * r});
    return reshape(permute(reshape(a, split), order), result);
  }});
}

void register_torch_language_groups(SymbolTable& t) {
  register_elementwise(t);
  register_reductions(t);
  register_shape_ops(t);
  register_creation(t);
  register_nn(t);
  register_losses(t);
  register_random(t);
  register_complex(t);
  register_special(t);
  register_linalg(t);
  register_composites(t);
  register_fft(t);
  register_in_place(t);  // after the ops they modify in place
}

}  // namespace thundercc::ltorch

namespace thundercc {
void register_torch_language(SymbolTable& t) { ltorch::register_torch_language_groups(t); }
}  // namespace thundercc
