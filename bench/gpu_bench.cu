// GPU timings of the CKKS operations on the CUDA backend, for
// bench/RESULTS.md: hmul+relin, rotate (1 step), rescale, add and a forward
// NTT of one polynomial, at sets A, B and C, at the top level and at about
// half the levels (C at level 13 = 14 limbs, Cheddar's row). Median of RUNS
// timed runs (CUDA events) after warm-up; next to each time both floors of
// BENCHMARKS.md from this file's own counts and the ratio to the larger.
// Then hybrid against KLSS key switching (Athena 2.3) at the KLSS sets: hmul
// + relin, rotate and a bare key switch with each kind of key at the top
// level and at maxLevel / 2, and a breakdown of each method's key switch
// into its launches (INTT of d, ModUp of every digit, inner product, ModDown)
// for the compiler's cost model (rns-select-keyswitch); a double-prime KLSS
// set (cheddar32k1) runs at 32-bit words.
// SETS may also hold W: 32-bit against 64-bit words, primitive by
// primitive, over the same bits of modulus (issue 15), and 3: the CKKS
// operations at 32-bit words with double-prime scaling at the shape of
// Cheddar's 32-bit set (cheddar32: 47 and 23 limbs).
//   ember_gpu_bench [SETS=ABC | none] [RUNS=30] [RESULTS_FILE]
//                   [KLSS_SETS=athena40,athena24,B | none]
#include "ember/bfv_cuda.h"
#include "ember/bgv_cuda.h"
#include "ember/ckks.h"
#include "ember/cuda.h"
#include "ember/primes.h"

// The key-switch stages of the breakdown are the backend's internal
// launchers (runtime/cuda/internal.cuh), timed one by one.
#include "../runtime/cuda/internal.cuh"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace {

using namespace ember;

// Device ceilings of BENCHMARKS.md (H200): copy bandwidth and int32 rate.
constexpr double kBandwidth = 4.3e12;  // bytes/s
constexpr double kInt32Rate = 16.7e12; // int32 instructions/s
// int32 instructions per 64-bit modular multiply(-add): a 64x64 product's
// low half is 3 IMADs and its high half about 6, and Shoup's method needs a
// low, a high and a low product (3 + 6 + 3); a lazily reduced 128-bit
// multiply-add of BConv / the inner product costs about the same.
constexpr double kInt32PerModMul = 12;
constexpr double kInt32PerModAdd = 3;
/// int32 instructions of a 32-bit modular multiply: a Shoup product is a low,
/// a high and a low 32-bit product (IMAD, IMAD.HI, IMAD), and a BConv
/// multiply-add one IMAD.WIDE plus its share of the fold; a modular add
/// about 2 (IADD3, and a compare-select pair shared with the butterfly).
constexpr double kInt32PerModMul32 = 3;
constexpr double kInt32PerModAdd32 = 2;

struct Cost {
  double bytes = 0, modmuls = 0, modadds = 0;
  bool w32 = false; ///< counted in 32-bit words
  double bwFloorUs() const { return bytes / kBandwidth * 1e6; }
  double arithFloorUs() const {
    return (modmuls * (w32 ? kInt32PerModMul32 : kInt32PerModMul) +
            modadds * (w32 ? kInt32PerModAdd32 : kInt32PerModAdd)) /
           kInt32Rate * 1e6;
  }
};

/// The work an operation must do (not what this implementation does), in
/// the context's words.
template <typename Word> struct BasicCounter {
  const Context<Word> &ctx;
  double n, logn, limb;
  bool w32 = sizeof(Word) == 4;
  explicit BasicCounter(const Context<Word> &c)
      : ctx(c), n(double(c.n())), logn(c.logN()),
        limb(double(c.n()) * sizeof(Word)) {}
  double transform(double limbs) const { return limbs * n / 2 * logn; }

  Cost ntt(int level) const {
    const double L = level + 1;
    return {2 * L * limb, transform(L), 0, w32};
  }
  Cost add(int level) const {
    const double L = level + 1;
    return {3 * 2 * L * limb, 0, 2 * L * n, w32};
  }
  /// Rescale of a ciphertext by d = scalePrimes() primes: the dropped limbs'
  /// INTTs, the kept limbs' NTTs, the BConv of the d limbs (d > 1; one
  /// prime's conversion is a reduction) and the D^-1 products.
  Cost rescale(int level) const {
    const double L = level + 1, d = ctx.scalePrimes();
    return {(2 * L + 2 * (L - d)) * limb,
            transform(2 * d) + transform(2 * (L - d)) + 2 * (L - d) * n +
                (d > 1 ? 2 * d * (L - d) * n : 0),
            2 * (L - d) * n, w32};
  }
  /// Hybrid key switching of one polynomial (ModUp of every digit, inner
  /// product, ModDown of both accumulators).
  Cost keySwitch(int level) const {
    const double L = level + 1, K = ctx.pCount();
    const int digits = ctx.digitCount(level);
    Cost c;
    c.w32 = w32;
    c.bytes = 2 * digits * (L + K) * limb; // the key, read once
    c.modmuls += transform(L);             // INTT of d
    for (int j = 0; j < digits; ++j) {
      const double s = double(ctx.digitLimbs(j, level).size());
      c.modmuls += s * (L + K - s) * n + transform(L + K - s);
    }
    c.modmuls += 2 * digits * (L + K) * n;         // inner product
    c.modmuls += transform(2 * K) + 2 * K * L * n; // ModDown INTT, BConv
    c.modmuls += transform(2 * L) + 2 * L * n;     // NTT, P^-1
    c.modadds += 2 * L * n * 2;
    return c;
  }
  /// KLSS key switching of one polynomial: INTT of d, exact BConv of every
  /// digit to T and NTT over T, the inner product over T for every key
  /// group, INTT over T and exact BConv back to each group's limbs, ModDown
  /// in coefficient form and the NTT of both results.
  Cost klssKeySwitch(int level) const {
    const double L = level + 1, K = ctx.pCount(), r = ctx.tCount();
    const int digits = ctx.digitCount(level);
    const int groups = ctx.klssGroupCount(level);
    Cost c;
    c.w32 = w32;
    c.bytes = 2 * digits * groups * r * limb; // the key, read once
    c.modmuls += transform(L);                // INTT of d
    for (int j = 0; j < digits; ++j)
      c.modmuls += double(ctx.digitLimbs(j, level).size()) * r * n;
    c.modmuls += transform(digits * r);       // NTT over T
    c.modmuls += 2 * digits * groups * r * n; // inner product
    c.modmuls += transform(2 * groups * r);   // INTT over T
    c.modmuls += 2 * r * (L + K) * n;         // exact BConv back
    c.modmuls += 2 * (K * L + K + L) * n;     // ModDown (coefficients)
    c.modmuls += transform(2 * L);            // NTT of the results
    c.modadds += 2 * L * n;
    return c;
  }
  Cost withHmul(Cost c, int level) const {
    const double L = level + 1;
    c.bytes += (2 * 2 * L + 2 * L) * limb;
    c.modmuls += 4 * L * n;
    return c;
  }
  Cost withRotate(Cost c, int level) const {
    const double L = level + 1;
    c.bytes += (2 * L + 2 * L) * limb;
    return c;
  }
  Cost hmul(int level) const {
    const double L = level + 1;
    Cost c = keySwitch(level);
    c.bytes += (2 * 2 * L + 2 * L) * limb; // two inputs, one output
    c.modmuls += 4 * L * n;                // tensor product
    return c;
  }
  Cost rotate(int level) const {
    const double L = level + 1;
    Cost c = keySwitch(level);
    c.bytes += (2 * L + 2 * L) * limb;
    return c;
  }
};
using Counter = BasicCounter<uint64_t>;

