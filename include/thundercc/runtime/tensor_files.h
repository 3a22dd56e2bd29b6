// Tensor files and output comparison (tensor_files.cpp): inputs, outputs and gradients as
// Python's torch.save writes them, checked while read (pickle_check.h), and outputs compared with
// expected ones by Thunder's tolerances.
#pragma once

#include <ATen/ATen.h>

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "thundercc/ir/value.h"

namespace thundercc::runtime {

// A program input as a plan names it: its slot and the metadata a tensor for it must have.
struct InputSpec {
  std::string name;
  int slot;
  TensorMeta meta;
  std::vector<std::string> fqn;  // a module's parameter or buffer: its state_dict keys
  std::optional<Shape> shard_of;  // FSDP: this rank's shard of a tensor of this shape (run takes the whole one)
  // A dynamic plan's symbolic dimensions and their symbols: any size in their range (checked by the plan).
  std::vector<std::pair<int64_t, std::string>> dynamic_dims;
  // "cpu f32[s0, 3, 224, 224]": the tensors it takes, a symbolic dimension by its symbol.
  std::string type_string() const;
};

// Whether `t` has the spec's shape (any size in its dynamic dimensions).
bool has_shape(const at::Tensor& t, const InputSpec& spec);
// Specifications as files give the tensors: FSDP's shards whole (run cuts each rank's).
std::vector<InputSpec> as_given(std::vector<InputSpec> specs);
// Each of `tensors` against its spec (a tensor of its dtype and shape, moved to its device);
// throws LoadError with `what(k)` naming entry k.
void check_tensors(std::vector<at::Tensor>& tensors, const std::vector<InputSpec>& specs, const std::function<std::string(size_t)>& what);

// What Python's torch.save wrote: a list or tuple of tensors (in signature order), or a dict by input name.
std::vector<at::Tensor> read_tensor_file(const std::string& path, const std::vector<InputSpec>& specs);
// What torch.save(module.state_dict()) wrote: tensors by key, in the file's order.
std::vector<std::pair<std::string, at::Tensor>> read_state_dict(const std::string& path);
// A list or tuple of tensors and Nones (gradients); None reads as an undefined tensor.
std::vector<at::Tensor> read_optional_tensor_file(const std::string& path);
// Writes tensors (undefined ones as None) as a tuple, for torch.load.
void write_tensor_file(const std::string& path, const std::vector<at::Tensor>& tensors);
// A tensor as files hold it: on the CPU, its values (LibTorch's pickler drops a lazy conjugate or negation).
at::Tensor as_stored(const at::Tensor& t);
// Any value torch.load reads (dicts, lists, tuples, numbers, tensors as_stored), written in one
// step; and a torch.save file read whole, checked as every file is (LoadError naming it).
void write_pickled(const std::string& path, const c10::IValue& value);
c10::IValue read_pickled(const std::string& path);
// Thunder's assert_close tolerances (rtol, atol) for a dtype; (0, 0) for exact dtypes.
std::pair<double, double> default_tolerances(at::ScalarType t);
// What compare_outputs found, a line each: the problems, and the outputs that matched only by the
// float64 reference.
struct Comparison {
  std::vector<std::string> problems;
  std::vector<std::string> notes;
};
// Compares outputs as torch.testing.assert_close does (Thunder's tolerances by dtype unless given).
// An undefined (None) expected tensor matches None or all zeros. Where `reference` (capture's float64
// run, NAME.expected64.pt) holds a float64 tensor for an output, an element beyond tolerance still
// matches when it is no further from the reference than the expected element is, give or take the
// tolerance: Thunder's assert_closer, for where eager float32 is itself off; failing that, when the
// tensor's largest and root-mean-square distances from it are each within 1.1 times the expected's.
// `noun` names the tensors in the lines (output 0, gradient 2).
Comparison compare_outputs(const std::vector<at::Tensor>& actual, const std::vector<at::Tensor>& expected,
                           std::optional<double> rtol, std::optional<double> atol, const std::vector<at::Tensor>& reference = {},
                           std::string_view noun = "output");

}  // namespace thundercc::runtime
