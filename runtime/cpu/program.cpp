// Helpers of generated C++ programs (ember/program.h).
#include "ember/program.h"

#include "../core/internal.h"
#include "../core/program_exec.h"

#include "ember/bfv.h"
#include "ember/bgv.h"
#include "ember/errors.h"
#include "ember/serialize.h"

#include <memory>

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <type_traits>

namespace ember::program {

template <typename Word>
std::vector<int> basis(const Context<Word> &ctx, int q_lo, int q_hi, int p_lo,
                       int p_hi) {
  std::vector<int> b;
  for (int i = q_lo; i < q_hi; ++i)
    b.push_back(i);
  for (int j = p_lo; j < p_hi; ++j)
    b.push_back(ctx.qCount() + j);
  return b;
}

void checkInputScale(const char *name, double got, double expected) {
  if (got == expected)
    return;
  auto show = [](double scale) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "2^%.12g (%.17g)", std::log2(scale), scale);
    return std::string(buf);
  };
  throw ScaleMismatch("program input '" + std::string(name) + "' has scale " +
                      show(got) + ", the program expects exactly " +
                      show(expected) +
                      " (the manifest's scale): encode the input at that "
                      "scale");
}

void checkInputMetadata(const char *name, size_t index, size_t given,
                        int parts_got, int level_got, size_t slots_got,
                        double scale_got, int parts, int level, size_t slots,
                        double scale) {
  const std::string what = "program input '" + std::string(name) + "'";
  if (index >= given)
    throw InvalidArgument(what + " is missing: " + std::to_string(given) +
                          " ciphertexts given");
  if (parts_got != parts)
    throw InvalidArgument(what + " has " + std::to_string(parts_got) +
                          " polynomials, " + std::to_string(parts) +
                          " expected");
  if (level_got != level)
    throw LevelMismatch(what + " is at level " + std::to_string(level_got) +
                        ", the program expects level " + std::to_string(level));
  if (slots_got != slots)
    throw InvalidArgument(what + " has " + std::to_string(slots_got) +
                          " slots, " + std::to_string(slots) + " expected");
  checkInputScale(name, scale_got, scale);
}

template <typename Word>
void checkInput(const Context<Word> &ctx,
                const std::vector<BasicCiphertext<Word>> &inputs, size_t index,
                const char *name, int parts, int level, size_t slots,
                double scale) {
  if (index >= inputs.size())
    checkInputMetadata(name, index, inputs.size(), 0, 0, 0, 0, parts, level,
                       slots, scale);
  const BasicCiphertext<Word> &ct = inputs[index];
  checkInputMetadata(name, index, inputs.size(), static_cast<int>(ct.c.size()),
                     ct.level, ct.slots, ct.scale, parts, level, slots, scale);
  const std::string what = "program input '" + std::string(name) + "'";
  for (const Poly<Word> &p : ct.c)
    if (!p.ntt || p.n != ctx.n() || p.basis != ctx.qBasis(level))
      throw InvalidArgument(what + " is not in NTT form over q_0..q_" +
                            std::to_string(level));
}

template <typename Word>
const BasicSwitchingKey<Word> &relinKey(const BasicEvaluationKeys<Word> &keys) {
  if (!keys.has_relin || keys.relin.key.b.empty())
    throw MissingKey("the program needs the relinearization key (see its "
                     "manifest)");
  return keys.relin.key;
}

template <typename Word>
const BasicSwitchingKey<Word> &galoisKey(const BasicEvaluationKeys<Word> &keys,
                                         uint64_t galois) {
  auto it = keys.galois.keys.find(galois);
  if (it == keys.galois.keys.end())
    throw MissingKey("the program needs the Galois key of element " +
                     std::to_string(galois) + " (see its manifest)");
  return it->second;
}

template <typename Word>
const BasicSwitchingKey<Word> &
encapsulationKey(const BasicEvaluationKeys<Word> &keys, bool to_sparse) {
  if (!keys.has_encapsulation)
    throw MissingKey("the program needs the encapsulation keys of "
                     "bootstrapping (see its manifest)");
  return to_sparse ? keys.encapsulation.to_sparse
                   : keys.encapsulation.from_sparse;
}