struct Anchor {
  const char *set;
  int limbs;
  double hmul, rot, rescale, add;
  const char *who;
};
const Anchor kAnchors[] = {
    {"A", 36, 1442, 1406, 247, 62, "Phantom"},
    {"B", 24, 656, 632, 185, 42, "Phantom"},
    {"C", 26, 751, 736, 189, 24, "Cheddar64"},
    {"C", 14, 364, 356, 129, 16, "Cheddar64"},
    // Re-measured side by side on an H200 (BENCHMARKS.md; add from the
    // first measurement).
    {"cheddar32", 47, 418, 404, 95, 23, "Cheddar32"},
    {"cheddar32", 23, 227, 221, 65, 14, "Cheddar32"},
};
const Anchor *findAnchor(const std::string &set, int limbs) {
  for (const Anchor &a : kAnchors)
    if (set == a.set && limbs == a.limbs)
      return &a;
  return nullptr;
}

/// The benchmarks' input slots f(step i), i < slots.
std::vector<double> benchValues(size_t slots, double (*f)(double),
                                double step) {
  std::vector<double> v(slots);
  for (size_t i = 0; i < slots; ++i)
    v[i] = f(step * double(i));
  return v;
}

double medianUs(const cuda::DeviceContext &dctx, int runs,
                const std::function<void()> &op) {
  cudaStream_t s = dctx.stream();
  for (int i = 0; i < 5; ++i)
    op(); // warm-up: plans, pool blocks, module load
  dctx.synchronize();
  cudaEvent_t start, stop;
  cudaEventCreate(&start);
  cudaEventCreate(&stop);
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    cudaEventRecord(start, s);
    op();
    cudaEventRecord(stop, s);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    times.push_back(ms * 1e3);
  }
  cudaEventDestroy(start);
  cudaEventDestroy(stop);
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

struct Row {
  std::string set, op;
  int level;
  double us, anchor;
  Cost cost;
  std::string method = "-"; ///< hybrid, klss, or - (no key switching)
};

std::vector<std::string> splitList(const std::string &text) {
  std::vector<std::string> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ','))
    if (!item.empty() && item != "none")
      out.push_back(item);
  return out;
}

