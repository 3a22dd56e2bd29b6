// plan.json's codec: the only file that spells the plan's keys. Encoding writes the text as it
// goes (JsonWriter, each object's members in key order), not a document to dump: a plan is large
// (96 layers: 1.4 MB) and building its document cost as much as writing it. Decoding checks the
// version, then the schema, then what the schema cannot say (slots in range, tensor metadata,
// arguments that are a slot, slots or a constant), naming the JSON pointer of any problem. A
// backward program's pointers are its own ("/instructions/3"), its `where` says "(backward)".
// Fusion regions are stored once per distinct region in the plan's `regions` table, which
// instructions index: the layers of a deep model make the same few regions hundreds of times, and
// each is a whole trace document.
#include "thundercc/plan/plan_codec.h"

#include <algorithm>
#include <functional>
#include <map>
#include <unordered_map>

#include "thundercc/errors.h"
#include "thundercc/ir/pyliteral.h"
#include "thundercc/ir/rewrite.h"
#include "thundercc/serialize/json_writer.h"
#include "thundercc/serialize/schema.h"
#include "thundercc/serialize/trace_file.h"
#include "thundercc/serialize/value_codec.h"
#include "thundercc/support/files.h"

namespace thundercc::plan {
namespace {

using json = nlohmann::json;

// ---- encoding: written as text as it is made (JsonWriter), members in key order

void write_operand(JsonWriter& out, const Operand& o) {
  switch (o.kind) {
    case Operand::Kind::Slot: out.begin_object().member("slot", o.slot).end_object(); return;
    case Operand::Kind::Constant: out.value(encode_value(o.constant, [](const Value&) { return json(); })); return;
    case Operand::Kind::Tuple:
    case Operand::Kind::List:
      out.begin_object().key(o.kind == Operand::Kind::Tuple ? "tuple" : "list").begin_array();
      for (const auto& x : o.items) write_operand(out, x);
      out.end_array().end_object();
      return;
    case Operand::Kind::Dict:
      out.begin_object().key("dict").begin_array();
      for (size_t k = 0; k < o.items.size(); ++k) {
        out.begin_array().value(o.keys[k]);
        write_operand(out, o.items[k]);
        out.end_array();
      }
      out.end_array().end_object();
      return;
  }
}

void write_metas(JsonWriter& out, const std::vector<TensorMeta>& metas) {
  out.begin_array();
  for (const auto& m : metas) write_tensor_meta(out, m);
  out.end_array();
}

// The plan's distinct fusion regions, as encoded: a region's values are renamed in order of
// appearance and its statements lose their source and scope, so that the same region made by two
// layers is one entry (its name, unique in the plan, stays with the instruction). Regions are
// told apart by their signature, so that each distinct one is encoded once.
class RegionTable {
 public:
  size_t index_of(const Fusion& fusion) {
    check(!fusion.signature.empty(), [&] { return str("plan: fusion region ", fusion.region.name, " has no signature"); });
    auto [at, fresh] = index_.try_emplace(fusion.signature, entries_.size());
    if (fresh) entries_.push_back(encode_trace(canonical(fusion.region)));
    return at->second;
  }
  const std::vector<json>& entries() const { return entries_; }

 private:
  static Trace canonical(const Trace& region) {
    ValueMap canonical;
    size_t next = 0;
    auto rename = [&](const Value& v) {
      if (canonical.contains(v)) return;
      const std::string name = "r" + std::to_string(next++);
      // Proxies made directly: encoding runs outside any trace, whose names these would reserve.
      if (v.is_tensor()) canonical.set(v, Tensor(std::make_shared<const TensorProxyNode>(TensorProxyNode{name, v.as_tensor().meta()})));
      else if (v.is_number_proxy())
        canonical.set(v, Value(std::make_shared<const NumberProxyNode>(NumberProxyNode{name, v.as_number_proxy()->kind, v.as_number_proxy()->value})));
    };
    Trace t;
    t.name = "region";
    for (const auto& in : region.inputs) for_each_proxy(in.value, rename);
    for (const auto& b : region.bound_symbols) for_each_proxy(b.output, rename);
    for (const auto& in : region.inputs) t.inputs.push_back({py_repr(canonical.apply(in.value)), canonical.apply(in.value)});
    for (BoundSymbol b : region.bound_symbols) {
      canonical.apply(b);
      b.source.clear();
      b.scope.clear();
      t.bound_symbols.push_back(std::move(b));
    }
    t.output = canonical.apply(region.output);
    return t;
  }