template <typename Word>
const BasicKlssKey<Word> &klssRelinKey(const BasicEvaluationKeys<Word> &keys) {
  if (!keys.has_klss_relin || keys.klss_relin.key.empty())
    throw MissingKey("the program needs the relinearization key in KLSS form "
                     "(see its manifest)");
  return keys.klss_relin.key;
}

template <typename Word>
const BasicKlssKey<Word> &klssGaloisKey(const BasicEvaluationKeys<Word> &keys,
                                        uint64_t galois) {
  auto it = keys.klss_galois.keys.find(galois);
  if (it == keys.klss_galois.keys.end())
    throw MissingKey("the program needs the Galois key of element " +
                     std::to_string(galois) +
                     " in KLSS form (see its manifest)");
  return it->second;
}

template <typename Word>
Poly<Word> view(const Poly<Word> &src, size_t first, size_t count) {
  Poly<Word> out(std::vector<int>(src.basis.begin() + first,
                                  src.basis.begin() + first + count),
                 src.n, src.ntt);
  std::copy(src.limb(first), src.limb(first) + count * src.n, out.limb(0));
  return out;
}

template <typename Word>
Poly<Word> concat(const std::vector<const Poly<Word> *> &parts) {
  std::vector<int> b;
  for (const Poly<Word> *p : parts)
    b.insert(b.end(), p->basis.begin(), p->basis.end());
  Poly<Word> out(b, parts.front()->n, parts.front()->ntt);
  size_t at = 0;
  for (const Poly<Word> *p : parts) {
    std::copy(p->data.begin(), p->data.end(), out.data.begin() + at);
    at += p->data.size();
  }
  return out;
}

template <typename Word>
BasicCiphertext<Word> makeCiphertext(std::vector<Poly<Word>> polys, int level,
                                     double scale, size_t slots) {
  BasicCiphertext<Word> ct;
  ct.c = std::move(polys);
  ct.level = level;
  ct.scale = scale;
  ct.slots = slots;
  return ct;
}

namespace {
/// The level of `basis`, a prefix of Q (else InvalidArgument naming what
/// is encoded).
template <typename Word>
int prefixLevel(const Context<Word> &ctx, const std::vector<int> &basis,
                const char *what) {
  int level = -1;
  for (size_t i = 0; i < basis.size(); ++i) {
    if (basis[i] != static_cast<int>(i) || basis[i] >= ctx.qCount())
      throw InvalidArgument(std::string("encode: ") + what +
                            " are encoded over a prefix of Q only");
    level = basis[i];
  }
  return level;
}

/// Slot values (real or complex) encoded at `scale` over `basis`, a prefix
/// of Q, in NTT or coefficient form; `what` names them in the error.
template <typename Word, typename V>
Poly<Word> encodeOver(const Context<Word> &ctx, const std::vector<V> &values,
                      double scale, const std::vector<int> &basis, bool ntt,
                      const char *what) {
  // A prefix of Q, possibly followed by primes of P (a weight of products
  // over Q_l u P).
  size_t qPart = 0;
  while (qPart < basis.size() && basis[qPart] < ctx.qCount())
    ++qPart;
  if (qPart == 0)
    throw InvalidArgument(std::string("encode: ") + what +
                          " are encoded over a prefix of Q (then primes of P)");
  const int level = prefixLevel(
      ctx, std::vector<int>(basis.begin(), basis.begin() + qPart), what);
  BasicEncoder<Word> encoder(ctx);
  std::vector<std::complex<double>> complexValues(values.begin(), values.end());
  BasicPlaintext<Word> pt =
      encoder.encode(complexValues, level, scale, values.size(), basis);
  if (!ntt)
    cpu::intt(ctx, pt.poly);
  return std::move(pt.poly);
}

/// The object T(ctx, t) (a BGV or BFV encoder, a BFV evaluator), kept
/// between calls: the BGV encoder's tables mod t take longer to build than
/// an encoding (1.7 ms against 0.4 at N = 2^13), a BFV evaluator builds a
/// whole Q u R context, and a program's plaintext inputs are encoded (and
/// its products computed) on every run. One entry per thread and type,
/// reused only for a context at the same address with the same ring degree
/// and primes (the objects read the context's primes).
template <typename T, typename Word>
const T &perContext(const Context<Word> &ctx, uint64_t t) {
  struct Entry {
    const Context<Word> *ctx = nullptr;
    uint64_t t = 0;
    int log_n = 0;
    std::vector<uint64_t> primes;
    std::unique_ptr<T> value;
  };
  thread_local Entry cached;
  if (cached.value && cached.ctx == &ctx && cached.t == t &&
      cached.log_n == ctx.logN() && cached.primes == ctx.primes())
    return *cached.value;
  cached = Entry{}; // the old one goes before the new one is built
  auto value = std::make_unique<T>(ctx, t);
  cached = Entry{&ctx, t, ctx.logN(), ctx.primes(), std::move(value)};
  return *cached.value;
}

/// Integer slot values held exactly by doubles; `scheme` and `what` name
/// them in the error.
std::vector<int64_t> integersOf(const std::vector<double> &values,
                                const char *scheme, const char *what) {
  std::vector<int64_t> integers(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    const double v = values[i];
    // Every double of magnitude below 2^63 converts exactly once integral.
    if (!(std::trunc(v) == v && std::fabs(v) < 0x1p63)) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%.17g", v);
      throw InvalidArgument(std::string("encode: ") + scheme + " " + what +
                            " are integers (of magnitude below 2^63); value " +
                            std::to_string(i) + " is " + buf);
    }
    integers[i] = static_cast<int64_t>(v);
  }
  return integers;
}

