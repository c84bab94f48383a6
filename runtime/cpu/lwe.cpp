// FHEW/TFHE on the CPU: blind rotation (GINX, ternary keys), sample
// extraction, LWE key and modulus switching, gates and lookup tables
// (ember/lwe.h).
//
// Cost of one bootstrap: n blind-rotation steps, each 2 inverse and 2(d-1)
// forward NTTs of N points and 4 (d-1) 2 multiply-adds per coefficient (two
// RGSW keys, two components), then one key switch (N d_ks rows of n + 1
// words). At STD128 (n 556, N 1024, d - 1 = 3): 4448 NTTs and 13.7 M
// multiply-adds, and 3072 key rows.

#include "ember/lwe.h"

#include "../core/lwe_internal.h"
#include "clones.h"
#include "ember/errors.h"

#include <algorithm>
#include <atomic>
#include <thread>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace ember::lwe {

struct Evaluator::Scratch {
  /// [a | b], NTT form (gadget decomposition) or coefficient form (modulus
  /// raising)
  std::vector<uint32_t> acc;
  std::vector<uint32_t> coeff;  ///< [a | b], coefficient form
  std::vector<uint32_t> digits; ///< 2 x rows x N, NTT form (two steps)
  std::vector<uint64_t> sum;    ///< [component][key] x N, unreduced
  std::vector<uint32_t> pw;     ///< psi^e mod Q, e < 2N
  /// Modulus raising: the lifted accumulator and the products, [prime Q,
  /// P][part][N] each, and psi_P^e mod P.
  std::vector<uint32_t> hat, prod, pw_p;
  std::vector<uint32_t> ebr; ///< 2 brev(j) + 1: slot j evaluates X at psi^ebr
  std::vector<uint32_t> sign_tv; ///< Q/8 in every coefficient
};

