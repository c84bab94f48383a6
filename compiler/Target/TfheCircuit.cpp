//===- TfheCircuit.cpp - the lwe circuit as the runtime's table -----------===//
//
// The table (format 1): wires 0 .. input_bits-1 are the inputs' bits (the
// function's arguments in order, least significant bit first); op k writes
// wire input_bits + k. Each op is [code, out, a, b, c]: codes 0-5 the gates
// AND OR NAND NOR XOR XNOR (a, b), 6 NOT (a), 7 MUX (a ? b : c), 8 a
// trivial bit (value a). "levels" gives each op's bootstrap depth, so the
// GPU runs each level's bootstraps in one batch.
//
// Radix circuits (format 2, "encoding": "radix"): wires are blocks at the
// ring modulus; wires 0 .. input_bits-1 are the inputs' blocks (least
// significant first). Ops: [9, out, a, b or -1, form] a linear form x a + y
// b + c (forms[form] = [x, y, c], c in units of round(Q / 32)), [10, out,
// a, table, -1] a table over Z_16 (tables[table], 16 entries), [11, out,
// v, -1, -1] a known block. A table is one level; linear ops and known
// blocks none.
//
//===----------------------------------------------------------------------===//
#include "compiler/Target/TfheCircuit.h"
#include "dialects/LWE/IR/LWEDialect.h"
#include "ember/lwe_params.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

#include <array>
#include <map>
#include <vector>

using namespace mlir;
namespace lwe = ember::lwe;

