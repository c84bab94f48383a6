// The RNS context: a parameter set turned into primes, NTT tables and the
// key-switching digit layout. Moduli are indexed globally: q_0..q_L first,
// then the special primes p_0..p_{K-1} at indices L+1..L+K, then the KLSS
// temporary primes t_0..t_{r'-1} at L+1+K..L+K+r' (when the set has a KLSS
// form). A polynomial's basis is a list of such indices.
#pragma once

#include "ember/modarith.h"
#include "ember/ntt.h"
#include "ember/security.h"

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <tuple>
#include <vector>

namespace ember {

/// Checks `spec` against the 128-bit bounds unless it names the insecure
/// test mode: the uniform-ternary table (maxLogQP128) or, for a fixed
/// Hamming weight, the sparse-secret figures (maxLogQPSparse128). Throws
/// SecurityError naming h (when sparse), log N, log QP and the bound. log QP
/// is spec.logQP(): a Context checks the nominal sizes first, then the bit
/// length of its primes' product (ember::logQP).
void checkSecurity(const ParamSpec &spec);

/// Constants of the fast base conversion from basis B to basis T (rns.h).
template <typename Word> struct BConvTable {
  std::vector<Word> hat_inv;       ///< [(B/b_i)^-1]_{b_i}, per source limb
  std::vector<Word> hat_inv_shoup; ///< its Shoup quotients
  std::vector<Word> half;          ///< floor(b_i / 2), the centring threshold
  std::vector<Word> hat_mod;       ///< [B/b_i]_{t}, |T| rows of |B| entries
  std::vector<Word> neg_b_mod;     ///< [-B]_{t}, per target limb
  std::vector<Word> inv_b_mod;     ///< [B^-1]_{t}, per target limb
};

template <typename Word> class Context {
public:
  /// Generates the primes from the bit sizes (ember::generateNttPrimes) after
  /// checking security and the shape (dnum, slot layout).
  explicit Context(const ParamSpec &spec);
  /// Explicit primes, for unit tests of primitives and for loading a
  /// serialized parameter set; still checked against `spec.security`.
  Context(const ParamSpec &spec, const std::vector<uint64_t> &q_primes,
          const std::vector<uint64_t> &p_primes,
          const std::vector<uint64_t> &t_primes = {});

  const ParamSpec &spec() const { return spec_; }
  int logN() const { return spec_.log_n; }
  size_t n() const { return size_t{1} << spec_.log_n; }
  size_t slotsMax() const { return n() / 2; }
  int maxLevel() const { return q_count_ - 1; }
  /// Primes a rescale divides by: 1, or 2 with double-prime scaling
  /// (ParamSpec::scale_primes).
  int scalePrimes() const { return spec_.scale_primes; }
  /// Q limbs of the lowest level: q_0, or with double-prime scaling q_0 and
  /// the base pair (ckks::baseLimbs in the compiler).
  int baseLimbs() const { return spec_.scale_primes == 2 ? 3 : 1; }
  int qCount() const { return q_count_; }
  int pCount() const { return p_count_; }
  /// Primes of Q u P (the ciphertext and key moduli; T is not counted).
  int moduliCount() const { return q_count_ + p_count_; }
  /// Every prime with tables: Q u P u T.
  int allModuliCount() const { return q_count_ + p_count_ + t_count_; }
  /// r', the number of KLSS temporary primes (0: no KLSS form).
  int tCount() const { return t_count_; }
  bool hasKlss() const { return t_count_ > 0; }

  const Modulus<Word> &modulus(int index) const { return moduli_[index]; }
  const NttTables<Word> &ntt(int index) const { return ntt_[index]; }
  /// q_0..q_L, p_0..p_{K-1}, t_0..t_{r'-1}.
  const std::vector<uint64_t> &primes() const { return primes_; }

  /// q_0..q_level.
  std::vector<int> qBasis(int level) const;
  /// p_0..p_{K-1} (global indices L+1..L+K).
  std::vector<int> pBasis() const;
  /// q_0..q_level followed by p_0..p_{K-1}.
  std::vector<int> qpBasis(int level) const;

  /// Key-switching digits: consecutive groups of Q limbs (last one may be
  /// shorter). digitLimbs(j, level) is digit j restricted to q_0..q_level;
  /// digitCount(level) how many digits have a limb at or below `level`.
  int digitCount(int level) const;
  std::vector<int> digitLimbs(int digit, int level) const;

  /// t_0..t_{r'-1} (global indices L+1+K..L+K+r').
  std::vector<int> tBasis() const;

  /// KLSS key groups (Athena 2.3): the primes of P u Q_L in the order
  /// p_0..p_{K-1}, q_0..q_L, cut into consecutive groups of gamma, so that
  /// the groups covering P u Q_l are a prefix. klssGroupCount(level) groups
  /// cover P u Q_level; klssGroupLimbs(j, level) is group j's global indices
  /// restricted to P u Q_level (the whole group at maxLevel()).
  int klssGamma() const { return spec_.klss_gamma; }
  int klssGroupCount(int level) const;
  std::vector<int> klssGroupLimbs(int group, int level) const;
  /// Bits of T the exact KLSS products need, log2(dnum) + log N +
  /// max log2(digit) + max log2(group) + 1, and the bits T has: the sum over
  /// the digits of one key switch of (digit, |d| <= 3D/2 after an exact
  /// conversion that may round to a neighbour) x (key group residue,
  /// |k| <= R/2) over N terms must stay below T/4 for the conversion back to
  /// round correctly. The constructor throws InvalidArgument when T is short.
  double klssTBitsNeeded() const;
  double klssTBits() const;

  /// Precomputed constants (computed once, shared by every backend):
  /// P^-1 mod q_i, for ModDown.
  Word pInv(int q_index) const { return p_inv_[q_index]; }
  /// q_l^-1 mod q_i (i < l), for rescale.
  Word qInv(int l, int i) const { return q_inv_[l * q_count_ + i]; }
  /// BConv constants from `from` to `to`, built on first use and cached
  /// (thread-safe; the reference stays valid for the context's lifetime).
  /// plain_modulus t != 0: the table of t BConv(x t^-1) (BGV's modulus
  /// switch, rns.h's modSwitchDown with t): hat_inv times t^-1 mod b_i,
  /// hat_mod and neg_b_mod times t mod each target prime.
  const BConvTable<Word> &bconvTable(const std::vector<int> &from,
                                     const std::vector<int> &to,
                                     uint64_t plain_modulus = 0) const;

  /// SHA-256 of the canonical description (log N, primes of Q, P and T,
  /// dnum, gamma, scale, secret distribution); serialized objects carry it.
  const std::array<uint8_t, 32> &hash() const { return hash_; }
  /// One-line description for messages: "B (N=2^16, 24 Q + 8 P limbs, dnum
  /// 3, log QP 1471)", naming 32-bit words and double-prime scaling.
  std::string describe() const;

private:
  void init(const std::vector<uint64_t> &q_primes,
            const std::vector<uint64_t> &p_primes,
            const std::vector<uint64_t> &t_primes);

  ParamSpec spec_;
  void checkKlss() const;

  int q_count_ = 0, p_count_ = 0, t_count_ = 0;
  std::vector<uint64_t> primes_;
  std::vector<Modulus<Word>> moduli_;
  std::vector<NttTables<Word>> ntt_;
  std::vector<int> digit_sizes_;
  std::vector<Word> p_inv_, q_inv_;
  std::array<uint8_t, 32> hash_{};
  mutable std::mutex bconv_mutex_;
  mutable std::map<std::tuple<std::vector<int>, std::vector<int>, uint64_t>,
                   std::unique_ptr<BConvTable<Word>>>
      bconv_tables_;
};

extern template class Context<uint32_t>;
extern template class Context<uint64_t>;

} // namespace ember
