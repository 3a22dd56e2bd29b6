// `thundercc package`: a plan and the module's weights in one file (runtime/package.h).
#include "thundercc/runtime/package.h"

#include <CLI/CLI.hpp>
#include <torch/csrc/jit/serialization/pickle.h>

#include <fstream>

#include "thundercc/errors.h"
#include "thundercc/plan/plan_codec.h"
#include "thundercc/runtime/kernels.h"
#include "thundercc/runtime/plan_runner.h"
#include "thundercc/runtime/tensor_files.h"
#include "thundercc/serialize/value_codec.h"
#include "thundercc/support/cli_validators.h"
#include "thundercc/support/files.h"

namespace thundercc::runtime {
namespace {

constexpr const char* kFormat = "thundercc.package";
constexpr int64_t kVersion = 1;

// Whether the file is a zip archive (what torch.save writes), not a plan.json.
bool is_archive(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  in.read(magic, 4);
  return in.gcount() == 4 && std::string(magic, 4) == std::string("PK\x03\x04", 4);
}

c10::IValue field(const c10::impl::GenericDict& doc, const std::string& path, const char* key) {
  auto found = doc.find(std::string(key));
  if (found == doc.end()) throw LoadError(str(path, ": not a thundercc package (no '", key, "'; thundercc package writes one)"));
  return found->value();
}

}  // namespace

PlanFile read_plan_or_package(const std::string& path) {
  if (!is_archive(path)) return {plan::read_plan_file(path), {}, false};
  c10::IValue file = read_pickled(path);
  if (!file.isGenericDict()) throw LoadError(path + ": a tensor file, not a plan or a package (thundercc package writes one)");
  const c10::impl::GenericDict doc = file.toGenericDict();
  c10::IValue format = field(doc, path, "format"), version = field(doc, path, "version"), text = field(doc, path, "plan");
  if (!format.isString() || format.toStringRef() != kFormat) throw LoadError(path + ": not a thundercc package (its format is not '" + kFormat + "')");
  if (!version.isInt() || version.toInt() != kVersion)
    throw LoadError(str(path, ": a package of version ", version.isInt() ? std::to_string(version.toInt()) : "?", "; this thundercc reads version ", kVersion));
  if (!text.isString()) throw LoadError(path + ": the package's plan is not text");
  PlanFile out{plan::decode_plan(parse_json_document(text.toStringRef(), path + ": plan"), path + ": plan"), {}, true};
  c10::IValue weights = field(doc, path, "weights");
  if (!weights.isGenericDict()) throw LoadError(path + ": the package's weights are not a dict of tensors by key");
  for (const auto& item : weights.toGenericDict()) {
    if (!item.key().isString() || !item.value().isTensor()) throw LoadError(path + ": the package's weights are not a dict of tensors by key");
    out.weights.emplace_back(item.key().toStringRef(), item.value().toTensor());
  }
  return out;
}

void write_package(const std::string& path, const std::string& plan_path, const StateDict& weights) {
  if (is_archive(plan_path)) throw LoadError(plan_path + ": already a package");
  // The plan binds, and takes these weights, as a run would check them.
  Plan bound(plan::read_plan_file(plan_path), plan_path);
  bound.set_weights(weights, "the weights");
  c10::impl::GenericDict tensors(c10::StringType::get(), c10::TensorType::get());
  for (const auto& [key, tensor] : weights) tensors.insert(key, as_stored(tensor));
  c10::impl::GenericDict doc(c10::StringType::get(), c10::AnyType::get());
  doc.insert("format", std::string(kFormat));
  doc.insert("version", kVersion);
  doc.insert("plan", read_file(plan_path, limits::kTraceBytes));
  doc.insert("weights", tensors);
  write_pickled(path, doc);
}

}  // namespace thundercc::runtime

extern "C" int thundercc_package_main(int argc, char** argv) {
  using namespace thundercc;
  runtime::register_builtin_kernels();
  CLI::App app{"thundercc package: a plan and the module's weights in one file, which run, Plan::load and thundercc_frontend.load read"};
  std::string plan_path, weights_path, out_path;
  const CLI::Validator path = cli::non_empty_path();
  app.add_option("plan", plan_path, "NAME.plan.json")->required()->check(CLI::ExistingFile);
  app.add_option("--weights", weights_path, "what torch.save(model.state_dict()) wrote")->required()->check(CLI::ExistingFile);
  app.add_option("-o,--output", out_path, "the package to write (FILE.tcc)")->required()->check(path);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;  // usage errors exit 2, as every command's
  }
  try {
    check_output_path(out_path);
    runtime::write_package(out_path, plan_path, runtime::read_state_dict(weights_path));
    std::printf("%s: %s and %s\n", out_path.c_str(), plan_path.c_str(), weights_path.c_str());
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 1;
  }
}
