//===- CKKSCost.cpp - time model of ckks operations -----------------------===//
#include "compiler/Analysis/Cost/CKKSCost.h"
#include "compiler/Transforms/Utils/FreeFactors.h"
#include "dialects/FHE/IR/FHEDialect.h"

#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace ember;
using namespace mlir;

double CKKSCostModel::keySwitchUs(int64_t level) const {
  KeySwitchGroup group;
  group.level = params.getLimbs(level) - 1;
  return hybridWork(params, group).us(constants, params.getLogN());
}

double CKKSCostModel::elementwiseUs(int64_t level, int64_t polys) const {
  double bytes = std::ldexp(static_cast<double>(params.getWordBytes() * polys *
                                                params.getLimbs(level)),
                            static_cast<int>(params.getLogN()));
  return kLaunchUs + bytes / (constants.dramGBps * 1e3);
}

double CKKSCostModel::rescaleUs(int64_t level, int64_t parts) const {
  const int64_t logN = params.getLogN();
  const double nttScale =
      std::ldexp(1.0, static_cast<int>(logN) - 16) * logN / 16.0;
  return parts * params.getLimbs(level) * constants.nttLimbUs * nttScale +
         elementwiseUs(level, 2 * parts);
}

double CKKSCostModel::opUs(Operation *op, int64_t levelShift) const {
  ckks::CiphertextType ct;
  for (Value v : op->getOperands())
    if ((ct = dyn_cast<ckks::CiphertextType>(v.getType())))
      break;
  if (!ct)
    return 0;
  const int64_t level = ct.getLevel() + levelShift;
  const int64_t parts = ct.getDegree() + 1;
  return TypeSwitch<Operation *, double>(op)
      .Case<ckks::RelinearizeOp, ckks::RotateOp, ckks::ConjugateOp,
            ckks::KeySwitchOp>([&](Operation *) { return keySwitchUs(level); })
      // Tensor product: two inputs of two parts in, three parts out.
      .Case<ckks::MulOp>([&](Operation *) { return elementwiseUs(level, 7); })
      .Case<ckks::AddOp, ckks::SubOp>(
          [&](Operation *) { return elementwiseUs(level, 3 * parts); })
      .Case<ckks::MulPlainOp, ckks::AddPlainOp, ckks::SubPlainOp>(
          [&](Operation *) { return elementwiseUs(level, 2 * parts + 1); })
      .Case<ckks::NegOp, ckks::MulIntOp, ckks::MulIOp>(
          [&](Operation *) { return elementwiseUs(level, 2 * parts); })
      .Case<ckks::RescaleOp>(
          [&](Operation *) { return rescaleUs(level, parts); })
      .Case<ckks::ModRaiseOp>([&](ckks::ModRaiseOp raise) {
        // INTT at level 0, NTT of both parts at the top; with
        // encapsulation a key switch at the top (the one at level 0 over
        // Q_0 p_0 is small).
        int64_t top =
            cast<ckks::CiphertextType>(raise.getType()).getLevel() + levelShift;
        return rescaleUs(top, 2) + (raise.getEncapsulate()
                                        ? keySwitchUs(top) + keySwitchUs(0)
                                        : 0.0);
      })
      .Default([](Operation *) { return 0.0; });
}

double CKKSCostModel::fheOpUs(Operation *op, int64_t level) const {
  auto isCt = [](Value v) { return isa<fhe::CiphertextType>(v.getType()); };
  return TypeSwitch<Operation *, double>(op)
      .Case<fhe::MulOp>([&](fhe::MulOp mul) {
        if (levelsUsed(op) == 0)
          return elementwiseUs(level, 4);
        if (isCt(mul.getLhs()) && isCt(mul.getRhs()))
          return elementwiseUs(level, 7) + keySwitchUs(level) +
                 rescaleUs(level, 2);
        return elementwiseUs(level, 5) + rescaleUs(level, 2);
      })
      .Case<fhe::RotateOp, fhe::ConjugateOp>(
          [&](Operation *) { return keySwitchUs(level); })
      .Case<fhe::AddOp, fhe::SubOp>([&](Operation *o) {
        bool both = isCt(o->getOperand(0)) && isCt(o->getOperand(1));
        return elementwiseUs(level, both ? 6 : 5);
      })
      .Case<fhe::NegOp>([&](Operation *) { return elementwiseUs(level, 4); })
      .Default([](Operation *) { return 0.0; });
}
