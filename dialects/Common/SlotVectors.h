//===- SlotVectors.h - shared checks and folds of slot-vector ops ---------===//
//
// The fhe and ckks dialects both have slot-vector constants and cyclic
// rotations; their verifiers and folders share these header-only helpers.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpDefinition.h"
#include "llvm/Support/MathExtras.h"

#include <complex>
#include <optional>
#include <vector>

namespace ember {

/// The most slots a CKKS ciphertext can have: N/2 for the largest ring the
/// runtime and #ckks.params support, N = 2^17. Where the parameters are known,
/// the ckks module verifier bounds slots by their N/2 as well.
constexpr int64_t kMaxSlots = int64_t{1} << 16;

/// A slot count (of !fhe.ct/pt, !ckks.ct/pt, and later slot-vector types) is
/// a power of two in 1..kMaxSlots: the slots of a packed vector are a
/// subring of the N/2 complex slots, which exists only for powers of two.
inline mlir::LogicalResult
verifySlotCount(llvm::function_ref<mlir::InFlightDiagnostic()> emitError,
                int64_t slots) {
  if (slots <= 0)
    return emitError() << "slot count must be positive, got " << slots;
  if (!llvm::isPowerOf2_64(static_cast<uint64_t>(slots)))
    return emitError() << "slot count must be a power of two, got " << slots;
  if (slots > kMaxSlots)
    return emitError() << "slot count " << slots << " exceeds " << kMaxSlots
                       << " (N/2 of the largest ring, N = 2^17)";
  return mlir::success();
}

/// The element types of slot values: f64 (real slots) or complex<f64>.
inline bool isSlotValueType(mlir::Type t) {
  if (t.isF64())
    return true;
  auto c = mlir::dyn_cast<mlir::ComplexType>(t);
  return c && c.getElementType().isF64();
}
/// A dense attribute of slot values (what Ember_SlotValuesAttr accepts).
inline bool isSlotValuesAttr(mlir::Attribute a) {
  auto d = mlir::dyn_cast_or_null<mlir::DenseElementsAttr>(a);
  return d && isSlotValueType(d.getElementType());
}
/// Whether slot values are complex (complex<f64> elements).
inline bool isComplexValues(mlir::DenseElementsAttr value) {
  return mlir::isa<mlir::ComplexType>(value.getElementType());
}
/// The `slots` values of a constant (a splat repeated), as complex numbers.
inline std::vector<std::complex<double>>
slotValues(mlir::DenseElementsAttr value, int64_t slots) {
  std::vector<std::complex<double>> out;
  if (value.isSplat()) { // one element, whatever the tensor's length
    std::complex<double> v;
    if (isComplexValues(value)) {
      auto c = value.getSplatValue<std::complex<llvm::APFloat>>();
      v = {c.real().convertToDouble(), c.imag().convertToDouble()};
    } else {
      v = value.getSplatValue<llvm::APFloat>().convertToDouble();
    }
    out.assign(static_cast<size_t>(slots), v);
    return out;
  }
  // f64 and complex<f64> (what the dialects hold) read as doubles straight
  // from the attribute's storage; APFloat per element is ~10x slower (half
  // of fhe-to-ckks' time on a bootstrap's DFT diagonals).
  if (isComplexValues(value)) {
    if (auto values = value.tryGetValues<std::complex<double>>();
        mlir::succeeded(values)) {
      out.assign(values->begin(), values->end());
      return out;
    }
    for (std::complex<llvm::APFloat> c :
         value.getValues<std::complex<llvm::APFloat>>())
      out.emplace_back(c.real().convertToDouble(), c.imag().convertToDouble());
  } else {
    if (auto values = value.tryGetValues<double>(); mlir::succeeded(values)) {
      out.assign(values->begin(), values->end());
      return out;
    }
    for (llvm::APFloat f : value.getValues<llvm::APFloat>())
      out.emplace_back(f.convertToDouble(), 0.0);
  }
  return out;
}
/// The real value of a splat constant whose imaginary part is zero (one
/// real number in every slot), or nullopt.
inline std::optional<double> realSplat(mlir::DenseElementsAttr value) {
  if (!value || !value.isSplat())
    return std::nullopt;
  std::complex<double> v = slotValues(value, 1).front();
  if (v.imag() != 0)
    return std::nullopt;
  return v.real();
}

/// A constant of `slots` values: a 1-d tensor of that length, or a splat.
inline mlir::LogicalResult verifySlotValues(mlir::Operation *op,
                                            mlir::DenseElementsAttr value,
                                            int64_t slots) {
  auto tensor = mlir::cast<mlir::ShapedType>(value.getType());
  if (tensor.getRank() != 1)
    return op->emitOpError("value must be a 1-d tensor, got rank ")
           << tensor.getRank();
  if (!value.isSplat() && tensor.getDimSize(0) != slots)
    return op->emitOpError("value has ")
           << tensor.getDimSize(0) << " elements but the result has " << slots
           << " slots (use a splat to broadcast a scalar)";
  return mlir::success();
}

/// True when `value` is a constant (fhe.constant, ckks.encode) whose every
/// slot is zero.
inline bool isZeroSlotConstant(mlir::Value value) {
  mlir::DenseElementsAttr dense;
  if (!mlir::matchPattern(value, mlir::m_Constant(&dense)) ||
      !isSlotValueType(dense.getElementType()))
    return false;
  for (std::complex<double> v : slotValues(dense, 1))
    if (v != std::complex<double>(0.0, 0.0))
      return false;
  return true;
}

/// A rotation offset satisfies -slots < offset < slots.
inline mlir::LogicalResult verifyRotationOffset(mlir::Operation *op,
                                                int64_t offset, int64_t slots) {
  if (offset <= -slots || offset >= slots)
    return op->emitOpError("offset ")
           << offset << " is outside (-" << slots << ", " << slots << ")";
  return mlir::success();
}

/// Folds a rotation op (getInput, getOffset, setOffset, getInputMutable):
/// rotate(x, 0) == x and rotate(rotate(x, a), b) == rotate(x, (a + b) mod
/// slots), the latter in place.
template <typename RotateOpT>
mlir::OpFoldResult foldRotation(RotateOpT op, int64_t slots) {
  if (auto inner = op.getInput().template getDefiningOp<RotateOpT>()) {
    int64_t sum =
        ((inner.getOffset() + op.getOffset()) % slots + slots) % slots;
    op.getInputMutable().assign(inner.getInput());
    op.setOffset(sum);
    if (sum == 0)
      return op.getInput();
    return op.getResult();
  }
  if (op.getOffset() % slots == 0)
    return op.getInput();
  return {};
}

} // namespace ember