  std::vector<json> entries_;
  std::unordered_map<std::string, size_t> index_;
};

void write_instruction(JsonWriter& out, const Instruction& ins, RegionTable& regions) {
  out.begin_object().key("args").begin_array();
  for (const auto& a : ins.args) write_operand(out, a);
  out.end_array();
  if (!ins.buffers.empty()) {
    out.key("buffers").begin_array();
    for (const auto& b : ins.buffers) {
      if (!b) {
        out.value(nullptr);
        continue;
      }
      out.begin_object().member("offset", b->offset).key("tensor");
      write_tensor_meta(out, b->tensor);
      out.end_object();
    }
    out.end_array();
  }
  out.member("executor", ins.executor);
  if (!ins.expect.empty()) {
    out.key("expect").begin_array();
    for (const auto& m : ins.expect) m ? write_tensor_meta(out, *m) : void(out.value(nullptr));
    out.end_array();
  }
  out.member("free", ins.free);
  if (ins.fresh) out.member("fresh", true);
  if (const auto& f = ins.fusion) {
    out.key("fusion").begin_object();
    if (f->cuda_function) out.member("cuda_function", *f->cuda_function);
    if (f->function) out.member("function", *f->function);
    if (f->grid) out.member("grid", *f->grid);
    write_metas(out.key("inputs"), f->inputs);
    out.member("name", f->region.name);
    write_metas(out.key("outputs"), f->outputs);
    out.member("region", regions.index_of(*f)).end_object();
  }
  // A kwargs object's members in key order, as every object's.
  std::vector<const std::pair<std::string, Operand>*> kwargs;
  for (const auto& kv : ins.kwargs) kwargs.push_back(&kv);
  std::sort(kwargs.begin(), kwargs.end(), [](const auto* a, const auto* b) { return a->first < b->first; });
  out.key("kwargs").begin_object();
  for (const auto* kv : kwargs) write_operand(out.key(kv->first), kv->second);
  out.end_object();
  out.member("op", ins.op).key("outputs").begin_array();
  for (int s : ins.outputs) s < 0 ? out.value(nullptr) : out.value(s);
  out.end_array();
  if (!ins.source.empty()) out.member("source", ins.source);
  out.member("statement", ins.statement);
  if (ins.stream) out.member("stream", *ins.stream);
  out.end_object();
}

// An object whose members come from more than one place (a program's, and its container's),
// written in key order.
class Members {
 public:
  Members& add(std::string_view key, std::function<void(JsonWriter&)> write) {
    members_.emplace_back(key, std::move(write));
    return *this;
  }
  // A member whose value is written as it is (`value` must outlive write()).
  template <class T>
  Members& add_value(std::string_view key, const T& value) {
    return add(key, [&value](JsonWriter& out) { out.value(value); });
  }
  template <class T>
  Members& add_value(std::string_view key, const T&& value) = delete;  // it would be gone by write()
  void write(JsonWriter& out) {
    std::sort(members_.begin(), members_.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    out.begin_object();
    for (const auto& [key, write] : members_) write(out.key(key));
    out.end_object();
  }

 private:
  std::vector<std::pair<std::string_view, std::function<void(JsonWriter&)>>> members_;
};

// A program's members, among its container's (the plan itself for the forward).
void add_program(Members& members, const Program& p, RegionTable& regions) {
  members.add("inputs", [&p](JsonWriter& out) {
    out.begin_array();
    for (const auto& in : p.inputs) {
      out.begin_object();
      if (!in.fqn.empty()) out.member("fqn", in.fqn);
      out.member("name", in.name);
      if (in.shard_of) out.member("shard_of", *in.shard_of);
      out.member("slot", in.slot).key("tensor");
      write_tensor_meta(out, in.tensor);
      out.end_object();
    }
    out.end_array();
  });
  members.add_value("slots", p.slots).add_value("free_at_start", p.free_at_start);
  members.add("instructions", [&p, &regions](JsonWriter& out) {
    out.begin_array();
    for (const auto& ins : p.instructions) write_instruction(out, ins, regions);
    out.end_array();
  });
  members.add("output", [&p](JsonWriter& out) { write_operand(out, p.output); });
  if (p.arena)
    members.add("arena", [&p](JsonWriter& out) {
      out.begin_object().member("buffer_bytes", p.arena->buffer_bytes).member("buffers", p.arena->buffers);
      out.member("bytes", p.arena->bytes).member("in_place", p.arena->in_place).end_object();
    });
}

// ---- decoding

// A fusion region's prims, as trace.json writes a program: checked against the trace schema and
// traced again through the prims' meta functions, so that the kernel the runner generates from
// it indexes the tensors the instruction reads and writes (region_fits).
Trace decode_region(const json& doc, const std::string& at) {
  check_schema(doc, SchemaKind::Trace, at);
  Trace region = [&] {
    tracing::NoGradScope no_grad;  // a region is recorded without requires_grad (plan_builder.cpp)
    return retrace(decode_trace(doc, at), at);
  }();
  for (const auto& b : region.bound_symbols)
    if (!b.sym->is_prim) throw LoadError(str(at, ": ", b.sym->id, " is not a prim: a fusion region holds prims"));
  return region;
}

// The region as an instruction runs it: the tensors it reads and writes must be the region's.
void check_region_fits(const Trace& region, const Fusion& fusion, const std::string& at) {
  // Compared as kernels index them: shapes, dtypes and devices, not requires_grad.
  auto without_grad = [](std::vector<TensorMeta> metas) {
    for (auto& m : metas) m.requires_grad = false;
    return metas;
  };
  std::vector<TensorMeta> reads, writes;
  for (const auto& in : region.inputs) {
    if (!in.value.is_tensor()) throw LoadError(at + "/inputs: a fusion region reads tensors");
    reads.push_back(in.value.as_tensor().meta());
  }
  bool tensors = true;
  for_each_proxy(region.output, [&](const Value& v) {
    if (v.is_tensor()) writes.push_back(v.as_tensor().meta());
    else tensors = false;
  });
  if (!tensors || !region.output.is_sequence() || without_grad(reads) != without_grad(fusion.inputs) ||
      without_grad(writes) != without_grad(fusion.outputs))
    throw LoadError(at + ": the region's inputs and outputs are not the tensors the instruction gives it");
}

// The plan's `regions`, each decoded at its first use.
class Regions {
 public:
  Regions(const json* table, std::string where) : table_(table), where_(std::move(where)) {}
  const Trace& at(const json& index, const std::string& at) {
    const int64_t i = index.get<int64_t>();
    if (!table_ || i < 0 || i >= static_cast<int64_t>(table_->size()))
      throw LoadError(str(where_, ": ", at, ": region ", i, " is not in the plan's /regions (", table_ ? table_->size() : 0, " regions)"));
    auto [it, fresh] = decoded_.try_emplace(i);
    if (fresh) it->second = decode_region((*table_)[static_cast<size_t>(i)], str(where_, ": /regions/", i));
    return it->second;
  }

