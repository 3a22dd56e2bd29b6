// Fusion regions over channels-last activations. The runtime keeps a convolution's result
// channels-last (NHWC memory behind an NCHW shape) for the next convolution; the elementwise
// regions between must read it so, without a copy to NCHW and back.
//
// A region that reads every input element by element runs as it is on any one dense layout
// (runtime/fused_kernels.cpp). One that broadcasts an input into its 4-d domain (a
// squeeze-and-excitation scale [N, C, 1, 1], a bias [C]) indexes by dimension: it gets a twin, the
// same computation with its domain [N, C, H, W] read as [N, H, W, C], every 4-d value permuted so
// and each broadcast's dimensions mapped; its kernel reads the channels-last tensors' memory as
// contiguous [N, H, W, C] tensors.
#pragma once

#include <optional>

#include "thundercc/ir/symbol.h"

namespace thundercc::fuser {

// The channels-last twin of a fusion region, or nullopt: for a region that reduces, is not over a
// 4-d domain, reads no input through a broadcast, or reads one whose own memory the permuted
// region could not read as it lies (a broadcast into dimensions out of NHWC order).
std::optional<BoundSymbol> channels_last_twin(const BoundSymbol& region);

}  // namespace thundercc::fuser