namespace {

/// X^e tv in Z_Q[X]/(X^N + 1), e in [0, 2N): a negacyclic rotation.
void rotateNegacyclic(const uint32_t *tv, size_t big_n, uint32_t e, uint32_t q,
                      uint32_t *out) {
  for (size_t j = 0; j < big_n; ++j) {
    // X^j -> X^(j + e); past N the sign flips, past 2N it flips back.
    const size_t t = (j + e) % (2 * big_n);
    const uint32_t v = tv[j];
    if (t < big_n)
      out[t] = v;
    else
      out[t - big_n] = v == 0 ? 0 : q - v;
  }
}

void checkInput(const Ciphertext &ct, const Params &p, const char *what) {
  if (ct.modulus != p.q || ct.a.size() != size_t(p.n))
    throw InvalidArgument(std::string(what) + ": expected an LWE ciphertext " +
                          "of dimension " + std::to_string(p.n) +
                          " at q = " + std::to_string(p.q) +
                          ", got dimension " + std::to_string(ct.a.size()) +
                          " at " + std::to_string(ct.modulus));
}

/// l.x a + l.y b + l.c (mod q, a power of two: wrapping arithmetic is
/// exact).
Ciphertext combine(Linear l, const Ciphertext &a, const Ciphertext *b) {
  Ciphertext out;
  out.modulus = a.modulus;
  const uint32_t mask = a.modulus - 1;
  out.a.resize(a.a.size());
  for (size_t i = 0; i < a.a.size(); ++i)
    out.a[i] = (l.x * a.a[i] + (b ? l.y * b->a[i] : 0)) & mask;
  out.b = (l.x * a.b + (b ? l.y * b->b : 0) + l.c) & mask;
  return out;
}

/// The barrier between a blind-rotation step's two phases (hundreds per
/// bootstrap): spins, then yields. OpenMP's own barrier spins for a long
/// time before it sleeps, which under oversubscription (two processes of
/// two threads on two cores, as ctest -j2 runs) costs milliseconds per
/// step; yielding lets the late thread run.
class StepBarrier {
public:
  void wait(int team) {
    if (team < 2)
      return;
    const int gen = gen_.load(std::memory_order_acquire);
    if (count_.fetch_add(1, std::memory_order_acq_rel) + 1 == team) {
      count_.store(0, std::memory_order_relaxed);
      gen_.fetch_add(1, std::memory_order_release);
      return;
    }
    for (int spins = 0; gen_.load(std::memory_order_acquire) == gen; ++spins)
      if (spins > 256)
        std::this_thread::yield();
  }

private:
  std::atomic<int> count_{0}, gen_{0};
};

/// Runs body(tid, team, barrier) on a team of at most two threads (one per
/// accumulator part or prime) sharing one StepBarrier.
template <typename Body> void inTeamOfTwo(Body body) {
  int threads = 1;
#ifdef _OPENMP
  threads = std::min(2, omp_get_max_threads());
#endif
  StepBarrier barrier;
#pragma omp parallel num_threads(threads)
  {
    int tid = 0, team = 1;
#ifdef _OPENMP
    tid = omp_get_thread_num();
    team = omp_get_num_threads();
#endif
    body(tid, team, barrier);
  }
}

/// Signed digits 1 .. d-1 of the N coefficients c (OpenFHE's
/// SignedDigitDecompose, the lowest digit dropped) as residues mod Q, digit
/// d to row 2(d-1) of `rows` (rows N words apart, each part's rows
/// interleaved). Digits in [-Bg/2, Bg/2) are the unsigned digits of v + C,
/// C = sum_(k < d-1) Bg/2 Bg^k, less Bg/2; the top digit takes the rest.
EMBER_WIDE_CLONES void decompose(const uint32_t *c, uint32_t *rows,
                                 size_t big_n, int digits, int log_bg,
                                 int32_t offset, int32_t half, uint32_t q) {
  const int32_t half_q = int32_t(q / 2), q32 = int32_t(q);
  const int32_t bg_mask = 2 * half - 1;
  for (int d = 1; d <= digits; ++d) {
    uint32_t *dst = rows + size_t(2 * (d - 1)) * big_n;
    const int shift = d * log_bg;
    for (size_t j = 0; j < big_n; ++j) {
      const int32_t v = int32_t(c[j]) - (int32_t(c[j]) > half_q ? q32 : 0);
      const int32_t u = v + offset;
      const int32_t r =
          d < digits ? ((u >> shift) & bg_mask) - half : (u >> shift);
      dst[j] = uint32_t(r + (q32 & (r >> 31)));
    }
  }
}

/// Component c of both external products: sum over rows of digit x key
/// row, unreduced (rows Q^2 < 2^64 for Q < 2^28).
EMBER_WIDE_CLONES void externalProducts(const uint32_t *dig,
                                        const uint32_t *key0,
                                        const uint32_t *key1, int c, int rows,
                                        size_t big_n, uint64_t *sum0,
                                        uint64_t *sum1) {
  std::fill(sum0, sum0 + big_n, 0);
  std::fill(sum1, sum1 + big_n, 0);
  for (int r = 0; r < rows; ++r) {
    const uint32_t *d = dig + size_t(r) * big_n;
    const uint32_t *row0 = key0 + size_t(2 * r + c) * big_n;
    const uint32_t *row1 = key1 + size_t(2 * r + c) * big_n;
    for (size_t j = 0; j < big_n; ++j) {
      sum0[j] += uint64_t(d[j]) * row0[j];
      sum1[j] += uint64_t(d[j]) * row1[j];
    }
  }
}

/// Component c of one external product (AP), unreduced.
EMBER_WIDE_CLONES void externalProduct(const uint32_t *dig, const uint32_t *key,
                                       int c, int rows, size_t big_n,
                                       uint64_t *sum) {
  std::fill(sum, sum + big_n, 0);
  for (int r = 0; r < rows; ++r) {
    const uint32_t *d = dig + size_t(r) * big_n;
    const uint32_t *row = key + size_t(2 * r + c) * big_n;
    for (size_t j = 0; j < big_n; ++j)
      sum[j] += uint64_t(d[j]) * row[j];
  }
}

/// acc += (X^m - 1) sum0 + (X^-m - 1) sum1 in NTT form: slot j evaluates X
/// at psi^ebr[j].
void addMonomialProducts(uint32_t *acc, const uint64_t *sum0,
                         const uint64_t *sum1, uint32_t m, const uint32_t *ebr,
                         const uint32_t *pw, uint32_t mask,
                         const Modulus<uint32_t> &mq, size_t big_n) {
  for (size_t j = 0; j < big_n; ++j) {
    const uint32_t e = m * ebr[j] & mask;
    const uint64_t fp = mq.sub(pw[e], 1), fm = mq.sub(pw[-e & mask], 1);
    acc[j] =
        mq.reduce(acc[j] + mq.reduce(sum0[j]) * fp + mq.reduce(sum1[j]) * fm);
  }
}

} // namespace