 private:
  const json* table_;
  std::string where_;
  std::map<int64_t, Trace> decoded_;
};

class Decoder {
 public:
  Decoder(std::string where, int64_t slots, Regions& regions) : where_(std::move(where)), slots_(slots), regions_(regions) {}

  [[noreturn]] void fail(const std::string& at, const std::string& problem) const { throw LoadError(where_ + ": " + at + ": " + problem); }

  int slot(const json& j, const std::string& at) const {
    int s = j.get<int>();
    if (s < 0 || s >= slots_) fail(at, str("slot ", s, " is out of range (the plan has ", slots_, " slots)"));
    return s;
  }

  TensorMeta meta(const json& j, const std::string& at) const { return decode_tensor_meta(j, at, where_); }

  // An argument: {"slot": n}, a tuple or list of them, or a constant.
  Operand argument(const json& j, const std::string& at) const {
    Operand o;
    if (j.is_object() && j.contains("slot")) {
      o.kind = Operand::Kind::Slot;
      o.slot = slot(j["slot"], at + "/slot");
      return o;
    }
    for (const char* seq : {"tuple", "list"})
      if (j.is_object() && j.contains(seq) && !j[seq].empty() && j[seq][0].is_object() && j[seq][0].contains("slot")) {
        o.kind = std::string_view(seq) == "tuple" ? Operand::Kind::Tuple : Operand::Kind::List;
        for (size_t i = 0; i < j[seq].size(); ++i) {
          std::string item_at = at + "/" + seq + "/" + std::to_string(i);
          if (!j[seq][i].is_object() || !j[seq][i].contains("slot")) fail(item_at, "a tensor slot cannot be mixed with constants in one argument");
          o.items.push_back(argument(j[seq][i], item_at));
        }
        return o;
      }
    o.constant = decode_value(j, at, [&](const json&, const std::string& ref_at) -> Value {
      fail(ref_at, "a tensor slot cannot be mixed with constants in one argument");
    }, where_);
    return o;
  }

