// The check a tensor file's data.pkl passes before LibTorch's unpickler sees it.
//
// LibTorch 1.13's unpickler trusts its input: it allocates what a length field says before the
// bytes are there, reserves memo for twice the largest memo index, and on a misplaced opcode
// (BUILD below a tensor, found by the pt_reader fuzzer) frees memory it never allocated. So the
// pickle is first run on a model of the pickle machine that knows only what torch.save writes for
// tensors in a tuple, list or dict: the opcodes of protocol 2 it uses, the globals it names (the
// tensor and parameter rebuilders, the storage classes, OrderedDict, and LibTorch's type tags of
// the dicts and lists of a training checkpoint), and the kinds of values
// each opcode takes from the stack. Anything else is refused with its offset.
#include "runtime/pickle_check.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "thundercc/errors.h"
#include "thundercc/ir/pyliteral.h"

namespace thundercc::runtime {
namespace {

enum class Kind { Mark, Global, Str, Int, Float, Bool, None, Tuple, List, Dict, Storage, Tensor };

struct Item {
  Kind kind;
  std::string global;        // for Global: "module name"
  std::vector<Kind> fields;  // for Tuple: its elements' kinds
  size_t start = 0;          // the offset of the opcode that began it (a global's, for a REDUCE's result)
  std::vector<size_t> field_starts;  // for Tuple: where each element began
  std::string text;                  // for Str: its first bytes (for messages)
  std::vector<std::string> field_texts;  // for Tuple: its elements' texts
};

// A part of the pickle LibTorch 1.13's unpickler cannot read, and what it reads instead.
struct Rewrite {
  size_t begin, end;
  std::string with;
};

const std::set<std::string>& allowed_globals() {
  static const std::set<std::string> globals = [] {
    std::set<std::string> g{"torch._utils _rebuild_tensor_v2", "torch._utils _rebuild_parameter", "collections OrderedDict",
                            "torch.jit._pickle restore_type_tag"};
    for (const char* s : {"Float", "Double", "Half", "BFloat16", "Long", "Int", "Short", "Char", "Byte", "Bool", "ComplexFloat",
                          "ComplexDouble"})
      g.insert(std::string("torch ") + s + "Storage");
    return g;
  }();
  return globals;
}

class PickleMachine {
 public:
  PickleMachine(const std::string& path, const char* data, size_t size) : path_(path), data_(data), size_(size) {}

  // Checks the pickle; returns it as LibTorch's unpickler must be given it.
  std::string run() {
    while (pos_ < size_) {
      at_ = pos_;
      const auto op = static_cast<unsigned char>(data_[pos_++]);
      if (op == '.') {
        if (stack_.size() != 1 || stack_[0].kind == Kind::Mark) fail("STOP with a stack of " + std::to_string(stack_.size()) + " values");
        check_memo_kept();
        return rewritten();
      }
      step(op);
    }
    fail("the pickle ends without STOP");
  }

 private:
  const std::string& path_;
  const char* data_;
  size_t size_, pos_ = 0, at_ = 0;
  std::vector<Item> stack_;
  std::unordered_map<uint64_t, Item> memo_;
  std::unordered_map<uint64_t, size_t> put_at_;       // each memo index's last PUT
  struct Get {
    size_t at;
    uint64_t index;
    size_t put_at;  // of the PUT it reads
  };
  std::vector<Get> gets_;
  std::vector<Rewrite> rewrites_;  // none inside another

  std::string rewritten() const {
    std::vector<Rewrite> in_order = rewrites_;
    std::stable_sort(in_order.begin(), in_order.end(), [](const Rewrite& a, const Rewrite& b) { return a.begin < b.begin; });
    std::string out;
    size_t from = 0;
    for (const auto& r : in_order) {
      out.append(data_ + from, r.begin - from);
      out += r.with;
      from = r.end;
    }
    return out.append(data_ + from, size_ - from);
  }

