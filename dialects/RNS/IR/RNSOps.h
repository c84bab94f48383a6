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

namespace ember::rns::OpTrait {
/// Marks limb-wise elementwise ops: result limb i, coefficient j depends only
/// on the operands' limb i, coefficient j. Read by rns-fuse-elementwise and
/// the cost model.
template <typename ConcreteType>
class RNSElementwise
    : public mlir::OpTrait::TraitBase<ConcreteType, RNSElementwise> {};
} // namespace ember::rns::OpTrait

#define GET_OP_CLASSES
#include "dialects/RNS/IR/RNSOps.h.inc"
