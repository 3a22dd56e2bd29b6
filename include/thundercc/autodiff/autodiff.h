// Reverse-mode autodiff (thunder/core/transforms.py), in Thunder's two styles of grad rule.
//
// The joint style: a rule recomputes the forward, reads the gradient flowing into a result with
// get_grad, writes its inputs' gradients with put_grad, and returns the forward result:
//
//   register_grad("prims.exp", [](const Args& x) -> Value {
//     Tensor out = prims::exp(x["a"]);
//     put_grad(x["a"], get_grad(out) * out);
//     return out;
//   });
//
// What a rule records before its first get_grad/put_grad is its forward; the rest is its
// backward, which the grad transform runs in reverse order of the forward, with the gradients of
// values used several times summed.
//
// The pair style (seed 004): an augmented forward returns (primal, saved_for_backward) and a
// backward takes (saved_for_backward, cotangents) and returns one gradient per parameter of the
// symbol (None where there is none). A pair may say when it applies (a checker on the call, as
// executors' checkers are); other calls fall back to the next rule.
//
// Which rule differentiates a bound symbol: the grad_transform of the first executor in the list
// that would run it (seed 001), else the registered joint rule, else the registered pair, else,
// for a symbol that is not a prim, its decomposition. A prim without a rule is an error.
#pragma once

#include <functional>
#include <string_view>
#include <utility>

#include "thundercc/extend.h"

namespace thundercc {

// The gradient flowing into `forward_result` (a tensor the rule computed).
Tensor get_grad(const Value& forward_result);
// Adds `grad` to the gradient of `input`; numbers and tensors that need no gradient are skipped.
void put_grad(const Value& input, const Value& grad);
void put_grads(const Values& inputs, const Values& grads);

void register_grad(std::string_view symbol_id, GradTransform rule);
using AugmentedForward = std::function<std::pair<Value, Values>(const Args&)>;          // (primal, saved)
using BackwardRule = std::function<Values(const Values& saved, const Values& cotangents)>;  // per parameter
void register_augmented_forward(std::string_view symbol_id, AugmentedForward forward, Checker applies = nullptr);
void register_backward(std::string_view symbol_id, BackwardRule backward);
// Declares that a prim's rule holds where its values are complex, as PyTorch defines their
// gradient (the conjugate Wirtinger derivative). Rules are written for real values (a complex
// product's gradient needs the conjugate): a complex tensor on the gradient's path may pass only
// through prims so declared, and the transform refuses any other.
void declare_complex_rule(std::string_view symbol_id);

// The built-in rules (grad_rules.cpp), registered by register_builtins after the languages.
void register_builtin_grad_rules();

// Whether a registered rule (either style) differentiates this symbol directly.
bool has_grad_rule(const Symbol& sym);

// The grad transform: the forward followed by its backward, in one trace. Its inputs are the
// trace's inputs and `cotangents` (one per output tensor that requires grad); it returns
// (the outputs, one gradient per input tensor, None where none flows). The backward's bound
// symbols are tagged BACKWARD, which the forward-backward split reads.
Trace joint_forward_backward(const Trace& trace, const std::vector<const Executor*>& executors);
// Seed 001's `grad`: seeds each output's gradient with ones and returns the input gradients.
Trace grad_of_inputs(const Trace& trace, const std::vector<const Executor*>& executors);

}  // namespace thundercc
