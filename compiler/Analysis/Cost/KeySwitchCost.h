//===- KeySwitchCost.h - time model of hybrid and KLSS key switching ------===//
//
// Work counts of one key switch (or one hoisted group) under hybrid and KLSS
// key switching, and their conversion to microseconds with per-unit
// constants measured on an H200. Read by rns-select-keyswitch (the choice)
// and ember-cost-report (the report). See compiler/README.md, "Key-switch
// cost model".
//
//===----------------------------------------------------------------------===//
#pragma once

#include "dialects/CKKS/IR/CKKSDialect.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <string>

namespace ember {

/// Per-unit times of the model, at N = 2^16 on one H200 (64-bit words;
/// forWord(32) for 32-bit words).
/// Calibrated (least squares by hand) against our hybrid implementation:
/// hmul+relin at log N = 16 measured 444 us (set B: L+1 = 24, K = 8,
/// dnum 3), 1022 us (A: 36, 4, 9), 532 us (C: 26, 7, 4); the model gives
/// 442, 1040 and 524. The NTT constant is the rule of thumb (one batched
/// 2^16-point NTT of one limb: 1.0-1.3 us); the BConv/inner-product MAC
/// constants and `fixedUs` are what the three points then leave (they
/// cannot separate BConv from inner-product MACs: their ratios are nearly
/// the same in A, B and C, so both get one value until KLSS is measured).
/// Change them here, or per run with the `constants` option of
/// rns-select-keyswitch ("ntt=1.1,ip-mac=0.2,...").
struct KeySwitchConstants {
  /// One N = 2^16 (I)NTT of one limb, batched launch (scales N log N).
  double nttLimbUs = 1.15;
  /// One multiply-add per coefficient of a fast BConv (N MACs; scales N).
  double bconvMacUs = 0.18;
  /// The same for an exact BConv (Athena 2.2: plus the rounding in double).
  double exactBconvMacUs = 0.20;
  /// One inner-product multiply-add per coefficient (N MACs; scales N).
  double ipMacUs = 0.18;
  /// Effective DRAM bandwidth for key reads and automorphisms (GB/s; the
  /// H200's HBM3e peaks at 4800).
  double dramGBps = 4000;
  /// Per inner product: launches, the ModDown subtract/scale and the
  /// surrounding elementwise kernels (tensor product, additions).
  double fixedUs = 25;

  /// The constants at `word`-bit words (32 or 64). At 32 bits a limb
  /// holds half the bits and each unit costs less; the ratios are the
  /// H100's measured 32/64-bit primitive times at N = 2^16 (bench/RESULTS.md,
  /// "32-bit vs 64-bit words": per limb an NTT takes 0.42x, a BConv MAC
  /// 0.24x, an inner-product MAC 0.48x), and the result matches the H200's
  /// cheddar32 key switch: hmul+relin 412 us predicted at 47 limbs against
  /// 411 measured, 161 against 189 at 23 limbs.
  static KeySwitchConstants forWord(int64_t word);
  /// Parses "ntt=1.1,bconv-mac=0.2,exact-bconv-mac=..,ip-mac=..,dram-gbps=..,
  /// fixed=.." over the defaults; returns an error message or "".
  std::string parse(llvm::StringRef spec);
  void print(llvm::raw_ostream &os) const;
};

/// What one key switch (or a hoisted group) does, N-independent counts per
/// coefficient except the bytes.
struct KeySwitchWork {
  double nttLimbs = 0;       ///< NTT + INTT limb-transforms
  double bconvMacs = 0;      ///< fast BConv multiply-adds per coefficient
  double exactBconvMacs = 0; ///< exact BConv multiply-adds per coefficient
  double ipMacs = 0;         ///< inner-product multiply-adds per coefficient
  double keyBytes = 0;       ///< evaluation-key bytes read
  double otherBytes = 0;     ///< automorphism traffic
  int64_t innerProducts = 0;

  double us(const KeySwitchConstants &c, int64_t logN) const;
};

/// The shape of one key-switch group: `innerProducts` key products (one
/// per rotation, or the relinearisation), `automorphisms` of raised digits
/// (one per digit and hoisted rotation: the rns.automorphism ops on ModUp's
/// results), `modDowns` ModDowns of accumulator pairs.
struct KeySwitchGroup {
  int64_t level = 0;
  int64_t innerProducts = 1;
  int64_t automorphisms = 0;
  int64_t modDowns = 1;
  /// Automorphisms of level-l ciphertext polynomials outside the group (a
  /// plain rotation permutes c0 and c1 before its key switch): the same in
  /// both methods; counted so that a predicted rotation is a whole one.
  int64_t inputAutomorphisms = 0;
};

/// Work of the group under hybrid key switching (Phantom III-D): ModUp of
/// the digits, per product dnum x (l+1+K) MACs and key limbs, ModDown.
KeySwitchWork hybridWork(ckks::ParamsAttr params, const KeySwitchGroup &g);
/// Work under KLSS (Athena 2.3): exact BConv of the digits to T, NTT over
/// T; per product groups x digits x r' MACs, INTT over T, exact BConv back;
/// ModDown in coefficient form, NTT of Q_l. Needs params.hasKlss().
KeySwitchWork klssWork(ckks::ParamsAttr params, const KeySwitchGroup &g);

} // namespace ember
