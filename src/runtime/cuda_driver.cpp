#include "runtime/cuda_driver.h"

#include <dlfcn.h>

#include <algorithm>
#include <type_traits>
#include <vector>

#ifdef THUNDERCC_CUDA_H
#include <cuda.h>  // only to check the declarations below against it
#endif

#include "runtime/library_symbols.h"
#include "runtime/same_abi.h"
#include "thundercc/errors.h"

namespace thundercc::runtime {
namespace {

// The part of the driver API used here (cuda.h): results are ints, 0 is CUDA_SUCCESS; handles
// are pointers, devices ints.
struct DriverApi {
  int (*init)(unsigned) = nullptr;
  int (*device_get)(int*, int) = nullptr;
  int (*device_get_name)(char*, int, int) = nullptr;
  int (*primary_context_retain)(void**, int) = nullptr;
  int (*context_set_current)(void*) = nullptr;
  int (*module_load_data)(void**, const void*) = nullptr;
  int (*module_unload)(void*) = nullptr;
  int (*context_get_current)(void**) = nullptr;
  int (*driver_get_version)(int*) = nullptr;
  int (*module_get_function)(void**, void*, const char*) = nullptr;
  int (*device_get_attribute)(int*, int, int) = nullptr;
  int (*occupancy_max_active_blocks)(int*, void*, int, size_t) = nullptr;
  int (*launch_kernel)(void*, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, void*, void**, void**) = nullptr;
  int (*error_string)(int, const char**) = nullptr;
  int (*stream_begin_capture)(void*, int) = nullptr;
  int (*stream_end_capture)(void*, void**) = nullptr;
  int (*stream_is_capturing)(void*, int*) = nullptr;
  int (*stream_synchronize)(void*) = nullptr;
  int (*graph_instantiate)(void**, void*, unsigned long long) = nullptr;
  int (*graph_launch)(void*, void*) = nullptr;
  int (*graph_get_nodes)(void*, void**, size_t*) = nullptr;
  int (*graph_node_get_type)(void*, int*) = nullptr;
  int (*graph_exec_destroy)(void*) = nullptr;
  int (*graph_destroy)(void*) = nullptr;
  std::string problem;  // why the driver cannot be used; empty when it can
};

#ifdef THUNDERCC_CUDA_H
// Where the CUDA toolkit is installed, the declarations above are checked against cuda.h (same_abi.h).
#define THUNDERCC_SAME_AS_CUDA_H(field, function) \
  static_assert(SameAbi<decltype(DriverApi::field), decltype(&::function)>::value, #function " is declared otherwise in cuda.h")
THUNDERCC_SAME_AS_CUDA_H(init, cuInit);
THUNDERCC_SAME_AS_CUDA_H(device_get, cuDeviceGet);
THUNDERCC_SAME_AS_CUDA_H(device_get_name, cuDeviceGetName);
THUNDERCC_SAME_AS_CUDA_H(primary_context_retain, cuDevicePrimaryCtxRetain);
THUNDERCC_SAME_AS_CUDA_H(context_set_current, cuCtxSetCurrent);
THUNDERCC_SAME_AS_CUDA_H(context_get_current, cuCtxGetCurrent);
THUNDERCC_SAME_AS_CUDA_H(module_load_data, cuModuleLoadData);
THUNDERCC_SAME_AS_CUDA_H(module_unload, cuModuleUnload);
THUNDERCC_SAME_AS_CUDA_H(module_get_function, cuModuleGetFunction);
THUNDERCC_SAME_AS_CUDA_H(device_get_attribute, cuDeviceGetAttribute);
THUNDERCC_SAME_AS_CUDA_H(occupancy_max_active_blocks, cuOccupancyMaxActiveBlocksPerMultiprocessor);
THUNDERCC_SAME_AS_CUDA_H(launch_kernel, cuLaunchKernel);
THUNDERCC_SAME_AS_CUDA_H(driver_get_version, cuDriverGetVersion);
THUNDERCC_SAME_AS_CUDA_H(error_string, cuGetErrorString);
THUNDERCC_SAME_AS_CUDA_H(stream_begin_capture, cuStreamBeginCapture);
THUNDERCC_SAME_AS_CUDA_H(stream_end_capture, cuStreamEndCapture);
THUNDERCC_SAME_AS_CUDA_H(stream_is_capturing, cuStreamIsCapturing);
THUNDERCC_SAME_AS_CUDA_H(stream_synchronize, cuStreamSynchronize);
THUNDERCC_SAME_AS_CUDA_H(graph_instantiate, cuGraphInstantiateWithFlags);
THUNDERCC_SAME_AS_CUDA_H(graph_launch, cuGraphLaunch);
THUNDERCC_SAME_AS_CUDA_H(graph_get_nodes, cuGraphGetNodes);
THUNDERCC_SAME_AS_CUDA_H(graph_node_get_type, cuGraphNodeGetType);
THUNDERCC_SAME_AS_CUDA_H(graph_exec_destroy, cuGraphExecDestroy);
THUNDERCC_SAME_AS_CUDA_H(graph_destroy, cuGraphDestroy);
#undef THUNDERCC_SAME_AS_CUDA_H
#endif

// CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, CU_STREAM_CAPTURE_MODE_THREAD_LOCAL,
// CU_STREAM_CAPTURE_STATUS_NONE, CU_GRAPH_NODE_TYPE_KERNEL
constexpr int kMultiprocessorCount = 16, kCaptureThreadLocal = 1, kNotCapturing = 0, kKernelNode = 0;
#ifdef THUNDERCC_CUDA_H
static_assert(kMultiprocessorCount == CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
static_assert(kCaptureThreadLocal == CU_STREAM_CAPTURE_MODE_THREAD_LOCAL && kNotCapturing == CU_STREAM_CAPTURE_STATUS_NONE &&
              kKernelNode == CU_GRAPH_NODE_TYPE_KERNEL);
#endif

const DriverApi& driver() {
  static const DriverApi loaded = [] {
    DriverApi a;
    void* handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
      a.problem = std::string("the CUDA driver (libcuda.so.1) is not found: ") + dlerror();
      return a;
    }
    auto get = [&](auto& fn, const char* name) { find_function(handle, fn, name, "the CUDA driver", a.problem); };
    get(a.init, "cuInit");
    get(a.device_get, "cuDeviceGet");
    get(a.device_get_name, "cuDeviceGetName");
    get(a.primary_context_retain, "cuDevicePrimaryCtxRetain");
    get(a.context_set_current, "cuCtxSetCurrent");
    get(a.module_load_data, "cuModuleLoadData");
    get(a.module_unload, "cuModuleUnload");
    get(a.context_get_current, "cuCtxGetCurrent");
    get(a.driver_get_version, "cuDriverGetVersion");
    get(a.module_get_function, "cuModuleGetFunction");
    get(a.device_get_attribute, "cuDeviceGetAttribute");
    get(a.occupancy_max_active_blocks, "cuOccupancyMaxActiveBlocksPerMultiprocessor");
    get(a.launch_kernel, "cuLaunchKernel");
    get(a.error_string, "cuGetErrorString");
    // The versioned names cuda.h's macros give these (cuStreamBeginCapture is its _v2, with a mode).
    get(a.stream_begin_capture, "cuStreamBeginCapture_v2");
    get(a.stream_end_capture, "cuStreamEndCapture");
    get(a.stream_is_capturing, "cuStreamIsCapturing");
    get(a.stream_synchronize, "cuStreamSynchronize");
    get(a.graph_instantiate, "cuGraphInstantiateWithFlags");
    get(a.graph_launch, "cuGraphLaunch");
    get(a.graph_get_nodes, "cuGraphGetNodes");
    get(a.graph_node_get_type, "cuGraphNodeGetType");
    get(a.graph_exec_destroy, "cuGraphExecDestroy");
    get(a.graph_destroy, "cuGraphDestroy");
    if (int result = a.problem.empty() ? a.init(0) : 0; result != 0)
      a.problem = "the CUDA driver does not initialize (cuInit returned " + std::to_string(result) + ")";
    return a;
  }();
  return loaded;
}

const DriverApi& usable_driver() {
  const DriverApi& d = driver();
  if (!d.problem.empty()) throw ThunderError("RuntimeError", d.problem);
  return d;
}

void check(int result, const char* what) {
  if (result == 0) return;
  const char* message = nullptr;
  driver().error_string(result, &message);
  throw ThunderError("RuntimeError", str(what, " failed: ", message ? message : "CUDA error " + std::to_string(result)));
}

}  // namespace

CudaModule::Function CudaModule::load(const std::string& name, int device, unsigned block) const {
  std::lock_guard<std::mutex> lock(mutex_);
  const DriverApi& d = usable_driver();
  Device& on = devices_[device];
  if (!on.context) {
    int handle = 0;
    check(d.device_get(&handle, device), "cuDeviceGet");
    check(d.primary_context_retain(&on.context, handle), "cuDevicePrimaryCtxRetain");  // kept while the process runs
    check(d.device_get_attribute(&on.multiprocessors, kMultiprocessorCount, handle), "cuDeviceGetAttribute");
  }
  check(d.context_set_current(on.context), "cuCtxSetCurrent");
  if (!on.module) {
    // PTX from a newer toolkit than the driver's fails here: say which driver this is.
    int version = 0;
    d.driver_get_version(&version);
    check(d.module_load_data(&on.module, ptx_.c_str()),
          str("loading the plan's PTX module into cuda:", device, " (driver for CUDA ", version / 1000, ".", version % 1000 / 10,
              ") with cuModuleLoadData").c_str());
  }
  Function& f = on.functions[name];
  if (!f.handle) check(d.module_get_function(&f.handle, on.module, name.c_str()), "cuModuleGetFunction");
  if (f.block != block) {
    int per_multiprocessor = 0;
    check(d.occupancy_max_active_blocks(&per_multiprocessor, f.handle, static_cast<int>(block), 0),
          "cuOccupancyMaxActiveBlocksPerMultiprocessor");
    f.block = block;
    f.resident = static_cast<unsigned>(std::max(1, per_multiprocessor * on.multiprocessors));
  }
  return f;
}

CudaModule::~CudaModule() {
  if (devices_.empty()) return;
  const DriverApi& d = driver();
  void* previous = nullptr;
  d.context_get_current(&previous);
  for (auto& [device, on] : devices_)
    if (on.module && d.context_set_current(on.context) == 0) d.module_unload(on.module);
  d.context_set_current(previous);
}

void CudaModule::launch(const std::string& name, int device, unsigned grid, unsigned block, void** params, void* stream) const {
  Function f = load(name, device, block);
  // At most the blocks the device runs at once: the kernels stride over the rest (any grid
  // computes the same result), and a second wave of blocks would only wait for the first.
  check(usable_driver().launch_kernel(f.handle, std::min(grid, f.resident), 1, 1, block, 1, 1, 0, stream, params, nullptr), "cuLaunchKernel");
}

CudaGraph::CudaGraph(void* stream, const std::function<void()>& enqueue) {
  const DriverApi& d = usable_driver();
  check(d.stream_begin_capture(stream, kCaptureThreadLocal), "cuStreamBeginCapture");
  try {
    enqueue();
  } catch (...) {
    // The stream leaves capture mode whatever happened inside it, so that it can be used again.
    void* partial = nullptr;
    if (d.stream_end_capture(stream, &partial) == 0 && partial) d.graph_destroy(partial);
    throw;
  }
  check(d.stream_end_capture(stream, &graph_), "cuStreamEndCapture (the run waited for the device, or used another stream, while it was recorded)");
  check(d.graph_instantiate(&exec_, graph_, 0), "cuGraphInstantiate");
  check(d.graph_get_nodes(graph_, nullptr, &nodes_), "cuGraphGetNodes");
  std::vector<void*> nodes(nodes_);
  check(d.graph_get_nodes(graph_, nodes.data(), &nodes_), "cuGraphGetNodes");
  for (void* node : nodes) {
    int type = -1;
    check(d.graph_node_get_type(node, &type), "cuGraphNodeGetType");
    kernels_ += type == kKernelNode;
  }
}

CudaGraph::~CudaGraph() {
  if (exec_) driver().graph_exec_destroy(exec_);
  if (graph_) driver().graph_destroy(graph_);
}

void CudaGraph::launch(void* stream) const { check(usable_driver().graph_launch(exec_, stream), "cuGraphLaunch"); }

std::string cuda_device_name(int device) {
  const DriverApi& d = usable_driver();
  int handle = 0;
  check(d.device_get(&handle, device), "cuDeviceGet");
  char name[256] = {};
  check(d.device_get_name(name, sizeof name, handle), "cuDeviceGetName");
  return name;
}

void synchronize_stream(void* stream) { check(usable_driver().stream_synchronize(stream), "cuStreamSynchronize"); }

bool stream_is_capturing(void* stream) {
  int status = kNotCapturing;
  check(usable_driver().stream_is_capturing(stream, &status), "cuStreamIsCapturing");
  return status != kNotCapturing;
}

}  // namespace thundercc::runtime
