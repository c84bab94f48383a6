//===- TfheCircuit.cpp - the lwe circuit as the runtime's table -----------===//
//
// The table (format 1): wires 0 .. input_bits-1 are the inputs' bits (the
// function's arguments in order, least significant bit first); op k writes
// wire input_bits + k. Each op is [code, out, a, b, c]: codes 0-5 the gates
// AND OR NAND NOR XOR XNOR (a, b), 6 NOT (a), 7 MUX (a ? b : c), 8 a
// trivial bit (value a). "levels" gives each op's bootstrap depth, so the
// GPU runs each level's bootstraps in one batch.
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
  const lwe::Params p = lwe::Params::named(params.getValue().str());
  const lwe::NoiseEstimate noise = lwe::estimateNoise(p);
  // Key sizes (the runtime's layout): RGSW rows of two N-word polynomials,
  // 4-byte words; key-switching rows of n + 1 two-byte words.
  const int64_t rows = 2 * (p.digitsG() - 1);
  const int64_t bsk_bytes = int64_t(p.n) * 2 * rows * 2 * p.ringN() * 4;
  const int64_t ksk_bytes =
      int64_t(p.ringN()) * p.digitsKs() * (p.base_ks - 1) * (p.n + 1) * 2;
  llvm::json::Object out{
      {"format", 1},
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