Ciphertext modSwitch(const Ciphertext &ct, uint32_t to) {
  if (ct.modulus == 0 || to == 0)
    throw InvalidArgument("modSwitch: zero modulus");
  Ciphertext out;
  out.modulus = to;
  const uint64_t from = ct.modulus;
  auto sw = [&](uint32_t x) {
    return static_cast<uint32_t>(((uint64_t(x) * to + from / 2) / from) % to);
  };
  out.a.resize(ct.a.size());
  std::transform(ct.a.begin(), ct.a.end(), out.a.begin(), sw);
  out.b = sw(ct.b);
  return out;
}

Evaluator::Evaluator(const EvaluationKeys &keys)
    : keys_(keys), scratch_(std::make_unique<Scratch>()) {
  const EvaluationKeys::Impl &k = keys.impl();
  const size_t big_n = k.ringN();
  Scratch &s = *scratch_;
  s.acc.resize(2 * big_n);
  s.coeff.resize(2 * big_n);
  s.digits.resize(2 * size_t(k.rows) * big_n);
  s.sum.resize(4 * big_n);
  const Modulus<uint32_t> &mq = k.ring_q;
  s.pw = psiPowers(mq, k.ntt.psi(), big_n);
  if (k.params.raising()) {
    s.pw_p = psiPowers(k.ring_p, k.ntt_p.psi(), big_n);
    s.hat.resize(4 * big_n);
    s.prod.resize(4 * big_n);
  }
  s.ebr = slotExponents(k.params.log_ring);
  s.sign_tv.assign(big_n, roundedEighth(mq.value()));
}

Evaluator::~Evaluator() = default;

const Params &Evaluator::params() const { return keys_.params(); }

