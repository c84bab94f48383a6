// FHEW/TFHE host math: key generation, encryption and decryption, gate
// names, lookup-table test vectors, signed digits (ember/lwe.h). The
// parameter sets and the noise model are ember/lwe_params.h; the evaluator
// is cpu/lwe.cpp.

#include "ember/lwe.h"

#include "ember/errors.h"
#include "ember/wipe.h"
#include "lwe_internal.h"

#include <algorithm>

namespace ember::lwe {

namespace {

/// The centred representative of x mod m, in (-m/2, m/2].
int64_t centred(uint64_t x, uint64_t m) {
  return x > m / 2 ? static_cast<int64_t>(x) - static_cast<int64_t>(m)
                   : static_cast<int64_t>(x);
}

/// Uniform words below m (a power of two), from the Prng's bytes.
template <typename T>
void uniformPow2(Prng &prng, T *out, size_t count, uint32_t m) {
  prng.fill(out, count * sizeof(T));
  for (size_t i = 0; i < count; ++i)
    out[i] = static_cast<T>(out[i] & (m - 1));
}

} // namespace

// ---------------------------------------------------------------------------
// Keys, encryption, decryption

SecretKey::SecretKey(const Params &params, Prng &prng) : params_(params) {
  params_.validate();
  auto to32 = [](std::vector<int64_t> v) {
    std::vector<int32_t> out(v.begin(), v.end());
    secureWipe(v);
    return out;
  };
  s_ = to32(sampleTernary(prng, params_.n));
  ring_s_ = to32(sampleTernary(prng, params_.ringN()));
}

SecretKey::SecretKey(const Params &params, std::vector<int32_t> s,
                     std::vector<int32_t> ring_s)
    : params_(params), s_(std::move(s)), ring_s_(std::move(ring_s)) {
  params_.validate();
  auto ternary = [](const std::vector<int32_t> &v) {
    return std::all_of(v.begin(), v.end(),
                       [](int32_t c) { return c >= -1 && c <= 1; });
  };
  if (s_.size() != size_t(params_.n) || ring_s_.size() != params_.ringN() ||
      !ternary(s_) || !ternary(ring_s_))
    throw InvalidArgument("SecretKey: " + std::to_string(params_.n) + " and " +
                          std::to_string(params_.ringN()) +
                          " ternary coefficients expected");
}

SecretKey::~SecretKey() {
  secureWipe(s_);
  secureWipe(ring_s_);
}

Ciphertext SecretKey::encrypt(uint32_t m, uint32_t p, Prng &prng) const {
  const uint32_t q = params_.q;
  if (p < 2 || q % p != 0)
    throw InvalidArgument(
        "encrypt: the plaintext space p = " + std::to_string(p) +
        " must divide q = " + std::to_string(q));
  if (m >= p)
    throw InvalidArgument("encrypt: message " + std::to_string(m) +
                          " is outside Z_" + std::to_string(p));
  Ciphertext ct;
  ct.modulus = q;
  ct.a.resize(params_.n);
  uniformPow2(prng, ct.a.data(), ct.a.size(), q);
  const int64_t e = sampleGaussian(prng, 1, params_.sigma)[0];
  int64_t b = e + static_cast<int64_t>(m) * (q / p);
  for (int i = 0; i < params_.n; ++i)
    b += static_cast<int64_t>(ct.a[i]) * s_[i];
  ct.b = static_cast<uint32_t>(((b % q) + q) % q);
  return ct;
}

int64_t SecretKey::phase(const Ciphertext &ct) const {
  const std::vector<int32_t> &key = ct.a.size() == s_.size() ? s_ : ring_s_;
  if (ct.a.size() != key.size() || ct.modulus < 2)
    throw InvalidArgument(
        "phase: a ciphertext of dimension " + std::to_string(ct.a.size()) +
        " matches neither key (n = " + std::to_string(s_.size()) +
        ", N = " + std::to_string(ring_s_.size()) + ")");
  const int64_t m = ct.modulus;
  int64_t acc = ct.b % m;
  for (size_t i = 0; i < key.size(); ++i)
    acc = (acc - static_cast<int64_t>(ct.a[i] % m) * key[i]) % m;
  return centred(static_cast<uint64_t>((acc + m) % m), m);
}

uint32_t SecretKey::decrypt(const Ciphertext &ct, uint32_t p) const {
  if (ct.modulus == 0 || p < 2 || p > ct.modulus)
    throw InvalidArgument("decrypt: plaintext space " + std::to_string(p) +
                          " for modulus " + std::to_string(ct.modulus));
  const int64_t m = ct.modulus;
  const int64_t ph = ((phase(ct) % m) + m) % m;
  // round(phase p / q) mod p, in integers.
  const uint64_t r = (static_cast<uint64_t>(ph) * p + m / 2) / m;
  return static_cast<uint32_t>(r % p);
}

namespace {

/// t of a block encoding: a power of two with 2t <= q (what a table over
/// Z_t reads).
void checkBlockModulus(uint32_t t, const Params &p, const char *what) {
  if (t < 2 || (t & (t - 1)) != 0 || uint64_t(2) * t > p.q)
    throw InvalidArgument(
        std::string(what) + ": the block modulus t = " + std::to_string(t) +
        " must be a power of two with 2t <= q = " + std::to_string(p.q));
}

} // namespace

Ciphertext SecretKey::encryptBlock(uint32_t m, uint32_t t, Prng &prng) const {
  checkBlockModulus(t, params_, "encryptBlock");
  if (m >= 2 * t)
    throw InvalidArgument("encryptBlock: message " + std::to_string(m) +
                          " is outside Z_" + std::to_string(2 * t) +
                          " (t = " + std::to_string(t) +
                          " with its padding "
                          "bit)");
  const uint32_t big_q = params_.ring_q;
  const size_t big_n = params_.ringN();
  Ciphertext ct;
  ct.modulus = big_q;
  ct.a.resize(big_n);
  for (uint32_t &v : ct.a)
    v = static_cast<uint32_t>(prng.uniform(big_q));
  const int64_t e = sampleGaussian(prng, 1, params_.sigma)[0];
  int64_t b = e + int64_t(m) * blockDelta(big_q, t);
  for (size_t i = 0; i < big_n; ++i)
    b = (b + int64_t(ct.a[i]) * ring_s_[i]) % int64_t(big_q);
  ct.b = reduceSigned(b, big_q);
  return ct;
}

uint32_t SecretKey::decryptBlock(const Ciphertext &ct, uint32_t t) const {
  checkBlockModulus(t, params_, "decryptBlock");
  checkBlock(ct, params_, "decryptBlock");
  return decrypt(ct, 2 * t); // round(phase 2t / Q) mod 2t
}

// ---------------------------------------------------------------------------
// Evaluation keys

namespace {

/// The bootstrapping key: per LWE coefficient, RGSW([s_i = 1]) and
/// RGSW([s_i = -1]) under s', in NTT form. With modulus raising each "RGSW"
/// is two RLWE samples at P Q (residues mod Q in bsk, mod P in bsk_p) with
/// P [s_i = +-1] added to component r of row r: the external product
/// c_a K_0 + c_b K_1 then has phase P [s_i = +-1] (c_b - c_a s') plus c's
/// products with the key's errors.
void makeBootstrapKey(EvaluationKeys::Impl &k, const SecretKey &sk,
                      Prng &prng) {
  const Params &p = k.params;
  const size_t big_n = p.ringN();
  const bool raising = p.raising();
  k.bsk.assign(size_t(p.n) * k.keysPerCoefficient() * k.rows * 2 * big_n, 0);
  if (raising)
    k.bsk_p.assign(k.bsk.size(), 0);
  const Modulus<uint32_t> *mods[2] = {&k.ring_q, &k.ring_p};
  const NttTables<uint32_t> *ntts[2] = {&k.ntt, &k.ntt_p};
  std::vector<uint32_t> *words[2] = {&k.bsk, &k.bsk_p};
  const int primes = raising ? 2 : 1;
  std::vector<uint32_t> s_ntt[2], err(big_n);
  for (int pr = 0; pr < primes; ++pr) {
    const uint32_t q = mods[pr]->value();
    s_ntt[pr].resize(big_n);
    for (size_t j = 0; j < big_n; ++j)
      s_ntt[pr][j] = sk.ringKey()[j] < 0 ? q - 1 : uint32_t(sk.ringKey()[j]);
    ntts[pr]->forward(s_ntt[pr].data());
  }
  const size_t key_words = size_t(k.rows) * 2 * big_n;
  // AP: key (k, v) of coefficient i encrypts X^e, e = s_i v B_r^k 2N/q
  // (mod 2N), added in NTT form: slot j evaluates X at psi^(2 brev(j) + 1).
  const int keys = k.keysPerCoefficient();
  std::vector<uint32_t> mono(big_n), ebr, pw;
  if (p.ap()) {
    pw = psiPowers(k.ring_q, k.ntt.psi(), big_n);
    ebr = slotExponents(p.log_ring);
  }
  for (int i = 0; i < p.n; ++i) {
    for (int key = 0; key < keys; ++key) {
      // GINX: key 0 holds [s_i = 1], key 1 [s_i = -1] (a constant).
      bool bit = !p.ap() && sk.lweKey()[i] == (key == 0 ? 1 : -1);
      if (p.ap()) {
        int digit = 0;
        while (key >= p.apKeyIndex(digit + 1, 1))
          ++digit;
        const int64_t v = key - p.apKeyIndex(digit, 1) + 1;
        const int64_t two_n = int64_t(2 * big_n);
        const int64_t power = int64_t(1)
                              << (digit * detail::log2Exact(p.base_r));
        const int64_t exponent =
            (sk.lweKey()[i] * v * power * (two_n / p.q) % two_n + two_n) %
            two_n;
        for (size_t j = 0; j < big_n; ++j)
          mono[j] = pw[uint64_t(exponent) * ebr[j] % (2 * big_n)];
        bit = true;
      }
      const size_t at = (size_t(i) * keys + key) * key_words;
      for (int r = 0; r < k.rows; ++r) {
        // a uniform at each prime, then one error (the same integers at
        // every prime).
        uint32_t *a[2], *b[2];
        for (int pr = 0; pr < primes; ++pr) {
          a[pr] = words[pr]->data() + at + size_t(2 * r) * big_n;
          b[pr] = a[pr] + big_n;
          for (size_t j = 0; j < big_n; ++j)
            a[pr][j] = static_cast<uint32_t>(prng.uniform(mods[pr]->value()));
        }
        const std::vector<int64_t> e = sampleGaussian(prng, big_n, p.sigma);
        for (int pr = 0; pr < primes; ++pr) {
          const Modulus<uint32_t> &mq = *mods[pr];
          const uint32_t q = mq.value();
          for (size_t j = 0; j < big_n; ++j)
            err[j] = static_cast<uint32_t>(e[j] < 0 ? q + e[j] : e[j]);
          ntts[pr]->forward(err.data());
          for (size_t j = 0; j < big_n; ++j)
            b[pr][j] = mq.add(mq.mul(a[pr][j], s_ntt[pr][j]), err[j]);
          if (!bit)
            continue;
          // The gadget: Bg^(r/2 + 1) on part r % 2, or P on part r (a
          // constant: the same in every slot; P is 0 mod P); with AP times
          // the monomial.
          const uint32_t g =
              raising ? p.ring_p % q : mq.pow(p.base_g, r / 2 + 1);
          uint32_t *part = (r % 2 == 0) ? a[pr] : b[pr];
          for (size_t j = 0; j < big_n; ++j)
            part[j] = mq.add(part[j], p.ap() ? mq.mul(g, mono[j]) : g);
        }
      }
    }
  }
  for (std::vector<uint32_t> &v : s_ntt)
    secureWipe(v);
  secureWipe(err);
}

/// The key-switching key s' -> s at q_ks, in words of W.
template <typename W>
void makeKeySwitchKey(EvaluationKeys::Impl &k, std::vector<W> &words,
                      const SecretKey &sk, Prng &prng) {
  const Params &p = k.params;
  const size_t big_n = p.ringN(), n = p.n;
  const int dks = p.digitsKs();
  const uint32_t mask = p.q_ks - 1;
  words.assign(big_n * dks * (p.base_ks - 1) * (n + 1), 0);
  const std::vector<int32_t> &s = sk.lweKey();
  for (size_t i = 0; i < big_n; ++i) {
    const int64_t si = sk.ringKey()[i];
    for (int j = 0; j < dks; ++j) {
      const std::vector<int64_t> e =
          sampleGaussian(prng, p.base_ks - 1, p.sigma);
      for (uint32_t v = 1; v < p.base_ks; ++v) {
        W *row = const_cast<W *>(k.ksRow<W>(i, j, v));
        uniformPow2(prng, row, n, p.q_ks);
        int64_t b =
            e[v - 1] + si * int64_t(v) * (int64_t(1) << (j * p.logBaseKs()));
        for (size_t t = 0; t < n; ++t)
          b += int64_t(row[t]) * s[t];
        row[n] = static_cast<W>(static_cast<uint64_t>(b) & mask);
      }
    }
  }
}

} // namespace

EvaluationKeys::EvaluationKeys(const SecretKey &sk, Prng &prng)
    : impl_(std::make_unique<Impl>()) {
  Impl &k = *impl_;
  k.setUp(sk.params());
  makeBootstrapKey(k, sk, prng);
  if (k.params.wideKeySwitch())
    makeKeySwitchKey(k, k.ksk32, sk, prng);
  else
    makeKeySwitchKey(k, k.ksk, sk, prng);
}

EvaluationKeys::EvaluationKeys(std::unique_ptr<Impl> impl)
    : impl_(std::move(impl)) {}

EvaluationKeys::~EvaluationKeys() = default;
EvaluationKeys::EvaluationKeys(EvaluationKeys &&) noexcept = default;
EvaluationKeys &EvaluationKeys::operator=(EvaluationKeys &&) noexcept = default;

const Params &EvaluationKeys::params() const { return impl_->params; }
size_t EvaluationKeys::bootstrapKeyBytes() const {
  return (impl_->bsk.size() + impl_->bsk_p.size()) * sizeof(uint32_t);
}
size_t EvaluationKeys::keySwitchKeyBytes() const {
  return impl_->ksk.size() * sizeof(uint16_t) +
         impl_->ksk32.size() * sizeof(uint32_t);
}

// ---------------------------------------------------------------------------
// Gates by name

Gate gateFromName(const std::string &name) {
  static const std::pair<const char *, Gate> kGates[] = {
      {"AND", Gate::And}, {"OR", Gate::Or},   {"NAND", Gate::Nand},
      {"NOR", Gate::Nor}, {"XOR", Gate::Xor}, {"XNOR", Gate::Xnor}};
  for (const auto &[n, g] : kGates)
    if (name == n)
      return g;
  throw InvalidArgument("unknown gate '" + name +
                        "' (known: AND, OR, NAND, NOR, XOR, XNOR)");
}

const char *gateName(Gate gate) {
  switch (gate) {
  case Gate::And:
    return "AND";
  case Gate::Or:
    return "OR";
  case Gate::Nand:
    return "NAND";
  case Gate::Nor:
    return "NOR";
  case Gate::Xor:
    return "XOR";
  case Gate::Xnor:
    return "XNOR";
  }
  return "?";
}

std::vector<uint32_t> lutTestVector(const Params &p,
                                    const std::vector<uint32_t> &table) {
  const size_t t = table.size(), big_n = p.ringN();
  if (t < 2 || (t & (t - 1)) != 0 || 2 * t > p.q || t > big_n)
    throw InvalidArgument("lut: a table of " + std::to_string(t) +
                          " entries; it needs a power of two t with 2t <= q "
                          "= " +
                          std::to_string(p.q));
  for (size_t m = 0; m < t; ++m)
    if (table[m] >= t)
      throw InvalidArgument("lut: entry " + std::to_string(m) + " = " +
                            std::to_string(table[m]) + " is outside Z_" +
                            std::to_string(t));
  // Rotation exponents of message m lie around m N / t; the box of m is
  // [m N/t - h, m N/t + h), h = N / 2t. The lower half of m = 0's box is
  // reached through X^N = -1: its entries are negated.
  const uint32_t big_q = p.ring_q;
  const uint64_t delta = blockDelta(big_q, uint32_t(t));
  const size_t box = big_n / t, h = box / 2;
  std::vector<uint32_t> tv(big_n);
  for (size_t j = 0; j < big_n; ++j) {
    const uint32_t v = static_cast<uint32_t>(
        delta * table[j < big_n - h ? (j + h) / box : 0] % big_q);
    tv[j] = j < big_n - h || v == 0 ? v : big_q - v;
  }
  return tv;
}

std::vector<int32_t> signedDigits(uint32_t x, const Params &params) {
  if (params.raising())
    throw InvalidArgument("signedDigits: parameter set '" + params.name +
                          "' raises the modulus; it has no gadget digits");
  const int d = params.digitsG(), log_bg = params.logBaseG();
  const int64_t bg = params.base_g;
  int64_t v = centred(x % params.ring_q, params.ring_q);
  std::vector<int32_t> out;
  out.reserve(d - 1);
  for (int k = 0; k < d; ++k) {
    // The top digit takes what is left (at most Bg/2 + 1 in magnitude), so
    // that the digits recompose x - r_0 exactly.
    int64_t r = k + 1 < d ? v & (bg - 1) : v;
    if (k + 1 < d && r >= bg / 2)
      r -= bg;
    v = (v - r) >> log_bg;
    if (k > 0)
      out.push_back(static_cast<int32_t>(r));
  }
  return out;
}

} // namespace ember::lwe
