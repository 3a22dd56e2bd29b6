#include "runtime/fused_kernels.h"

#include <dlfcn.h>
#include <sys/mman.h>
#include <unistd.h>

#include <ATen/ATen.h>
#include <ATen/Parallel.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <optional>

#include "runtime/cuda_driver.h"
#include "runtime/cuda_streams.h"
#include "thundercc/errors.h"
#include "thundercc/executors/fuser/channels_last.h"
#include "thundercc/executors/fuser/cuda_emulation.h"
#include "thundercc/executors/fuser/kernel_library.h"
#include "thundercc/executors/fuser/region_analysis.h"
#include "thundercc/support/cpu_features.h"
#include "thundercc/support/files.h"
#include "thundercc/support/sha256.h"

namespace thundercc::runtime {
namespace {

// (inputs, outputs, part, parts, sizes): a generated CPU kernel computes its part of `parts`, at
// the sizes its region's generation gave.
using CpuFunction = void (*)(const void* const*, void* const*, int64_t, int64_t, const int64_t*);
using EmulatedLaunch = int (*)(void**, unsigned, unsigned);  // executors/fuser/cuda_emulation.h

// The bytes of the file (a library, or the PTX module) named `name` in the plan's folder (the
// plan's `member` at `at`), once their SHA-256 is `sha256` (the plan's `hash`).
std::string read_verified(const std::string& name, const std::string& sha256, const char* member, const char* hash, const char* what,
                          const std::string& plan_path, const std::string& at) {
  if (name.find('/') != std::string::npos || (!name.empty() && name[0] == '.'))
    throw LoadError(str(at, "/", member, ": '", name, "' is not a file name in the plan's folder"));
  std::filesystem::path path = std::filesystem::path(plan_path).parent_path() / name;
  if (!std::filesystem::is_regular_file(path))
    throw LoadError(str(at, "/", member, ": ", path.string(), " is missing (compile the trace again)"));
  std::string bytes = read_file(path.string(), limits::kKernelLibraryBytes);
  if (sha256_hex(bytes) != sha256)
    throw LoadError(str(at, "/", hash, ": ", path.string(), " is not the ", what, " this plan was compiled with (its SHA-256 differs); compile the trace again"));
  return bytes;
}

}  // namespace

// dlopen of a library's verified bytes, through an in-memory file. The file stays open while
// the library is loaded: dlopen knows a loaded library by its path, and /proc/self/fd/N names
// another library once N is closed and reused.
void FusedKernels::Library::load(const std::string& bytes, const std::string& library_name, const std::string& at) {
  name = library_name;
  fd = memfd_create("thundercc-kernels", MFD_CLOEXEC);
  if (fd < 0) throw LoadError(at + ": cannot make an in-memory file for " + name);
  size_t written = 0;
  while (written < bytes.size()) {
    ssize_t n = write(fd, bytes.data() + written, bytes.size() - written);
    if (n <= 0) throw LoadError(at + ": cannot copy " + name + " into memory");
    written += static_cast<size_t>(n);
  }
  std::string fd_path = "/proc/self/fd/" + std::to_string(fd);
  handle = dlopen(fd_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) throw LoadError(at + ": cannot load " + name + ": " + dlerror());
}

FusedKernels::Library::~Library() {
  if (handle) dlclose(handle);
  if (fd >= 0) close(fd);
}

namespace {

// The dense strides a layout-free region runs in: those of its first input of the domain's shape
// (and more than one element) when it is dense in another order than contiguous (channels-last
// after a convolution), else none: the kernel then reads contiguous copies.
std::optional<std::vector<int64_t>> layout_of(const std::vector<TensorMeta>& reads, KernelCall& call, const Shape& domain) {
  for (size_t k = 0; k < reads.size(); ++k) {
    if (reads[k].shape != domain || thundercc::numel(domain) <= 1) continue;
    const at::Tensor& t = call.arg(k).tensor();
    if (t.is_contiguous() || !t.is_non_overlapping_and_dense()) return std::nullopt;
    return t.strides().vec();
  }
  return std::nullopt;
}

using Runner = std::function<void(void**, size_t)>;  // (the inputs' then the outputs' pointers, the number of inputs)

// A region's channels-last twin over its tensors: their 4-d inputs channels-last (as they come
// from a convolution; a copy otherwise), the others contiguous, its outputs written channels-last.
// The twin reads a channels-last [N, C, H, W] tensor's memory as a contiguous [N, H, W, C] one.
void run_channels_last(const std::vector<TensorMeta>& reads, const std::vector<TensorMeta>& writes, KernelCall& call, const Runner& twin) {
  std::vector<at::Tensor> tensors;
  std::vector<void*> pointers;
  for (size_t k = 0; k < reads.size(); ++k) {
    const at::Tensor& t = call.arg(k).tensor();
    tensors.push_back(t.dim() == 4 ? t.contiguous(at::MemoryFormat::ChannelsLast) : t.contiguous());
    pointers.push_back(tensors.back().data_ptr());
  }
  for (size_t k = 0; k < writes.size(); ++k) {
    const Shape& s = writes[k].shape;
    const std::vector<int64_t> strides{s[1] * s[2] * s[3], 1, s[3] * s[1], s[1]};
    const at::Tensor* planned = call.buffer(k);
    tensors.push_back(planned ? planned->as_strided(s, strides)
                              : at::empty_strided(s, strides, at::TensorOptions().dtype(to_aten(writes[k].dtype)).device(to_aten(writes[k].device))));
    pointers.push_back(tensors.back().data_ptr());
  }
  twin(pointers.data(), reads.size());
  for (size_t k = 0; k < writes.size(); ++k) call.set_output(k, std::move(tensors[reads.size() + k]));
}

// A fusion kernel over the tensors it was generated for: checks each input's shape, dtype and
// device (a kernel indexes by the shapes baked into it), makes the outputs (in the plan's buffers
// where it gives them) and calls `run(inputs, outputs)` with the data pointers. A `layout_free`
// kernel (elementwise: every input of the domain's shape or of one element, every output of the
// domain's shape) computes element k of each tensor's memory from element k of the others', so it
// runs on tensors that share any dense layout and writes its outputs in that layout.
template <class Run>
Kernel fusion_kernel(std::vector<TensorMeta> reads, std::vector<TensorMeta> writes, bool layout_free, Run run, Runner twin = nullptr) {
  return [reads = std::move(reads), writes = std::move(writes), layout_free, run, twin](KernelCall& call) {
    if (call.size() != reads.size() || call.num_outputs() != writes.size())
      throw ThunderError("RuntimeError", str("the kernel takes ", reads.size(), " inputs and writes ", writes.size(), " outputs"));
    for (size_t k = 0; k < reads.size(); ++k) {
      const at::Tensor& t = call.arg(k).tensor();
      const TensorMeta& m = reads[k];
      bool ok = t.dim() == static_cast<int64_t>(m.shape.size()) && std::equal(m.shape.begin(), m.shape.end(), t.sizes().begin()) &&
                t.scalar_type() == to_aten(m.dtype) && from_aten(t.device()) == m.device;
      if (!ok) throw ThunderError("RuntimeError", str("input ", k, ": expected ", m.type_string(), ", got another tensor"));
    }
    const Shape& domain = writes.empty() ? reads[0].shape : writes[0].shape;
    if (twin) {
      auto first = std::find_if(reads.begin(), reads.end(), [&](const TensorMeta& m) { return m.shape == domain; });
      if (first != reads.end() && is_channels_last(call.arg(first - reads.begin()).tensor()))
        return run_channels_last(reads, writes, call, twin);
    }
    const std::optional<std::vector<int64_t>> layout = layout_free ? layout_of(reads, call, domain) : std::nullopt;
    std::vector<at::Tensor> inputs;
    std::vector<void*> pointers;  // the inputs', then the outputs'
    for (size_t k = 0; k < reads.size(); ++k) {
      const at::Tensor& t = call.arg(k).tensor();
      const TensorMeta& m = reads[k];
      if (!layout || m.shape != domain || thundercc::numel(domain) <= 1) inputs.push_back(t.contiguous());
      else if (t.strides() == at::IntArrayRef(*layout)) inputs.push_back(t);
      else inputs.push_back(at::empty_strided(t.sizes(), *layout, t.options()).copy_(t));
      pointers.push_back(inputs.back().data_ptr());
    }
    std::vector<at::Tensor> outputs;
    for (size_t k = 0; k < writes.size(); ++k) {
      const at::Tensor* planned = call.buffer(k);
      const TensorMeta& m = writes[k];
      auto options = at::TensorOptions().dtype(to_aten(m.dtype)).device(to_aten(m.device));
      if (layout) outputs.push_back(planned ? planned->as_strided(m.shape, *layout) : at::empty_strided(m.shape, *layout, options));
      else outputs.push_back(planned ? *planned : at::empty(m.shape, options));
      pointers.push_back(outputs.back().data_ptr());
    }
    run(pointers.data(), reads.size());
    for (size_t k = 0; k < outputs.size(); ++k) call.set_output(k, std::move(outputs[k]));
  };
}

// cuLaunchKernel's kernelParams: params[k] points to argument k.
std::vector<void*> kernel_params(void** pointers, size_t count) {
  std::vector<void*> params(count);
  for (size_t k = 0; k < count; ++k) params[k] = &pointers[k];
  return params;
}

unsigned grid_of(const plan::Fusion& fusion, const std::string& at) {
  if (!fusion.grid) throw LoadError(at + ": the CUDA kernel has no grid");
  int64_t grid = *fusion.grid;
  if (grid < 0 || grid > 0x7fffffff) throw LoadError(str(at, "/grid: ", grid, " blocks is outside CUDA's grid"));
  return static_cast<unsigned>(grid);
}

}  // namespace

FusedKernels::FusedKernels(const plan::Plan& plan, const std::string& plan_path, KernelOptions options)
    : emulate_cuda_(options.emulate_cuda) {
  std::string where = plan_path + ": ";
  if (plan.cuda_kernels) cuda_block_ = static_cast<int>(plan.cuda_kernels->block);
  if (options.trust_kernels) load_trusted(plan, plan_path, where);
  else build(plan, where);
}

namespace {

// The plan's fusion regions as the fusion pass made them: each a bound symbol over its prims,
// under a symbol of its own in `symbols`; `names` gets the plan's name of each, in order.
Trace plan_regions(const plan::Plan& plan, SymbolTable& symbols, std::vector<std::string>& names, const std::string& where) {
  Trace regions;
  for (const plan::Program* program : plan.programs()) {
    for (size_t i = 0; i < program->instructions.size(); ++i) {
      const auto& fusion = program->instructions[i].fusion;
      if (!fusion) continue;
      const Trace& region = fusion->region;
      if (std::find(names.begin(), names.end(), region.name) != names.end())
        throw LoadError(str(where, "/instructions/", i, "/fusion/region: a second region named ", region.name));
      names.push_back(region.name);
      Symbol s;
      s.id = s.name = "fuser_" + std::to_string(regions.bound_symbols.size());  // the plan's names are not symbols here
      s.is_prim = true;
      s.executor = "fuser";
      BoundSymbol b;
      b.sym = &symbols.add(std::move(s));
      for (const auto& in : region.inputs) b.args.push_back(in.value);
      b.output = region.output;
      b.subsymbols = region.bound_symbols;
      regions.bound_symbols.push_back(std::move(b));
    }
  }
  return regions;
}

}  // namespace

void FusedKernels::build(const plan::Plan& plan, const std::string& where) {
  SymbolTable symbols;
  std::vector<std::string> names;
  Trace regions = plan_regions(plan, symbols, names, where);
  if (regions.bound_symbols.empty()) return;
  fuser::PlanKernelBuild built;
  try {
    std::string why;
    if (!fuser::kernel_compiler_available(&why))
      throw ThunderError("RuntimeError", "this plan's fusion regions need a C++ compiler to build their kernels here, and none runs (" + why +
                                             "); install one (g++), or load the kernels compiled beside the plan with --trust-kernels "
                                             "if you trust whoever wrote it");
    built = fuser::build_plan_kernels({&regions}, plan.name, emulate_cuda_);
  } catch (const ThunderError& e) {
    throw LoadError(where + "building the fusion regions' kernels: " + e.what());
  }
  for (size_t r = 0; r < names.size(); ++r) {
    const BoundSymbol& b = regions.bound_symbols[r];
    const std::string& name = names[r];
    if (auto it = built.kernels.functions.find(b.sym->id); it != built.kernels.functions.end()) {
      functions_[name] = it->second;
      sizes_[name] = built.kernels.sizes.at(b.sym->id);
    }
    if (auto it = built.kernels.channels_last.find(b.sym->id); it != built.kernels.channels_last.end()) channels_last_[name] = it->second;
    if (auto it = built.kernels.cuda.functions.find(b.sym->id); it != built.kernels.cuda.functions.end())
      cuda_functions_[name] = {it->second.name, it->second.grid};
  }
  if (!built.library.bytes.empty()) {
    cpu_ = std::make_unique<Library>();
    cpu_->load(built.library.bytes, plan.name + ".kernels.so (built here)", where + "/kernels");
  }
  if (!built.ptx.empty()) ptx_ = std::make_unique<CudaModule>(built.ptx);
  if (!built.emulation.bytes.empty()) {
    emulation_ = std::make_unique<Library>();
    emulation_->load(built.emulation.bytes, plan.name + ".cuda_emulation.so (built here)", where + "/cuda_kernels/emulation");
  }
  if (cuda_block_ == 0) cuda_block_ = fuser::kCudaBlockSize;
}

void FusedKernels::load_trusted(const plan::Plan& plan, const std::string& plan_path, const std::string& where) {
  if (plan.kernels) {
    const plan::KernelLibraryRecord& k = *plan.kernels;
    std::vector<std::string> have = cpu_features(), missing;
    for (const auto& f : k.isa)
      if (std::find(have.begin(), have.end(), f) == have.end()) missing.push_back(f);
    if (!missing.empty()) {
      std::string names;
      for (const auto& f : missing) names += (names.empty() ? "" : ", ") + f;
      throw LoadError(str(where, "/kernels/isa: ", k.library, " was built for a CPU with ", names, " (", isa_level(k.isa),
                          "), which this machine lacks (", isa_level(have), "); run without --trust-kernels to build the kernels here"));
    }
    cpu_ = std::make_unique<Library>();
    cpu_->load(read_verified(k.library, k.sha256, "library", "sha256", "library", plan_path, where + "/kernels"), k.library, where + "/kernels");
    // The sizes each CPU kernel is called with, from the generator (its sources are not needed).
    SymbolTable symbols;
    std::vector<std::string> names;
    Trace regions = plan_regions(plan, symbols, names, where);
    for (size_t r = 0; r < names.size(); ++r)
      if (regions.bound_symbols[r].args.at(0).as_tensor().device().is_cpu()) {
        sizes_[names[r]] = fuser::generate_kernel(regions.bound_symbols[r], fuser::Target::CPU).sizes;
        // The library holds each twin's kernel too (build_plan_kernels made them beside the regions').
        if (std::optional<BoundSymbol> twin = fuser::channels_last_twin(regions.bound_symbols[r])) {
          fuser::GeneratedKernel k = fuser::generate_kernel(*twin, fuser::Target::CPU);
          channels_last_[names[r]] = {k.function, k.sizes};
        }
      }
  }
  if (!plan.cuda_kernels) return;
  const plan::CudaKernelsRecord& cuda = *plan.cuda_kernels;
  // The PTX is read at load, loaded into a device on its first launch there.
  if (cuda.ptx)
    ptx_ = std::make_unique<CudaModule>(read_verified(*cuda.ptx, cuda.sha256, "ptx", "sha256", "PTX module", plan_path, where + "/cuda_kernels"));
  if (emulate_cuda_ && cuda.emulation) {
    std::string at = where + "/cuda_kernels/emulation";
    emulation_ = std::make_unique<Library>();
    emulation_->load(read_verified(cuda.emulation->library, cuda.emulation->sha256, "library", "sha256", "library", plan_path, at),
                     cuda.emulation->library, at);
  }
}

FusedKernels::~FusedKernels() = default;

Kernel FusedKernels::kernel(const plan::Fusion& recorded, const std::string& at, const std::string& where) const {
  // Built here: the functions generated for the region now, in place of those the plan names.
  plan::Fusion fusion = recorded;
  if (!functions_.empty() || !cuda_functions_.empty()) {
    auto cpu = functions_.find(recorded.region.name);
    fusion.function = cpu == functions_.end() ? std::nullopt : std::optional(cpu->second);
    auto cuda = cuda_functions_.find(recorded.region.name);
    fusion.cuda_function = cuda == cuda_functions_.end() ? std::nullopt : std::optional(cuda->second.first);
    fusion.grid = cuda == cuda_functions_.end() ? std::nullopt : std::optional(cuda->second.second);
    // The same generator makes the same source (a kernel is named by its source's hash): another
    // name means another thundercc compiled the plan.
    for (auto [plan_function, here] : {std::pair{recorded.function, fusion.function}, {recorded.cuda_function, fusion.cuda_function}})
      if (plan_function && here && *plan_function != *here)
        throw LoadError(str(where, ": ", at, "/region: the kernel generated here (", *here, ") is not the one the plan was compiled with (",
                            *plan_function, "): another version of thundercc compiled it; compile the trace again"));
  }
  std::vector<TensorMeta> reads = fusion.inputs, writes = fusion.outputs;
  if (reads.empty()) throw LoadError(where + ": " + at + "/inputs: a fusion region reads at least one tensor");
  const Shape& domain = writes.empty() ? reads[0].shape : writes[0].shape;
  const auto& statements = recorded.region.bound_symbols;
  const bool layout_free =
      std::none_of(statements.begin(), statements.end(), [](const BoundSymbol& b) { return fuser::is_reduction_prim(b.sym->id); }) &&
      std::all_of(reads.begin(), reads.end(), [&](const TensorMeta& m) { return m.shape == domain || thundercc::numel(m.shape) == 1; }) &&
      std::all_of(writes.begin(), writes.end(), [&](const TensorMeta& m) { return m.shape == domain; });
  const Device device = reads[0].device;
  auto missing = [&](const std::string& what) { return LoadError(where + ": " + at + ": " + what); };
  if (device.is_cpu() && !emulate_cuda_) {
    if (!fusion.function) throw missing("no CPU kernel (the region was compiled for CUDA only)");
    if (!cpu_) throw missing("the plan has no kernel library");
    const std::string& function = *fusion.function;
    auto f = reinterpret_cast<CpuFunction>(dlsym(cpu_->handle, function.c_str()));
    if (!f) throw missing("/function: " + cpu_->name + " has no kernel '" + function + "'");
    // A part of at least kElementsPerPart elements per thread: fewer would not pay for waking it.
    constexpr int64_t kElementsPerPart = 1 << 15;
    int64_t elements = 0;
    for (const auto* metas : {&reads, &writes})
      for (const auto& m : *metas) elements = std::max(elements, thundercc::numel(m.shape));
    auto sizes = sizes_.find(recorded.region.name);
    if (sizes == sizes_.end()) throw missing("no sizes were generated for its kernel");
    auto runner = [elements](CpuFunction f, std::vector<int64_t> sizes) {
      return [f, elements, sizes = std::move(sizes)](void** pointers, size_t num_inputs) {
        const auto* in = const_cast<const void* const*>(pointers);
        void* const* out = pointers + num_inputs;
        const int64_t parts = std::clamp<int64_t>(elements / kElementsPerPart, 1, at::get_num_threads());
        if (parts == 1) return f(in, out, 0, 1, sizes.data());
        at::parallel_for(0, parts, 1, [&](int64_t begin, int64_t end) {
          for (int64_t part = begin; part < end; ++part) f(in, out, part, parts, sizes.data());
        });
      };
    };
    Runner twin;
    if (auto t = channels_last_.find(recorded.region.name); t != channels_last_.end()) {
      auto g = reinterpret_cast<CpuFunction>(dlsym(cpu_->handle, t->second.function.c_str()));
      if (!g) throw missing("/function: " + cpu_->name + " has no kernel '" + t->second.function + "' (its channels-last twin)");
      twin = runner(g, t->second.sizes);
    }
    return fusion_kernel(std::move(reads), std::move(writes), layout_free, runner(f, sizes->second), twin);
  }
  if (!fusion.cuda_function) throw missing("no CUDA kernel (compile the trace again with --emit-cuda)");
  std::string function = *fusion.cuda_function;
  unsigned grid = grid_of(fusion, where + ": " + at), block = static_cast<unsigned>(cuda_block_);
  size_t count = reads.size() + writes.size();
  if (device.is_cpu()) {  // emulated
    if (!emulation_) throw missing("the plan has no CUDA emulation library (compile the trace again with --emit-cuda)");
    std::string entry = fuser::emulated_launch_name(function);
    auto launch = reinterpret_cast<EmulatedLaunch>(dlsym(emulation_->handle, entry.c_str()));
    if (!launch) throw missing("/cuda_function: " + emulation_->name + " has no kernel '" + function + "'");
    return fusion_kernel(std::move(reads), std::move(writes), layout_free, [launch, grid, block, count](void** pointers, size_t) {
      std::vector<void*> params = kernel_params(pointers, count);
      const int failed = grid ? launch(params.data(), grid, block) : 0;
      if (failed == 1) throw ThunderError("RuntimeError", "the emulated CUDA kernel's threads did not all reach the same barriers");
      if (failed == 2) throw ThunderError("RuntimeError", "the emulated CUDA kernel loaded or stored a vector at a misaligned address (a GPU faults)");
    });
  }
  if (device.type != Device::Type::CUDA) throw missing("no kernel runs on " + device.str());
  if (!ptx_) throw missing("the plan has no PTX module (NVRTC was not found when it was compiled)");
  const CudaModule* module = ptx_.get();
  const int index = to_aten(device).index();  // a rank's own GPU under NCCL (swap_cuda_devices)
  return fusion_kernel(std::move(reads), std::move(writes), layout_free, [module, function, grid, block, count, index](void** pointers, size_t) {
    std::vector<void*> params = kernel_params(pointers, count);
    if (grid) module->launch(function, index, grid, block, params.data(), current_cuda_stream(index));
  });
}

}  // namespace thundercc::runtime