std::vector<uint32_t> Evaluator::blindRotate(const Ciphertext &ct,
                                             const std::vector<uint32_t> &tv) {
  const EvaluationKeys::Impl &k = keys_.impl();
  const Params &p = k.params;
  checkInput(ct, p, "blindRotate");
  const size_t big_n = p.ringN();
  if (tv.size() != big_n)
    throw InvalidArgument("blindRotate: the test vector has " +
                          std::to_string(tv.size()) +
                          " coefficients, N = " + std::to_string(big_n));
  const Modulus<uint32_t> &mq = k.ring_q;
  const uint32_t big_q = mq.value();
  const uint32_t mask = static_cast<uint32_t>(2 * big_n - 1);
  const uint32_t f = static_cast<uint32_t>(2 * big_n / p.q);
  Scratch &s = *scratch_;
  uint32_t *acc_a = s.acc.data(), *acc_b = acc_a + big_n;
  // acc = (0, X^(-b f) tv).
  std::fill(acc_a, acc_a + big_n, 0);
  rotateNegacyclic(tv.data(), big_n, (2 * big_n - (ct.b * f & mask)) & mask,
                   big_q, acc_b);
  if (p.raising())
    return blindRotateRaising(ct);
  k.ntt.forward(acc_b);

  const int rows = k.rows, digits = rows / 2;
  const int log_bg = p.logBaseG();
  const int32_t half = int32_t(p.base_g / 2);
  int32_t offset = 0; // C of decompose()
  for (int d = 0; d < digits; ++d)
    offset += half << (d * log_bg);

  // Two threads at most: thread t owns part t of the accumulator (a or b)
  // in both phases of a step, so one barrier per step suffices; the digits
  // alternate between two buffers so that a thread that runs ahead into
  // the next step's first phase does not overwrite digits still read.
  inTeamOfTwo([&](int tid, int team, StepBarrier &barrier) {
    // GINX: one step per coefficient a_i (m = a_i 2N/q; 0 rotates
    // nothing); AP: one per nonzero digit v of a_i in base B_r (by
    // RGSW(X^(s_i v B_r^k 2N/q)); v = 0 multiplies by 1).
    const int digits_r = p.ap() ? p.digitsR() : 1;
    const int log_br = p.ap() ? detail::log2Exact(p.base_r) : 0;
    int step = 0;
    for (int i = 0; i < p.n; ++i) {
      for (int kd = 0; kd < digits_r; ++kd) {
        const uint32_t m = ct.a[i] * f & mask;
        const uint32_t v = (ct.a[i] >> (kd * log_br)) & (p.base_r - 1);
        if (p.ap() ? v == 0 : m == 0)
          continue;
        uint32_t *dig = s.digits.data() + size_t(step & 1) * rows * big_n;
        ++step;
        // Phase 1, per part: coefficient form, the signed digits (OpenFHE's
        // SignedDigitDecompose, the lowest digit dropped), their NTTs.
        for (int part = tid; part < 2; part += team) {
          uint32_t *c = s.coeff.data() + part * big_n;
          std::copy_n(s.acc.data() + part * big_n, big_n, c);
          k.ntt.inverse(c);
          decompose(c, dig + size_t(part) * big_n, big_n, digits, log_bg,
                    offset, half, big_q);
          for (int d = 1; d <= digits; ++d)
            k.ntt.forward(dig + size_t(2 * (d - 1) + part) * big_n);
        }
        barrier.wait(team);
        // Phase 2, per component c. GINX: both external products (sums
        // over rows of digit x key row, reduced once: rows Q^2 < 2^64 for Q
        // < 2^28), then acc_c += (X^m - 1) (acc x RGSW(s_i = 1))_c + (X^-m
        // - 1) (acc x RGSW(s_i = -1))_c; slot j evaluates X at psi^ebr[j].
        // AP: acc_c = (acc x RGSW(X^e))_c.
        for (int c = tid; c < 2; c += team) {
          uint64_t *sum0 = s.sum.data() + size_t(2 * c) * big_n;
          uint64_t *sum1 = sum0 + big_n;
          uint32_t *acc = s.acc.data() + size_t(c) * big_n;
          if (p.ap()) {
            externalProduct(dig, k.rgsw(i, p.apKeyIndex(kd, v)), c, rows, big_n,
                            sum0);
            for (size_t j = 0; j < big_n; ++j)
              acc[j] = mq.reduce(sum0[j]);
            continue;
          }
          externalProducts(dig, k.rgsw(i, 0), k.rgsw(i, 1), c, rows, big_n,
                           sum0, sum1);
          addMonomialProducts(acc, sum0, sum1, m, s.ebr.data(), s.pw.data(),
                              mask, mq, big_n);
        }
      }
    }
  });
  std::vector<uint32_t> out(s.acc);
  k.ntt.inverse(out.data());
  k.ntt.inverse(out.data() + big_n);
  return out;
}