  // A tensor torch.save does write, of a kind thundercc does not read: named by its key where the
  // pickle is a dict's (the key is the string just below the tensor's rebuilders on the stack).
  [[noreturn]] void refuse(const std::string& what) const {
    size_t k = stack_.size();
    while (k > 0 && (stack_[k - 1].kind == Kind::Global || stack_[k - 1].kind == Kind::Mark)) --k;
    const std::string key = k > 0 && stack_[k - 1].kind == Kind::Str ? stack_[k - 1].text : "";
    throw LoadError(key.empty() ? thundercc::str(path_, ": the tensor at offset ", at_, " of data.pkl is ", what)
                                : thundercc::str(path_, ": ", string_repr(key), " is ", what));  // escaped: no terminal control from a file
  }
  void push_str(uint64_t length) {
    const size_t start = pos_;
    skip(length);
    push(Kind::Str);
    stack_.back().text.assign(data_ + start, std::min<uint64_t>(length, 200));
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw LoadError(thundercc::str(path_, ": data.pkl: ", what, " at offset ", at_, " (not what torch.save writes for tensors)"));
  }

  uint64_t read(int bytes) {
    if (static_cast<size_t>(bytes) > size_ - pos_) throw LoadError(path_ + ": data.pkl ends inside an opcode's argument");
    uint64_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = v << 8 | static_cast<unsigned char>(data_[pos_ + i]);
    pos_ += bytes;
    return v;
  }
  void skip(uint64_t n) {
    if (n > size_ - pos_)
      throw LoadError(thundercc::str(path_, ": data.pkl: a length of ", n, " bytes at offset ", at_, " runs past the end of the pickle"));
    pos_ += n;
  }
  std::string line() {
    const void* nl = std::memchr(data_ + pos_, '\n', size_ - pos_);
    if (!nl) fail("a line without its end");
    std::string s(data_ + pos_, static_cast<const char*>(nl));
    pos_ = static_cast<const char*>(nl) - data_ + 1;
    return s;
  }

  Item pop(const char* what) {
    if (stack_.empty() || stack_.back().kind == Kind::Mark) fail(std::string(what) + " on an empty stack");
    Item top = std::move(stack_.back());
    stack_.pop_back();
    return top;
  }
  // The values above the topmost mark, which is removed (its offset into `mark_start`, if given).
  std::vector<Item> pop_to_mark(const char* what, size_t* mark_start = nullptr) {
    size_t mark = stack_.size();
    while (mark > 0 && stack_[mark - 1].kind != Kind::Mark) --mark;
    if (mark == 0) fail(std::string(what) + " without a MARK");
    if (mark_start) *mark_start = stack_[mark - 1].start;
    std::vector<Item> items(std::make_move_iterator(stack_.begin() + mark), std::make_move_iterator(stack_.end()));
    stack_.resize(mark - 1);
    return items;
  }
  // The opcode at at_, which took the values from `from` on, as a MARK before them and `batch`.
  void as_batch(size_t from, char batch) {
    rewrites_.push_back({from, from, "("});
    rewrites_.push_back({at_, at_ + 1, std::string(1, batch)});
  }
  Item& top(const char* what) {
    if (stack_.empty() || stack_.back().kind == Kind::Mark) fail(std::string(what) + " on an empty stack");
    return stack_.back();
  }
  void push(Kind k, size_t start) { stack_.push_back({k, {}, {}, start}); }
  void push(Kind k) { push(k, at_); }
  void push_tuple(const std::vector<Item>& items, size_t start) {
    Item t{Kind::Tuple, {}, {}, start};
    for (const auto& i : items) {
      t.fields.push_back(i.kind);
      t.field_starts.push_back(i.start);
      t.field_texts.push_back(i.text);
    }
    stack_.push_back(std::move(t));
  }
  void put(uint64_t index) {
    // Python numbers memo entries from 0, at most one per opcode.
    if (index > size_) fail(thundercc::str("a memo index of ", index, " larger than the pickle"));
    memo_[index] = top("PUT");
    put_at_[index] = at_;
  }
  void get(uint64_t index) {
    auto it = memo_.find(index);
    if (it == memo_.end()) fail(thundercc::str("GET of memo index ", index, ", which was never PUT"));
    stack_.push_back(it->second);
    stack_.back().start = at_;
    gets_.push_back({at_, index, put_at_.at(index)});
  }

