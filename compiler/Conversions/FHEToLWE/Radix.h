//===- Radix.h - encrypted integers as radix blocks -----------------------===//
//
// fhe-to-lwe's radix encoding (tfhe-rs's 2_2 blocks): a k-bit integer is
// ceil(k/2) blocks, least significant first, each holding 2 message bits
// (the top one 1 bit when k is odd) in a value of [0, 16): room for the
// carries of a sum before a table reads it. Blocks are `!lwe.block`s;
// between tables the builder keeps each block as a linear form over the
// wires (tables' outputs and inputs) with its exact value range and its
// noise weight nu2 = sum of squared coefficients, and emits `lwe.linear`
// only where a table or an output reads a form. A table whose output is
// constant over its input's range is folded, and one that is the identity
// there is skipped, so known operands and small ranges cost nothing.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "mlir/IR/Builders.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <functional>
#include <optional>
#include <string>

namespace ember::radix {

/// The largest noise weight the circuits build: a selection in a table of
/// more than 4 input bits, lut(4 x + a sum of four tables) (16 + 4).
inline constexpr int64_t kWorstNu2 = 20;

/// A block's value as x_1 w_1 + ... + c over wires w_i (`!lwe.block`
/// values), with its range [lo, hi].
struct Form {
  llvm::SmallVector<std::pair<mlir::Value, int64_t>, 2> terms;
  int64_t c = 0;
  int64_t lo = 0, hi = 0;
  bool known() const { return terms.empty(); }
  static Form constant(int64_t v) { return {{}, v, v, v}; }
};

/// A radix integer: its blocks, least significant first, and each block's
/// message bits (2, or 1 for the top block of an odd width).
struct Num {
  llvm::SmallVector<Form> blocks;
  llvm::SmallVector<unsigned> bits;
};

/// Builds radix circuits at one insertion point (see the file comment).
class Builder {
public:
  /// Tables must misread with probability at most 2^max_log2_failure
  /// (estimated by `ember::lwe::estimateNoise` for `params`).
  Builder(mlir::OpBuilder &b, mlir::Location loc, const std::string &params,
          double max_log2_failure);
  void setLoc(mlir::Location loc) { loc_ = loc; }

  /// Widths of the blocks of a k-bit integer.
  static llvm::SmallVector<unsigned> blockBits(unsigned width);
  /// A function argument's block (range [0, 2^bits - 1]).
  Form argument(mlir::Value v, unsigned bits);
  /// The blocks of a known integer.
  static Num constant(int64_t v, unsigned width);

  // Integer operations modulo 2^width (results' blocks clean: each within
  // [0, 2^bits - 1]).
  Num add(const Num &a, const Num &b);
  Num sub(const Num &a, const Num &b);
  Num mul(const Num &a, const Num &b);
  Num bitwise(const Num &a, const Num &b,
              const std::function<int64_t(int64_t, int64_t)> &f);
  Num bitNot(const Num &a);
  /// a < b (the sign bits' order flipped when `is_signed`), one bit.
  Form less(const Num &a, const Num &b, bool is_signed);
  Form equal(const Num &a, const Num &b);
  /// table[x] (x's bit pattern as the index) as an integer of `width`.
  Num lookup(const Num &x, llvm::ArrayRef<int64_t> table, unsigned width);

  /// A `!lwe.block` value of the form (what an output needs).
  mlir::Value materialize(const Form &f);

  /// The first internal error (an invariant a lowering broke), if any.
  const std::optional<std::string> &error() const { return error_; }
  /// The largest log2 failure probability of any table built.
  double worstLog2Failure() const { return worst_; }

private:
  /// Sum of the squared coefficients times the wires' own weights: the
  /// variance of the bootstrapped noise a form carries, in units of one
  /// table output's.
  int64_t nu2(const Form &f) const;
  /// The form as one wire whose range is [lo, hi] (narrower than interval
  /// arithmetic gives, e.g. a sum of which one term is nonzero).
  Form pin(const Form &f, int64_t lo, int64_t hi);
  Form add(const Form &a, const Form &b) const;
  Form scale(const Form &a, int64_t k) const;
  Form plus(const Form &a, int64_t k) const;
  Form rangeOf(Form f) const;
  /// f over a block's value: one table (folded where the range allows).
  Form lut(const Form &in, const std::function<int64_t(int64_t)> &f);
  /// f(x, y) of two clean blocks (x, y <= 3): lut(4 x + y).
  Form biv(const Form &x, const Form &y,
           const std::function<int64_t(int64_t, int64_t)> &f);
  /// The carries c_0 = 0 .. c_B of a sum whose blocks' states come from
  /// `state(i, shift, generate_only)`: (2 g + p) << shift, or g alone.
  llvm::SmallVector<Form>
  carries(unsigned count,
          const std::function<Form(unsigned, unsigned, bool)> &state);
  /// The clean sum of columns s_i (s_i <= 2 * 4 - 2; the top one's
  /// carry-out dropped).
  Num addColumns(llvm::ArrayRef<Form> s, llvm::ArrayRef<unsigned> bits);
  void fail(const std::string &what);

  mlir::OpBuilder &b_;
  mlir::Location loc_;
  mlir::Type block_;
  llvm::DenseMap<mlir::Value, std::pair<int64_t, int64_t>> range_;
  /// Wires that are not tables' outputs or inputs: their noise weight.
  llvm::DenseMap<mlir::Value, int64_t> weight_;
  std::function<double(int64_t)> log2_failure_;
  double max_log2_failure_;
  double worst_ = -1e300;
  std::optional<std::string> error_;
};

} // namespace ember::radix
