// Tensor files (what Python's torch.save writes and torch.load reads) and the comparison of
// outputs with expected ones, as torch.testing.assert_close does: what `thundercc run`, check_plans
// and the examples read and write around a plan's run.
#include "thundercc/runtime/tensor_files.h"

#include <ATen/ATen.h>
#include <caffe2/serialize/inline_container.h>
#include <torch/csrc/jit/serialization/import_read.h>
#include <torch/csrc/jit/serialization/pickle.h>
#include <torch/csrc/jit/serialization/storage_context.h>
#include <zlib.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>

#include "runtime/pickle_check.h"
#include "thundercc/errors.h"
#include "thundercc/runtime/kernels.h"
#include "thundercc/support/files.h"

namespace thundercc::runtime {

namespace {

// A tensor from a file, checked against its storage: a strided CPU tensor whose every element
// (sizes, strides and offset as the file says) lies inside the storage the file gave it.
at::Tensor checked_tensor(const c10::IValue& x, const std::string& path, size_t index) {
  auto fail = [&](const std::string& problem) -> at::Tensor {
    throw LoadError(path + ": tensor " + std::to_string(index) + ": " + problem);
  };
  if (!x.isTensor()) return fail("expected a tensor, found " + x.tagKind());
  at::Tensor t = x.toTensor();
  if (!t.defined()) return fail("undefined tensor");
  if (t.layout() != at::kStrided || t.is_quantized()) return fail("only dense (strided) tensors are supported");
  if (!t.device().is_cpu()) return fail("the file holds a " + t.device().str() + " tensor; thundercc reads CPU tensors");
  if (t.storage_offset() < 0) return fail("negative storage offset");
  uint64_t last = static_cast<uint64_t>(t.storage_offset());  // the largest element index used
  bool empty = false;
  for (int64_t d = 0; d < t.dim(); ++d) {
    int64_t size = t.size(d), stride = t.stride(d);
    if (size < 0 || stride < 0) return fail("negative size or stride");
    if (size == 0) empty = true;
    uint64_t reach;
    if (size > 0 && (__builtin_mul_overflow(static_cast<uint64_t>(size - 1), static_cast<uint64_t>(stride), &reach) ||
                     __builtin_add_overflow(last, reach, &last)))
      return fail("sizes and strides overflow");
  }
  uint64_t needed;
  if (!empty && (__builtin_add_overflow(last, uint64_t{1}, &needed) ||
                 __builtin_mul_overflow(needed, static_cast<uint64_t>(t.element_size()), &needed) ||
                 needed > t.storage().nbytes()))
    return fail("its sizes, strides and offset reach past its storage (" + std::to_string(t.storage().nbytes()) + " bytes)");
  return t;
}

// LibTorch's zip reader checks no CRC: a file changed since it was written (a flipped bit, a
// damaged copy) would be read as other numbers. So every record of the zip's central directory
// (stored, as torch.save writes them) is checked against its CRC-32 first, every read bounds-checked.
void check_record_crcs(const std::string& path, const std::string& zip) {
  auto damaged = [&](const std::string& why) {
    throw LoadError(path + ": damaged (" + why + "): write it again");
  };
  auto u = [&](size_t at, int bytes) {
    if (at > zip.size() || static_cast<size_t>(bytes) > zip.size() - at) damaged("a field past the end of the file");
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = v << 8 | static_cast<unsigned char>(zip[at + static_cast<size_t>(i)]);
    return v;
  };
  size_t end = std::string::npos;  // the end-of-central-directory record, within its comment's reach of the end
  for (size_t at = zip.size() >= 22 ? zip.size() - 22 : 0; zip.size() >= 22 && at + 65557 >= zip.size(); --at) {
    if (u(at, 4) == 0x06054b50) {
      end = at;
      break;
    }
    if (at == 0) break;
  }
  if (end == std::string::npos) damaged("no zip directory");
  uint64_t entries = u(end + 10, 2), directory = u(end + 16, 4);
  // Where a zip64 locator stands just before, LibTorch's reader takes the directory its record
  // names (torch.save always writes one): that directory is checked, and the plain record must
  // agree with it where it does not defer to it.
  const bool zip64 = end >= 20 && u(end - 20, 4) == 0x07064b50;
  if (!zip64 && (entries == 0xffff || directory == 0xffffffff)) damaged("no zip64 locator");
  if (zip64) {
    uint64_t record = u(end - 20 + 8, 8);
    if (u(record, 4) != 0x06064b50) damaged("no zip64 directory");
    if ((entries != 0xffff && entries != u(record + 32, 8)) || (directory != 0xffffffff && directory != u(record + 48, 8)))
      damaged("two zip directories that disagree");
    entries = u(record + 32, 8);
    directory = u(record + 48, 8);
  }
  std::set<std::string> names;
  uint64_t at = directory;
  for (uint64_t e = 0; e < entries; ++e) {
    if (u(at, 4) != 0x02014b50) damaged("a broken directory entry");
    const uint64_t method = u(at + 10, 2), crc = u(at + 16, 4), name_length = u(at + 28, 2), extra_length = u(at + 30, 2);
    uint64_t size = u(at + 24, 4), local = u(at + 42, 4);
    std::string name = zip.substr(std::min<size_t>(at + 46, zip.size()), name_length);
    if (!names.insert(name).second) damaged("two records named " + name);
    // Zip64 sizes and offsets: in the extra field, those whose 32-bit fields are all ones, in order.
    for (uint64_t x = at + 46 + name_length; x + 4 <= at + 46 + name_length + extra_length;) {
      const uint64_t id = u(x, 2), length = u(x + 2, 2);
      if (id == 1) {
        uint64_t field = x + 4;
        if (size == 0xffffffff) size = u(field, 8), field += 8;
        if (u(at + 20, 4) == 0xffffffff) field += 8;
        if (local == 0xffffffff) local = u(field, 8);
      }
      x += 4 + length;
    }
    if (method != 0) damaged("record " + name + " is compressed, which torch.save never does");
    if (u(local, 4) != 0x04034b50) damaged("record " + name + " has no header");
    const uint64_t data = local + 30 + u(local + 26, 2) + u(local + 28, 2);
    if (data > zip.size() || size > zip.size() - data) damaged("record " + name + " runs past the end of the file");
    uLong actual = crc32(0L, Z_NULL, 0);
    for (uint64_t done = 0; done < size;) {  // zlib takes 32-bit lengths
      const uInt n = static_cast<uInt>(std::min<uint64_t>(size - done, uint64_t{1} << 30));
      actual = crc32(actual, reinterpret_cast<const Bytef*>(zip.data() + data + done), n);
      done += n;
    }
#ifndef FUZZING_BUILD_MODE_UNSAFE_FOR_PRODUCTION  // fuzz/CMakeLists.txt: mutated files reach the pickle check
    if (actual != crc) damaged("record " + name + " does not match its CRC-32");
#endif
    at += 46 + name_length + extra_length + u(at + 32, 2);
  }
}

// The file's bytes for LibTorch's zip reader, every read bounds-checked.
class BytesReader : public caffe2::serialize::ReadAdapterInterface {
 public:
  explicit BytesReader(std::string bytes) : bytes_(std::move(bytes)) {}
  size_t size() const override { return bytes_.size(); }
  size_t read(uint64_t pos, void* buf, size_t n, const char*) const override {
    if (pos >= bytes_.size()) return 0;
    n = std::min<size_t>(n, bytes_.size() - pos);
    std::memcpy(buf, bytes_.data() + pos, n);
    return n;
  }