  // A program's output: slots in tuples, lists and dicts; None and other constants as they are.
  Operand output(const json& j, const std::string& at) const {
    Operand o;
    if (j.is_object() && j.contains("slot")) {
      o.kind = Operand::Kind::Slot;
      o.slot = slot(j["slot"], at + "/slot");
    } else if (j.is_object() && j.contains("dict")) {
      o.kind = Operand::Kind::Dict;
      for (size_t i = 0; i < j["dict"].size(); ++i) {
        o.keys.push_back(j["dict"][i].at(0).get<std::string>());
        o.items.push_back(output(j["dict"][i].at(1), at + "/dict/" + std::to_string(i) + "/1"));
      }
    } else if (j.is_object() && (j.contains("tuple") || j.contains("list"))) {
      const char* seq = j.contains("tuple") ? "tuple" : "list";
      o.kind = j.contains("tuple") ? Operand::Kind::Tuple : Operand::Kind::List;
      for (size_t i = 0; i < j[seq].size(); ++i) o.items.push_back(output(j[seq][i], at + "/" + seq + "/" + std::to_string(i)));
    } else {
      o.constant = decode_value(j, at, [&](const json&, const std::string& ref_at) -> Value { fail(ref_at, "not a slot"); }, where_);
    }
    return o;
  }

  std::vector<int> slots(const json& j, const std::string& at) const {
    std::vector<int> out;
    for (size_t i = 0; i < j.size(); ++i) out.push_back(slot(j[i], at));
    return out;
  }

  Instruction instruction(const json& j, const std::string& at) const {
    Instruction ins;
    ins.op = j.at("op").get<std::string>();
    ins.executor = j.value("executor", "");
    for (size_t k = 0; k < j.at("args").size(); ++k) ins.args.push_back(argument(j["args"][k], at + "/args/" + std::to_string(k)));
    if (j.contains("kwargs"))
      for (const auto& [key, value] : j["kwargs"].items()) ins.kwargs.emplace_back(key, argument(value, at + "/kwargs/" + key));
    for (const auto& o : j.at("outputs")) ins.outputs.push_back(o.is_null() ? -1 : slot(o, at + "/outputs"));
    if (j.contains("free")) ins.free = slots(j["free"], at + "/free");
    ins.statement = j.value("statement", "");
    ins.source = j.value("source", "");
    ins.fresh = j.value("fresh", false);
    if (j.contains("stream")) ins.stream = j["stream"].get<std::string>();
    if (j.contains("fusion")) {
      const json& f = j["fusion"];
      std::string fusion_at = at + "/fusion";
      Fusion fusion;
      if (f.contains("function")) fusion.function = f["function"].get<std::string>();
      if (f.contains("cuda_function")) fusion.cuda_function = f["cuda_function"].get<std::string>();
      if (f.contains("grid")) fusion.grid = f["grid"].get<int64_t>();
      for (size_t k = 0; k < f.at("inputs").size(); ++k) fusion.inputs.push_back(meta(f["inputs"][k], fusion_at + "/inputs/" + std::to_string(k)));
      for (size_t k = 0; k < f.at("outputs").size(); ++k)
        fusion.outputs.push_back(meta(f["outputs"][k], fusion_at + "/outputs/" + std::to_string(k)));
      fusion.region = regions_.at(f.at("region"), fusion_at + "/region");
      fusion.region.name = f.at("name").get<std::string>();
      check_region_fits(fusion.region, fusion, where_ + ": " + fusion_at + "/region");
      ins.fusion = std::move(fusion);
    }
    if (j.contains("buffers")) {
      const json& buffers = j["buffers"];
      std::string buffers_at = at + "/buffers";
      if (buffers.size() != ins.outputs.size()) fail(buffers_at, str(buffers.size(), " buffers for ", ins.outputs.size(), " outputs"));
      for (size_t k = 0; k < buffers.size(); ++k) {
        if (buffers[k].is_null()) {
          ins.buffers.emplace_back();
          continue;
        }
        std::string buffer_at = buffers_at + "/" + std::to_string(k);
        if (ins.outputs[k] < 0) fail(buffer_at, str("output ", k, " is not a tensor"));
        ins.buffers.push_back(Buffer{buffers[k].at("offset").get<int64_t>(), meta(buffers[k].at("tensor"), buffer_at + "/tensor")});
      }
    }
    // Every kernel's tensor outputs are checked against the types the plan records (a fusion
    // region's against its region): a plan without them is refused, not run unchecked.
    if (!ins.fusion && !j.contains("expect") && std::any_of(ins.outputs.begin(), ins.outputs.end(), [](int s) { return s >= 0; }))
      fail(at, "no \"expect\": every instruction but a fusion region's records the types of its tensor outputs");
    if (j.contains("expect")) {
      const json& expect = j["expect"];
      std::string expect_at = at + "/expect";
      if (expect.size() != ins.outputs.size()) fail(expect_at, str(expect.size(), " tensor types for ", ins.outputs.size(), " outputs"));
      for (size_t k = 0; k < expect.size(); ++k) {
        if (expect[k].is_null() != (ins.outputs[k] < 0)) fail(expect_at + "/" + std::to_string(k), "a tensor type for each tensor output, null otherwise");
        ins.expect.push_back(expect[k].is_null() ? std::nullopt : std::optional(meta(expect[k], expect_at + "/" + std::to_string(k))));
      }
    }
    return ins;
  }

