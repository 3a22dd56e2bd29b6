#include "thundercc/executors/fuser/kernel_library.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <thread>
#include <unordered_map>

#include "thundercc/errors.h"
#include "thundercc/executors/fuser/channels_last.h"
#include "thundercc/executors/fuser/cuda_emulation.h"
#include "thundercc/executors/fuser/nvrtc.h"
#include "thundercc/executors/fuser/region_analysis.h"
#include "thundercc/support/cpu_features.h"
#include "thundercc/support/files.h"
#include "thundercc/support/interrupts.h"
#include "thundercc/support/progress.h"
#include "thundercc/support/sha256.h"
#include "thundercc/support/subprocess.h"

namespace thundercc::fuser {
namespace {

namespace fs = std::filesystem;

// -fno-math-errno and -fno-trapping-math let loops calling math functions vectorize; -fwrapv
// gives integer overflow ATen's wrapping; no -ffast-math: NaN and infinity keep their meaning.
constexpr const char* kCompileFlags =
    "-std=c++17 -O3 -march=native -fPIC -fno-math-errno -fno-trapping-math -fwrapv -fopenmp-simd -w";

const fs::path& cache_root();
fs::path cache_folder(const char* name);

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// A shell command's exit status and what it printed (StartedCommand: an interrupt kills it).
std::pair<int, std::string> run(const std::string& command) { return StartedCommand(command).finish(); }

std::string compiler() {
  const char* cxx = std::getenv("THUNDERCC_CXX");
  return cxx && *cxx ? cxx : "c++";
}

// The executable `name` runs: found on PATH unless it names a path, links followed; empty if none.
fs::path executable(const std::string& name) {
  std::error_code error;
  if (name.find('/') != std::string::npos) return fs::canonical(name, error);
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  for (size_t start = 0; start <= dirs.size();) {
    size_t end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    fs::path candidate = fs::path(dirs.substr(start, end - start)) / name;
    if (!candidate.parent_path().empty() && ::access(candidate.c_str(), X_OK) == 0) return fs::canonical(candidate, error);
    start = end + 1;
  }
  return {};
}

// The first line of the compiler's --version, part of every kernel's cache key. Running it is a
// process start per compile (10 ms), so it is remembered in the cache under the executable's
// path (links followed), size and modification time: a new compiler installed there is asked
// again. A wrapper (ccache) hides an upgrade of the compiler behind it: remove the cache's
// compilers/ folder then. A memo that cannot be read, or is not one line, is asked again.
const std::string& compiler_version() {
  static const std::string version = [] {
    auto ask = [] {
      auto [status, output] = run(quoted(compiler()) + " --version");
      if (status != 0) throw ThunderError("RuntimeError", "fuser: the C++ compiler '" + compiler() + "' does not run: " + output);
      return output.substr(0, output.find('\n'));
    };
    fs::path exe = executable(compiler());
    struct stat st;
    if (exe.empty() || ::stat(exe.c_str(), &st) != 0) return ask();
    fs::path memo;
    try {
      memo = cache_folder("compilers") / sha256_hex(str(exe.string(), "\n", st.st_size, "\n", st.st_mtim.tv_sec, ".", st.st_mtim.tv_nsec));
    } catch (const ThunderError&) {  // a cache it may not use: building kernels reports it
      return ask();
    }
    try {
      std::string remembered = read_file(memo.string(), 4096, FollowLinks::No);
      if (!remembered.empty() && remembered.find('\n') == std::string::npos) return remembered;
    } catch (const std::exception&) {  // absent or unreadable: ask
    }
    std::string answer = ask();
    try {  // a cache it cannot write to (read-only, prebuilt) only means asking again next time
      write_file_atomically(memo.string(), answer);
    } catch (const std::exception&) {
    }
    return answer;
  }();
  return version;
}

// Each cache entry has its SHA-256 beside it (PATH.sha256), written when it is made and checked
// whenever it is read: an entry truncated or changed since (a full disk, a crash, a stray write)
// is made again.

// The entry's bytes, when it is there and is what was written; nothing otherwise.
std::optional<std::string> intact_entry(const fs::path& path) {
  try {
    std::string bytes = read_file(path.string(), limits::kKernelLibraryBytes, FollowLinks::No);
    if (sha256_hex(bytes) == read_file(path.string() + ".sha256", 64, FollowLinks::No)) return bytes;
  } catch (const std::exception&) {  // absent or unreadable
  }
  return std::nullopt;
}

// Publishes an entry made under a temporary name: its SHA-256 beside it, then the entry itself.
std::string publish_entry(const fs::path& temporary, const fs::path& path) {
  std::string bytes = read_file(temporary.string(), limits::kKernelLibraryBytes, FollowLinks::No);
  write_file_atomically(path.string() + ".sha256", sha256_hex(bytes));
  fs::rename(temporary, path);
  return bytes;
}

// The bytes of a cache entry, made by `make(temporary)` when absent or damaged. What stands at
// its path and is no regular file (a link, a FIFO: planted, since only this user writes there)
// is replaced; a folder is refused by name. The temporary is removed on every failure.
template <class Make>
std::string cached_entry(const fs::path& path, Make&& make) {
  if (auto bytes = intact_entry(path)) return *std::move(bytes);
  const fs::file_status there = fs::symlink_status(path);
  if (fs::is_directory(there))
    throw ThunderError("RuntimeError", str("fuser: the kernel cache's entry ", path.string(), " is a folder: remove it"));
  fs::path temporary = path.string() + ".tmp" + std::to_string(getpid());
  RemovedOnInterrupt removed_on_interrupt(temporary.string());
  try {
    make(temporary);
    return publish_entry(temporary, path);
  } catch (...) {
    std::error_code ignored;
    fs::remove(temporary, ignored);
    throw;
  }
}

// The cache holds code this user's processes load, so nobody else may write to it: each of its
// folders is made 0700, and one that another user owns or may write to is refused, as is a link
// in place of a folder inside it (the root may be a link the user made); its files are read
// without following links.
void check_cache_folder(const fs::path& dir, bool is_root) {
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
    throw ThunderError("RuntimeError", str("fuser: cannot make the kernel cache's folder ", dir.string(), ": ", std::strerror(errno)));
  struct stat st;
  if ((is_root ? ::stat(dir.c_str(), &st) : ::lstat(dir.c_str(), &st)) != 0 || !S_ISDIR(st.st_mode))
    throw ThunderError("RuntimeError", str("fuser: the kernel cache's ", dir.string(), " is not a folder",
                                           is_root ? "" : " (a link or a file where the cache keeps a folder): remove it"));
  if (st.st_uid != ::getuid() || (st.st_mode & 022) != 0)
    throw ThunderError("RuntimeError", str("fuser: the kernel cache's folder ", dir.string(),
                                           " can be written by another user (it holds code thundercc loads): make it yours and "
                                           "chmod 700 it, or set THUNDERCC_CACHE_DIR to a folder only you can write"));
}

const fs::path& cache_root() {
  static const fs::path root = [] {
    fs::path dir(kernel_cache_dir());
    if (!fs::exists(dir)) fs::create_directories(dir.parent_path());
    check_cache_folder(dir, true);
    return dir;
  }();
  return root;
}

// A folder of the cache (objects, libraries, ptx, compilers), checked each time it is used.
fs::path cache_folder(const char* name) {
  fs::path dir = cache_root() / name;
  check_cache_folder(dir, false);
  return dir;
}

std::string first_lines(const std::string& text, int n) {
  size_t at = 0;
  for (int i = 0; i < n && at != std::string::npos; ++i) at = text.find('\n', at + 1);
  return at == std::string::npos ? text : text.substr(0, at) + "\n...";
}

}  // namespace

std::string kernel_cache_dir() {
  if (const char* dir = std::getenv("THUNDERCC_CACHE_DIR"); dir && *dir) return dir;
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) return (fs::path(xdg) / "thundercc").string();
  if (const char* home = std::getenv("HOME"); home && *home) return (fs::path(home) / ".cache" / "thundercc").string();
  return (fs::temp_directory_path() / ("thundercc-cache-" + std::to_string(getuid()))).string();
}