 private:
  std::string bytes_;
};

// torch.load's reading, except that each storage is made from its record with the record's true
// size: LibTorch would size it from the pickle's element count, so a pickle claiming more elements
// than its record holds would read past the record.
// The archive with another data.pkl, its other records as they were.
std::string with_pickle(caffe2::serialize::PyTorchStreamReader& reader, const std::string& pickle) {
  std::string zip;
  caffe2::serialize::PyTorchStreamWriter writer([&](const void* data, size_t size) {
    zip.append(static_cast<const char*>(data), size);
    return size;
  });
  writer.writeRecord("data.pkl", pickle.data(), pickle.size());
  for (const auto& record : reader.getAllRecords())
    if (record.rfind("data/", 0) == 0) {
      auto [data, size] = reader.getRecord(record);
      writer.writeRecord(record, data.get(), size);
    }
  writer.writeEndOfFile();
  return zip;
}

c10::IValue load_archive(const std::string& path) {
  std::string bytes = read_file(path, limits::kTensorFileBytes);
  check_record_crcs(path, bytes);
  auto reader = std::make_unique<caffe2::serialize::PyTorchStreamReader>(std::make_shared<BytesReader>(std::move(bytes)));
  {
    auto [pickle, pickle_size] = reader->getRecord("data.pkl");
    std::string readable = check_tensor_pickle(path, static_cast<const char*>(pickle.get()), pickle_size);
    if (readable.size() != pickle_size || std::memcmp(readable.data(), pickle.get(), pickle_size) != 0)
      reader = std::make_unique<caffe2::serialize::PyTorchStreamReader>(std::make_shared<BytesReader>(with_pickle(*reader, readable)));
  }
  caffe2::serialize::PyTorchStreamReader& archive = *reader;
  auto storages = std::make_shared<torch::jit::DeserializationStorageContext>();
  for (const auto& record : archive.getAllRecords()) {
    if (record.rfind("data/", 0) != 0) continue;
    auto [data, size] = archive.getRecord(record);
    storages->addStorage(record.substr(5), c10::Storage(c10::Storage::use_byte_size_t(), size, std::move(data), nullptr, false));
  }
  return torch::jit::readArchiveAndTensors("data", "", "", c10::nullopt, c10::nullopt, c10::nullopt, archive,
                                           torch::jit::Unpickler::defaultTypeParser, storages);
}

c10::IValue unpickle(const std::string& path) {
  try {
    return load_archive(path);
  } catch (const c10::Error& e) {
    throw LoadError(path + ": cannot be read as torch.save output (" + e.what_without_backtrace() + ")");
  } catch (const LoadError&) {
    throw;
  } catch (const std::exception& e) {
    throw LoadError(path + ": cannot be read as torch.save output (" + e.what() + ")");
  }
}

}  // namespace

// What Python's torch.save wrote: a list of tensors in signature order, or a dict by input name.
std::vector<InputSpec> as_given(std::vector<InputSpec> specs) {
  for (auto& s : specs)
    if (s.shard_of) s.meta.shape = *s.shard_of;
  return specs;
}

namespace {

const std::string* symbol_at(const InputSpec& spec, size_t d) {
  for (const auto& [dim, symbol] : spec.dynamic_dims)
    if (dim == static_cast<int64_t>(d)) return &symbol;
  return nullptr;
}

}  // namespace

bool has_shape(const at::Tensor& t, const InputSpec& spec) {
  const Shape& want = spec.meta.shape;
  if (t.dim() != static_cast<int64_t>(want.size())) return false;
  for (size_t d = 0; d < want.size(); ++d)
    if (t.size(static_cast<int64_t>(d)) != want[d] && !symbol_at(spec, d)) return false;
  return true;
}

std::string InputSpec::type_string() const {
  if (dynamic_dims.empty()) return meta.type_string();
  std::string out = thundercc::str(meta.device.str(), " ", meta.dtype.short_name(), "[");
  for (size_t d = 0; d < meta.shape.size(); ++d) {
    const std::string* symbol = symbol_at(*this, d);
    out += thundercc::str(d ? ", " : "", symbol ? *symbol : std::to_string(meta.shape[d]));
  }
  return out + "]";
}

void check_tensors(std::vector<at::Tensor>& tensors, const std::vector<InputSpec>& specs, const std::function<std::string(size_t)>& what) {
  for (size_t k = 0; k < specs.size(); ++k) {
    const TensorMeta& want = specs[k].meta;
    if (!tensors[k].defined() || !has_shape(tensors[k], specs[k]) || tensors[k].scalar_type() != to_aten(want.dtype))
      throw LoadError(thundercc::str(what(k), " is not ", specs[k].type_string(),
                                     tensors[k].defined() ? thundercc::str(" (it is ", tensors[k].scalar_type(), tensors[k].sizes(), ")") : ""));
    if (!want.device.is_cpu()) tensors[k] = tensors[k].to(to_aten(want.device));
  }
}

std::vector<at::Tensor> read_tensor_file(const std::string& path, const std::vector<InputSpec>& specs) {
  c10::IValue value = unpickle(path);
  std::vector<at::Tensor> out;
  if (value.isTensorList() || value.isList() || value.isTuple()) {
    auto items = value.isTuple() ? value.toTupleRef().elements().vec() : value.toListRef().vec();
    for (const auto& x : items) out.push_back(checked_tensor(x, path, out.size()));
    return out;
  }
  if (value.isGenericDict()) {
    auto dict = value.toGenericDict();
    for (const auto& spec : specs) {
      auto it = dict.find(spec.name);
      if (it == dict.end()) {
        std::string held;
        for (const auto& item : dict)
          if (item.key().isString()) held += (held.empty() ? "'" : ", '") + item.key().toStringRef() + "'";
        throw LoadError(path + ": no input named '" + spec.name + "'" +
                        (spec.fqn.empty() ? "" : " (the module's '" + spec.fqn[0] + "': give the module's weights with --weights FILE, "
                                                 "what torch.save(model.state_dict()) wrote)") +
                        "; the file holds " + (held.empty() ? "no names" : held));
      }
      out.push_back(checked_tensor(it->value(), path, out.size()));
    }
    return out;
  }
  throw LoadError(path + ": expected a list of tensors or a dict of them by input name");
}

std::vector<std::pair<std::string, at::Tensor>> read_state_dict(const std::string& path) {
  c10::IValue value = unpickle(path);
  if (!value.isGenericDict()) throw LoadError(path + ": expected a state_dict (torch.save(module.state_dict())): a dict of tensors by key");
  std::vector<std::pair<std::string, at::Tensor>> out;
  for (const auto& item : value.toGenericDict()) {
    if (!item.key().isString()) throw LoadError(path + ": a state_dict's keys are strings");
    if (item.value().isGenericDict())
      throw LoadError(path + ": '" + item.key().toStringRef() + "' holds a dict, not a tensor: a training checkpoint? Save the module's "
                      "state_dict itself (torch.save(checkpoint['" + item.key().toStringRef() + "'], FILE))");
    out.emplace_back(item.key().toStringRef(), checked_tensor(item.value(), path, out.size()));
  }
  return out;
}

std::vector<at::Tensor> read_optional_tensor_file(const std::string& path) {
  c10::IValue value = unpickle(path);
  if (!value.isTuple() && !value.isList()) throw LoadError(path + ": expected a tuple of tensors and Nones");
  std::vector<at::Tensor> out;
  for (const auto& x : value.isTuple() ? value.toTupleRef().elements().vec() : value.toListRef().vec())
    out.push_back(x.isNone() ? at::Tensor() : checked_tensor(x, path, out.size()));
  return out;
}

at::Tensor as_stored(const at::Tensor& t) { return t.cpu().resolve_conj().resolve_neg(); }

void write_tensor_file(const std::string& path, const std::vector<at::Tensor>& tensors) {
  std::vector<c10::IValue> items;
  for (const auto& t : tensors) items.push_back(t.defined() ? c10::IValue(as_stored(t)) : c10::IValue());
  write_pickled(path, c10::ivalue::Tuple::create(std::move(items)));
}

void write_pickled(const std::string& path, const c10::IValue& value) {
  auto bytes = torch::jit::pickle_save(value);
  write_file_atomically(path, std::string(bytes.begin(), bytes.end()));
}

c10::IValue read_pickled(const std::string& path) { return unpickle(path); }

std::pair<double, double> default_tolerances(at::ScalarType t) {
  switch (t) {
    case at::kHalf: return {1e-3, 1e-5};
    case at::kBFloat16: return {1.6e-2, 1e-5};
    case at::kFloat: case at::kComplexFloat: return {1.3e-6, 1e-5};
    case at::kDouble: case at::kComplexDouble: return {1e-7, 1e-7};
    default: return {0, 0};
  }
}

Comparison compare_outputs(const std::vector<at::Tensor>& actual, const std::vector<at::Tensor>& expected,
                           std::optional<double> rtol, std::optional<double> atol, const std::vector<at::Tensor>& reference,
                           std::string_view noun) {
  Comparison result;
  std::vector<std::string>& problems = result.problems;
  if (actual.size() != expected.size()) {
    problems.push_back(thundercc::str("expected ", expected.size(), " ", noun, "s, got ", actual.size()));
    return result;
  }
  if (!reference.empty() && reference.size() != expected.size()) {
    problems.push_back(thundercc::str("the float64 reference holds ", reference.size(), " values, the expected ones ", expected.size(),
                                      ": they are not of one capture (capture again, or move the float64 reference away)"));
    return result;
  }
  for (size_t i = 0; i < actual.size(); ++i) {
    const at::Tensor& a = actual[i];
    const at::Tensor& e = expected[i];
    if (!e.defined() || !a.defined()) {
      const at::Tensor& present = e.defined() ? e : a;
      if (present.defined() && present.count_nonzero().item<int64_t>() != 0)
        problems.push_back(thundercc::str(noun, " ", i, ": expected ", e.defined() ? "a tensor" : "None", ", got ", a.defined() ? "a nonzero tensor" : "None"));
      continue;
    }
    if (a.sizes() != e.sizes() || a.scalar_type() != e.scalar_type()) {
      problems.push_back(thundercc::str(noun, " ", i, ": expected ", c10::toString(e.scalar_type()), e.sizes(), ", got ",
                             c10::toString(a.scalar_type()), a.sizes()));
      continue;
    }
    auto [r, t] = default_tolerances(a.scalar_type());
    double rt = rtol.value_or(r), at_ = atol.value_or(t);
    at::Tensor ac = a.to(at::kCPU), ec = e.to(at::kCPU);
    if (!a.is_floating_point() && !a.is_complex()) {
      auto mismatched = (ac != ec).sum().item<int64_t>();
      if (mismatched) problems.push_back(thundercc::str(noun, " ", i, ": ", mismatched, " of ", a.numel(), " elements differ"));
      continue;
    }
    // A complex tensor compares as its real and imaginary parts (flat indices count both).
    auto as_real = [](const at::Tensor& t) { return t.is_complex() ? at::view_as_real(t.resolve_conj()) : t; };
    at::Tensor ad = as_real(ac).to(at::kDouble), ed = as_real(ec).to(at::kDouble);
    at::Tensor diff = (ad - ed).abs();
    at::Tensor allowed = at_ + rt * ed.abs();
    // An infinity matches only itself (within any tolerance of one, every number would).
    at::Tensor bad = ((diff > allowed) & ~(at::isnan(ad) & at::isnan(ed))) | (at::isnan(ad) != at::isnan(ed)) |
                     ((at::isinf(ad) | at::isinf(ed)) & (ad != ed));
    auto n_bad = bad.sum().item<int64_t>();
    const bool has_reference = i < reference.size() && reference[i].defined() && reference[i].sizes() == a.sizes() &&
                               (reference[i].scalar_type() == at::kDouble || reference[i].scalar_type() == at::kComplexDouble);
    const char* elements = a.is_complex() ? " values (real and imaginary parts)" : " elements";
    std::string distances;  // with a reference: how far each is from it, as a whole
    if (n_bad && has_reference) {
      // Thunder's assert_closer: an element no further from float64 than eager's, give or take the
      // tolerance, is right where eager is off. Eager's distance counts only where it is finite,
      // so a NaN in eager does not admit any number.
      at::Tensor rd = as_real(reference[i].to(at::kCPU));
      at::Tensor from_reference = (ad - rd).abs(), eager_from_reference = (ed - rd).abs();
      at::Tensor eager_finite = at::isfinite(eager_from_reference);
      at::Tensor closer = (at::isfinite(rd) & (from_reference <= eager_from_reference.masked_fill(~eager_finite, 0.0) + at_ + rt * rd.abs())) |
                          (at::isnan(ad) & at::isnan(rd)) | (ad == rd);
      const auto n_closer = (bad & closer).sum().item<int64_t>();
      bad = bad & ~closer;
      n_bad -= n_closer;
      // Across a deep network the roundings of eager and of another order of operations each land
      // on either side of float64, element by element: the output as a whole is judged by how far
      // it is from float64, by its largest and its root-mean-square distance, against eager's. Two
      // orders of rounding are equally good when their distances are within a tenth of each other
      // (an ill-conditioned phase vocoder: 0.01491 against eager's 0.01485), where a wrong result
      // is further by orders of magnitude.
      constexpr double kAsClose = 1.1;
      at::Tensor both = at::isfinite(rd) & eager_finite;
      at::Tensor ours = from_reference.masked_select(both), eagers = eager_from_reference.masked_select(both);
      // Distances judge only finite numbers: an element beyond tolerance where any of the three is
      // NaN or infinite is never forgiven by the output's distances as a whole.
      const bool finite_where_reference_is = !(at::isfinite(rd) & ~at::isfinite(ad)).any().item<bool>() &&
                                             !(bad & ~(both & at::isfinite(ad))).any().item<bool>();
      const double largest = ours.numel() ? ours.max().item<double>() : 0, eager_largest = ours.numel() ? eagers.max().item<double>() : 0;
      const double rms = ours.numel() ? ours.square().mean().sqrt().item<double>() : 0;
      const double eager_rms = ours.numel() ? eagers.square().mean().sqrt().item<double>() : 0;
      const double reference_rms = ours.numel() ? rd.masked_select(both).square().mean().sqrt().item<double>() : 0;
      distances = thundercc::str("; from the float64 reference, its largest distance is ", largest, " (the expected's: ", eager_largest,
                                 "), its root mean square ", rms, " (the expected's: ", eager_rms, "); the rule for a match: both within ", kAsClose,
                                 " times the expected's, give or take atol + rtol times the reference's root mean square (",
                                 at_ + rt * reference_rms, "), and every number finite");
      std::string judged;  // why the elements beyond tolerance match
      if (n_closer && !n_bad)
        judged = "each no further from the float64 reference than the expected";
      else if (n_bad && finite_where_reference_is && largest <= kAsClose * eager_largest + at_ + rt * reference_rms &&
               rms <= kAsClose * eager_rms + at_ + rt * reference_rms)
        judged = thundercc::str("the ", noun, " as a whole within ", kAsClose, " times the expected's distance from the float64 reference, give or take ",
                                at_ + rt * reference_rms, " (atol + rtol times the reference's root mean square)");
      if (!judged.empty()) {
        result.notes.push_back(thundercc::str(noun, " ", i, ": ", n_closer + n_bad, " of ", ad.numel(), elements, " differ from the expected beyond rtol=",
                                              rt, " atol=", at_, ", ", judged, distances));
        n_bad = 0;
      }
    }
    if (n_bad) {
      // The element furthest past its own tolerance (a NaN where a number was expected first), not
      // the greatest difference, which a large value may have within its tolerance.
      at::Tensor excess = (diff / allowed).masked_fill(diff.isnan(), INFINITY).masked_fill(~bad, -1.0).reshape({-1});
      auto where = excess.argmax().item<int64_t>();
      const double got = ad.reshape({-1})[where].item<double>(), wanted = ed.reshape({-1})[where].item<double>();
      const std::string why = std::isfinite(got) && std::isfinite(wanted)
                                  ? thundercc::str("a difference of ", diff.reshape({-1})[where].item<double>(), ", ",
                                                   allowed.reshape({-1})[where].item<double>(), " allowed")
                                  : "a NaN or an infinity matches only itself";
      problems.push_back(thundercc::str(noun, " ", i, ": ", n_bad, " of ", ad.numel(), elements, " differ beyond rtol=", rt, " atol=", at_,
                                        "; the furthest, at flat index ", where, ": got ", got, ", expected ", wanted, " (", why, ")",
                                        distances));
    }
  }
  return result;
}

}  // namespace thundercc::runtime
