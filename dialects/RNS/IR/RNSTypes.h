//===- RNSTypes.h - rns types --------------------------------------*- C++
//-*-===//
#pragma once

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Types.h"

#include "dialects/RNS/IR/RNSAttributes.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/RNS/IR/RNSTypes.h.inc"
