#include "thundercc/ir/value.h"

#include <charconv>

#include "thundercc/errors.h"
#include "thundercc/ir/trace.h"

namespace thundercc {

std::string shape_repr(const Shape& s) {
  std::string out = "(";
  for (size_t i = 0; i < s.size(); ++i) out += (i ? ", " : "") + std::to_string(s[i]);
  return out + (s.size() == 1 ? ",)" : ")");
}

int64_t numel(const Shape& s) {
  int64_t n = 1;
  for (auto d : s)
    if (__builtin_mul_overflow(n, d, &n)) throw ThunderError("RuntimeError", str("the shape ", shape_repr(s), " has more than 2^63 - 1 elements"));
  return n;
}

// Every tensor proxy has a shape whose sizes are non-negative and whose element count and byte
// size fit in 64 bits, so arithmetic on them downstream (the runtime's too) cannot overflow.
void check_shape(const Shape& s, DType dtype) {
  for (auto d : s) check(d >= 0, [&] { return str("the shape ", shape_repr(s), " has a negative size"); });
  int64_t bytes;
  check(!__builtin_mul_overflow(numel(s), static_cast<int64_t>(dtype.bytes()), &bytes),
        [&] { return str("a tensor of shape ", shape_repr(s), " would be larger than 2^63 - 1 bytes"); });
}

std::string TensorMeta::type_string() const {
  std::string out;
  append_type_string(out);
  return out;
}

void TensorMeta::append_type_string(std::string& out) const {
  // Printed for every proxy of every statement: appended in place.
  out += device.str();
  out += ' ';
  out += dtype.short_name();
  out += '[';
  char digits[24];
  for (size_t i = 0; i < shape.size(); ++i) {
    if (i) out += ", ";
    out.append(digits, std::to_chars(digits, digits + sizeof digits, shape[i]).ptr);
  }
  out += ']';
}

Tensor Tensor::make(Shape shape, DType dtype, Device device, bool requires_grad) {
  check_shape(shape, dtype);
  auto name = tracing::active_trace().names->make("t");
  // requires_grad is meaningful only for inexact dtypes.
  bool rg = (requires_grad || tracing::outputs_require_grad()) && dtype.is_inexact();
  return Tensor(std::make_shared<const TensorProxyNode>(
      TensorProxyNode{std::move(name), TensorMeta{std::move(shape), dtype, device, rg}}));
}

int64_t Tensor::size(int64_t dim) const {
  int64_t r = ndim();
  int64_t d = dim < 0 ? dim + r : dim;
  check(d >= 0 && d < r,
        [&] { return str("Dimension out of range (expected to be in range of [", -r, ", ", r - 1, "], but got ", dim, ")"); },
        "IndexError");
  return shape()[d];
}

const char* number_kind_name(NumberKind k) {
  switch (k) {
    case NumberKind::Bool: return "bool";
    case NumberKind::Int: return "int";
    case NumberKind::Float: return "float";
    case NumberKind::Complex: return "complex";
  }
  return "int";
}

NumberProxy make_number_proxy(NumberKind kind, std::optional<Value> value) {
  static constexpr const char* prefixes[] = {"b", "i", "f", "c"};
  auto name = tracing::active_trace().names->make(prefixes[static_cast<int>(kind)]);
  return std::make_shared<const NumberProxyNode>(NumberProxyNode{std::move(name), kind, std::move(value)});
}

Value Value::ints(const std::vector<int64_t>& xs, bool as_list) {
  Values items(xs.begin(), xs.end());
  return as_list ? list(std::move(items)) : tuple(std::move(items));
}

bool Value::is_number() const {
  switch (kind()) {
    case Kind::Bool: case Kind::Int: case Kind::Float: case Kind::Complex: case Kind::Number: return true;
    default: return false;
  }
}

bool Value::is_int_like() const {
  if (kind() == Kind::Int) return true;
  if (kind() == Kind::Number) {
    const auto& n = as_number_proxy();
    return n->kind == NumberKind::Int && n->value.has_value();
  }
  return false;
}

namespace {
[[noreturn]] void wrong_kind(const char* wanted) {
  throw ThunderError("TypeError", str("expected ", wanted));
}
}  // namespace

bool Value::as_bool() const {
  if (kind() == Kind::Bool) return std::get<bool>(v_);
  if (kind() == Kind::Number && as_number_proxy()->value) return as_number_proxy()->value->as_bool();
  wrong_kind("a bool");
}

int64_t Value::as_int() const {
  if (kind() == Kind::Int) return std::get<int64_t>(v_);
  if (kind() == Kind::Bool) return std::get<bool>(v_) ? 1 : 0;
  if (kind() == Kind::Number && as_number_proxy()->value) return as_number_proxy()->value->as_int();
  wrong_kind("an int");
}

double Value::as_float() const {
  switch (kind()) {
    case Kind::Float: return std::get<double>(v_);
    case Kind::Int: return static_cast<double>(std::get<int64_t>(v_));
    case Kind::Bool: return std::get<bool>(v_) ? 1.0 : 0.0;
    case Kind::Number:
      if (as_number_proxy()->value) return as_number_proxy()->value->as_float();
      break;
    default: break;
  }
  wrong_kind("a real number");
}

std::complex<double> Value::as_complex() const {
  if (kind() == Kind::Complex) return std::get<std::complex<double>>(v_);
  if (kind() == Kind::Number && as_number_proxy()->value) return as_number_proxy()->value->as_complex();
  return {as_float(), 0.0};
}

const std::string& Value::as_string() const {
  if (kind() != Kind::String) wrong_kind("a str");
  return std::get<std::string>(v_);
}

const Values& Value::items() const {
  if (kind() == Kind::Tuple) return *std::get<TupleValue>(v_).items;
  if (kind() == Kind::List) return *std::get<ListValue>(v_).items;
  wrong_kind("a tuple or list");
}

const DictItems& Value::dict_items() const {
  if (kind() != Kind::Dict) wrong_kind("a dict");
  return *std::get<DictValue>(v_).items;
}

std::vector<int64_t> Value::as_ints() const {
  if (is_int_like()) return {as_int()};
  std::vector<int64_t> out;
  for (const auto& x : items()) {
    if (!x.is_int_like()) wrong_kind("a sequence of ints");
    out.push_back(x.as_int());
  }
  return out;
}

const thundercc::Slice& Value::as_slice() const {
  if (kind() != Kind::Slice) wrong_kind("a slice");
  return std::get<thundercc::Slice>(v_);
}

DType Value::as_dtype() const {
  if (kind() == Kind::DType) return std::get<DType>(v_);
  if (kind() == Kind::TorchDType) return std::get<thundercc::TorchDType>(v_).dtype;
  wrong_kind("a dtype");
}

const thundercc::Device& Value::as_device() const {
  if (kind() != Kind::Device) wrong_kind("a device");
  return std::get<thundercc::Device>(v_);
}

Device Value::as_any_device() const {
  if (kind() == Kind::Device) return std::get<thundercc::Device>(v_);
  if (kind() == Kind::TorchDevice) return std::get<thundercc::TorchDevice>(v_).device;
  if (kind() == Kind::String) {
    if (auto d = Device::parse(as_string())) return *d;
    throw ThunderError("ValueError", str("Invalid device string '", as_string(), "'"));
  }
  wrong_kind("a device");
}

const thundercc::Tensor& Value::as_tensor() const {
  if (kind() != Kind::Tensor) wrong_kind("a tensor");
  return std::get<thundercc::Tensor>(v_);
}

const NumberProxy& Value::as_number_proxy() const {
  if (kind() != Kind::Number) wrong_kind("a number proxy");
  return std::get<NumberProxy>(v_);
}

NumberKind Value::number_kind() const {
  switch (kind()) {
    case Kind::Bool: return NumberKind::Bool;
    case Kind::Int: return NumberKind::Int;
    case Kind::Float: return NumberKind::Float;
    case Kind::Complex: return NumberKind::Complex;
    case Kind::Number: return as_number_proxy()->kind;
    default: wrong_kind("a number");
  }
}

bool TupleValue::operator==(const TupleValue& o) const { return *items == *o.items; }
bool ListValue::operator==(const ListValue& o) const { return *items == *o.items; }
bool DictValue::operator==(const DictValue& o) const { return *items == *o.items; }

bool Value::operator==(const Value& o) const {
  if (kind() == Kind::DType && o.kind() == Kind::DType) return as_dtype().same_with_weakness(o.as_dtype());
  return v_ == o.v_;
}

std::vector<Tensor> tensors_in(const Value& v) {
  std::vector<Tensor> out;
  v.for_each_tensor([&](const Tensor& t) { out.push_back(t); });
  return out;
}

Value indexing_key(const Value& key) {
  if (key.kind() != Value::Kind::List || key.items().size() >= 32) return key;
  for (const Value& k : key.items())
    if (k.is_sequence() || k.is_tensor() || k.kind() == Value::Kind::Slice || k.kind() == Value::Kind::Ellipsis || k.is_none())
      return Value::tuple(key.items());
  return key;
}

}  // namespace thundercc