  // A REDUCE's result begins where its callable did.
  void reduce() {
    Item args = pop("REDUCE");
    Item callable = pop("REDUCE");
    if (callable.kind == Kind::Global && callable.global == "torch._utils _rebuild_parameter") return rebuild_parameter(callable, args);
    push(reduced(callable, args), callable.start);
  }
  // _rebuild_parameter(tensor, requires_grad, backward_hooks): LibTorch 1.13 knows no parameters,
  // so it is given the tensor alone: the call around it is left out. What the left-out bytes PUT
  // into the memo may only be read by GETs left out too (checked at STOP): the rebuilder itself.
  void rebuild_parameter(const Item& callable, const Item& args) {
    const auto& f = args.fields;
    if (args.kind != Kind::Tuple || f.size() != 3 || f[0] != Kind::Tensor || f[1] != Kind::Bool)
      fail("_rebuild_parameter with arguments of the wrong kinds");
    const size_t tensor = args.field_starts[0], after_tensor = args.field_starts[1];
    rewrites_.erase(std::remove_if(rewrites_.begin(), rewrites_.end(), [&](const Rewrite& r) { return r.begin >= after_tensor; }),
                    rewrites_.end());
    rewrites_.push_back({callable.start, tensor, ""});
    rewrites_.push_back({after_tensor, pos_, ""});
    push(Kind::Tensor, tensor);
  }
  bool left_out(size_t offset) const {
    for (const auto& r : rewrites_)
      if (r.with.empty() && offset >= r.begin && offset < r.end) return true;
    return false;
  }
  // Every GET kept reads a PUT kept.
  void check_memo_kept() {
    for (const auto& g : gets_)
      if (!left_out(g.at) && left_out(g.put_at)) {
        at_ = g.at;
        fail(thundercc::str("a GET of memo index ", g.index, ", PUT inside a parameter's rebuild"));
      }
  }
  Kind reduced(const Item& callable, const Item& args) {
    if (callable.kind != Kind::Global || args.kind != Kind::Tuple) fail("REDUCE of something other than a global and a tuple");
    const auto& f = args.fields;
    if (callable.global == "torch._utils _rebuild_tensor_v2") {
      // (storage, offset, size, stride, requires_grad, backward_hooks[, metadata])
      if (f.size() < 6 || f[0] != Kind::Storage || f[1] != Kind::Int || f[2] != Kind::Tuple || f[3] != Kind::Tuple || f[4] != Kind::Bool)
        fail("_rebuild_tensor_v2 with arguments of the wrong kinds");
      return Kind::Tensor;
    }
    if (callable.global == "torch.jit._pickle restore_type_tag") {
      // LibTorch's own pickler tags its typed dicts and lists (a training checkpoint): the type,
      // which LibTorch's unpickler parses, only among those thundercc writes.
      static const std::set<std::string> types{"Dict[str, Tensor]", "Dict[str, Any]", "Dict[int, Any]", "List[Any]"};
      if (f.size() != 2 || (f[0] != Kind::Dict && f[0] != Kind::List) || f[1] != Kind::Str || !types.count(args.field_texts[1]))
        fail("restore_type_tag of something other than a dict or list and one of thundercc's checkpoint types");
      return f[0];
    }
    if (callable.global == "collections OrderedDict") {
      // A state_dict: LibTorch 1.13 makes None of OrderedDict(), so it is given an empty dict.
      if (!f.empty()) fail("OrderedDict with arguments");
      rewrites_.push_back({callable.start, pos_, "}"});
      return Kind::Dict;
    }
    fail("REDUCE of " + callable.global);
  }

