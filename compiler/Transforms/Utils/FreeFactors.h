//===- FreeFactors.h - multiplications that cost no level -----------------===//
//
// A multiplication by an integer splat constant is a `ckks.mul_int` and one
// by +-i a `ckks.mul_i`: neither encodes nor rescales, so neither costs a
// level. fhe-to-ckks (its depth analysis and its rewrite) and the bootstrap
// placement count levels with these.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialects/FHE/IR/FHEDialect.h"

#include "mlir/IR/Operation.h"
#include "mlir/IR/Value.h"

#include <cstdint>
#include <optional>

namespace ember {

/// The value of a splat constant that is a (small) integer: an fhe.constant,
/// or the ckks.encode it became during fhe-to-ckks's rewrite.
std::optional<int64_t> integerSplat(mlir::Value v);
/// The integer of `fhe.mul x, c` when c is an integer splat constant.
std::optional<int64_t> integerFactor(fhe::MulOp mul);
/// +1 or -1 when `v` is the constant i or -i in every slot (an fhe.constant
/// or the ckks.encode it became).
std::optional<int> imaginaryUnitSplat(mlir::Value v);
std::optional<int> imaginaryUnitFactor(fhe::MulOp mul);
/// Levels an fhe op uses along its path: 1 for an fhe.mul other than by an
/// integer or +-i, 0 otherwise (a bootstrap resets the count instead).
int64_t levelsUsed(mlir::Operation *op);

} // namespace ember