 private:
  std::string where_;
  int64_t slots_;
  Regions& regions_;
};

Program decode_program(const json& j, const std::string& where, Regions& regions) {
  Program p;
  p.slots = j.at("slots").get<int64_t>();
  Decoder d(where, p.slots, regions);
  const json& inputs = j.at("inputs");
  for (size_t i = 0; i < inputs.size(); ++i) {
    std::string at = "/inputs/" + std::to_string(i);
    p.inputs.push_back({inputs[i].at("name").get<std::string>(), d.slot(inputs[i].at("slot"), "/inputs"),
                        d.meta(inputs[i].at("tensor"), at + "/tensor"), inputs[i].value("fqn", std::vector<std::string>{})});
    if (inputs[i].contains("shard_of")) p.inputs.back().shard_of = inputs[i]["shard_of"].get<Shape>();
  }
  if (j.contains("free_at_start")) p.free_at_start = d.slots(j["free_at_start"], "/free_at_start");
  const json& instructions = j.at("instructions");
  for (size_t i = 0; i < instructions.size(); ++i) p.instructions.push_back(d.instruction(instructions[i], "/instructions/" + std::to_string(i)));
  p.output = d.output(j.at("output"), "/output");
  if (j.contains("arena")) {
    const json& a = j["arena"];
    p.arena = Arena{a.at("bytes").get<int64_t>(), a.value("buffers", int64_t{0}), a.value("buffer_bytes", int64_t{0}),
                    a.value("in_place", int64_t{0})};
  }
  p.saved = j.value("saved", int64_t{0});
  p.saved_bytes = j.value("saved_bytes", int64_t{0});
  return p;
}

void check_version(const json& doc, const std::string& where) {
  // A trace given to run is named for what it is.
  if (doc.is_object() && doc.value("format", json()) == json(kTraceFormat))
    throw LoadError(where + ": this is a trace (format '" + kTraceFormat + "'), not a plan: compile it first (thundercc compile " +
                    where + ")");
  // Only a plan that names another version is refused here; a missing one is the schema's to report.
  json version = doc.is_object() ? doc.value("version", json()) : json();
  if (version.is_number_integer() && version != json(kFormatVersion))
    throw LoadError(where + ": /version: plan format version " + version.dump() + " is not supported (this thundercc reads version " +
                    std::to_string(kFormatVersion) + "); compile the trace again with thundercc compile");
}

}  // namespace

std::string encode_plan(const Plan& plan) {
  RegionTable regions;
  // Regions are numbered in the order the programs use them: forward, backward, update, prologue.
  for (const Program* p : {&plan.forward, plan.backward ? &*plan.backward : nullptr, plan.update ? &plan.update->program : nullptr,
                           plan.prologue ? &plan.prologue->program : nullptr})
    if (p)
      for (const auto& ins : p->instructions)
        if (ins.fusion) regions.index_of(*ins.fusion);
  Members doc;
  doc.add_value("format", kFormat).add_value("version", kFormatVersion).add_value("name", plan.name).add_value("seed", plan.seed);
  if (plan.world_size) doc.add_value("world_size", plan.world_size);
  add_program(doc, plan.forward, regions);
  // A program in an object of its own, beside its container's members.
  auto program = [&regions](const Program& p, std::function<void(Members&)> others) {
    return [&regions, &p, others = std::move(others)](JsonWriter& out) {
      Members members;
      add_program(members, p, regions);
      others(members);
      members.write(out);
    };
  };
  if (const auto& b = plan.backward)
    doc.add("backward", program(*b, [&](Members& m) { m.add_value("saved", b->saved).add_value("saved_bytes", b->saved_bytes); }));
  if (const auto& u = plan.update)
    doc.add("update", program(u->program, [&](Members& m) { m.add_value("parameters", u->parameters).add_value("optimizer", u->optimizer); }));
  if (const auto& p = plan.prologue) doc.add("prologue", program(p->program, [&](Members& m) { m.add_value("reads", p->reads); }));
  if (!regions.entries().empty())
    doc.add("regions", [&](JsonWriter& out) {
      out.begin_array();
      for (const auto& region : regions.entries()) out.value(region);
      out.end_array();
    });
  doc.add("plugins", [&](JsonWriter& out) {
    out.begin_array();
    for (const auto& p : plan.plugins) out.begin_object().member("name", p.name).member("version", p.version).end_object();
    out.end_array();
  });
  if (const auto& k = plan.kernels)
    doc.add("kernels", [&](JsonWriter& out) {
      out.begin_object().member("compiler", k->compiler).member("flags", k->flags).member("isa", k->isa);
      out.member("library", k->library).member("sha256", k->sha256).end_object();
    });
  if (const auto& c = plan.cuda_kernels)
    doc.add("cuda_kernels", [&](JsonWriter& out) {
      out.begin_object();
      if (c->ptx) out.member("arch", c->arch);
      out.member("block", c->block);
      if (c->ptx) out.member("compiler", c->compiler);
      if (c->emulation)
        out.key("emulation").begin_object().member("library", c->emulation->library).member("sha256", c->emulation->sha256).end_object();
      if (c->ptx) out.member("ptx", *c->ptx).member("sha256", c->sha256);
      out.end_object();
    });
  if (const auto& d = plan.dynamic)
    doc.add("dynamic", [&](JsonWriter& out) {
      out.begin_object().member("executors", d->executors).member("input_gradients", d->input_gradients).member("names", d->names == NameStyle::Stable ? "stable" : "thunder");
      out.member("trace", d->trace).end_object();
    });
  JsonWriter out;
  doc.write(out);
  std::string text = out.take();
  text += '\n';
  return text;
}

Plan decode_plan(const json& doc, const std::string& where) {
  check_version(doc, where);
  check_schema(doc, SchemaKind::Plan, where);
  Plan plan;
  plan.name = doc.value("name", "");
  plan.seed = doc.value("seed", int64_t{0});
  plan.world_size = doc.value("world_size", int64_t{0});
  Regions regions(doc.contains("regions") ? &doc["regions"] : nullptr, where);
  plan.forward = decode_program(doc, where, regions);
  if (doc.contains("backward")) {
    plan.backward = decode_program(doc["backward"], where + " (backward)", regions);
    plan.backward->saved = doc["backward"].at("saved").get<int64_t>();
    if (plan.backward->saved > static_cast<int64_t>(plan.backward->inputs.size()))
      throw LoadError(str(where, ": /backward/saved: ", plan.backward->saved, " saved tensors, but the backward has ",
                          plan.backward->inputs.size(), " inputs"));
  }
  if (doc.contains("update")) {
    const json& u = doc["update"];
    plan.update = Update{decode_program(u, where + " (update)", regions), u.at("parameters").get<std::vector<int64_t>>(),
                         u.value("optimizer", "")};
    const int64_t parameters = static_cast<int64_t>(plan.update->parameters.size());
    for (int64_t i : plan.update->parameters)
      if (i < 0 || i >= static_cast<int64_t>(plan.forward.inputs.size()))
        throw LoadError(str(where, ": /update/parameters: input ", i, " of a forward with ", plan.forward.inputs.size(), " inputs"));
    if (!plan.backward || static_cast<int64_t>(plan.update->program.inputs.size()) < 2 * parameters)
      throw LoadError(str(where, ": /update: an optimizer's step needs a backward and takes each of its ", parameters,
                          " parameters and their gradients"));
  }
  if (doc.contains("prologue")) {
    const json& p = doc["prologue"];
    plan.prologue = Prologue{decode_program(p, where + " (prologue)", regions), p.at("reads").get<std::vector<int64_t>>()};
    const Prologue& prologue = *plan.prologue;
    if (prologue.reads.size() != prologue.program.inputs.size())
      throw LoadError(str(where, ": /prologue/reads: ", prologue.reads.size(), " for a prologue of ", prologue.program.inputs.size(), " inputs"));
    for (size_t k = 0; k < prologue.reads.size(); ++k) {
      const int64_t i = prologue.reads[k];
      // By name and type: two statistics of one type (a running mean and variance) swapped would run.
      if (i < 0 || i >= static_cast<int64_t>(plan.forward.inputs.size()) || !(plan.forward.inputs[static_cast<size_t>(i)].tensor == prologue.program.inputs[k].tensor) ||
          plan.forward.inputs[static_cast<size_t>(i)].name != prologue.program.inputs[k].name)
        throw LoadError(str(where, ": /prologue/reads/", k, ": not the forward's input '", prologue.program.inputs[k].name, "' of the prologue's input's type"));
    }
  }
  for (const auto& p : doc.at("plugins")) plan.plugins.push_back({p.at("name").get<std::string>(), p.at("version").get<std::string>()});
  if (doc.contains("kernels")) {
    const json& k = doc["kernels"];
    plan.kernels = KernelLibraryRecord{k.at("library").get<std::string>(), k.at("sha256").get<std::string>(),
                                       k.value("compiler", ""), k.value("flags", ""), k.value("isa", std::vector<std::string>{})};
  }
  if (doc.contains("cuda_kernels")) {
    const json& c = doc["cuda_kernels"];
    CudaKernelsRecord cuda;
    cuda.block = c.at("block").get<int64_t>();
    if (c.contains("ptx")) {
      cuda.ptx = c["ptx"].get<std::string>();
      cuda.sha256 = c.at("sha256").get<std::string>();
      cuda.compiler = c.value("compiler", "");
      cuda.arch = c.value("arch", "");
    }
    if (c.contains("emulation"))
      cuda.emulation = LibraryFile{c["emulation"].at("library").get<std::string>(), c["emulation"].at("sha256").get<std::string>()};
    plan.cuda_kernels = std::move(cuda);
  }
  if (doc.contains("dynamic")) {
    const json& d = doc["dynamic"];
    const std::string at = where + ": /dynamic/trace";
    check_schema(d.at("trace"), SchemaKind::Trace, at);
    plan.dynamic = Dynamic{read_size_symbols(d["trace"], at), d["trace"], d.at("executors").get<std::vector<std::string>>(),
                           d.at("input_gradients").get<bool>(), d.at("names") == "stable" ? NameStyle::Stable : NameStyle::Thunder};
    if (plan.dynamic->symbols.empty()) throw LoadError(at + ": a dynamic plan's trace has no symbols");
    // The trace is the plan's program: each of its tensor inputs, at the captured sizes, is the
    // plan's input of that name.
    const SizeBinding hints = hint_binding(plan.dynamic->symbols);
    for (const auto& input : d["trace"].at("inputs")) {
      if (!input.contains("tensor")) continue;
      const std::string name = input.at("name").get<std::string>();
      Shape shape;
      for (const auto& size : input["tensor"].at("shape"))
        try {
          shape.push_back(size.is_object() ? evaluate_size_expression(size.at("symint").get<std::string>(), hints) : size.get<int64_t>());
        } catch (const ThunderError& e) {
          throw LoadError(str(at, ": input '", name, "': ", e.what()));
        }
      auto same = std::find_if(plan.forward.inputs.begin(), plan.forward.inputs.end(), [&](const Input& i) { return i.name == name; });
      if (same == plan.forward.inputs.end() || same->tensor.shape != shape)
        throw LoadError(str(at, ": its input '", name, "' is not one of the plan's (the trace is another program's)"));
    }
  }
  return plan;
}

Plan read_plan_file(const std::string& path) {
  return decode_plan(parse_json_document(read_file(path, limits::kTraceBytes), path), path);
}

}  // namespace thundercc::plan