/// The KLSS section: hybrid and KLSS keys of the same secret at `set`, at
/// the top level and at maxLevel / 2, at the set's word (32 bits for a
/// double-prime set).
template <typename Word>
void benchKlssAt(const std::string &set, const ParamSpec &spec, int runs,
                 std::vector<Row> &rows) {
  using namespace ember::cuda;
  using W = Word;
  const Context<Word> ctx(spec);
  DeviceContext dctx(ctx);
  Prng::Seed seed{};
  seed.fill(43);
  Prng prng(seed);
  BasicKeyGenerator<Word> keygen(ctx, prng);
  BasicPublicKey<Word> pk = keygen.publicKey();
  BasicRelinKey<Word> rk = keygen.relinKey();
  const size_t slots = ctx.slotsMax();
  const uint64_t rot1 = galoisElementForRotation(ctx, 1, slots);
  BasicGaloisKeys<Word> gk = keygen.galoisKeys({rot1});
  // The KLSS forms of the same keys (a public function of them).
  BasicKlssRelinKey<Word> krk{klssKeyFromHybrid(ctx, rk.key)};
  BasicKlssGaloisKeys<Word> kgk;
  kgk.keys.emplace(rot1, klssKeyFromHybrid(ctx, gk.keys.at(rot1)));
  BasicEncoder<Word> encoder(ctx);
  BasicEncryptor<Word> encryptor(ctx, prng);
  BasicDecryptor<Word> decryptor(ctx, keygen.secretKey());
  cuda::BasicEvaluator<Word> eval(dctx);
  auto drk = upload(dctx, rk);
  auto dgk = upload(dctx, gk);
  auto dkrk = upload(dctx, krk);
  auto dkgk = upload(dctx, kgk);
  std::printf("%s: hybrid key %.0f MB, KLSS key %.0f MB (%d digits x %d "
              "groups x %d T limbs)\n",
              ctx.describe().c_str(), hybridKeyBytes(ctx) / 1e6,
              klssKeyBytes(ctx) / 1e6, dkrk.key.digits, dkrk.key.groups,
              ctx.tCount());
  const std::vector<double> x = benchValues(slots, std::sin, 0.001),
                            y = benchValues(slots, std::cos, 0.003);
  const double scale = std::ldexp(1.0, int(spec.log_scale));
  const int top = ctx.maxLevel();
  auto ca =
      upload(dctx, encryptor.encrypt(encoder.encode(x, top, scale, slots), pk));
  auto cb =
      upload(dctx, encryptor.encrypt(encoder.encode(y, top, scale, slots), pk));
  { // Decrypt check of the timed KLSS hmul+relin and rotate.
    auto prod =
        eval.rotate(eval.rescale(eval.multiplyRelin(ca, cb, dkrk)), 1, dkgk);
    auto got = encoder.decode(decryptor.decrypt(download(dctx, prod)));
    double err = 0;
    for (size_t i = 0; i < slots; ++i)
      err = std::max(
          err, std::abs(got[i] - x[(i + 1) % slots] * y[(i + 1) % slots]));
    std::printf("%s: KLSS hmul+relin+rescale+rotate decrypts with max error "
                "%.2e%s\n",
                set.c_str(), err, err < 1e-3 ? "" : " (FAIL)");
  }
  BasicCounter<Word> count(ctx);
  auto &I = dctx.impl();
  const size_t n = ctx.n();
  // Half the chain; at 32 bits a ciphertext level (q_0 and whole pairs).
  const int half = top / 2 - (ctx.scalePrimes() == 2 && (top / 2) % 2 ? 1 : 0);
  for (int level : {top, half}) {
    auto a = eval.modDropTo(ca, level), b = eval.modDropTo(cb, level);
    auto add = [&](const char *op, const char *method, double us, Cost c) {
      Row r{set, op, level, us, 0, c};
      r.method = method;
      rows.push_back(r);
      std::printf("  %s level %d: %-22s %-6s %9.1f us\n", set.c_str(), level,
                  op, method, us);
    };
    const Cost hks = count.keySwitch(level), kks = count.klssKeySwitch(level);
    add("hmul+relin", "hybrid",
        medianUs(dctx, runs, [&] { eval.multiplyRelin(a, b, drk); }),
        count.withHmul(hks, level));
    add("hmul+relin", "klss",
        medianUs(dctx, runs, [&] { eval.multiplyRelin(a, b, dkrk); }),
        count.withHmul(kks, level));
    add("rotate", "hybrid",
        medianUs(dctx, runs, [&] { eval.rotate(a, 1, dgk); }),
        count.withRotate(hks, level));
    add("rotate", "klss",
        medianUs(dctx, runs, [&] { eval.rotate(a, 1, dkgk); }),
        count.withRotate(kks, level));

    // Breakdown of one key switch of d = part 1 of a (NTT over Q_l).
    const int l1 = level + 1;
    const W *d = a.part(1);
    const KsPlan &hp = I.ksPlan(dctx, level);
    const KlssPlan &kp = I.klssPlan(dctx, level);
    auto buffer = [&](size_t rows) { return residueBuffer<W>(dctx, rows * n); };
    DeviceBuffer outb = buffer(2 * l1), yb = buffer(l1);
    DeviceBuffer extb = buffer(hp.ext_rows), accb = buffer(2 * hp.qp);
    DeviceBuffer tdb = buffer(size_t(kp.digits) * kp.r);
    DeviceBuffer ipb = buffer(size_t(2 * kp.groups) * kp.r);
    W *out = residues<W>(outb), *y = residues<W>(yb), *ext = residues<W>(extb),
      *acc = residues<W>(accb), *td = residues<W>(tdb), *ip = residues<W>(ipb);
    std::vector<const W *> tds;
    for (int j = 0; j < kp.digits; ++j)
      tds.push_back(td + size_t(j) * kp.r * n);
    const Cost none{};
    add("keyswitch", "hybrid",
        medianUs(dctx, runs,
                 [&] {
                   keySwitchInto<W>(dctx, d, level, drk.key, out, nullptr, 0,
                                    0);
                 }),
        hks);
    add("keyswitch", "klss",
        medianUs(dctx, runs,
                 [&] {
                   keySwitchInto<W>(dctx, d, level, dkrk.key, out, nullptr, 0,
                                    0);
                 }),
        kks);
    const double intt_d = medianUs(
        dctx, runs, [&] { modUpInverse(dctx, hp, d, 0, hp.digits, y); });
    add("ks:intt_d", "hybrid", intt_d, none);
    add("ks:intt_d", "klss", intt_d, none);
    add("ks:modup", "hybrid",
        medianUs(dctx, runs,
                 [&] { modUpConvert(dctx, hp, y, 0, hp.digits, ext); }),
        none);
    add("ks:modup", "klss",
        medianUs(dctx, runs, [&] { klssModUpAll(dctx, kp, y, td); }), none);
    add("ks:inner", "hybrid",
        medianUs(dctx, runs,
                 [&] { launchInnerProduct(dctx, hp, d, ext, drk.key, acc); }),
        none);
    add("ks:inner", "klss",
        medianUs(dctx, runs,
                 [&] {
                   launchKlssInnerProduct(dctx, kp, tds, dkrk.key, ip);
                   klssBackToQP(dctx, kp, ip, acc, acc + size_t(kp.qp) * n);
                 }),
        none);
    add("ks:inner_ip", "klss",
        medianUs(dctx, runs,
                 [&] { launchKlssInnerProduct(dctx, kp, tds, dkrk.key, ip); }),
        none);
    add("ks:inner_back", "klss",
        medianUs(
            dctx, runs,
            [&] { klssBackToQP(dctx, kp, ip, acc, acc + size_t(kp.qp) * n); }),
        none);
    add("ks:moddown", "hybrid",
        medianUs(
            dctx, runs,
            [&] { modDownParts<W>(dctx, hp, acc, 2, out, nullptr, 0, 0); }),
        none);
    const std::vector<int> rows_q = [&] {
      std::vector<int> v(2 * l1);
      for (int i = 0; i < 2 * l1; ++i)
        v[i] = i;
      return v;
    }();
    std::vector<int> mods_q(2 * l1);
    for (int i = 0; i < 2 * l1; ++i)
      mods_q[i] = i % l1;
    add("ks:moddown", "klss",
        medianUs(dctx, runs,
                 [&] {
                   modDownCoeffParts(dctx, *kp.down, acc, kp.qp, 2, out, l1);
                   launchNttForward(dctx, static_cast<const W *>(out), rows_q,
                                    out, rows_q, out, rows_q, mods_q, -1,
                                    static_cast<const EpilogueT<W> *>(nullptr));
                 }),
        none);
    add("ks:moddown_coeff", "klss",
        medianUs(
            dctx, runs,
            [&] { modDownCoeffParts(dctx, *kp.down, acc, kp.qp, 2, out, l1); }),
        none);
  }
  std::printf("%s: pool %.0f MB\n", set.c_str(), dctx.poolBytes() / 1e6);
}

bool benchKlss(const std::string &set, int runs, std::vector<Row> &rows) {
  ParamSpec spec;
  if (!namedParamSpec(set, spec) || spec.klss_gamma == 0) {
    std::fprintf(stderr, "unknown set or no KLSS form: %s\n", set.c_str());
    return false;
  }
  if (spec.scale_primes == 2)
    benchKlssAt<uint32_t>(set, spec, runs, rows);
  else
    benchKlssAt<uint64_t>(set, spec, runs, rows);
  return true;
}

} // namespace

// --- 32-bit against 64-bit words (issue 15)
// -----------------------------------

/// One primitive at both word sizes over the same modulus bits: time,
/// time per 1000 bits of modulus, and the arithmetic floor at each word.
struct WordRow {
  std::string op;
  double us64, us32, floor64, floor32;
};