  void step(unsigned char op) {
    switch (op) {
      case 0x80: read(1); return;  // PROTO
      case 'c': {
        std::string module = line(), name = line();
        std::string global = module + " " + name;
        if (global.rfind("torch._utils _rebuild_", 0) == 0 && !allowed_globals().count(global))
          refuse(name == "_rebuild_sparse_tensor" || name == "_rebuild_sparse_csr_tensor"
                     ? "a sparse tensor; thundercc reads dense tensors: save it with .to_dense()"
                     : name == "_rebuild_qtensor" ? "a quantized tensor; thundercc reads dense tensors: save it with .dequantize()"
                                                  : "a tensor torch.save wrote with " + name + "; thundercc reads dense CPU tensors");
        if (!allowed_globals().count(global)) fail("the global " + global);
        stack_.push_back({Kind::Global, global, {}, at_});
        return;
      }
      case 'q': return put(read(1));
      case 'r': return put(read(4));
      case 'h': return get(read(1));
      case 'j': return get(read(4));
      case '(': return push(Kind::Mark);
      case ')': return push_tuple({}, at_);
      case 't': {
        size_t mark = 0;
        std::vector<Item> items = pop_to_mark("TUPLE", &mark);
        return push_tuple(items, mark);
      }
      case 0x85: case 0x86: case 0x87: {
        std::vector<Item> items(op - 0x84);
        for (auto it = items.rbegin(); it != items.rend(); ++it) *it = pop("TUPLE");
        return push_tuple(items, items[0].start);
      }
      case ']': return push(Kind::List);
      // LibTorch 1.13 cannot read APPEND or SETITEM (a one-element list or dict): they are given
      // to it as APPENDS and SETITEMS of one.
      case 'a': {
        Item item = pop("APPEND");
        if (top("APPEND").kind != Kind::List) fail("APPEND to something other than a list");
        return as_batch(item.start, 'e');
      }
      case 'e': pop_to_mark("APPENDS"); if (top("APPENDS").kind != Kind::List) fail("APPENDS to something other than a list"); return;
      case '}': return push(Kind::Dict);
      // A state_dict's OrderedDict carries its `_metadata` attribute (a dict) as BUILD state,
      // which LibTorch cannot apply: the state and the BUILD are left out (with what they rewrote).
      case 'b': {
        Item state = pop("BUILD");
        if (state.kind != Kind::Dict || top("BUILD").kind != Kind::Dict) fail("BUILD of something other than a dict's state");
        rewrites_.erase(std::remove_if(rewrites_.begin(), rewrites_.end(), [&](const Rewrite& r) { return r.begin >= state.start; }),
                        rewrites_.end());
        rewrites_.push_back({state.start, pos_, ""});
        return;
      }
      case 's': {
        pop("SETITEM");
        Item key = pop("SETITEM");
        if (top("SETITEM").kind != Kind::Dict) fail("SETITEM on something other than a dict");
        return as_batch(key.start, 'u');
      }
      case 'u': {
        if (pop_to_mark("SETITEMS").size() % 2) fail("SETITEMS with a key without its value");
        if (top("SETITEMS").kind != Kind::Dict) fail("SETITEMS on something other than a dict");
        return;
      }
      case 'X': return push_str(read(4));
      case 0x8c: return push_str(read(1));
      case 'J': read(4); return push(Kind::Int);
      case 'K': read(1); return push(Kind::Int);
      case 'M': read(2); return push(Kind::Int);
      case 0x8a: {
        uint64_t n = read(1);
        if (n > 8) fail("an integer of more than 8 bytes");
        skip(n);
        return push(Kind::Int);
      }
      case 'G': read(8); return push(Kind::Float);
      case 0x88: case 0x89: return push(Kind::Bool);
      case 'N': return push(Kind::None);
      case 'Q': {
        // ('storage', storage class, key, device, numel)
        Item id = pop("BINPERSID");
        if (id.kind != Kind::Tuple || id.fields.size() != 5 || id.fields[0] != Kind::Str || id.fields[1] != Kind::Global ||
            id.fields[2] != Kind::Str || id.fields[3] != Kind::Str || id.fields[4] != Kind::Int)
          fail("a persistent id that is not a storage");
        if (id.field_texts[3] != "cpu")
          refuse(thundercc::str("a tensor saved on ", id.field_texts[3], "; thundercc reads CPU tensors: save it with .cpu()"));
        return push(Kind::Storage);
      }
      case 'R': return reduce();
      default: fail(thundercc::str("the opcode 0x", "0123456789abcdef"[op >> 4], "0123456789abcdef"[op & 15]));
    }
  }
};

}  // namespace

std::string check_tensor_pickle(const std::string& path, const char* data, size_t size) { return PickleMachine(path, data, size).run(); }

}  // namespace thundercc::runtime
