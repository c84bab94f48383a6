// The FHEW/TFHE evaluation keys' layout and the linear forms each operation
// bootstraps, shared by key generation (core/lwe.cpp), the CPU evaluator
// (cpu/lwe.cpp) and the GPU one (cuda/lwe.cu); not public API.
#pragma once

#include "ember/errors.h"
#include "ember/lwe.h"
#include "ember/modarith.h"
#include "ember/ntt.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace ember::lwe {

struct EvaluationKeys::Impl {
  Params params;
  Modulus<uint32_t> ring_q;
  NttTables<uint32_t> ntt;
  /// Modulus raising (params.raising()): P and its NTT tables.
  Modulus<uint32_t> ring_p;
  NttTables<uint32_t> ntt_p;
  /// RGSW rows: 2 (d - 1); with modulus raising 2 (row r multiplies the
  /// accumulator's part r: 0 a, 1 b).
  int rows = 0;
  /// The bootstrapping key, NTT form: for LWE coefficient i, key k (GINX:
  /// 0 for s_i = 1, 1 for s_i = -1; AP: Params::apKeyIndex(digit, value)),
  /// row r, component c (0: a, 1: b), N words at bsk[(((i * K + k) * rows +
  /// r) * 2 + c) * N], K = keysPerCoefficient(): residues mod Q. With
  /// modulus raising bsk_p holds the same key's residues mod P (the key is
  /// an RLWE sample at P Q: P [s_i = +-1] added to component r of row r),
  /// else it is empty.
  std::vector<uint32_t> bsk, bsk_p;
  /// The key-switching key: for s' coefficient i, digit j and digit value
  /// v = 1 .. Bks - 1, the LWE encryption (a: n words, then b) of
  /// v Bks^j s'_i under s at q_ks, at ksk[((i * dks + j) * (Bks - 1) + v -
  /// 1) * (n + 1)]. (Digit value 0 adds nothing and is not stored.) Words
  /// of 16 bits in ksk, or of 32 in ksk32 where q_ks is above 2^16
  /// (Params::wideKeySwitch); the other is empty.
  std::vector<uint16_t> ksk;
  std::vector<uint32_t> ksk32;

  size_t ringN() const { return params.ringN(); }
  /// RGSW keys per LWE coefficient: 2 (GINX) or Params::apKeys (AP).
  int keysPerCoefficient() const { return params.ap() ? params.apKeys() : 2; }
  const uint32_t *rgsw(int i, int k) const {
    return bsk.data() +
           (size_t(i) * keysPerCoefficient() + k) * rows * 2 * ringN();
  }
  /// The residues mod P of key (i, k) (modulus raising).
  const uint32_t *rgswP(int i, int k) const {
    return bsk_p.data() + (size_t(i) * 2 + k) * rows * 2 * ringN();
  }
  /// P and its tables where the set raises, the row count; the keys empty.
  void setUp(const Params &p) {
    params = p;
    ring_q = Modulus<uint32_t>(p.ring_q);
    ntt = NttTables<uint32_t>(p.log_ring, ring_q);
    if (p.raising()) {
      ring_p = Modulus<uint32_t>(p.ring_p);
      ntt_p = NttTables<uint32_t>(p.log_ring, ring_p);
    }
    rows = p.raising() ? 2 : 2 * (p.digitsG() - 1);
  }
  /// Row (i, j, v) of the key-switching key, W its word type.
  template <typename W> const W *ksRow(size_t i, int j, uint32_t v) const {
    const size_t dks = params.digitsKs();
    const W *base;
    if constexpr (sizeof(W) == 2)
      base = ksk.data();
    else
      base = ksk32.data();
    return base +
           ((i * dks + j) * (params.base_ks - 1) + v - 1) * (params.n + 1);
  }
  size_t keySwitchWords() const { return ksk.size() + ksk32.size(); }
};