/// The real parts of values that must have none imaginary.
std::vector<double> realParts(const std::vector<std::complex<double>> &values,
                              const char *scheme) {
  std::vector<double> real(values.size());
  for (size_t i = 0; i < values.size(); ++i) {
    if (values[i].imag() != 0)
      throw InvalidArgument(std::string("encode: ") + scheme +
                            " values are integers; value " + std::to_string(i) +
                            " has an imaginary part");
    real[i] = values[i].real();
  }
  return real;
}

/// BGV: integer slot values (doubles holding them exactly) encoded with
/// factor `factor` over `basis`, a prefix of Q; `what` names them.
template <typename Word>
Poly<Word> encodeBgvOver(const Context<Word> &ctx,
                         const std::vector<double> &values, double factor,
                         uint64_t t, const std::vector<int> &basis, bool ntt,
                         const char *what) {
  const int level = prefixLevel(ctx, basis, what);
  const uint64_t mu = bgv::factorOf(factor, t);
  const std::vector<int64_t> integers = integersOf(values, "BGV", what);
  BasicPlaintext<Word> pt = perContext<BasicBgvEncoder<Word>>(ctx, t).encode(
      integers, level, integers.size(), mu);
  if (!ntt)
    cpu::intt(ctx, pt.poly);
  return std::move(pt.poly);
}

/// BFV: integer slot values in the multiplier or the Delta m form over
/// `basis`, which must be the full Q; `what` names them. 64-bit words only.
template <typename Word>
Poly<Word> encodeBfvOver(const Context<Word> &ctx,
                         const std::vector<double> &values, bool multiplier,
                         uint64_t t, const std::vector<int> &basis, bool ntt,
                         const char *what) {
  if constexpr (!std::is_same_v<Word, uint64_t>) {
    (void)ctx, (void)values, (void)multiplier, (void)t, (void)basis, (void)ntt;
    throw InvalidArgument(std::string("encode: BFV ") + what +
                          " need 64-bit words (BFV runs on a Context64)");
  } else {
    if (basis != ctx.qBasis(ctx.maxLevel()))
      throw InvalidArgument(std::string("encode: BFV ") + what +
                            " are encoded over the full Q (q_0..q_" +
                            std::to_string(ctx.maxLevel()) + ") only");
    const std::vector<int64_t> integers = integersOf(values, "BFV", what);
    const BasicBfvEncoder<Word> &encoder =
        perContext<BasicBfvEncoder<Word>>(ctx, t);
    BasicPlaintext<Word> pt =
        multiplier ? encoder.encodeMultiplier(integers, integers.size())
                   : encoder.encode(integers, integers.size());
    if (!ntt)
      cpu::intt(ctx, pt.poly);
    return std::move(pt.poly);
  }
}
} // namespace