namespace {

int64_t gateCode(StringRef gate) {
  static const char *const kGates[] = {"AND", "OR",  "NAND",
                                       "NOR", "XOR", "XNOR"};
  for (int64_t i = 0; i < 6; ++i)
    if (gate == kGates[i])
      return i;
  return -1;
}

llvm::json::Array shapes(ArrayRef<int64_t> widths, ArrayRef<bool> signs) {
  llvm::json::Array out;
  for (auto [w, s] : llvm::zip(widths, signs))
    out.push_back(llvm::json::Object{{"width", w}, {"signed", s}});
  return out;
}

/// Key sizes in the runtime's layout (ember/lwe.h): the bootstrapping key's
/// RLWE rows of two N-word polynomials (4-byte words): per LWE coefficient,
/// GINX 2 keys, AP one per digit value; a gadget key 2 (d - 1) rows, a
/// raising key 2 rows at both P and Q. Key-switching rows of n + 1 words of
/// 2 bytes (4 above q_ks = 2^16).
std::pair<int64_t, int64_t> keyBytes(const lwe::Params &p) {
  const int64_t poly = 2 * int64_t(p.ringN()) * 4;
  const int64_t keys = p.ap() ? p.apKeys() : 2;
  const int64_t rows = p.raising() ? 2 * 2 : 2 * (p.digitsG() - 1);
  const int64_t bsk = int64_t(p.n) * keys * rows * poly;
  const int64_t ksk = int64_t(p.ringN()) * p.digitsKs() * (p.base_ks - 1) *
                      (p.n + 1) * (p.wideKeySwitch() ? 4 : 2);
  return {bsk, ksk};
}

LogicalResult emitCircuit(ModuleOp module, raw_ostream &os) {
  auto params =
      module->getAttrOfType<StringAttr>(lwe::LWEDialect::kParamsAttrName);
  if (!params)
    return module.emitError("module has no 'lwe.params' (run fhe-to-lwe "
                            "first)");
  auto funcs = llvm::to_vector(module.getOps<func::FuncOp>());
  if (funcs.size() != 1)
    return module.emitError("a TFHE program is one function, found ")
           << funcs.size();
  func::FuncOp f = funcs[0];
  auto in_w = f->getAttrOfType<DenseI64ArrayAttr>("lwe.input_widths");
  auto in_s = f->getAttrOfType<DenseBoolArrayAttr>("lwe.input_signed");
  auto out_w = f->getAttrOfType<DenseI64ArrayAttr>("lwe.output_widths");
  auto out_s = f->getAttrOfType<DenseBoolArrayAttr>("lwe.output_signed");
  if (!in_w || !in_s || !out_w || !out_s)
    return f.emitError("the function has no lwe interface (run fhe-to-lwe)");

  const lwe::Params p = lwe::Params::named(params.getValue().str());
  const lwe::NoiseEstimate noise = lwe::estimateNoise(p);
  const bool radix = module->hasAttr(lwe::LWEDialect::kEncodingAttrName);
  std::map<std::array<int64_t, 3>, int64_t> form_index;
  std::map<std::vector<int64_t>, int64_t> table_index;
  llvm::json::Array forms, tables;
  double worst = -1e300;
  const Type element = radix ? Type(lwe::BlockType::get(module.getContext()))
                             : Type(lwe::BitType::get(module.getContext()));
  for (Type t : f.getFunctionType().getInputs())
    if (t != element)
      return f.emitError() << "a " << (radix ? "radix" : "bit")
                           << " circuit's arguments are " << element << ", got "
                           << t;
  DenseMap<Value, int64_t> wire, level;
  for (BlockArgument a : f.getArguments()) {
    wire[a] = a.getArgNumber();
    level[a] = 0;
  }
  int64_t next = f.getNumArguments(), bootstraps = 0, key_switches = 0,
          depth = 0;
  llvm::json::Array ops, levels, outputs;
  for (Operation &op : f.getBody().front()) {
    if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      for (Value v : ret.getOperands())
        outputs.push_back(wire.lookup(v));
      continue;
    }
    if (radix != isa<lwe::LinearOp, lwe::LutOp, lwe::BlockConstantOp>(op))
      return op.emitError() << "a " << (radix ? "radix" : "bit")
                            << " circuit cannot hold '" << op.getName() << "'";
    int64_t lvl = 0;
    for (Value v : op.getOperands())
      lvl = std::max(lvl, level.lookup(v));
    llvm::json::Array row;
    auto w = [&](Value v) { return wire.lookup(v); };
    LogicalResult ok =
        TypeSwitch<Operation *, LogicalResult>(&op)
            .Case([&](lwe::GateOp g) {
              row = llvm::json::Array{gateCode(g.getGate()), next,
                                      w(g.getLhs()), w(g.getRhs()), -1};
              ++bootstraps, ++key_switches, ++lvl;
              return success();
            })
            .Case([&](lwe::NotOp n) {
              row = llvm::json::Array{6, next, w(n.getInput()), -1, -1};
              return success();
            })
            .Case([&](lwe::MuxOp m) {
              row = llvm::json::Array{7, next, w(m.getSel()), w(m.getT()),
                                      w(m.getF())};
              bootstraps += 2, ++key_switches, ++lvl;
              return success();
            })
            .Case([&](lwe::TrivialOp t) {
              row = llvm::json::Array{8, next, t.getValue(), -1, -1};
              return success();
            })
            .Case([&](lwe::LinearOp l) {
              ArrayRef<int64_t> k = l.getCoefficients();
              const bool two = l.getInputs().size() == 2;
              const std::array<int64_t, 3> form{k[0], two ? k[1] : 0,
                                                l.getConstant()};
              auto [it, fresh] = form_index.try_emplace(form, forms.size());
              if (fresh)
                forms.push_back(llvm::json::Array{form[0], form[1], form[2]});
              row =
                  llvm::json::Array{9, next, w(l.getInputs()[0]),
                                    two ? w(l.getInputs()[1]) : -1, it->second};
              return success();
            })
            .Case([&](lwe::LutOp t) {
              std::vector<int64_t> table(t.getTable().begin(),
                                         t.getTable().end());
              auto [it, fresh] = table_index.try_emplace(table, tables.size());
              if (fresh) {
                llvm::json::Array entries;
                for (int64_t v : table)
                  entries.push_back(v);
                tables.push_back(std::move(entries));
              }
              row =
                  llvm::json::Array{10, next, w(t.getInput()), it->second, -1};
              ++bootstraps, ++key_switches, ++lvl;
              if (t.getNu2())
                worst = std::max(worst, noise.log2BlockFailure(
                                            lwe::kBlockModulus, *t.getNu2()));
              return success();
            })
            .Case([&](lwe::BlockConstantOp c) {
              row = llvm::json::Array{11, next, c.getValue(), -1, -1};
              return success();
            })
            .Default([](Operation *o) {
              return o->emitError("not an lwe circuit op");
            });
    if (failed(ok))
      return failure();
    wire[op.getResult(0)] = next++;
    level[op.getResult(0)] = lvl;
    depth = std::max(depth, lvl);
    ops.push_back(std::move(row));
    levels.push_back(lvl);
  }
  const auto [bsk_bytes, ksk_bytes] = keyBytes(p);
  llvm::json::Object out{
      {"format", radix ? 2 : 1},
      {"scheme", "tfhe"},
      {"params", params.getValue()},
      {"function", f.getName()},
      {"inputs", shapes(in_w.asArrayRef(), in_s.asArrayRef())},
      {"outputs", shapes(out_w.asArrayRef(), out_s.asArrayRef())},
      {"input_bits", int64_t(f.getNumArguments())},
      {"wires", next},
      {"ops", std::move(ops)},
      {"levels", std::move(levels)},
      {"output_wires", std::move(outputs)},
      {"blind_rotations", bootstraps},
      {"key_switches", key_switches},
      {"depth", depth},
      {"keys", llvm::json::Object{{"bootstrap_key_bytes", bsk_bytes},
                                  {"key_switch_key_bytes", ksk_bytes}}},
      {"log2_gate_failure", noise.log2_gate_failure},
  };
  if (radix) {
    out["encoding"] = "radix";
    out["block_modulus"] = int64_t(lwe::kBlockModulus);
    out["block_bits"] = int64_t(lwe::kBlockBits);
    out["forms"] = std::move(forms);
    out["tables"] = std::move(tables);
    // The worst table's misread probability (none: no table).
    out["log2_pbs_failure_worst"] =
        worst > -1e300 ? llvm::json::Value(worst) : llvm::json::Value(nullptr);
  }
  os << llvm::formatv("{0:1}", llvm::json::Value(std::move(out))) << "\n";
  return success();
}

} // namespace

void ember::target::registerTfheTranslations() {
  static TranslateFromMLIRRegistration circuit(
      "emit-tfhe-circuit",
      "a module lowered by fhe-to-lwe as the runtime's circuit table (JSON)",
      [](Operation *op, raw_ostream &os) {
        return emitCircuit(cast<ModuleOp>(op), os);
      },
      [](DialectRegistry &registry) {
        registry.insert<func::FuncDialect, lwe::LWEDialect>();
      });
}