std::vector<uint32_t> Evaluator::blindRotateRaising(const Ciphertext &ct) {
  const EvaluationKeys::Impl &k = keys_.impl();
  const Params &p = k.params;
  const size_t big_n = p.ringN();
  const uint32_t mask = static_cast<uint32_t>(2 * big_n - 1);
  const uint32_t f = static_cast<uint32_t>(2 * big_n / p.q);
  const Modulus<uint32_t> *mods[2] = {&k.ring_q, &k.ring_p};
  const NttTables<uint32_t> *ntts[2] = {&k.ntt, &k.ntt_p};
  Scratch &s = *scratch_;
  const uint32_t *pws[2] = {s.pw.data(), s.pw_p.data()};
  const uint32_t big_q = k.ring_q.value(), big_p = k.ring_p.value();
  const uint32_t p_mod_q = big_p % big_q;
  const uint32_t p_inv = k.ring_q.inv(p_mod_q);
  const uint32_t p_inv_shoup = k.ring_q.shoup(p_inv);
  // VeloFHE's Algorithm 3: the accumulator stays in coefficient form at Q.
  // A step lifts both parts (centred) to P Q and transforms them at each
  // prime, multiplies them by the keys there (component c: sum over parts
  // r of c_r K(r, c)), times X^m - 1 and X^-m - 1, transforms back, and
  // adds round(product / P) mod Q = (t_Q - [t_P]) P^-1 mod Q, [t_P] the
  // centred residue mod P.
  inTeamOfTwo([&](int tid, int team, StepBarrier &barrier) {
    for (int i = 0; i < p.n; ++i) {
      const uint32_t m = ct.a[i] * f & mask;
      if (m == 0)
        continue; // X^0 - 1 = 0: round(0 / P) adds nothing
      // Phase 1, per prime: lift, transform, products, transform back.
      for (int pr = tid; pr < 2; pr += team) {
        const Modulus<uint32_t> &mp = *mods[pr];
        const uint32_t prime = mp.value();
        uint32_t *hat = s.hat.data() + size_t(2 * pr) * big_n;
        uint32_t *prod = s.prod.data() + size_t(2 * pr) * big_n;
        for (size_t j = 0; j < 2 * big_n; ++j) {
          const uint32_t v = s.acc[j];
          hat[j] = v > big_q / 2 ? v + (prime - big_q) : v;
          hat[j] = hat[j] >= prime ? hat[j] - prime : hat[j];
        }
        ntts[pr]->forward(hat);
        ntts[pr]->forward(hat + big_n);
        const uint32_t *key0 = pr == 0 ? k.rgsw(i, 0) : k.rgswP(i, 0);
        const uint32_t *key1 = pr == 0 ? k.rgsw(i, 1) : k.rgswP(i, 1);
        for (int c = 0; c < 2; ++c) {
          uint32_t *out = prod + size_t(c) * big_n;
          for (size_t j = 0; j < big_n; ++j) {
            // Rows r = 0, 1 of each key, component c: at (2 r + c) N.
            const uint64_t h0 = hat[j], h1 = hat[big_n + j];
            const uint64_t s0 = h0 * key0[size_t(c) * big_n + j] +
                                h1 * key0[size_t(2 + c) * big_n + j];
            const uint64_t s1 = h0 * key1[size_t(c) * big_n + j] +
                                h1 * key1[size_t(2 + c) * big_n + j];
            const uint32_t e = m * s.ebr[j] & mask;
            const uint64_t fp = mp.sub(pws[pr][e], 1),
                           fm = mp.sub(pws[pr][-e & mask], 1);
            out[j] = mp.reduce(mp.reduce(s0) * fp + mp.reduce(s1) * fm);
          }
          ntts[pr]->inverse(out);
        }
      }
      barrier.wait(team);
      // Phase 2, per part: acc += round(t / P) mod Q.
      for (int c = tid; c < 2; c += team) {
        const uint32_t *tq = s.prod.data() + size_t(c) * big_n;
        const uint32_t *tp = s.prod.data() + size_t(2 + c) * big_n;
        uint32_t *acc = s.acc.data() + size_t(c) * big_n;
        for (size_t j = 0; j < big_n; ++j) {
          // t_Q - [t_P] mod Q, [t_P] in (-P/2, P/2].
          const uint32_t r =
              tp[j] > big_p / 2
                  ? k.ring_q.add(tq[j], k.ring_q.reduceWord(big_p - tp[j]))
                  : k.ring_q.sub(tq[j], k.ring_q.reduceWord(tp[j]));
          acc[j] =
              k.ring_q.add(acc[j], k.ring_q.mulShoup(r, p_inv, p_inv_shoup));
        }
      }
      barrier.wait(team);
    }
  });
  return s.acc;
}