template <typename Word>
Poly<Word> encodeConstant(const Context<Word> &ctx,
                          const std::vector<double> &values, double scale,
                          const std::vector<int> &basis, bool ntt) {
  return encodeOver(ctx, values, scale, basis, ntt, "constants");
}

template <typename Word>
Poly<Word> encodeBgv(const Context<Word> &ctx,
                     const std::vector<double> &values, double factor,
                     uint64_t plain_modulus, const std::vector<int> &basis,
                     bool ntt) {
  return encodeBgvOver(ctx, values, factor, plain_modulus, basis, ntt,
                       "values");
}

template <typename Word>
Poly<Word> encodeBfv(const Context<Word> &ctx,
                     const std::vector<double> &values, bool multiplier,
                     uint64_t plain_modulus, const std::vector<int> &basis,
                     bool ntt) {
  return encodeBfvOver(ctx, values, multiplier, plain_modulus, basis, ntt,
                       "values");
}

ConstantData readConstantData(const std::string &path) {
  namespace fmt = data_format;
  std::vector<uint8_t> bytes = readFile(path);
  auto bad = [&](const std::string &why) {
    return SerializationError("program data file '" + path + "': " + why);
  };
  if (bytes.size() < fmt::kHeaderBytes + fmt::kDigestBytes ||
      std::memcmp(bytes.data(), fmt::kMagic, 4) != 0)
    throw bad("not an Ember data file");
  uint32_t version;
  uint64_t count;
  std::memcpy(&version, bytes.data() + 4, 4);
  std::memcpy(&count, bytes.data() + 8, 8);
  if (version != fmt::kVersion)
    throw bad("version " + std::to_string(version) + ", this runtime reads " +
              std::to_string(fmt::kVersion));
  const size_t payload = bytes.size() - fmt::kHeaderBytes - fmt::kDigestBytes;
  if (count > payload / 8 || count * 8 != payload)
    throw bad("its size does not match the " + std::to_string(count) +
              " values it announces");
  std::array<uint8_t, fmt::kDigestBytes> digest{};
  unsigned int len = 0;
  if (EVP_Digest(bytes.data(), bytes.size() - fmt::kDigestBytes, digest.data(),
                 &len, EVP_sha256(), nullptr) != 1)
    throw Error("OpenSSL SHA-256 failed");
  if (std::memcmp(digest.data(),
                  bytes.data() + bytes.size() - fmt::kDigestBytes,
                  fmt::kDigestBytes) != 0)
    throw bad("checksum mismatch (corrupt or modified)");
  ConstantData data;
  data.values.resize(count);
  if (count)
    std::memcpy(data.values.data(), bytes.data() + fmt::kHeaderBytes,
                count * 8);
  return data;
}
template <typename Word>
Poly<Word> encodeConstant(const Context<Word> &ctx, const ConstantData *data,
                          uint64_t offset, uint64_t count, bool complex,
                          double scale, const std::vector<int> &basis, bool ntt,
                          uint64_t plain_modulus, uint64_t bfv_plain_modulus) {
  if (!data)
    throw InvalidArgument("the program needs its data file (<name>.data) "
                          "for its plaintext constants");
  const uint64_t words = complex ? 2 * count : count;
  if (offset > data->values.size() || words > data->values.size() - offset)
    throw InvalidArgument(
        "the program's data file holds " + std::to_string(data->values.size()) +
        " values; a constant reads [" + std::to_string(offset) + ", " +
        std::to_string(offset + words) + ") (a data file of another program?)");
  const double *v = data->values.data() + offset;
  if (plain_modulus) {
    if (complex)
      throw InvalidArgument("a BGV program's constants are integers, not "
                            "complex values");
    return encodeBgvOver(ctx, std::vector<double>(v, v + count), scale,
                         plain_modulus, basis, ntt, "constants");
  }
  if (bfv_plain_modulus) {
    if (complex)
      throw InvalidArgument("a BFV program's constants are integers, not "
                            "complex values");
    return encodeBfvOver(ctx, std::vector<double>(v, v + count), scale == 1.0,
                         bfv_plain_modulus, basis, ntt, "constants");
  }
  if (!complex)
    return encodeConstant(ctx, std::vector<double>(v, v + count), scale, basis,
                          ntt);
  std::vector<std::complex<double>> values(count);
  for (uint64_t i = 0; i < count; ++i)
    values[i] = {v[2 * i], v[2 * i + 1]};
  return encodeValues(ctx, values, scale, basis, ntt);
}

