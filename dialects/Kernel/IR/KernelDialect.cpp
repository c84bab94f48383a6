//===- KernelDialect.cpp - kernel dialect and op verifiers ----------------===//
#include "dialects/Kernel/IR/KernelDialect.h"
#include "dialects/RNS/IR/RNSOps.h"

#include "llvm/ADT/StringSwitch.h"

using namespace mlir;
using namespace ember::kernel;

#include "dialects/Kernel/IR/KernelDialect.cpp.inc"

#define GET_OP_CLASSES
#include "dialects/Kernel/IR/KernelOps.cpp.inc"

void KernelDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "dialects/Kernel/IR/KernelOps.cpp.inc"
      >();
}

LogicalResult CallOp::verify() {
  StringRef c = getCallee();
  bool known = llvm::StringSwitch<bool>(c)
                   .Cases({"ntt", "intt", "bconv", "mod_up"}, true)
                   .Cases({"ks_inner_product", "mod_switch_down"}, true)
                   .Cases({"automorphism", "load_key", "concat"}, true)
                   .Cases({"encode", "zero"}, true)
                   .Cases({"klss_mod_up", "klss_inner_product"}, true)
                   .Default(false);
  if (!known)
    return emitOpError("unknown runtime primitive '") << c << "'";
  if ((c == "automorphism") && !(*this)->hasAttr("galois"))
    return emitOpError("automorphism needs a 'galois' attribute");
  if (c == "mod_up" && !(*this)->hasAttr("digits"))
    return emitOpError("mod_up needs a 'digits' attribute");
  if (c == "mod_switch_down" && getInputs().size() != getResults().size())
    return emitOpError("mod_switch_down maps each input to one result");
  if (c == "ks_inner_product" &&
      (getResults().size() != 2 || getInputs().empty() ||
       !isa<ember::rns::EvalKeyType>(getInputs().front().getType())))
    return emitOpError("ks_inner_product takes a key and digits and gives "
                       "two accumulators");
  if (c == "klss_inner_product" &&
      (getResults().size() != 2 || getInputs().size() < 2 ||
       !isa<ember::rns::KlssKeyType>(getInputs().front().getType()) ||
       !(*this)->hasAttr("level")))
    return emitOpError("klss_inner_product takes a KLSS key and T digits, "
                       "gives two accumulators and needs a 'level'");
  if (c == "klss_mod_up" && getInputs().size() != getResults().size())
    return emitOpError("klss_mod_up maps each digit to one T polynomial");
  return success();
}

LogicalResult LaunchOp::verify() {
  Block &body = getBody().front();
  if (body.getNumArguments() != getInputs().size())
    return emitOpError("body takes ")
           << body.getNumArguments() << " arguments for " << getInputs().size()
           << " inputs";
  auto yield = dyn_cast<YieldOp>(body.getTerminator());
  if (!yield || yield.getValues().size() != getResults().size())
    return emitOpError("body must yield one value per result");
  return success();
}

LogicalResult ViewOp::verify() {
  auto src = dyn_cast<ember::rns::PolyType>(getSource().getType());
  auto dst = dyn_cast<ember::rns::PolyType>(getResult().getType());
  if (!src || !dst)
    return emitOpError("views polynomials only");
  if (getFirst() < 0 || getCount() != dst.getNumLimbs() ||
      getFirst() + getCount() > src.getNumLimbs())
    return emitOpError("limb range [")
           << getFirst() << ":" << getCount() << "] does not fit";
  return success();
}
