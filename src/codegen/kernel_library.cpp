#include "thundercc/codegen/kernel_library.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "thundercc/errors.h"
#include "thundercc/support/sha256.h"

namespace thundercc::codegen {
namespace {

namespace fs = std::filesystem;

// -fno-math-errno and -fno-trapping-math let loops calling math functions vectorize; -fwrapv
// gives integer overflow ATen's wrapping; no -ffast-math: NaN and infinity keep their meaning.
constexpr const char* kCompileFlags =
    "-std=c++17 -O3 -march=native -fPIC -fno-math-errno -fno-trapping-math -fwrapv -fopenmp-simd -w";

std::string quoted(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs a shell command; returns its exit status and what it printed.
std::pair<int, std::string> run(const std::string& command) {
  FILE* pipe = popen((command + " 2>&1").c_str(), "r");
  if (!pipe) throw ThunderError("RuntimeError", "fuser: cannot run " + command);
  std::string output;
  char buffer[4096];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  int status = pclose(pipe);
  return {status, output};
}

std::string compiler() {
  const char* cxx = std::getenv("THUNDERCC_CXX");
  return cxx && *cxx ? cxx : "c++";
}

const std::string& compiler_version() {
  static const std::string version = [] {
    auto [status, output] = run(quoted(compiler()) + " --version");
    if (status != 0) throw ThunderError("RuntimeError", "fuser: the C++ compiler '" + compiler() + "' does not run: " + output);
    return output.substr(0, output.find('\n'));
  }();
  return version;
}

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream os;
  os << in.rdbuf();
  return os.str();
}

// A file of the cache under its final name, made by `make(temporary)` when absent.
template <class Make>
bool ensure(const fs::path& path, Make&& make) {
  if (fs::exists(path)) return false;
  fs::create_directories(path.parent_path());
  fs::path temporary = path.string() + ".tmp" + std::to_string(getpid());
  make(temporary);
  fs::rename(temporary, path);
  return true;
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

KernelLibrary build_cpu_library(const std::vector<GeneratedKernel>& kernels) {
  KernelLibrary lib;
  lib.compiler = compiler_version();
  lib.flags = kCompileFlags;
  fs::path cache(kernel_cache_dir());
  std::set<std::string> functions;
  std::vector<std::string> objects;
  for (const auto& k : kernels) {
    if (!functions.insert(k.function).second) continue;  // the same kernel twice: one object
    std::string key = sha256_hex(lib.compiler + "\n" + lib.flags + "\n" + k.source);
    fs::path object = cache / "objects" / (key + ".o");
    bool made = ensure(object, [&](const fs::path& temporary) {
      fs::path source = temporary.string() + ".cpp";
      std::ofstream(source) << k.source;
      auto [status, output] = run(str(quoted(compiler()), " ", kCompileFlags, " -c ", quoted(source.string()), " -o ", quoted(temporary.string())));
      fs::remove(source);
      if (status != 0) throw ThunderError("RuntimeError", str("fuser: the kernel ", k.function, " does not compile:\n", first_lines(output, 20)));
    });
    (made ? lib.compiled : lib.cached) += 1;
    objects.push_back(key);
  }
  std::sort(objects.begin(), objects.end());
  std::string key = lib.compiler + "\n-shared";
  for (const auto& o : objects) key += "\n" + o;
  fs::path library = cache / "libraries" / (sha256_hex(key) + ".so");
  ensure(library, [&](const fs::path& temporary) {
    std::string command = quoted(compiler()) + " -shared -o " + quoted(temporary.string());
    for (const auto& o : objects) command += " " + quoted((cache / "objects" / (o + ".o")).string());
    command += " -lmvec -lm";  // glibc's vector math, after the objects that call it
    auto [status, output] = run(command);
    if (status != 0) throw ThunderError("RuntimeError", "fuser: linking the kernel library failed:\n" + first_lines(output, 20));
  });
  lib.bytes = read_file(library);
  lib.sha256 = sha256_hex(lib.bytes);
  return lib;
}

PlanKernelBuild build_plan_kernels(const std::vector<const Trace*>& traces, const std::string& library_name) {
  PlanKernelBuild out;
  std::vector<GeneratedKernel> kernels;
  for (const Trace* t : traces)
    for (const auto& b : t->bound_symbols)
      if (b.sym->executor == "fuser" && b.sym->id.starts_with("fuser_")) {
        kernels.push_back(generate_kernel(b, Target::CPU));
        out.kernels.functions[b.sym->id] = kernels.back().function;
      }
  if (kernels.empty()) return out;
  out.library = build_cpu_library(kernels);
  out.kernels.library = library_name;
  out.kernels.sha256 = out.library.sha256;
  out.kernels.compiler = out.library.compiler;
  out.kernels.flags = out.library.flags;
  return out;
}

}  // namespace thundercc::codegen