/// The primitives at N = 2^16 over 1440 bits of modulus: 24 limbs of 60
/// bits (64-bit words) against 48 of 30 bits (32-bit words); the BConv of
/// a 240-bit digit to 480 bits (4 -> 8 limbs against 8 -> 16), a rescale
/// dropping 60 bits (one 60-bit prime against two 30-bit ones: double-prime
/// scaling rescales by a pair), an automorphism and a pointwise product.
void benchWords(int runs) {
  using namespace ember::cuda;
  auto spec = [](int limbs, int bits) {
    ParamSpec s;
    s.name = "words" + std::to_string(bits);
    s.log_n = 16;
    s.log_scale = bits;
    s.security = Security::kInsecureTestOnly; // timing only
    s.q_bits.assign(limbs, bits);
    s.p_bits.assign(8, bits);
    s.dnum = limbs / 4;
    return s;
  };
  Context64 c64(spec(24, 60));
  Context32 c32(spec(48, 30));
  DeviceContext d64(c64), d32(c32);
  Prng::Seed seed{};
  seed.fill(5);
  Prng prng(seed);
  const double n = 65536, logn = 16, bf = n / 2 * logn; // butterflies/limb
  auto floorUs = [](double modmuls, double modadds, bool w32) {
    return (modmuls * (w32 ? kInt32PerModMul32 : kInt32PerModMul) +
            modadds * (w32 ? kInt32PerModAdd32 : kInt32PerModAdd)) /
           kInt32Rate * 1e6;
  };
  std::vector<WordRow> rows;
  auto add = [&](const char *op, double us64, double us32, double mm64,
                 double ma64, double mm32, double ma32) {
    rows.push_back({op, us64, us32, floorUs(mm64, ma64, false),
                    floorUs(mm32, ma32, true)});
  };
  const std::vector<int> q64 = c64.qBasis(23), q32 = c32.qBasis(47);
  DevicePoly p64 = upload(d64, sampleUniformPoly(c64, prng, q64, false));
  DevicePoly32 p32 = upload(d32, sampleUniformPoly(c32, prng, q32, false));
  // In-place transforms of every limb: forward from coefficient form,
  // inverse from NTT form (the same buffer each run).
  for (bool forward : {true, false}) {
    auto transform = [&](const cuda::DeviceContext &d, auto &p) {
      p.ntt = !forward;
      forward ? ntt(d, p) : intt(d, p);
    };
    add(forward ? "ntt (1440 bits)" : "intt (1440 bits)",
        medianUs(d64, runs, [&] { transform(d64, p64); }),
        medianUs(d32, runs, [&] { transform(d32, p32); }), 24 * bf, 24 * 2 * bf,
        48 * bf, 48 * 2 * bf);
  }
  {
    const std::vector<int> f64{0, 1, 2, 3}, t64{4, 5, 6, 7, 8, 9, 10, 11};
    std::vector<int> f32, t32;
    for (int i = 0; i < 8; ++i)
      f32.push_back(i);
    for (int i = 8; i < 24; ++i)
      t32.push_back(i);
    DevicePoly b64 = upload(d64, sampleUniformPoly(c64, prng, f64, false));
    DevicePoly32 b32 = upload(d32, sampleUniformPoly(c32, prng, f32, false));
    add("bconv 240 -> 480 bits",
        medianUs(d64, runs, [&] { bconv(d64, b64, t64); }),
        medianUs(d32, runs, [&] { bconv(d32, b32, t32); }), (4 + 4 * 8) * n, 0,
        (8 + 8 * 16) * n, 0);
  }
  DevicePoly e64 = upload(d64, sampleUniformPoly(c64, prng, q64, true));
  DevicePoly32 e32 = upload(d32, sampleUniformPoly(c32, prng, q32, true));
  DevicePoly f64 = upload(d64, sampleUniformPoly(c64, prng, q64, true));
  DevicePoly32 f32 = upload(d32, sampleUniformPoly(c32, prng, q32, true));
  add("mul (1440 bits)",
      medianUs(d64, runs, [&] { mulInPlace(d64, e64, f64); }),
      medianUs(d32, runs, [&] { mulInPlace(d32, e32, f32); }), 24 * n, 0,
      48 * n, 0);
  const uint64_t g = 5;
  add("automorphism (1440 bits)",
      medianUs(d64, runs, [&] { automorphism(d64, e64, g); }),
      medianUs(d32, runs, [&] { automorphism(d32, e32, g); }), 0, 0, 0, 0);
  {
    // Rescale drops 60 bits: one prime at 64 bits, two at 32 (one after
    // the other here; a fused double-prime rescale is to come).
    const Poly64 r64 = sampleUniformPoly(c64, prng, q64, true);
    const Poly32 r32 = sampleUniformPoly(c32, prng, q32, true);
    DevicePoly x64 = upload(d64, r64);
    DevicePoly32 x32 = upload(d32, r32);
    DevicePoly y64;
    DevicePoly32 y32;
    const double us64 = medianUs(d64, runs, [&] {
      y64 = DevicePoly{x64.basis, x64.n, true,
                       DeviceBuffer::borrow(x64.data(), x64.buf.words())};
      rescale(d64, y64);
    });
    const double us32 = medianUs(d32, runs, [&] {
      y32 = DevicePoly32{
          x32.basis, x32.n, true,
          DeviceBuffer::borrow(reinterpret_cast<uint64_t *>(x32.data()),
                               x32.buf.words())};
      rescale(d32, y32);
      rescale(d32, y32);
    });
    // Transforms: the dropped limbs' INTTs and one NTT per kept limb; plus
    // one product per kept coefficient (and the BConv's at 32 bits).
    add("rescale by 60 bits: two rescales at 32", us64, us32, 24 * bf + 23 * n,
        24 * 2 * bf + 23 * n, 95 * bf + 93 * n, 95 * 2 * bf + 93 * n);
    const std::vector<int> keep = c32.qBasis(45);
    add("rescale by 60 bits: one double-prime switch at 32", us64,
        medianUs(d32, runs, [&] { modSwitchDown(d32, x32, keep); }),
        24 * bf + 23 * n, 24 * 2 * bf + 23 * n, 48 * bf + 3 * 46 * n,
        48 * 2 * bf + 46 * n);
  }
  std::printf("\n== 32-bit against 64-bit words, N = 2^16 ==\n");
  std::printf("| op | 64-bit us (24 x 60 bits) | 32-bit us (48 x 30 bits) | "
              "64 / 32 | arith floor 64 / 32 us | time / floor 64 / 32 |\n");
  std::printf("| --- | --- | --- | --- | --- | --- |\n");
  for (const WordRow &r : rows) {
    char fl[64] = "-", ratio[64] = "-";
    if (r.floor64 > 0) {
      std::snprintf(fl, sizeof fl, "%.1f / %.1f", r.floor64, r.floor32);
      std::snprintf(ratio, sizeof ratio, "%.1f / %.1f", r.us64 / r.floor64,
                    r.us32 / r.floor32);
    }
    std::printf("| %s | %.1f | %.1f | %.2f | %s | %s |\n", r.op.c_str(), r.us64,
                r.us32, r.us64 / r.us32, fl, ratio);
  }
}