/// psi^e mod m for e < 2N (psi a primitive 2N-th root): the monomials
/// X^e in NTT form, with slotExponents.
inline std::vector<uint32_t> psiPowers(const Modulus<uint32_t> &m, uint32_t psi,
                                       size_t big_n) {
  std::vector<uint32_t> pw(2 * big_n);
  pw[0] = 1;
  for (size_t e = 1; e < 2 * big_n; ++e)
    pw[e] = m.mul(pw[e - 1], psi);
  return pw;
}
/// 2 brev(j) + 1 for the N slots of NttTables::forward: slot j evaluates X
/// at psi^(2 brev(j) + 1).
inline std::vector<uint32_t> slotExponents(int log_n) {
  std::vector<uint32_t> ebr(size_t{1} << log_n);
  for (size_t j = 0; j < ebr.size(); ++j)
    ebr[j] = 2 * bitReverse(static_cast<uint32_t>(j), log_n) + 1;
  return ebr;
}

/// x a + y b + c (mod q): what an operation bootstraps. The words wrap
/// modulo 2^32, which q (a power of two) divides, so -1 is 0u - 1.
struct Linear {
  uint32_t x, y, c;
};

/// Gate g on bits at m q / 4: the phase of a + b is 0, q/4 or q/2 for 0, 1
/// or 2 inputs set; the shift makes the output bit the sign of the phase,
/// q/8 from the nearest edge (XOR and XNOR: twice the sum, whose 0 and 2
/// coincide; noise and margin both double).
inline Linear gateLinear(Gate g, uint32_t q) {
  const uint32_t q8 = q / 8;
  switch (g) {
  case Gate::And:
    return {1, 1, 0u - 3 * q8};
  case Gate::Or:
    return {1, 1, 0u - q8};
  case Gate::Nand:
    return {0u - 1, 0u - 1, 3 * q8};
  case Gate::Nor:
    return {0u - 1, 0u - 1, q8};
  case Gate::Xor:
    return {2, 2, 0u - 2 * q8};
  case Gate::Xnor:
    return {0u - 2, 0u - 2, 2 * q8};
  }
  throw InvalidArgument("gate: unknown gate");
}
/// MUX(sel, t, f) = AND(sel, t) + AND(NOT sel, f), the two summed before
/// one key switch (at most one is set: the sum is a bit).
inline Linear muxTrue(uint32_t q) { return gateLinear(Gate::And, q); }
inline Linear muxFalse(uint32_t q) { return {0u - 1, 1, q / 4 - 3 * (q / 8)}; }
/// A bit's own sign bootstrap (b - q/8) and NOT (q/4 - a).
inline Linear refreshLinear(uint32_t q) { return {1, 0, 0u - q / 8}; }
inline Linear notLinear(uint32_t q) { return {0u - 1, 0, q / 4}; }
/// Delta = round(Q / 2t): a radix block's scale, and a table entry's in
/// lutTestVector.
inline uint32_t blockDelta(uint32_t big_q, uint32_t t) {
  return static_cast<uint32_t>((uint64_t(big_q) + t) / (2 * uint64_t(t)));
}
/// x mod m in [0, m), x signed.
inline uint32_t reduceSigned(int64_t x, uint32_t m) {
  const int64_t r = x % int64_t(m);
  return static_cast<uint32_t>(r < 0 ? r + m : r);
}
/// A radix circuit's kLinear (x, y, c) as residues mod Q: x w[a] + y w[b] +
/// c on every word (c on b only), c already times Delta.
struct BlockForm {
  uint32_t x, y, c;
};
inline BlockForm blockForm(const std::array<int32_t, 3> &f, uint32_t big_q,
                           uint32_t delta) {
  return {reduceSigned(f[0], big_q), reduceSigned(f[1], big_q),
          reduceSigned(int64_t(f[2]) * delta, big_q)};
}
/// A radix block's checks: modulus Q and dimension N.
inline void checkBlock(const Ciphertext &ct, const Params &p,
                       const std::string &what) {
  if (ct.modulus != p.ring_q || ct.a.size() != p.ringN())
    throw InvalidArgument(
        what +
        ": expected a radix block (dimension N = " + std::to_string(p.ringN()) +
        " at Q = " + std::to_string(p.ring_q) + "), got dimension " +
        std::to_string(ct.a.size()) + " at " + std::to_string(ct.modulus));
}

/// round(Q / 8): the sign test vector's value, and what lifts its +-Q/8 to
/// a bit at Q/4 after extraction.
inline uint32_t roundedEighth(uint32_t big_q) { return (big_q + 4) / 8; }

} // namespace ember::lwe