std::optional<std::string> cached_record(const char* folder, const std::string& name) {
  try {
    return intact_entry(cache_folder(folder) / name);
  } catch (const std::exception&) {  // no cache: nothing recorded
    return std::nullopt;
  }
}

void store_record(const char* folder, const std::string& name, const std::string& bytes) {
  try {
    cached_entry(cache_folder(folder) / name, [&](const fs::path& temporary) { write_file_atomically(temporary.string(), bytes); });
  } catch (const std::exception&) {  // an unwritable cache: measured again next time
  }
}

bool kernel_compiler_available(std::string* why) {
  static const std::string problem = [] {
    try {
      compiler_version();
      return std::string();
    } catch (const ThunderError& e) {
      return std::string(e.what());
    }
  }();
  if (why) *why = problem;
  return problem.empty();
}

KernelLibrary build_cpu_library(const std::vector<GeneratedKernel>& kernels) {
  KernelLibrary lib;
  lib.compiler = compiler_version();
  lib.flags = kCompileFlags;
  lib.isa = cpu_features();  // what -march=native may use
  // -march=native means this CPU's features: an object made on another CPU of a shared cache (a
  // home folder that moves between machines) may use instructions this one lacks, so they are
  // part of every object's key.
  std::string isa;
  for (const auto& feature : lib.isa) isa += feature + " ";
  const fs::path objects_dir = cache_folder("objects");
  // Missing kernels compile concurrently, one compiler per core.
  struct Job {
    const GeneratedKernel* kernel;
    fs::path source, object, temporary;
    std::pair<int, std::string> result;  // the compiler's status and messages
  };
  std::set<std::string> functions;
  std::vector<std::string> objects;
  std::vector<Job> jobs;
  for (const auto& k : kernels) {
    if (!functions.insert(k.function).second) continue;  // the same kernel twice: one object
    std::string key = sha256_hex(lib.compiler + "\n" + lib.flags + "\n" + isa + "\n" + k.source);
    objects.push_back(key);
    fs::path object = objects_dir / (key + ".o");
    if (intact_entry(object)) {
      ++lib.cached;
      continue;
    }
    // The source stays next to its object, for people reading what a region became.
    jobs.push_back({&k, objects_dir / (key + ".cpp"), object, object.string() + ".tmp" + std::to_string(getpid())});
  }
  size_t parallel = std::max(1u, std::thread::hardware_concurrency());
  ProgressLine progress(!jobs.empty());  // a model's first compile builds dozens of kernels, each a second or more
  for (size_t first = 0; first < jobs.size(); first += parallel) {
    progress.show(str("fuser: compiling kernels, ", first, " of ", jobs.size(), " done"));
    size_t last = std::min(jobs.size(), first + parallel);
    std::vector<std::unique_ptr<StartedCommand>> running;
    std::vector<std::unique_ptr<RemovedOnInterrupt>> temporaries;
    for (size_t i = first; i < last; ++i) {
      write_file_atomically(jobs[i].source.string(), jobs[i].kernel->source);
      temporaries.push_back(std::make_unique<RemovedOnInterrupt>(jobs[i].temporary.string()));
      running.push_back(std::make_unique<StartedCommand>(str(quoted(compiler()), " ", kCompileFlags, " -c ",
                                                              quoted(jobs[i].source.string()), " -o ", quoted(jobs[i].temporary.string()))));
    }
    // Every started compiler is waited for before any failure is reported.
    for (size_t i = first; i < last; ++i) jobs[i].result = running[i - first]->finish();
    for (size_t i = first; i < last; ++i) {
      Job& j = jobs[i];
      if (j.result.first != 0) {
        for (size_t k = first; k < last; ++k) fs::remove(jobs[k].temporary);
        throw ThunderError("RuntimeError", str("fuser: the kernel ", j.kernel->function, " does not compile:\n", first_lines(j.result.second, 20)));
      }
      publish_entry(j.temporary, j.object);
      ++lib.compiled;
    }
  }
  std::sort(objects.begin(), objects.end());
  std::string key = lib.compiler + "\n-shared";
  for (const auto& o : objects) key += "\n" + o;
  fs::path library = cache_folder("libraries") / (sha256_hex(key) + ".so");
  lib.bytes = cached_entry(library, [&](const fs::path& temporary) {
    std::string command = quoted(compiler()) + " -shared -o " + quoted(temporary.string());
    for (const auto& o : objects) command += " " + quoted((objects_dir / (o + ".o")).string());
    command += " -lmvec -lm";  // glibc's vector math, after the objects that call it
    auto [status, output] = run(command);
    if (status != 0) throw ThunderError("RuntimeError", "fuser: linking the kernel library failed:\n" + first_lines(output, 20));
  });
  lib.sha256 = sha256_hex(lib.bytes);
  return lib;
}

