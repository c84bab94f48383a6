//===- ember-opt.cpp - Ember's mlir-opt -----------------------------------===//
//
// mlir-opt with every Ember dialect, pass and pipeline registered. Besides
// the usual flags (--print-ir-after-all, --pass-pipeline=...) it accepts
//
//   --ember-pipeline=NAME            run the named pipeline NAME
//   --ember-pipeline=NAME{OPTIONS}   with options, e.g. fhe-to-rns{hoisting=0}
//
// which is rewritten to the pipeline's own flag (--NAME=OPTIONS).
//
//===----------------------------------------------------------------------===//
#include "compiler/InitAll.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  ember::registerAllEmberDialects(registry);
  ember::registerAllEmberPasses();

  std::vector<std::string> storage;
  storage.reserve(argc);
  for (int i = 0; i < argc; ++i) {
    llvm::StringRef arg(argv[i]);
    if (arg.consume_front("--ember-pipeline=") ||
        arg.consume_front("-ember-pipeline=")) {
      auto [name, rest] = arg.split('{');
      std::string flag = "--" + name.str();
      if (!rest.empty())
        flag += "=" + rest.drop_back(rest.ends_with("}") ? 1 : 0).str();
      storage.push_back(flag);
    } else {
      storage.push_back(arg.str());
    }
  }
  std::vector<char *> args;
  for (std::string &s : storage)
    args.push_back(s.data());
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(static_cast<int>(args.size()), args.data(),
                        "Ember optimizer driver\n", registry));
}