/// hmul+relin, rotate, rescale, add and an NTT at the set's top level and
/// about half, at the context's word, with a decrypt check and the key
/// switch's breakdown at the top.
template <typename Word>
void benchSet(const std::string &set, const ParamSpec &spec, int runs,
              std::vector<Row> &rows) {
  const Context<Word> ctx(spec);
  cuda::DeviceContext dctx(ctx);
  Prng::Seed seed{};
  seed.fill(42);
  Prng prng(seed);
  BasicKeyGenerator<Word> keygen(ctx, prng);
  BasicPublicKey<Word> pk = keygen.publicKey();
  BasicRelinKey<Word> rk = keygen.relinKey();
  const size_t slots = ctx.slotsMax();
  BasicGaloisKeys<Word> gk =
      keygen.galoisKeys({galoisElementForRotation(ctx, 1, slots)});
  BasicEncoder<Word> encoder(ctx);
  BasicEncryptor<Word> encryptor(ctx, prng);
  BasicDecryptor<Word> decryptor(ctx, keygen.secretKey());
  cuda::BasicEvaluator<Word> eval(dctx);
  auto drk = cuda::upload(dctx, rk);
  auto dgk = cuda::upload(dctx, gk);
  const std::vector<double> x = benchValues(slots, std::sin, 0.001),
                            y = benchValues(slots, std::cos, 0.003);
  const double scale = std::ldexp(1.0, int(spec.log_scale));
  const int top = ctx.maxLevel();
  auto ca = cuda::upload(
      dctx, encryptor.encrypt(encoder.encode(x, top, scale, slots), pk));
  auto cb = cuda::upload(
      dctx, encryptor.encrypt(encoder.encode(y, top, scale, slots), pk));
  { // Decrypt check of the timed hmul+relin (and a rescale).
    BasicCiphertext<Word> prod =
        cuda::download(dctx, eval.rescale(eval.multiplyRelin(ca, cb, drk)));
    auto got = encoder.decode(decryptor.decrypt(prod));
    double err = 0;
    for (size_t i = 0; i < slots; ++i)
      err = std::max(err, std::abs(got[i] - x[i] * y[i]));
    std::printf("%s: hmul+relin+rescale decrypts with max error %.2e%s\n",
                ctx.describe().c_str(), err, err < 1e-3 ? "" : " (FAIL)");
  }
  // C at Cheddar's row (14 limbs), cheddar32 at 23 limbs, else half.
  const int half = set == "C" ? 13 : set == "cheddar32" ? 22 : top / 2;
  BasicCounter<Word> count(ctx);
  for (int level : {top, half}) {
    auto a = eval.modDropTo(ca, level), b = eval.modDropTo(cb, level);
    cuda::BasicDevicePoly<Word> p;
    p.basis = ctx.qBasis(level);
    p.n = ctx.n();
    p.buf = cuda::DeviceBuffer(
        dctx, cuda::BasicDevicePoly<Word>::wordsFor(p.basis.size() * p.n));
    cudaMemcpyAsync(p.data(), a.data(), p.basis.size() * p.n * sizeof(Word),
                    cudaMemcpyDeviceToDevice, dctx.stream());
    const Anchor *anc = findAnchor(set, level + 1);
    auto add_row = [&](const char *op, double us, double anchor, Cost c) {
      rows.push_back({set, op, level, us, anchor, c});
    };
    add_row("hmul+relin",
            medianUs(dctx, runs, [&] { eval.multiplyRelin(a, b, drk); }),
            anc ? anc->hmul : 0, count.hmul(level));
    rows.back().method = "hybrid";
    add_row("rotate", medianUs(dctx, runs, [&] { eval.rotate(a, 1, dgk); }),
            anc ? anc->rot : 0, count.rotate(level));
    rows.back().method = "hybrid";
    add_row("rescale", medianUs(dctx, runs, [&] { eval.rescale(a); }),
            anc ? anc->rescale : 0, count.rescale(level));
    add_row("add", medianUs(dctx, runs, [&] { eval.add(a, b); }),
            anc ? anc->add : 0, count.add(level));
    add_row("ntt",
            medianUs(dctx, runs,
                     [&] {
                       p.ntt = false;
                       cuda::ntt(dctx, p);
                     }),
            0, count.ntt(level));
  }
  { // Breakdown at the top level: the primitives inside key switching.
    const int l = top;
    auto a = eval.modDropTo(ca, l);
    Prng bprng(seed);
    cuda::BasicDevicePoly<Word> d =
        cuda::upload(dctx, sampleUniformPoly(ctx, bprng, ctx.qBasis(l), true));
    cuda::BasicDevicePoly<Word> dqp =
        cuda::upload(dctx, sampleUniformPoly(ctx, bprng, ctx.qpBasis(l), true));
    const uint64_t g = galoisElementForRotation(ctx, 1, slots);
    auto t = [&](const char *what, const std::function<void()> &op) {
      std::printf("  %s top: %-34s %8.1f us\n", set.c_str(), what,
                  medianUs(dctx, runs, op));
    };
    t("intt (Q limbs)", [&] {
      d.ntt = true;
      cuda::intt(dctx, d);
    });
    t("ntt (Q limbs)", [&] {
      d.ntt = false;
      cuda::ntt(dctx, d);
    });
    d.ntt = true;
    t("modUp digit 0 (+ copies)", [&] { cuda::modUp(dctx, d, 0); });
    t("modDown (one poly)", [&] { cuda::modDown(dctx, dqp); });
    t("keySwitch (+ 2 copies)", [&] { eval.keySwitch(d, drk.key); });
    t("multiply (tensor)", [&] { eval.multiply(a, a); });
    t("automorphism (one poly)", [&] { cuda::automorphism(dctx, d, g); });
    // The fused key switch's launches one by one (keySwitchInto).
    const cuda::KsPlan &hp = dctx.impl().ksPlan(dctx, l);
    const size_t n = ctx.n();
    auto buffer = [&](size_t rows) {
      return cuda::residueBuffer<Word>(dctx, rows * n);
    };
    cuda::DeviceBuffer y = buffer(l + 1), ext = buffer(hp.ext_rows),
                       acc = buffer(2 * hp.qp), out = buffer(2 * (l + 1));
    Word *yw = cuda::residues<Word>(y), *extw = cuda::residues<Word>(ext),
         *accw = cuda::residues<Word>(acc), *outw = cuda::residues<Word>(out);
    t("ks: INTT of d (hat^-1 folded)",
      [&] { cuda::modUpInverse(dctx, hp, d.data(), 0, hp.digits, yw); });
    t("ks: BConv + NTT of every digit",
      [&] { cuda::modUpConvert<Word>(dctx, hp, yw, 0, hp.digits, extw); });
    t("ks: inner product", [&] {
      cuda::launchInnerProduct<Word>(dctx, hp, d.data(), extw, drk.key, accw);
    });
    t("ks: ModDown of both (fused NTT)", [&] {
      cuda::modDownParts<Word>(dctx, hp, accw, 2, outw, nullptr, 0, 0);
    });
  }
  std::printf("%s: pool %.0f MB\n", set.c_str(), dctx.poolBytes() / 1e6);
}

