//===- ember-translate.cpp - Ember's mlir-translate -----------------------===//
//
// mlir-translate with Ember's dialects registered: the emitters of the
// kernel-level program (--emit-cpp, --emit-cuda, --emit-manifest, see
// compiler/Target) and --ckks-params-to-json, which prints the module's
// #ckks.params as the "params" object of the client manifest.
//
//===----------------------------------------------------------------------===//
#include "compiler/InitAll.h"
#include "compiler/Target/KernelEmitter.h"
#include "dialects/CKKS/IR/CKKSDialect.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"
#include "mlir/Tools/mlir-translate/Translation.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"

using namespace mlir;

static LogicalResult paramsToJson(Operation *op, raw_ostream &os) {
  auto params = ember::ckks::ParamsAttr::lookup(op);
  if (!params)
    return op->emitError("module has no '")
           << ember::ckks::CKKSDialect::kParamsAttrName
           << "' attribute (run fhe-to-ckks first)";
  llvm::json::Array q, p;
  for (uint64_t prime : params.getQ())
    q.push_back(prime);
  for (uint64_t prime : params.getP())
    p.push_back(prime);
  llvm::json::Object root{
      {"log_n", params.getLogN()}, {"q", std::move(q)},
      {"p", std::move(p)},         {"log_scale", params.getLogScale()},
      {"dnum", params.getDnum()},  {"security", params.getSecurity()}};
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(root))) << "\n";
  return success();
}

int main(int argc, char **argv) {
  ember::target::registerKernelTranslations();
  TranslateFromMLIRRegistration paramsJson(
      "ckks-params-to-json", "print the module's #ckks.params as JSON",
      paramsToJson, [](DialectRegistry &registry) {
        ember::registerAllEmberDialects(registry);
      });
  return failed(mlirTranslateMain(argc, argv, "Ember translation driver"));
}