Ciphertext Evaluator::sampleExtract(const std::vector<uint32_t> &acc) const {
  const EvaluationKeys::Impl &k = keys_.impl();
  const size_t big_n = k.ringN();
  const uint32_t big_q = k.ring_q.value();
  if (acc.size() != 2 * big_n)
    throw InvalidArgument(
        "sampleExtract: an accumulator has 2N = " + std::to_string(2 * big_n) +
        " words, got " + std::to_string(acc.size()));
  // The constant coefficient of b - a s' is b_0 - a_0 s'_0 + sum_{j >= 1}
  // a_(N-j) s'_j.
  Ciphertext out;
  out.modulus = big_q;
  out.a.resize(big_n);
  out.a[0] = acc[0];
  for (size_t j = 1; j < big_n; ++j)
    out.a[j] = acc[big_n - j] == 0 ? 0 : big_q - acc[big_n - j];
  out.b = acc[big_n];
  return out;
}

Ciphertext Evaluator::keySwitch(const Ciphertext &ct) const {
  const EvaluationKeys::Impl &k = keys_.impl();
  const Params &p = k.params;
  if (ct.modulus != p.q_ks || ct.a.size() != p.ringN())
    throw InvalidArgument(
        "keySwitch: expected dimension N = " + std::to_string(p.ringN()) +
        " at q_ks = " + std::to_string(p.q_ks));
  const int dks = p.digitsKs(), log_b = p.logBaseKs();
  const uint32_t digit_mask = p.base_ks - 1;
  const size_t n = p.n;
  // Sums wrap in 32 bits: exact mod q_ks, a power of two.
  std::vector<uint32_t> a(n, 0);
  uint32_t b = ct.b;
  auto rows = [&](auto word) {
    using W = decltype(word);
    for (size_t i = 0; i < p.ringN(); ++i) {
      const uint32_t x = ct.a[i];
      for (int j = 0; j < dks; ++j) {
        const uint32_t v = (x >> (j * log_b)) & digit_mask;
        if (v == 0)
          continue;
        const W *row = k.ksRow<W>(i, j, v);
        for (size_t t = 0; t < n; ++t)
          a[t] -= row[t];
        b -= row[n];
      }
    }
  };
  if (p.wideKeySwitch())
    rows(uint32_t{});
  else
    rows(uint16_t{});
  Ciphertext out;
  out.modulus = p.q_ks;
  out.a.resize(n);
  for (size_t t = 0; t < n; ++t)
    out.a[t] = a[t] & (p.q_ks - 1);
  out.b = b & (p.q_ks - 1);
  return out;
}

Ciphertext Evaluator::finish(Ciphertext extracted) const {
  const Params &p = params();
  return modSwitch(keySwitch(modSwitch(extracted, p.q_ks)), p.q);
}

Ciphertext Evaluator::signBootstrap(const Ciphertext &shifted) {
  // +Q/8 where the phase is in [0, q/2), -Q/8 in [-q/2, 0); plus Q/8: the
  // bit at Q/4.
  Ciphertext ext = sampleExtract(blindRotate(shifted, scratch_->sign_tv));
  const uint32_t big_q = keys_.impl().ring_q.value();
  ext.b =
      static_cast<uint32_t>((uint64_t(ext.b) + roundedEighth(big_q)) % big_q);
  return finish(std::move(ext));
}

Ciphertext Evaluator::gate(Gate g, const Ciphertext &a, const Ciphertext &b) {
  const Params &p = params();
  checkInput(a, p, gateName(g));
  checkInput(b, p, gateName(g));
  return signBootstrap(combine(gateLinear(g, p.q), a, &b));
}

Ciphertext Evaluator::notGate(const Ciphertext &a) const {
  const Params &p = params();
  checkInput(a, p, "NOT");
  return combine(notLinear(p.q), a, nullptr);
}

Ciphertext Evaluator::bootstrap(const Ciphertext &a) {
  const Params &p = params();
  checkInput(a, p, "bootstrap");
  return signBootstrap(combine(refreshLinear(p.q), a, nullptr));
}