template <typename Word>
Poly<Word> encodeValues(const Context<Word> &ctx,
                        const std::vector<std::complex<double>> &values,
                        double scale, const std::vector<int> &basis, bool ntt,
                        uint64_t plain_modulus, uint64_t bfv_plain_modulus) {
  if (bfv_plain_modulus)
    return encodeBfvOver(ctx, realParts(values, "BFV"), scale == 1.0,
                         bfv_plain_modulus, basis, ntt, "values");
  if (!plain_modulus)
    return encodeOver(ctx, values, scale, basis, ntt, "values");
  return encodeBgvOver(ctx, realParts(values, "BGV"), scale, plain_modulus,
                       basis, ntt, "values");
}

const std::vector<std::complex<double>> &
plainInput(const std::vector<std::vector<std::complex<double>>> *plain,
           size_t index, const char *name, size_t slots) {
  std::string what = "plaintext input '" + std::string(name) + "'";
  if (!plain || index >= plain->size())
    throw InvalidArgument(
        what + " is missing: " + std::to_string(plain ? plain->size() : 0) +
        " plaintext inputs given");
  if ((*plain)[index].size() != slots)
    throw InvalidArgument(what + " has " +
                          std::to_string((*plain)[index].size()) + " values, " +
                          std::to_string(slots) + " expected");
  return (*plain)[index];
}

