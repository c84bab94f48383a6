//===- CKKSDialect.h - the ckks dialect -----------------------------------===//
//
// CKKS ciphertexts typed with level, exact scale and degree; see
// CKKSDialect.td. Include this header for the dialect, attributes, types,
// traits and ops.
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
#include "llvm/ADT/bit.h"

#include <vector>

#include "dialects/CKKS/IR/CKKSDialect.h.inc"
#include "dialects/CKKS/IR/CKKSTraits.h"

namespace ember::ckks {
/// Q primes of level 0: q_0 alone (one scale prime), or q_0 and the first
/// pair (double-prime scaling: a 30-bit q_0 alone holds no value at a
/// pair's scale).
int64_t baseLimbs(int64_t scalePrimes);
/// The chain by level: entry l >= 1 is the divisor of the rescale from
/// level l (q_l, or the product of level l's pair); entry 0 is q_0, or 0
/// with two scale primes (the base modulus exceeds 64 bits: baseBits).
std::vector<uint64_t> levelModuli(llvm::ArrayRef<uint64_t> q,
                                  int64_t scalePrimes);
/// log2 of the level-0 modulus.
double baseBits(llvm::ArrayRef<uint64_t> q, int64_t scalePrimes);

} // namespace ember::ckks

#define GET_ATTRDEF_CLASSES
#include "dialects/CKKS/IR/CKKSAttributes.h.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/CKKS/IR/CKKSTypes.h.inc"

#define GET_OP_CLASSES
#include "dialects/CKKS/IR/CKKSOps.h.inc"

namespace ember::ckks {

/// Relative tolerance of scale comparisons (scales are exact doubles; the
/// tolerance only absorbs rounding of products and quotients).
constexpr double kScaleTolerance = 1e-9;

/// Unit attribute on the ckks.mul_plain ops that ckks-manage-levels inserts
/// to match scales (so that a later run can remove them).
constexpr llvm::StringLiteral kScaleAdjustAttrName = "ckks.scale_adjust";

/// A scale as the ckks types print it: 17 significant digits (which
/// round-trip every double) and always a '.', as the MLIR lexer needs.
std::string formatScale(double scale);

/// Bits of T that exact KLSS products need (the runtime's
/// Context::klssTBitsNeeded): log2(digits) + logN + the largest digit's bits
/// + the largest key group's bits (gamma primes of p_0..p_{K-1},
/// q_0..q_L) + 1.
double klssTBitsNeeded(int64_t logN, llvm::ArrayRef<uint64_t> q,
                       llvm::ArrayRef<uint64_t> p, int64_t dnum, int64_t gamma);
/// Sum of log2 of the primes.
double log2Product(llvm::ArrayRef<uint64_t> primes);
/// Bits of each KLSS temporary prime chosen automatically at `word`-bit
/// words: the largest primes the word holds (61 at 64 bits, as the named
/// sets' T; 30 at 32 bits).
constexpr int tempPrimeBits(int64_t word) { return word == 32 ? 30 : 61; }
/// The fewest tempPrimeBits(word)-bit NTT primes, distinct from q and p,
/// whose product holds klssTBitsNeeded: the T of a KLSS form chosen by the
/// compiler (fhe-to-ckks klss-gamma, rns-select-keyswitch klss-form).
/// Throws ember::Error when no such primes exist.
std::vector<uint64_t> fewestTPrimes(int64_t logN, llvm::ArrayRef<uint64_t> q,
                                    llvm::ArrayRef<uint64_t> p, int64_t dnum,
                                    int64_t gamma, int64_t word);

/// True when two scales are equal up to kScaleTolerance.
bool scalesMatch(double a, double b);

/// The canonical scale of each level 0..L of the chain `q`, as
/// ember::generateQChain tracks it. The primes after q_0 form runs of equal
/// size (log2 q_l rounded). The lowest run starts at 2^logScale at its top
/// level; every run above it at 2^bits (a program that bootstraps has a
/// 60-bit run for the procedure above the program's own levels). Within a
/// run S_{l-1} = S_l^2 / q_l, what a product of two values at S_l gives
/// when rescaled; below a run's lowest level l, S_{l-1} is the next run's
/// start, reached by a plaintext product encoded at q_l S_{l-1} / S_l
/// (ckks-manage-levels).
std::vector<double> levelScales(llvm::ArrayRef<uint64_t> q, int64_t logScale);

/// Whether the rescale from `level` crosses from one run to the next, given
/// the chain's levelScales: S_{level-1} != S_level^2 / q_level.
bool isRunBoundary(llvm::ArrayRef<uint64_t> q,
                   llvm::ArrayRef<double> levelScales, int64_t level);

/// The top level of the lowest run (L for a uniform chain): where fresh
/// ciphertexts start, at scale 2^logScale. The runs above are the
/// bootstrapping procedure's.
int64_t inputLevel(llvm::ArrayRef<uint64_t> q);

} // namespace ember::ckks