std::string cached_ptx(const std::string& source) {
  std::string compiler = nvrtc_version();
  fs::path ptx = cache_folder("ptx") / (sha256_hex(str(compiler, "\n", kPtxArch, " ", kNvrtcOptions, "\n", source)) + ".ptx");
  return cached_entry(ptx, [&](const fs::path& temporary) {
    PtxResult r = compile_to_ptx(source, "kernels.cu");
    if (!r.ok) throw ThunderError("RuntimeError", "fuser: NVRTC does not compile the CUDA kernels:\n" + first_lines(r.log, 20));
    write_file_atomically(temporary.string(), r.ptx);
  });
}

PlanKernelBuild build_plan_kernels(const std::vector<const Trace*>& traces, const std::string& stem, bool every_region_for_cuda) {
  PlanKernelBuild out;
  std::vector<GeneratedKernel> cpu, cuda;
  // Each source is generated once per region signature and target.
  std::unordered_map<std::string, const GeneratedKernel*> cpu_of, cuda_of;
  auto kernel_for = [](auto& cache, std::vector<GeneratedKernel>& kernels, const std::string& signature, const BoundSymbol& region,
                       Target target) -> const GeneratedKernel& {
    auto [it, first] = cache.try_emplace(signature);
    if (first) it->second = &kernels.emplace_back(generate_kernel(region, target));
    return *it->second;
  };
  size_t regions = 0;
  for (const Trace* t : traces)
    for (const auto& b : t->bound_symbols) regions += is_fusion_region(b);
  cpu.reserve(2 * regions);  // the maps point into the vectors (a region and its channels-last twin)
  cuda.reserve(regions);
  for (const Trace* t : traces)
    for (const auto& b : t->bound_symbols) {
      if (!is_fusion_region(b)) continue;
      const std::string& signature = out.kernels.signatures[b.sym->id] = region_signature(b);
      bool on_cpu = b.args.at(0).as_tensor().device().is_cpu();
      if (on_cpu) {
        const GeneratedKernel& k = kernel_for(cpu_of, cpu, signature, b, Target::CPU);
        out.kernels.functions[b.sym->id] = k.function;
        out.kernels.sizes[b.sym->id] = k.sizes;
        if (std::optional<BoundSymbol> twin = channels_last_twin(b)) {
          const GeneratedKernel& t = kernel_for(cpu_of, cpu, region_signature(*twin), *twin, Target::CPU);
          out.kernels.channels_last[b.sym->id] = {t.function, t.sizes};
        }
      }
      if (!on_cpu || every_region_for_cuda) {
        const GeneratedKernel& k = kernel_for(cuda_of, cuda, signature, b, Target::CUDA);
        out.kernels.cuda.functions[b.sym->id] = {k.function, k.grid};
      }
    }
  if (!cpu.empty()) {
    out.library = build_cpu_library(cpu);
    out.kernels.library = stem + ".kernels.so";
    out.kernels.sha256 = out.library.sha256;
    out.kernels.compiler = out.library.compiler;
    out.kernels.flags = out.library.flags;
    out.kernels.isa = out.library.isa;
  }
  if (cuda.empty()) return out;
  PlanKernels::Cuda& c = out.kernels.cuda;
  out.cuda_source = cuda_module_source(cuda);
  if (nvrtc_available()) {
    out.ptx = cached_ptx(out.cuda_source);
    c.ptx = stem + ".kernels.ptx";
    c.ptx_sha256 = sha256_hex(out.ptx);
    c.compiler = nvrtc_version();
    c.arch = kPtxArch;
  }
  if (every_region_for_cuda && kernel_compiler_available()) {
    std::vector<GeneratedKernel> emulated{cuda_emulator()};
    for (const auto& k : cuda) emulated.push_back(emulated_cuda_kernel(k));
    out.emulation = build_cpu_library(emulated);
    c.emulation = stem + ".cuda_emulation.so";
    c.emulation_sha256 = out.emulation.sha256;
  }
  return out;
}

}  // namespace thundercc::fuser