Ciphertext Evaluator::mux(const Ciphertext &sel, const Ciphertext &t,
                          const Ciphertext &f) {
  const Params &p = params();
  checkInput(sel, p, "MUX");
  checkInput(t, p, "MUX");
  checkInput(f, p, "MUX");
  const uint32_t big_q = keys_.impl().ring_q.value();
  const uint32_t q8_big = roundedEighth(big_q);
  Ciphertext x = sampleExtract(
      blindRotate(combine(muxTrue(p.q), sel, &t), scratch_->sign_tv));
  const Ciphertext y = sampleExtract(
      blindRotate(combine(muxFalse(p.q), sel, &f), scratch_->sign_tv));
  for (size_t j = 0; j < x.a.size(); ++j)
    x.a[j] = static_cast<uint32_t>((uint64_t(x.a[j]) + y.a[j]) % big_q);
  x.b = static_cast<uint32_t>((uint64_t(x.b) + y.b + 2 * q8_big) % big_q);
  return finish(std::move(x));
}

Ciphertext Evaluator::lut(const Ciphertext &a,
                          const std::vector<uint32_t> &table) {
  checkInput(a, params(), "lut");
  return finish(sampleExtract(blindRotate(a, lutTestVector(params(), table))));
}

Ciphertext Evaluator::pbs(const Ciphertext &block,
                          const std::vector<uint32_t> &table) {
  checkBlock(block, params(), "pbs");
  const std::vector<uint32_t> tv = lutTestVector(params(), table);
  return sampleExtract(blindRotate(finish(block), tv));
}

void Circuit::validate() const {
  auto bad = [](size_t k, const std::string &what) {
    throw InvalidArgument("circuit op " + std::to_string(k) + ": " + what);
  };
  if (input_bits < 0 || wires != input_bits + int(ops.size()))
    throw InvalidArgument("circuit: " + std::to_string(wires) + " wires for " +
                          std::to_string(input_bits) + " inputs and " +
                          std::to_string(ops.size()) + " ops");
  const uint32_t t = block_modulus;
  if (radix) {
    if (t < 2 || (t & (t - 1)) != 0)
      throw InvalidArgument(
          "circuit: the block modulus t = " + std::to_string(t) +
          " must be a power of two, at least 2");
    for (size_t i = 0; i < tables.size(); ++i) {
      if (tables[i].size() != t)
        throw InvalidArgument("circuit: table " + std::to_string(i) + " has " +
                              std::to_string(tables[i].size()) +
                              " entries, expected t = " + std::to_string(t));
      for (size_t m = 0; m < t; ++m)
        if (tables[i][m] >= t)
          throw InvalidArgument("circuit: entry " + std::to_string(m) +
                                " of table " + std::to_string(i) + " is " +
                                std::to_string(tables[i][m]) + ", outside Z_" +
                                std::to_string(t));
    }
  }
  for (size_t k = 0; k < ops.size(); ++k) {
    const auto &op = ops[k];
    const int out = input_bits + int(k);
    if (op[1] != out)
      bad(k, "writes wire " + std::to_string(op[1]) + ", expected " +
                 std::to_string(out));
    const int code = op[0];
    if (code < 0 || code > kBlock)
      bad(k, "unknown code " + std::to_string(code));
    if (radix && code < kLinear)
      bad(k, "code " + std::to_string(code) +
                 " is a bit op, in a radix circuit (codes 9-11)");
    if (!radix && code >= kLinear)
      bad(k, "code " + std::to_string(code) +
                 " is a radix op, in a circuit of bits (codes 0-8)");
    if (code == kTrivial && op[2] != 0 && op[2] != 1)
      bad(k, "a trivial bit of value " + std::to_string(op[2]));
    if (code == kBlock && (op[2] < 0 || uint32_t(op[2]) >= 2 * t))
      bad(k, "a known block of value " + std::to_string(op[2]) +
                 ", outside Z_" + std::to_string(2 * t));
    if (code == kLut && (op[3] < 0 || size_t(op[3]) >= tables.size()))
      bad(k, "table " + std::to_string(op[3]) + " of " +
                 std::to_string(tables.size()));
    if (code == kLinear && (op[4] < 0 || size_t(op[4]) >= forms.size()))
      bad(k, "linear form " + std::to_string(op[4]) + " of " +
                 std::to_string(forms.size()));
    const int reads = Circuit::reads(op);
    for (int r = 0; r < reads; ++r)
      if (op[2 + r] < 0 || op[2 + r] >= out)
        bad(k, "reads wire " + std::to_string(op[2 + r]) +
                   ", not written before it");
  }
  for (int32_t w : outputs)
    if (w < 0 || w >= wires)
      throw InvalidArgument("circuit: output wire " + std::to_string(w) +
                            " of " + std::to_string(wires));
}

