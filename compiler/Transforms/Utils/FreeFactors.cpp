//===- FreeFactors.cpp - multiplications that cost no level ---------------===//
#include "compiler/Transforms/Utils/FreeFactors.h"
#include "dialects/CKKS/IR/CKKSDialect.h"
#include "dialects/Common/SlotVectors.h"

#include "mlir/IR/BuiltinAttributes.h"

#include <cmath>
#include <complex>

using namespace mlir;

namespace {
DenseElementsAttr constantValue(Value v) {
  Operation *def = v.getDefiningOp();
  if (!def || !isa<ember::fhe::ConstantOp, ember::ckks::EncodeOp>(def))
    return {};
  return def->getAttrOfType<DenseElementsAttr>("value");
}
} // namespace

std::optional<int64_t> ember::integerSplat(Value v) {
  DenseElementsAttr value = constantValue(v);
  if (!value)
    return std::nullopt;
  std::optional<double> x = ember::realSplat(value);
  if (!x || !fhe::isFreeFactor(*x))
    return std::nullopt;
  return static_cast<int64_t>(*x);
}

std::optional<int64_t> ember::integerFactor(fhe::MulOp mul) {
  if (auto v = integerSplat(mul.getRhs()))
    return v;
  return integerSplat(mul.getLhs());
}

std::optional<int> ember::imaginaryUnitSplat(Value v) {
  DenseElementsAttr value = constantValue(v);
  if (!value || !value.isSplat() || !ember::isComplexValues(value))
    return std::nullopt;
  std::complex<double> z = ember::slotValues(value, 1).front();
  if (z.real() != 0 || std::fabs(z.imag()) != 1)
    return std::nullopt;
  return z.imag() > 0 ? 1 : -1;
}

std::optional<int> ember::imaginaryUnitFactor(fhe::MulOp mul) {
  if (auto v = imaginaryUnitSplat(mul.getRhs()))
    return v;
  return imaginaryUnitSplat(mul.getLhs());
}

int64_t ember::levelsUsed(Operation *op) {
  auto mul = dyn_cast<fhe::MulOp>(op);
  return mul && !integerFactor(mul) && !imaginaryUnitFactor(mul) ? 1 : 0;
}
