// The check a tensor file's pickle (data.pkl) passes before LibTorch's unpickler sees it
// (pickle_check.cpp). Throws LoadError naming the file, the offset and the problem.
#pragma once

#include <cstddef>
#include <string>

namespace thundercc::runtime {

// Returns the pickle as LibTorch's unpickler must be given it: a state_dict's OrderedDict (which
// LibTorch 1.13 reads as None) as a dict, without its `_metadata`.
std::string check_tensor_pickle(const std::string& path, const char* data, size_t size);

}  // namespace thundercc::runtime