namespace {

/// The CPU backend of the plan executor (runtime/core/program_exec.h), at
/// either word size.
template <typename Word> struct CpuBackend {
  using Poly = ember::Poly<Word>;
  using Args = BasicCpuArgs<Word>;
  using Kernel = CpuKernel;
  using HybridKey = BasicSwitchingKey<Word>;
  using KlssKey = BasicKlssKey<Word>;

  static const Context<Word> &host(const Args &a) { return *a.ctx; }
  static bool prepareOnly(const Args &a) { return a.prepare_only; }
  static ConstantCache<Poly> *cache(const Args &a) { return a.constants; }
  static Word *words(const Poly &p) {
    return const_cast<Word *>(p.data.data());
  }
  /// No arena on the CPU: results are vectors. A result the primitive
  /// assigns is not allocated first; one a kernel writes in place is.
  struct Scratch {};
  static Scratch scratch(const Args &, const BufferSpec *) { return {}; }
  static Poly place(const Args &a, std::vector<int> b, bool ntt, int64_t,
                    bool written_in_place) {
    if (written_in_place)
      return Poly(std::move(b), a.ctx->n(), ntt); // zeroed by the vector
    Poly p;
    p.basis = std::move(b);
    p.n = a.ctx->n();
    p.ntt = ntt;
    return p;
  }
  static void zero(const Args &, Poly &out) {
    out.data.assign(out.limbs() * out.n, 0);
  }
  static void copy(const Args &, const Poly &p, Poly &out) { out = p; }
  static void ntt(const Args &a, const Poly &p, Poly &out) {
    out = p;
    cpu::ntt(*a.ctx, out);
  }
  static void intt(const Args &a, const Poly &p, Poly &out) {
    out = p;
    cpu::intt(*a.ctx, out);
  }
  static void bconv(const Args &a, const Poly &p, Poly &out, Scratch,
                    bool exact) {
    out = exact ? cpu::bconvExact(*a.ctx, p, out.basis)
                : cpu::bconv(*a.ctx, p, out.basis);
  }
  static void modUp(const Args &a, const Poly &p,
                    const std::vector<int> &digits,
                    const std::vector<Poly *> &outs, Scratch) {
    for (size_t j = 0; j < digits.size(); ++j)
      *outs[j] = cpu::modUp(*a.ctx, p, digits[j]);
  }
  static void ksInnerProduct(const Args &a, const HybridKey &key,
                             const std::vector<const Poly *> &digits,
                             Poly &acc0, Poly &acc1, uint64_t galois) {
    keySwitchInnerProduct(*a.ctx, key, digits, acc0, acc1, galois);
  }
  /// An inner product and the switch that overlaps it: in turn on the CPU.
  static void ksInnerProductDown(const Args &a, const HybridKey &key,
                                 const std::vector<const Poly *> &digits,
                                 uint64_t galois, Poly &acc0, Poly &acc1,
                                 const std::vector<const Poly *> &ys,
                                 const std::vector<Poly *> &outs, Scratch s,
                                 uint64_t plain_modulus,
                                 uint64_t lifted_galois) {
    ksInnerProduct(a, key, digits, acc0, acc1, galois);
    modSwitchDown(a, {&acc0, &acc1}, ys, outs, s, plain_modulus, lifted_galois);
  }
  static void klssModUp(const Args &a, const std::vector<const Poly *> &xs,
                        const std::vector<Poly *> &outs, Scratch) {
    for (size_t j = 0; j < xs.size(); ++j)
      *outs[j] = cpu::klssModUp(*a.ctx, *xs[j]);
  }
  static void klssInnerProduct(const Args &a, const KlssKey &key,
                               const std::vector<const Poly *> &digits,
                               int level, Poly &acc0, Poly &acc1, Scratch) {
    ember::klssInnerProduct(*a.ctx, key, digits, level, acc0, acc1);
  }
  /// out_j = modSwitchDown(x_j [+ P y_j]): the lifted addend y_j (over
  /// x_j's Q limbs; for the first ys.size() inputs; sigma_g(y_j) when
  /// lifted_galois = g != 0) times P, the product of x_j's special primes,
  /// added first (the CUDA backend reads it in place; both exact).
  static void modSwitchDown(const Args &a, const std::vector<const Poly *> &xs,
                            const std::vector<const Poly *> &ys,
                            const std::vector<Poly *> &outs, Scratch,
                            uint64_t plain_modulus, uint64_t lifted_galois) {
    const Context<Word> &ctx = *a.ctx;
    for (size_t j = 0; j < xs.size(); ++j) {
      if (j >= ys.size()) { // lifted addends belong to the first inputs
        *outs[j] =
            cpu::modSwitchDown(ctx, *xs[j], outs[j]->basis, plain_modulus);
        continue;
      }
      Poly t = *xs[j];
      Poly rotated;
      if (lifted_galois) {
        if (outs[j]->basis.size() != ys[j]->limbs())
          throw InvalidArgument("modSwitchDown: permuted lifted addends "
                                "need a plain ModDown (no Q limb dropped)");
        rotated = cpu::automorphism(ctx, *ys[j], lifted_galois);
      }
      const Poly &y = lifted_galois ? rotated : *ys[j];
      if (y.ntt != t.ntt || y.limbs() > t.limbs() ||
          !std::equal(y.basis.begin(), y.basis.end(), t.basis.begin()))
        throw InvalidArgument("modSwitchDown: a lifted addend must be over "
                              "the input's Q limbs, in its form");
      for (size_t i = 0; i < y.limbs(); ++i) {
        const Modulus<Word> &q = ctx.modulus(t.basis[i]);
        Word p_mod = 1;
        for (int m : t.basis)
          if (m >= ctx.qCount())
            p_mod = q.mul(p_mod, q.reduceWord(ctx.modulus(m).value()));
        Word *ti = t.limb(i);
        const Word *yi = y.limb(i);
        for (size_t k = 0; k < t.n; ++k)
          ti[k] = q.add(ti[k], q.mul(yi[k], p_mod));
      }
      *outs[j] = cpu::modSwitchDown(ctx, t, outs[j]->basis, plain_modulus);
    }
  }
  static void automorphism(const Args &a, const Poly &p, uint64_t g,
                           Poly &out) {
    out = cpu::automorphism(*a.ctx, p, g);
  }
  static Poly view(const Args &, const Poly &p, size_t first, size_t count) {
    return program::view(p, first, count);
  }
  static void concat(const Args &, const std::vector<const Poly *> &parts,
                     Poly &out) {
    out = program::concat(parts);
  }
  static const HybridKey *hybridKey(const Args &a, uint64_t g) {
    if (g == kToSparseKey || g == kFromSparseKey)
      return &encapsulationKey(*a.keys, g == kToSparseKey);
    return g ? &galoisKey(*a.keys, g) : &relinKey(*a.keys);
  }
  static const KlssKey *klssKey(const Args &a, uint64_t g) {
    return g ? &klssGaloisKey(*a.keys, g) : &klssRelinKey(*a.keys);
  }
  static Poly constant(const Args &a, int64_t offset, int64_t count,
                       bool complex, double scale,
                       const std::vector<int> &basis, bool ntt,
                       uint64_t plain_modulus, uint64_t bfv_plain_modulus) {
    return encodeConstant(*a.ctx, a.data, offset, count, complex, scale, basis,
                          ntt, plain_modulus, bfv_plain_modulus);
  }
  static void encodeValues(const Args &a, size_t /*index*/,
                           const std::vector<std::complex<double>> &values,
                           double scale, Poly &out, uint64_t plain_modulus,
                           uint64_t bfv_plain_modulus) {
    out = program::encodeValues(*a.ctx, values, scale, out.basis, out.ntt,
                                plain_modulus, bfv_plain_modulus);
  }
  /// BasicBfvEvaluator::multiply of (in[0], in[1]) and (in[2], in[3]), by
  /// the evaluator of (ctx, t) kept between runs (perContext).
  static void bfvTensor(const Args &a, const std::vector<const Poly *> &in,
                        const std::vector<Poly *> &out, uint64_t t, bool behz) {
    if constexpr (!std::is_same_v<Word, uint64_t>) {
      (void)a, (void)in, (void)out, (void)t, (void)behz;
      throw InvalidArgument("a BFV program needs 64-bit words");
    } else {
      const Context<Word> &ctx = *a.ctx;
      BasicCiphertext<Word> x, y;
      x.c = {*in[0], *in[1]};
      y.c = {*in[2], *in[3]};
      x.level = y.level = ctx.maxLevel();
      const BasicBfvEvaluator<Word> &ev =
          perContext<BasicBfvEvaluator<Word>>(ctx, t);
      BasicCiphertext<Word> d =
          behz ? ev.multiplyBehz(x, y) : ev.multiply(x, y);
      for (size_t j = 0; j < out.size(); ++j)
        *out[j] = std::move(d.c[j]);
    }
  }
  static const std::vector<std::vector<std::complex<double>>> *
  plain(const Args &a) {
    return a.plain;
  }
  static void launch(const Args &, CpuKernel k, const KernelLoop &loop,
                     const KernelIO &io) {
    k(loop, io);
  }
  static void checkInput(const Args &a, size_t index, const char *name,
                         int parts, int level, size_t slots, double scale) {
    program::checkInput(*a.ctx, *a.inputs, index, name, parts, level, slots,
                        scale);
  }
  static const Poly *inputPart(const Args &a, size_t index, int part, int64_t,
                               Poly &) {
    return &(*a.inputs)[index].c[part];
  }
  static void output(const Args &a, std::vector<Poly> polys, int level,
                     double scale, size_t slots) {
    a.outputs->push_back(makeCiphertext(std::move(polys), level, scale, slots));
  }
  /// The CPU runs a program of several devices in one process
  /// (runDevicesInProcess: a transfer is a copy), never across processes:
  /// no events, and no send or receive.
  struct Event {};
  static Event ready(const Args &, const Poly &) { return {}; }
  [[noreturn]] static Event send(const Args &, const Poly &, int, Event) {
    throw Error("program plan: the CPU simulates several devices in one "
                "process (no send)");
  }
  [[noreturn]] static Event recv(const Args &, Poly &, int) {
    throw Error("program plan: the CPU simulates several devices in one "
                "process (no recv)");
  }
  static void wait(const Args &, Event) {}
  static void finish(const Args &) {}
};

} // namespace