// --- BGV at Phantom's benchmark shapes (issue 17) ---------------------------

/// Phantom's bgv_bench shapes (16 x 36 Q primes | 7 x 38 + 39 P at N = 2^15,
/// 32 x 36 | 15 x 39 + 40 at 2^16; dnum 2) with a 20-bit batching t:
/// multiply + relinearize (Phantom's timed region: no modulus switch), the
/// modulus switch on its own, against Phantom's H200 figures (issue 17).
/// The 2^16 shape has log QP 1777 > 1747: insecure, speed comparison only.
void benchBgv(int runs, std::vector<Row> &rows) {
  const uint64_t t = 786433; // 3 2^18 + 1: batches up to N = 2^17
  struct Shape {
    int log_n, q_count;
    std::vector<int> p_bits;
    double phantom_us, phantom_bfv_us; // BGV; BFV with HPS
  };
  const Shape shapes[] = {
      {15, 16, {38, 38, 38, 38, 38, 38, 38, 39}, 310, 850},
      {16,
       32,
       {39, 39, 39, 39, 39, 39, 39, 39, 39, 39, 39, 39, 39, 39, 39, 40},
       1080,
       3490}};
  std::printf("\n== BGV and BFV at Phantom's shapes (t = %llu) ==\n",
              (unsigned long long)t);
  for (const Shape &sh : shapes) {
    const std::vector<uint64_t> q =
        generateNttPrimes(sh.log_n, std::vector<int>(sh.q_count, 36));
    const std::vector<uint64_t> p = generateNttPrimes(sh.log_n, sh.p_bits, q);
    ParamSpec spec;
    spec.name = "phantom-bgv" + std::to_string(sh.log_n);
    spec.log_n = sh.log_n;
    spec.dnum = 2;
    spec.security = logQP(q, p) <= maxLogQP128(sh.log_n)
                        ? Security::k128
                        : Security::kInsecureTestOnly;
    Context64 ctx(spec, q, p);
    std::printf("%s: log QP %d (%s), %zu Q + %zu P primes, dnum 2\n",
                spec.name.c_str(), logQP(q, p),
                spec.security == Security::k128 ? "128-bit"
                                                : "INSECURE: above the bound",
                q.size(), p.size());
    cuda::DeviceContext dctx(ctx);
    Prng prng;
    KeyGenerator keygen(ctx, prng, t);
    BgvEncoder encoder(ctx, t);
    Encryptor encryptor(ctx, prng, t);
    Decryptor decryptor(ctx, keygen.secretKey());
    cuda::BgvEvaluator eval(dctx, t);
    const PublicKey pk = keygen.publicKey();
    const cuda::DeviceRelinKey drk = cuda::upload(dctx, keygen.relinKey());
    const size_t slots = ctx.slotsMax();
    std::vector<int64_t> x(slots), y(slots);
    for (size_t i = 0; i < slots; ++i) {
      x[i] = int64_t(prng.uniform(t));
      y[i] = int64_t(prng.uniform(t));
    }
    const int top = ctx.maxLevel();
    auto a = cuda::upload(dctx,
                          encryptor.encrypt(encoder.encode(x, top, slots), pk));
    auto b = cuda::upload(dctx,
                          encryptor.encrypt(encoder.encode(y, top, slots), pk));
    { // decrypt check of the timed operation
      auto prod = eval.relinearize(eval.multiply(a, b), drk);
      std::vector<uint64_t> got =
          encoder.decode(decryptor.decrypt(cuda::download(dctx, prod)));
      size_t bad = 0;
      for (size_t i = 0; i < slots; ++i)
        bad += got[i] != uint64_t(x[i]) * uint64_t(y[i]) % t;
      std::printf("%s: multiply+relinearize decrypts exactly: %s\n",
                  spec.name.c_str(), bad ? "NO (FAIL)" : "yes");
    }
    BasicCounter<uint64_t> count(ctx);
    const double us = medianUs(
        dctx, runs, [&] { eval.relinearize(eval.multiply(a, b), drk); });
    Row r{spec.name, "bgv mul+relin", top, us, sh.phantom_us, count.hmul(top)};
    r.method = "hybrid";
    rows.push_back(r);
    auto c = eval.relinearize(eval.multiply(a, b), drk);
    const double ms = medianUs(dctx, runs, [&] { eval.modSwitch(c); });
    // The whole BGV multiply with the ModDown and the switch merged.
    const double whole =
        medianUs(dctx, runs, [&] { eval.multiplyRelin(a, b, drk); });
    rows.push_back(
        Row{spec.name, "bgv mul+relin+switch", top, whole, 0, count.hmul(top)});
    rows.push_back(
        Row{spec.name, "bgv mod switch", top, ms, 0, count.rescale(top)});
    { // One polynomial's transforms over Q, in place: the limb NTTs that
      // bound BFV's HPS multiply (N = 2^15: columns of 128 and rows of 256,
      // ntt.cu; 2^16: 256 x 256).
      Prng tprng; // not the keys' and inputs' stream
      cuda::DevicePoly p = cuda::upload(
          dctx, sampleUniformPoly(ctx, tprng, ctx.qBasis(top), false));
      const double fwd = medianUs(dctx, runs, [&] {
        p.ntt = false;
        cuda::ntt(dctx, p);
      });
      const double inv = medianUs(dctx, runs, [&] {
        p.ntt = true;
        cuda::intt(dctx, p);
      });
      rows.push_back(Row{spec.name, "ntt", top, fwd, 0, count.ntt(top)});
      rows.push_back(Row{spec.name, "intt", top, inv, 0, count.ntt(top)});
      std::printf("  %s: ntt %.1f us, intt %.1f us (%d limbs: %.2f and %.2f "
                  "us a limb)\n",
                  spec.name.c_str(), fwd, inv, top + 1, fwd / (top + 1),
                  inv / (top + 1));
    }
    std::printf("  %s: mul+relin %.1f us (Phantom %.0f us: %.2fx), mod "
                "switch %.1f us, mul+relin+switch merged %.1f us\n",
                spec.name.c_str(), us, sh.phantom_us, us / sh.phantom_us, ms,
                whole);

    // BFV at the same shape (HPS; keys with the plain error): multiply then
    // relinearize, Phantom's timed region.
    KeyGenerator bfv_keys(ctx, prng);
    cuda::BfvEvaluator bfv(dctx, t);
    const BfvEncoder &benc = bfv.host().encoder();
    Encryptor bfv_enc(ctx, prng);
    Decryptor bfv_dec(ctx, bfv_keys.secretKey());
    const PublicKey bpk = bfv_keys.publicKey();
    const cuda::DeviceRelinKey brk = cuda::upload(dctx, bfv_keys.relinKey());
    auto fa = cuda::upload(dctx, bfv_enc.encrypt(benc.encode(x, slots), bpk));
    auto fb = cuda::upload(dctx, bfv_enc.encrypt(benc.encode(y, slots), bpk));
    // HPS's or BEHZ's tensor product of fa and fb.
    auto tensor = [&](bool behz) {
      return behz ? bfv.multiplyBehz(fa, fb) : bfv.multiply(fa, fb);
    };
    for (bool behz : {false, true}) { // decrypt check of the timed operation
      auto prod = bfv.relinearize(tensor(behz), brk);
      std::vector<uint64_t> got =
          benc.decode(bfv_dec.decrypt(cuda::download(dctx, prod)));
      size_t bad = 0;
      for (size_t i = 0; i < slots; ++i)
        bad += got[i] != uint64_t(x[i]) * uint64_t(y[i]) % t;
      std::printf("%s: BFV multiply+relinearize (%s) decrypts exactly: %s (%zu "
                  "aux primes)\n",
                  spec.name.c_str(), behz ? "BEHZ" : "HPS",
                  bad ? "NO (FAIL)" : "yes", bfv.host().auxPrimes().size());
    }
    const double bus =
        medianUs(dctx, runs, [&] { bfv.relinearize(tensor(false), brk); });
    const double tus = medianUs(dctx, runs, [&] { tensor(false); });
    const double zus =
        medianUs(dctx, runs, [&] { bfv.relinearize(tensor(true), brk); });
    const double zt = medianUs(dctx, runs, [&] { tensor(true); });
    // The floor: key switching and a tensor product (as for BGV) plus the
    // work over R: INTTs of the 4 inputs over Q, their extension to R, NTTs
    // over Q u R, the tensor there, INTTs of the 3 products, the scaling to
    // R and the conversion back, NTTs over Q; the bytes of the 4 + 3
    // polynomials over Q u R, written and read once. The conversions: HPS
    // k kr products to R, k kr in the scale-and-round and kr k back; BEHZ
    // (R read as B u {m_sk}, kb = kr - 1) k kr, k kr, and kb (k + 1) back.
    auto bfvCost = [&](bool behz) {
      Cost c = count.hmul(top);
      const double k = top + 1, kr = double(bfv.host().auxPrimes().size());
      const double w = k + kr, nn = double(ctx.n());
      c.modmuls += count.transform(4 * k) + count.transform(4 * w) +
                   count.transform(3 * w) + count.transform(3 * k);
      c.modmuls += (4 * k * kr + 4 * w + 3 * k * kr +
                    3 * (behz ? (kr - 1) * (k + 1) : kr * k)) *
                   nn;
      c.bytes += 2 * (4 + 3) * w * nn * sizeof(uint64_t);
      return c;
    };
    const Cost hps = bfvCost(false);
    Row br{spec.name, "bfv mul+relin", top, bus, sh.phantom_bfv_us, hps};
    br.method = "hybrid";
    rows.push_back(br);
    Row zr{spec.name, "bfv mul+relin (BEHZ)", top, zus, 0, bfvCost(true)};
    zr.method = "hybrid";
    rows.push_back(zr);
    std::printf("  %s: BFV mul+relin %.1f us (Phantom HPS %.0f us: %.2fx), "
                "HPS tensor alone %.1f us\n",
                spec.name.c_str(), bus, sh.phantom_bfv_us,
                bus / sh.phantom_bfv_us, tus);
    std::printf("  %s: BFV mul+relin BEHZ %.1f us (BEHZ / HPS %.2f), BEHZ "
                "tensor alone %.1f us\n",
                spec.name.c_str(), zus, zus / bus, zt);
  }
}

