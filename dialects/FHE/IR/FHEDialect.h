//===- FHEDialect.h - the fhe dialect -------------------------------------===//
//
// Scheme-agnostic encrypted slot vectors; see FHEDialect.td.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#include <cmath>

#include "dialects/FHE/IR/FHEDialect.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/FHE/IR/FHETypes.h.inc"

#define GET_OP_CLASSES
#include "dialects/FHE/IR/FHEOps.h.inc"

namespace ember::fhe {

/// `fhe.range`: on a function argument, the range its slots lie in, as the
/// program declares it (the frontend's `ranges=` or `inputset=`); on an op
/// (`fhe-annotate-ranges`), the range the analysis computed for its result.
/// `[lo, hi]`: real slots in [lo, hi] (imaginary parts 0);
/// `[re_lo, re_hi, im_lo, im_hi]`: complex slots, both parts bounded.
inline constexpr llvm::StringLiteral kRangeAttrName = "fhe.range";
/// On an op: `[lo, hi]`, what its real slots are known to lie in beyond
/// interval arithmetic (fhe-expand-poly-eval's Chebyshev T_n, |T_n| <= 1 on
/// the interval the user gave); the range analysis intersects with it.
inline constexpr llvm::StringLiteral kAssumeRangeAttrName = "fhe.assume_range";
/// Whether multiplying by the scalar c costs no level: a (small) integer,
/// which fhe-to-ckks lowers to ckks.mul_int.
inline bool isFreeFactor(double c) {
  return c == std::nearbyint(c) && std::fabs(c) <= double(1 << 30);
}
/// An argument without `fhe.range` lies in [-kDefaultBound, kDefaultBound]
/// (real slots): the usual CKKS convention of values in [-1, 1].
inline constexpr double kDefaultBound = 1.0;

/// Encrypted integers: at most this many bits.
inline constexpr unsigned kMaxIntWidth = 32;
/// fhe.int_lut: at most this many input bits (its circuit has 2^width
/// leaves per output bit).
inline constexpr unsigned kMaxLutInputWidth = 12;

/// Width and signedness of an encrypted integer type (width 0: not one).
struct IntShape {
  unsigned width = 0;
  bool isSigned = false;
  /// Whether v is a value of the type.
  bool fits(int64_t v) const;
};
IntShape getIntShape(mlir::Type type);

/// A closed interval of doubles.
struct Interval {
  double lo = 0, hi = 0;
};

/// The range of one slot: its real and imaginary parts.
struct SlotRange {
  Interval re, im;
};

/// The default range of an argument without `fhe.range`.
inline SlotRange defaultRange() {
  return {{-kDefaultBound, kDefaultBound}, {0, 0}};
}

/// Reads an `fhe.range` attribute (an array of 2 or 4 finite floats, each
/// pair with lo <= hi), or emits an error through `emitError`.
mlir::FailureOr<SlotRange>
parseRange(mlir::Attribute attr,
           llvm::function_ref<mlir::InFlightDiagnostic()> emitError);

/// The `fhe.range` attribute of `range` (two floats when the imaginary part
/// is exactly 0, else four).
mlir::ArrayAttr getRangeAttr(mlir::MLIRContext *ctx, const SlotRange &range);

} // namespace ember::fhe
