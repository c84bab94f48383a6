//===- RNSOps.h - rns operations -----------------------------------*- C++
//-*-===//
#pragma once

#include "dialects/RNS/IR/RNSDialect.h"
#include "dialects/RNS/IR/RNSTypes.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace ember::rns {
/// Checks every rns type among `op`'s operands and results against the
/// `#ckks.params` of the enclosing module, when there are any: Q, P and T
/// ranges within the chain (q[..:hi] with hi <= L+1, p[..:hi] with hi <= K,
/// t[..:hi] with hi <= |T|), hybrid keys over exactly Q_L u P, KLSS keys
/// over exactly T with the parameters' digits and key groups.
mlir::LogicalResult verifyTypesAgainstParams(mlir::Operation *op);
/// Checks a Galois element: odd, positive and, under `#ckks.params`, below
/// 2N.
mlir::LogicalResult verifyGaloisElement(mlir::Operation *op, int64_t galois);
} // namespace ember::rns

namespace ember::rns::OpTrait {
/// Every rns op: its types fit the module's parameters.
template <typename ConcreteType>
class RNSWithinParams
    : public mlir::OpTrait::TraitBase<ConcreteType, RNSWithinParams> {
public:
  static mlir::LogicalResult verifyTrait(mlir::Operation *op) {
    return verifyTypesAgainstParams(op);
  }
};

/// Marks limb-wise elementwise ops: result limb i, coefficient j depends only
/// on the operands' limb i, coefficient j. Read by rns-fuse-elementwise and
/// the cost model.
template <typename ConcreteType>
class RNSElementwise
    : public mlir::OpTrait::TraitBase<ConcreteType, RNSElementwise> {};
} // namespace ember::rns::OpTrait

#define GET_OP_CLASSES
#include "dialects/RNS/IR/RNSOps.h.inc"