namespace {
template <typename Word>
void runOn(const BasicCpuArgs<Word> &args, const Plan<CpuKernel> &plan) {
  ::ember::internal::keepFreedMemory(); // the Context did it already
  if (!args.prepare_only)
    args.outputs->clear();
  // A program partitioned over several GPUs runs here as their simulation:
  // the devices' steps interleaved, transfers copied (the same residues).
  if (plan.devices > 1)
    runDevicesInProcess<CpuBackend<Word>>(args, plan);
  else
    Executor<CpuBackend<Word>>(args, plan).run();
}
} // namespace

void run(const CpuArgs &args, const Plan<CpuKernel> &plan) {
  runOn(args, plan);
}
void run(const CpuArgs32 &args, const Plan<CpuKernel> &plan) {
  runOn(args, plan);
}

#define EMBER_PROGRAM_HELPERS(Word)                                            \
  template std::vector<int> basis(const Context<Word> &, int, int, int, int);  \
  template void checkInput(const Context<Word> &,                              \
                           const std::vector<BasicCiphertext<Word>> &, size_t, \
                           const char *, int, int, size_t, double);            \
  template const BasicSwitchingKey<Word> &relinKey(                            \
      const BasicEvaluationKeys<Word> &);                                      \
  template const BasicSwitchingKey<Word> &galoisKey(                           \
      const BasicEvaluationKeys<Word> &, uint64_t);                            \
  template const BasicSwitchingKey<Word> &encapsulationKey(                    \
      const BasicEvaluationKeys<Word> &, bool);                                \
  template const BasicKlssKey<Word> &klssRelinKey(                             \
      const BasicEvaluationKeys<Word> &);                                      \
  template const BasicKlssKey<Word> &klssGaloisKey(                            \
      const BasicEvaluationKeys<Word> &, uint64_t);                            \
  template Poly<Word> view(const Poly<Word> &, size_t, size_t);                \
  template Poly<Word> concat(const std::vector<const Poly<Word> *> &);         \
  template Poly<Word> encodeConstant(const Context<Word> &,                    \
                                     const std::vector<double> &, double,      \
                                     const std::vector<int> &, bool);          \
  template Poly<Word> encodeBgv(const Context<Word> &,                         \
                                const std::vector<double> &, double, uint64_t, \
                                const std::vector<int> &, bool);               \
  template Poly<Word> encodeBfv(const Context<Word> &,                         \
                                const std::vector<double> &, bool, uint64_t,   \
                                const std::vector<int> &, bool);               \
  template Poly<Word> encodeConstant(                                          \
      const Context<Word> &, const ConstantData *, uint64_t, uint64_t, bool,   \
      double, const std::vector<int> &, bool, uint64_t, uint64_t);             \
  template Poly<Word> encodeValues(                                            \
      const Context<Word> &, const std::vector<std::complex<double>> &,        \
      double, const std::vector<int> &, bool, uint64_t, uint64_t);             \
  template BasicCiphertext<Word> makeCiphertext(std::vector<Poly<Word>>, int,  \
                                                double, size_t);
EMBER_PROGRAM_HELPERS(uint64_t)
EMBER_PROGRAM_HELPERS(uint32_t)
#undef EMBER_PROGRAM_HELPERS

} // namespace ember::program