namespace {

/// A radix circuit's ops in order (Circuit's kLinear, kLut, kBlock).
std::vector<Ciphertext> runRadix(Evaluator &ev, const Circuit &circuit,
                                 const std::vector<Ciphertext> &inputs) {
  const Params &p = ev.params();
  const uint32_t big_q = p.ring_q;
  const uint32_t delta = blockDelta(big_q, circuit.block_modulus);
  for (const Ciphertext &ct : inputs)
    checkBlock(ct, p, "runCircuit (a radix circuit's input)");
  std::vector<Ciphertext> w(circuit.wires);
  std::copy(inputs.begin(), inputs.end(), w.begin());
  for (const auto &op : circuit.ops) {
    Ciphertext &out = w[op[1]];
    switch (op[0]) {
    case Circuit::kLinear: {
      const BlockForm f = blockForm(circuit.forms[op[4]], big_q, delta);
      const Ciphertext &a = w[op[2]];
      const Ciphertext *b = op[3] >= 0 ? &w[op[3]] : nullptr;
      out.modulus = big_q;
      out.a.resize(a.a.size());
      auto word = [&](uint32_t x, uint32_t y) {
        return uint32_t((uint64_t(f.x) * x + (b ? uint64_t(f.y) * y : 0)) %
                        big_q);
      };
      for (size_t i = 0; i < a.a.size(); ++i)
        out.a[i] = word(a.a[i], b ? b->a[i] : 0);
      out.b = uint32_t((uint64_t(word(a.b, b ? b->b : 0)) + f.c) % big_q);
      break;
    }
    case Circuit::kLut:
      out = ev.pbs(w[op[2]], circuit.tables[op[3]]);
      break;
    default: // kBlock
      out.a.assign(p.ringN(), 0);
      out.b = uint32_t(uint64_t(op[2]) * delta % big_q);
      out.modulus = big_q;
    }
  }
  std::vector<Ciphertext> outs;
  for (int32_t o : circuit.outputs)
    outs.push_back(w[o]);
  return outs;
}

} // namespace

std::vector<Ciphertext> runCircuit(Evaluator &ev, const Circuit &circuit,
                                   const std::vector<Ciphertext> &inputs) {
  circuit.validate();
  const Params &p = ev.params();
  if (inputs.size() != size_t(circuit.input_bits))
    throw InvalidArgument("runCircuit: " + std::to_string(inputs.size()) +
                          " input bits for a circuit of " +
                          std::to_string(circuit.input_bits));
  if (circuit.radix)
    return runRadix(ev, circuit, inputs);
  std::vector<Ciphertext> w(circuit.wires);
  std::copy(inputs.begin(), inputs.end(), w.begin());
  for (const auto &op : circuit.ops) {
    Ciphertext &out = w[op[1]];
    switch (op[0]) {
    case Circuit::kNot:
      out = ev.notGate(w[op[2]]);
      break;
    case Circuit::kMux:
      out = ev.mux(w[op[2]], w[op[3]], w[op[4]]);
      break;
    case Circuit::kTrivial:
      out.a.assign(p.n, 0);
      out.b = uint32_t(op[2]) * (p.q / 4);
      out.modulus = p.q;
      break;
    default:
      out = ev.gate(static_cast<Gate>(op[0]), w[op[2]], w[op[3]]);
    }
  }
  std::vector<Ciphertext> outs;
  for (int32_t o : circuit.outputs)
    outs.push_back(w[o]);
  return outs;
}

} // namespace ember::lwe
