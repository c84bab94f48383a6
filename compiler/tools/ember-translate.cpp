//===- ember-translate.cpp - Ember's mlir-translate -----------------------===//
//
// mlir-translate with Ember's dialects registered: the emitters of the
// kernel-level program (--emit-cpp, --emit-cuda, --emit-manifest, see
// compiler/Target), --emit-tfhe-circuit (the FHEW/TFHE circuit) and
// --ckks-params-to-json, which prints the module's
// #ckks.params as the "params" object of the client manifest.
//
//===----------------------------------------------------------------------===//
#include "compiler/InitAll.h"
#include "compiler/Target/KernelEmitter.h"
#include "compiler/Target/TfheCircuit.h"
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
  os << llvm::formatv("{0:2}",
                      llvm::json::Value(ember::target::paramsToJson(params)))
     << "\n";
  return success();
}

int main(int argc, char **argv) {
  ember::target::registerKernelTranslations();
  ember::target::registerTfheTranslations();
  TranslateFromMLIRRegistration paramsJson(
      "ckks-params-to-json", "print the module's #ckks.params as JSON",
      paramsToJson, [](DialectRegistry &registry) {
        ember::registerAllEmberDialects(registry);
      });
  return failed(mlirTranslateMain(argc, argv, "Ember translation driver"));
}
