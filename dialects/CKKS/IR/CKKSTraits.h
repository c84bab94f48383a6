//===- CKKSTraits.h - op traits of the ckks dialect -----------------------===//
#pragma once

#include "mlir/IR/OpDefinition.h"

namespace ember::ckks {

namespace detail {
mlir::LogicalResult verifyNeedsLinearInput(mlir::Operation *op);
} // namespace detail

/// Ops that consume levels: rescale and mod_drop.
template <typename ConcreteType>
class ReducesLevel
    : public mlir::OpTrait::TraitBase<ConcreteType, ReducesLevel> {};

/// Ops whose ciphertext operands must have degree 2 (multiplication and
/// everything that key-switches c1). `ckks-insert-relin` relinearizes the
/// operands of these ops.
template <typename ConcreteType>
class NeedsLinearInput
    : public mlir::OpTrait::TraitBase<ConcreteType, NeedsLinearInput> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return detail::verifyNeedsLinearInput(op);
  }
};

/// Ops that perform a key switch (and so need an evaluation key).
template <typename ConcreteType>
class KeySwitching
    : public mlir::OpTrait::TraitBase<ConcreteType, KeySwitching> {};

} // namespace ember::ckks
