// The FHEW/TFHE evaluation keys' layout, shared by key generation
// (core/lwe.cpp) and the CPU evaluator (cpu/lwe.cpp); not public API.
#pragma once

#include "ember/lwe.h"
#include "ember/modarith.h"
#include "ember/ntt.h"

#include <cstdint>
#include <vector>

namespace ember::lwe {

struct EvaluationKeys::Impl {
  Params params;
  Modulus<uint32_t> ring_q;
  NttTables<uint32_t> ntt;
  int rows = 0; ///< RGSW rows: 2 (d - 1)
  /// The bootstrapping key, NTT form: for LWE coefficient i, key k (0: s_i
  /// = 1, 1: s_i = -1), row r, component c (0: a, 1: b), N words at
  /// bsk[(((i * 2 + k) * rows + r) * 2 + c) * N].
  std::vector<uint32_t> bsk;
  /// The key-switching key: for s' coefficient i, digit j and digit value
  /// v = 1 .. Bks - 1, the LWE encryption (a: n words, then b) of
  /// v Bks^j s'_i under s at q_ks, at ksk[((i * dks + j) * (Bks - 1) + v -
  /// 1) * (n + 1)]. (Digit value 0 adds nothing and is not stored.)
  std::vector<uint16_t> ksk;

  size_t ringN() const { return params.ringN(); }
  const uint32_t *rgsw(int i, int k) const {
    return bsk.data() + (size_t(i) * 2 + k) * rows * 2 * ringN();
  }
  const uint16_t *ksRow(size_t i, int j, uint32_t v) const {
    const size_t dks = params.digitsKs();
    return ksk.data() +
           ((i * dks + j) * (params.base_ks - 1) + v - 1) * (params.n + 1);
  }
};

} // namespace ember::lwe
