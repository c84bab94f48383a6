// libFuzzer harness: ember-opt's parser and verifier on every Ember dialect
// (fhe, ckks, rns, kernel, and the func/arith/tensor they use), then the
// canonicalizer, then a print/parse round trip.
//
// Any outcome but "rejected with a diagnostic" or "accepted, canonicalized,
// printed and re-parsed" is a bug: a crash or sanitizer report (a verifier
// that trusts what it should check, a folder on unverified IR), or valid IR
// whose printed form does not parse back (__builtin_trap()).
#include "compiler/InitAll.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Transforms/Passes.h"
#include "llvm/Support/raw_ostream.h"

#include <string>

namespace {

const mlir::DialectRegistry &registry() {
  static mlir::DialectRegistry *r = [] {
    auto *reg = new mlir::DialectRegistry;
    ember::registerAllEmberDialects(*reg);
    return reg;
  }();
  return *r;
}

mlir::OwningOpRef<mlir::ModuleOp> parse(mlir::MLIRContext &ctx,
                                        llvm::StringRef text) {
  return mlir::parseSourceString<mlir::ModuleOp>(text,
                                                 mlir::ParserConfig(&ctx));
}

} // namespace

// The harness and the dialects are built with ASan, libMLIR/libLLVM are not,
// and they share each context's BumpPtrAllocator: llvm/Support/Allocator.h,
// compiled with ASan, poisons every new slab and unpoisons what it hands
// out; the same inline code in libMLIR, compiled without, unpoisons
// nothing, so an object that libMLIR places in a slab our code started reads
// as "use-after-poison". Turn manual poisoning off (heap redzones stay).
extern "C" const char *__asan_default_options() {
  return "allow_user_poisoning=0";
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // Large inputs only slow the fuzzer down; the dialects' syntax is small.
  if (size > 16384)
    return 0;
  mlir::MLIRContext ctx(registry(), mlir::MLIRContext::Threading::DISABLED);
  mlir::ScopedDiagnosticHandler quiet(
      &ctx, [](mlir::Diagnostic &) { return mlir::success(); });
  // MLIR's lexer stops at the NUL byte after the buffer (what a
  // MemoryBuffer read from a file has, as in ember-opt): libFuzzer's data
  // has none, so parse a std::string copy, NUL-terminated.
  const std::string text(reinterpret_cast<const char *>(data), size);
  mlir::OwningOpRef<mlir::ModuleOp> module = parse(ctx, text); // verifies
  if (!module)
    return 0;
  mlir::PassManager pm(&ctx);
  pm.addPass(mlir::createCanonicalizerPass());
  if (mlir::failed(pm.run(*module))) // the verifier runs after the pass
    return 0;
  std::string printed;
  llvm::raw_string_ostream os(printed);
  module->print(os);
  mlir::MLIRContext again(registry(), mlir::MLIRContext::Threading::DISABLED);
  mlir::ScopedDiagnosticHandler quietAgain(
      &again, [](mlir::Diagnostic &) { return mlir::success(); });
  if (!parse(again, printed))
    __builtin_trap(); // verified IR printed into text that does not parse
  return 0;
}
