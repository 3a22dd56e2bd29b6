// The values a trace manipulates: tensor proxies, number proxies, and the Python constants that
// appear as arguments (None, bool, int, float, complex, str, tuple, list, slice, Ellipsis,
// thunder and torch dtypes and devices). Python kinds stay apart (int vs float, tuple vs list)
// because they print differently and bind differently.
#pragma once

#include <complex>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "thundercc/ir/device.h"
#include "thundercc/ir/dtype.h"

namespace thundercc {

using Shape = std::vector<int64_t>;
std::string shape_repr(const Shape& s);  // Python tuple repr: (2, 2), (2,), ()
int64_t numel(const Shape& s);  // throws when the count overflows int64
// Throws RuntimeError for a negative size, or more elements or bytes than 64 bits count.
void check_shape(const Shape& s, DType dtype);

struct TensorMeta {
  Shape shape;
  DType dtype;
  Device device;
  bool requires_grad = false;
  bool operator==(const TensorMeta& o) const {
    return shape == o.shape && dtype == o.dtype && device == o.device && requires_grad == o.requires_grad;
  }
  std::string type_string() const;  // cpu f32[2, 2]
  void append_type_string(std::string& out) const;
  // Elements times element size: fits in 64 bits for every proxy and decoded meta (check_shape).
  int64_t bytes() const { return numel(shape) * dtype.bytes(); }
};

struct TensorProxyNode {
  std::string name;
  TensorMeta meta;
};

// A handle to a tensor proxy. Identity is the node: two handles are the same value when they
// point at the same node. Arithmetic operators on it are declared by the torch language.
class Tensor {
 public:
  Tensor() = default;
  explicit Tensor(std::shared_ptr<const TensorProxyNode> node) : node_(std::move(node)) {}
  // A new proxy named by the active trace.
  static Tensor make(Shape shape, DType dtype, Device device, bool requires_grad = false);
  static Tensor like(const Tensor& a) { return make(a.shape(), a.dtype(), a.device(), a.requires_grad()); }

  const std::string& name() const { return node_->name; }
  const TensorMeta& meta() const { return node_->meta; }
  const Shape& shape() const { return node_->meta.shape; }
  int64_t ndim() const { return static_cast<int64_t>(node_->meta.shape.size()); }
  int64_t size(int64_t dim) const;  // dim may be negative
  int64_t numel() const { return thundercc::numel(shape()); }
  DType dtype() const { return node_->meta.dtype; }
  const Device& device() const { return node_->meta.device; }
  bool requires_grad() const { return node_->meta.requires_grad; }
  const TensorProxyNode* node() const { return node_.get(); }
  bool same(const Tensor& o) const { return node_ == o.node_; }
  bool operator==(const Tensor& o) const { return same(o); }
  explicit operator bool() const { return node_ != nullptr; }

 private:
  std::shared_ptr<const TensorProxyNode> node_;
};

enum class NumberKind : uint8_t { Bool, Int, Float, Complex };
const char* number_kind_name(NumberKind k);  // "bool", "int", "float", "complex"

struct NumberProxyNode;
using NumberProxy = std::shared_ptr<const NumberProxyNode>;

struct None {
  bool operator==(const None&) const = default;
};
struct EllipsisValue {
  bool operator==(const EllipsisValue&) const = default;
};
struct Slice {
  std::optional<int64_t> start, stop, step;
  bool operator==(const Slice&) const = default;
};
struct TorchDType {
  DType dtype;
  bool operator==(const TorchDType& o) const { return dtype == o.dtype; }
};
struct TorchDevice {
  Device device;
  bool operator==(const TorchDevice&) const = default;
};

class Value;
using Values = std::vector<Value>;
struct TupleValue {
  std::shared_ptr<const Values> items;
  bool operator==(const TupleValue& o) const;
};
struct ListValue {
  std::shared_ptr<const Values> items;
  bool operator==(const ListValue& o) const;
};
using DictItems = std::vector<std::pair<std::string, Value>>;
// A dict with string keys, in insertion order (what programs return as named outputs).
struct DictValue {
  std::shared_ptr<const DictItems> items;
  bool operator==(const DictValue& o) const;
};

class Value {
 public:
  enum class Kind : uint8_t {
    None, Bool, Int, Float, Complex, String, Tuple, List, Slice, Ellipsis,
    DType, TorchDType, Device, TorchDevice, Tensor, Number, Dict,
  };

