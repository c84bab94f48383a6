//===- RNSDialect.h - the rns dialect -----------------------------*- C++
//-*-===//
#pragma once

#include "mlir/IR/Dialect.h"

#include "dialects/RNS/IR/RNSDialect.h.inc"