/// Issue 18's limb partitioning (docs/issue18-limb-partition-brief.md)
/// rests on how well a kernel over a share of the limbs runs: each
/// primitive of bootstrap16's shape (N = 2^16, 64-bit words, 26 Q and 6 P
/// limbs, digits of 7) over all its limbs and over half of them, as one
/// GPU of two would run it. A ratio near 0.5 means the split halves the
/// time; the launches and tails that do not shrink show above it.
void benchLimbShares(int runs) {
  using namespace ember::cuda;
  ParamSpec spec;
  spec.name = "limb-shares";
  spec.log_n = 16;
  spec.log_scale = 50;
  spec.security = Security::kInsecureTestOnly; // timing only
  spec.q_bits.assign(26, 50);
  spec.q_bits[0] = 60;
  spec.p_bits.assign(6, 60);
  spec.dnum = 4;
  Context64 c(spec);
  DeviceContext d(c);
  Prng::Seed seed{};
  seed.fill(7);
  Prng prng(seed);
  auto range = [](int lo, int hi) {
    std::vector<int> v;
    for (int i = lo; i < hi; ++i)
      v.push_back(i);
    return v;
  };
  const std::vector<int> all = c.qBasis(25), half = c.qBasis(12);
  struct ShareRow {
    std::string op;
    double full, half;
  };
  std::vector<ShareRow> rows;
  for (bool forward : {true, false}) {
    DevicePoly a = upload(d, sampleUniformPoly(c, prng, all, !forward));
    DevicePoly b = upload(d, sampleUniformPoly(c, prng, half, !forward));
    auto run = [&](DevicePoly &p) {
      return medianUs(d, runs, [&] {
        p.ntt = !forward;
        forward ? ntt(d, p) : intt(d, p);
      });
    };
    rows.push_back({forward ? "ntt, 26 / 13 limbs" : "intt, 26 / 13 limbs",
                    run(a), run(b)});
  }
  {
    // ModUp's BConv of one digit (7 limbs, gathered whole on each GPU) to
    // the other 25 limbs of Q u P, against a GPU's 12 of them.
    const std::vector<int> digit = range(0, 7);
    std::vector<int> rest = range(7, 26);
    for (int j : c.pBasis())
      rest.push_back(j);
    const std::vector<int> share(rest.begin(), rest.begin() + 12);
    DevicePoly x = upload(d, sampleUniformPoly(c, prng, digit, false));
    rows.push_back({"bconv digit 7 -> 25 / 12 limbs",
                    medianUs(d, runs, [&] { bconv(d, x, rest); }),
                    medianUs(d, runs, [&] { bconv(d, x, share); })});
    // ModDown's BConv of the 6 P limbs to Q (26), against 13 of them.
    const std::vector<int> p6 = c.pBasis();
    DevicePoly y = upload(d, sampleUniformPoly(c, prng, p6, false));
    rows.push_back({"bconv P 6 -> 26 / 13 limbs",
                    medianUs(d, runs, [&] { bconv(d, y, all); }),
                    medianUs(d, runs, [&] { bconv(d, y, half); })});
  }
  {
    DevicePoly e = upload(d, sampleUniformPoly(c, prng, all, true));
    DevicePoly f = upload(d, sampleUniformPoly(c, prng, all, true));
    DevicePoly g = upload(d, sampleUniformPoly(c, prng, half, true));
    DevicePoly h = upload(d, sampleUniformPoly(c, prng, half, true));
    rows.push_back({"mul, 26 / 13 limbs",
                    medianUs(d, runs, [&] { mulInPlace(d, e, f); }),
                    medianUs(d, runs, [&] { mulInPlace(d, g, h); })});
    rows.push_back({"automorphism, 26 / 13 limbs",
                    medianUs(d, runs, [&] { automorphism(d, e, 5); }),
                    medianUs(d, runs, [&] { automorphism(d, g, 5); })});
  }
  std::printf("\n== limb shares: all limbs against half (N = 2^16, 64-bit, "
              "bootstrap16's shape) ==\n");
  std::printf("| op | all limbs us | half us | half / all |\n");
  std::printf("| --- | --- | --- | --- |\n");
  for (const ShareRow &r : rows)
    std::printf("| %s | %.1f | %.1f | %.2f |\n", r.op.c_str(), r.full, r.half,
                r.half / r.full);
}