  Value() : v_(thundercc::None{}) {}
  Value(thundercc::None) : v_(thundercc::None{}) {}
  Value(bool b) : v_(b) {}
  Value(int i) : v_(int64_t{i}) {}
  Value(int64_t i) : v_(i) {}
  Value(double d) : v_(d) {}
  Value(std::complex<double> c) : v_(c) {}
  Value(std::string s) : v_(std::move(s)) {}
  Value(const char* s) : v_(std::string(s)) {}
  Value(thundercc::Slice s) : v_(s) {}
  Value(EllipsisValue e) : v_(e) {}
  Value(DType d) : v_(d) {}
  Value(thundercc::TorchDType d) : v_(d) {}
  Value(thundercc::Device d) : v_(d) {}
  Value(thundercc::TorchDevice d) : v_(d) {}
  Value(thundercc::Tensor t) : v_(std::move(t)) {}
  Value(NumberProxy n) : v_(std::move(n)) {}
  Value(TupleValue t) : v_(std::move(t)) {}
  Value(ListValue l) : v_(std::move(l)) {}
  Value(DictValue d) : v_(std::move(d)) {}

  static Value tuple(Values items) { return TupleValue{std::make_shared<const Values>(std::move(items))}; }
  static Value list(Values items) { return ListValue{std::make_shared<const Values>(std::move(items))}; }
  static Value dict(DictItems items) { return DictValue{std::make_shared<const DictItems>(std::move(items))}; }
  static Value ints(const std::vector<int64_t>& xs, bool as_list = false);

  Kind kind() const { return static_cast<Kind>(v_.index()); }
  bool is_none() const { return kind() == Kind::None; }
  bool is_tensor() const { return kind() == Kind::Tensor; }
  bool is_number_proxy() const { return kind() == Kind::Number; }
  bool is_sequence() const { return kind() == Kind::Tuple || kind() == Kind::List; }
  // A Python number (bool, int, float, complex) or a number proxy.
  bool is_number() const;
  bool is_int_like() const;  // int (not bool), or an int number proxy with a value

  bool as_bool() const;
  int64_t as_int() const;  // int, or an int number proxy with a known value
  double as_float() const; // any real number
  std::complex<double> as_complex() const;
  const std::string& as_string() const;
  const Values& items() const;  // tuple or list
  const DictItems& dict_items() const;
  std::vector<int64_t> as_ints() const;  // a sequence of ints, or a single int
  const thundercc::Slice& as_slice() const;
  DType as_dtype() const;  // thunder or torch dtype
  const thundercc::Device& as_device() const;  // thunder device
  Device as_any_device() const;  // thunder or torch device, or a device string
  const thundercc::Tensor& as_tensor() const;
  const NumberProxy& as_number_proxy() const;
  // The Python kind of a number value or number proxy.
  NumberKind number_kind() const;

  // Structural equality: proxies compare by identity, constants by value and kind.
  bool operator==(const Value& o) const;

  template <class F>
  void for_each_tensor(F&& f) const {
    if (is_tensor()) f(as_tensor());
    else if (is_sequence()) for (const auto& x : items()) x.for_each_tensor(f);
    else if (kind() == Kind::Dict) for (const auto& [k, x] : dict_items()) x.for_each_tensor(f);
  }

 private:
  std::variant<thundercc::None, bool, int64_t, double, std::complex<double>, std::string, TupleValue, ListValue,
               thundercc::Slice, EllipsisValue, DType, thundercc::TorchDType, thundercc::Device,
               thundercc::TorchDevice, thundercc::Tensor, NumberProxy, DictValue>
      v_;
};

struct NumberProxyNode {
  std::string name;
  NumberKind kind;
  std::optional<Value> value;  // known at trace time (a constant input)
};

NumberProxy make_number_proxy(NumberKind kind, std::optional<Value> value);

// Every tensor proxy in a value, in order.
std::vector<Tensor> tensors_in(const Value& v);

// An indexing key as PyTorch reads it (NumPy's former rule): a list of fewer than 32 items that
// holds a sequence, a slice, a tensor, Ellipsis or None is the tuple of its items
// (x[[[0, 2], [1, 3]]] is x[[0, 2], [1, 3]], x[[slice(None), 0]] is x[:, 0]); any other key is itself.
Value indexing_key(const Value& key);

}  // namespace thundercc