int main(int argc, char **argv) {
  std::string sets = argc > 1 ? argv[1] : "ABC";
  if (sets == "none" || sets == "-")
    sets.clear(); // only the KLSS section
  const int runs = argc > 2 ? std::atoi(argv[2]) : 30;
  const std::string results = argc > 3 ? argv[3] : "";
  const std::vector<std::string> klss_sets =
      splitList(argc > 4 ? argv[4] : "athena40,athena24,B");

  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) {
    std::fprintf(stderr, "no CUDA device\n");
    return 1;
  }
  std::printf("GPU: %s (%d SMs, %.0f MB L2, %zu GB)\n", prop.name,
              prop.multiProcessorCount, prop.l2CacheSize / 1e6,
              size_t(prop.totalGlobalMem >> 30));
  std::printf("floors: bandwidth %.1f TB/s, int32 %.1f T/s, %.0f int32 per "
              "64-bit modmul\n",
              kBandwidth / 1e12, kInt32Rate / 1e12, kInt32PerModMul);

  std::vector<Row> rows;
  for (char set_c : sets) {
    if (set_c == 'W') { // the word-size section
      benchWords(runs);
      continue;
    }
    if (set_c == 'L') { // issue 18: kernels over a share of the limbs
      benchLimbShares(runs);
      continue;
    }
    if (set_c == 'G') { // BGV at Phantom's shapes
      benchBgv(runs, rows);
      continue;
    }
    // 3: the shape of Cheddar's 32-bit set at 32-bit words.
    const std::string set = set_c == '3' ? "cheddar32" : std::string(1, set_c);
    ParamSpec spec;
    if (!namedParamSpec(set, spec)) {
      std::fprintf(stderr, "unknown set %s\n", set.c_str());
      return 2;
    }
    if (set == "cheddar32")
      benchSet<uint32_t>(set, spec, runs, rows);
    else
      benchSet<uint64_t>(set, spec, runs, rows);
  }

  if (!klss_sets.empty())
    std::printf("\n== hybrid vs KLSS key switching ==\n");
  for (const std::string &set : klss_sets)
    if (!benchKlss(set, runs, rows))
      return 2;

  std::printf("\n| set | level (limbs) | op | method | Ember us | anchor us | "
              "ratio | bw floor us | arith floor us | time / larger floor |\n");
  std::printf(
      "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
  for (const Row &r : rows) {
    if (r.op.rfind("ks:", 0) == 0)
      continue; // breakdown rows: printed above, kept in the JSON
    const double bw = r.cost.bwFloorUs(), ar = r.cost.arithFloorUs();
    char anchor[64] = "-", ratio[64] = "-";
    if (r.anchor > 0) {
      std::snprintf(anchor, sizeof anchor, "%.0f", r.anchor);
      std::snprintf(ratio, sizeof ratio, "%.2f", r.us / r.anchor);
    }
    std::printf("| %s | %d (%d) | %s | %s | %.1f | %s | %s | %.1f | %.1f | "
                "%.2f (%s) |\n",
                r.set.c_str(), r.level, r.level + 1, r.op.c_str(),
                r.method.c_str(), r.us, anchor, ratio, bw, ar,
                r.us / std::max(bw, ar), ar > bw ? "arith" : "bw");
  }
  // KLSS against hybrid at each point: the ratio the cost model predicts.
  for (const Row &k : rows) {
    if (k.method != "klss" || k.op.rfind("ks:", 0) == 0)
      continue;
    for (const Row &h : rows)
      if (h.method == "hybrid" && h.set == k.set && h.level == k.level &&
          h.op == k.op)
        std::printf("%s level %d %s: KLSS / hybrid = %.2f\n", k.set.c_str(),
                    k.level, k.op.c_str(), k.us / h.us);
  }
  if (!results.empty()) {
    FILE *f = std::fopen(results.c_str(), "w");
    if (f) {
      std::fprintf(f, "{\"gpu\": \"%s\", \"runs\": %d, \"rows\": [\n",
                   prop.name, runs);
      for (size_t i = 0; i < rows.size(); ++i) {
        const Row &r = rows[i];
        std::fprintf(f,
                     "  {\"set\": \"%s\", \"op\": \"%s\", \"method\": "
                     "\"%s\", \"level\": %d, "
                     "\"limbs\": %d, \"median_us\": %.2f, \"anchor_us\": "
                     "%.0f, \"bytes\": %.0f, \"modmuls\": %.0f, "
                     "\"bw_floor_us\": %.2f, \"arith_floor_us\": %.2f}%s\n",
                     r.set.c_str(), r.op.c_str(), r.method.c_str(), r.level,
                     r.level + 1, r.us, r.anchor, r.cost.bytes, r.cost.modmuls,
                     r.cost.bwFloorUs(), r.cost.arithFloorUs(),
                     i + 1 < rows.size() ? "," : "");
      }
      std::fprintf(f, "]}\n");
      std::fclose(f);
    }
  }
  return 0;
}
