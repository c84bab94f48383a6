// The CUDA backend against the CPU backend: for random inputs every
// primitive and every CKKS operation must give identical residues, at a
// small N and at the parameter sets A, B and C (C has uneven digits
// 7,7,7,5); plus decrypt-and-compare checks with real keys. KLSS key
// switching (exact BConv, klssModUp, the inner product over T, ModDown in
// coefficient form, the CKKS operations with KLSS keys) the same way, at
// small insecure KLSS sets (one with key groups that mix P and Q primes) and
// at B and athena24. Needs a GPU: built by CI, run by bench/gpu_run.sh on the
// GPU host (not under ctest).
#include "ember/ckks.h"
#include "ember/cuda.h"
#include "ember/errors.h"
#include "ember/program_cuda.h"
#include "ember/rns.h"
#include "require_gpu.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <complex>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace ember {
namespace {

Prng::Seed seed(uint8_t v) {
  Prng::Seed s{};
  s.fill(v);
  return s;
}

/// "" when equal, else where the first residue differs.
template <typename Word>
std::string diff(const Poly<Word> &want, const Poly<Word> &got) {
  if (want.basis != got.basis)
    return "bases differ";
  if (want.ntt != got.ntt)
    return "forms differ";
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < want.data.size(); ++i)
    if (want.data[i] != got.data[i] && bad++ == 0)
      first = i;
  if (!bad)
    return "";
  return std::to_string(bad) + " residues differ, first at limb " +
         std::to_string(first / want.n) + " coefficient " +
         std::to_string(first % want.n);
}

template <typename Word>
std::string diff(const BasicCiphertext<Word> &want,
                 const BasicCiphertext<Word> &got) {
  if (want.level != got.level)
    return "levels differ";
  if (want.c.size() != got.c.size())
    return "degrees differ";
  if (std::fabs(want.scale - got.scale) > 1e-9 * want.scale)
    return "scales differ";
  for (size_t i = 0; i < want.c.size(); ++i) {
    std::string d = diff(want.c[i], got.c[i]);
    if (!d.empty())
      return "part " + std::to_string(i) + ": " + d;
  }
  return "";
}

/// A named set, or "mixed" / "small" (anything else) at N = 2^log_n.
Context64 makeContext(const std::string &name, int log_n = 12) {
  ParamSpec spec;
  if (namedParamSpec(name, spec))
    return Context64(spec);
  spec.log_n = log_n;
  spec.log_scale = 40;
  spec.security = Security::kInsecureTestOnly;
  if (name == "mixed") {
    // 40-bit primes under 60-bit ones with a 170-bit P: equal counts at
    // dnum 3 would reach 180 bits, so the digits are balanced by bits:
    // 4, 3, 2 (170, 160, 120 bits).
    spec.name = "mixed";
    spec.q_bits = {50, 40, 40, 40, 40, 60, 60, 60, 60};
    spec.p_bits = {60, 60, 50};
    spec.dnum = 3;
    return Context64(spec);
  }
  // Small insecure set: 5 Q limbs, dnum 2 -> uneven digits 3, 2.
  spec.name = "small";
  spec.q_bits = {60, 40, 40, 40, 40};
  spec.p_bits = {60, 60, 60};
  spec.dnum = 2;
  return Context64(spec);
}

template <typename Word>
Poly<Word> randomPoly(const Context<Word> &ctx, Prng &prng,
                      const std::vector<int> &basis, bool ntt) {
  return sampleUniformPoly(ctx, prng, basis, ntt);
}

// Checks both word sizes share (the GPU against the CPU, residue for
// residue).

/// NTT and INTT over each basis.
template <typename Word>
void checkTransforms(const Context<Word> &ctx, const cuda::DeviceContext &dctx,
                     Prng &prng, const std::vector<std::vector<int>> &bases) {
  for (const auto &basis : bases) {
    Poly<Word> a = randomPoly(ctx, prng, basis, false);
    cuda::BasicDevicePoly<Word> d = cuda::upload(dctx, a);
    cpu::ntt(ctx, a);
    cuda::ntt(dctx, d);
    EXPECT_EQ(diff(a, cuda::download(dctx, d)), "") << "ntt";
    Poly<Word> b = randomPoly(ctx, prng, basis, true);
    d = cuda::upload(dctx, b);
    cpu::intt(ctx, b);
    cuda::intt(dctx, d);
    EXPECT_EQ(diff(b, cuda::download(dctx, d)), "") << "intt";
  }
}

/// Automorphisms in both forms over `basis`.
template <typename Word>
void checkAutomorphisms(const Context<Word> &ctx,
                        const cuda::DeviceContext &dctx, Prng &prng,
                        const std::vector<int> &basis) {
  const uint64_t n2 = 2 * ctx.n();
  for (uint64_t g : {uint64_t{5}, uint64_t{125} % n2, n2 - 1}) {
    for (bool form : {true, false}) {
      Poly<Word> a = randomPoly(ctx, prng, basis, form);
      EXPECT_EQ(diff(cpu::automorphism(ctx, a, g),
                     cuda::download(dctx, cuda::automorphism(
                                              dctx, cuda::upload(dctx, a), g))),
                "")
          << "automorphism " << g << (form ? " ntt" : " coeff");
    }
  }
}

/// The elementwise ops over `basis` (NTT form), one after the other.
template <typename Word>
void checkElementwise(const Context<Word> &ctx, const cuda::DeviceContext &dctx,
                      Prng &prng, const std::vector<int> &basis) {
  Poly<Word> a = randomPoly(ctx, prng, basis, true),
             b = randomPoly(ctx, prng, basis, true),
             c = randomPoly(ctx, prng, basis, true);
  cuda::BasicDevicePoly<Word> da = cuda::upload(dctx, a),
                              db = cuda::upload(dctx, b),
                              dc = cuda::upload(dctx, c);
  std::vector<Word> k(basis.size());
  for (auto &x : k)
    x = static_cast<Word>(prng.next64());
  cpu::addInPlace(ctx, a, b);
  cuda::addInPlace(dctx, da, db);
  EXPECT_EQ(diff(a, cuda::download(dctx, da)), "") << "add";
  cpu::subInPlace(ctx, a, c);
  cuda::subInPlace(dctx, da, dc);
  EXPECT_EQ(diff(a, cuda::download(dctx, da)), "") << "sub";
  cpu::negInPlace(ctx, a);
  cuda::negInPlace(dctx, da);
  EXPECT_EQ(diff(a, cuda::download(dctx, da)), "") << "neg";
  cpu::mulInPlace(ctx, a, b);
  cuda::mulInPlace(dctx, da, db);
  EXPECT_EQ(diff(a, cuda::download(dctx, da)), "") << "mul";
  cpu::mulConstInPlace(ctx, a, k);
  cuda::mulConstInPlace(dctx, da, k);
  EXPECT_EQ(diff(a, cuda::download(dctx, da)), "") << "mulConst";
  cpu::addConstInPlace(ctx, a, k);
  cuda::addConstInPlace(dctx, da, k);
  EXPECT_EQ(diff(a, cuda::download(dctx, da)), "") << "addConst";
  cpu::mulAddInPlace(ctx, a, b, c);
  cuda::mulAddInPlace(dctx, da, db, dc);
  EXPECT_EQ(diff(a, cuda::download(dctx, da)), "") << "mulAdd";
}

/// A switching key of uniform polynomials (key switching is deterministic,
/// so bit-exactness needs no real key; the decrypt tests use real ones).
template <typename Word>
BasicSwitchingKey<Word> randomKey(const Context<Word> &ctx, Prng &prng) {
  BasicSwitchingKey<Word> k;
  const std::vector<int> all = ctx.qpBasis(ctx.maxLevel());
  for (int j = 0; j < ctx.digitCount(ctx.maxLevel()); ++j) {
    k.b.push_back(randomPoly(ctx, prng, all, true));
    k.a.push_back(randomPoly(ctx, prng, all, true));
  }
  return k;
}

/// Relinearization and Galois keys (rotation by 1, conjugation) of random
/// switching keys made by make_key(ctx, prng), hybrid or KLSS.
template <typename Relin, typename Galois, typename Word, typename MakeKey>
std::pair<Relin, Galois> randomKeys(const Context<Word> &ctx, Prng &prng,
                                    MakeKey make_key) {
  Relin rk{make_key(ctx, prng)};
  Galois gk;
  gk.keys[galoisElementForRotation(ctx, 1, ctx.slotsMax())] =
      make_key(ctx, prng);
  gk.keys[galoisElementForConjugation(ctx)] = make_key(ctx, prng);
  return {std::move(rk), std::move(gk)};
}

template <typename Word>
BasicCiphertext<Word> randomCiphertext(const Context<Word> &ctx, Prng &prng,
                                       int level, double scale) {
  BasicCiphertext<Word> ct;
  ct.level = level;
  ct.scale = scale;
  ct.slots = ctx.slotsMax();
  for (int i = 0; i < 2; ++i)
    ct.c.push_back(randomPoly(ctx, prng, ctx.qBasis(level), true));
  return ct;
}

// --- Primitives
// ----------------------------------------------------------------

void checkPrimitives(const Context64 &ctx, int level) {
  cuda::DeviceContext dctx(ctx);
  Prng prng(seed(7));
  SCOPED_TRACE(ctx.describe() + " at level " + std::to_string(level));
  const std::vector<int> q = ctx.qBasis(level), qp = ctx.qpBasis(level),
                         p = ctx.pBasis();

  checkTransforms(ctx, dctx, prng, {q, qp, p});

  { // BConv: a digit to the rest of Q_l u P, and P to Q_l.
    const std::vector<int> digit = ctx.digitLimbs(0, level);
    std::vector<int> rest;
    for (int i : qp)
      if (i >= int(digit.size()))
        rest.push_back(i);
    Poly64 a = randomPoly(ctx, prng, digit, false);
    EXPECT_EQ(diff(cpu::bconv(ctx, a, rest),
                   cuda::download(
                       dctx, cuda::bconv(dctx, cuda::upload(dctx, a), rest))),
              "")
        << "bconv digit 0";
    Poly64 b = randomPoly(ctx, prng, p, false);
    EXPECT_EQ(
        diff(cpu::bconv(ctx, b, q),
             cuda::download(dctx, cuda::bconv(dctx, cuda::upload(dctx, b), q))),
        "")
        << "bconv P -> Q";
  }

  { // ModUp of every digit, ModDown, rescale.
    Poly64 a = randomPoly(ctx, prng, q, true);
    cuda::DevicePoly da = cuda::upload(dctx, a);
    for (int j = 0; j < ctx.digitCount(level); ++j)
      EXPECT_EQ(diff(cpu::modUp(ctx, a, j),
                     cuda::download(dctx, cuda::modUp(dctx, da, j))),
                "")
          << "modUp digit " << j;
    Poly64 b = randomPoly(ctx, prng, qp, true);
    EXPECT_EQ(
        diff(cpu::modDown(ctx, b),
             cuda::download(dctx, cuda::modDown(dctx, cuda::upload(dctx, b)))),
        "")
        << "modDown";
    EXPECT_EQ(diff(cpu::modSwitchDown(ctx, b, q),
                   cuda::download(dctx, cuda::modSwitchDown(
                                            dctx, cuda::upload(dctx, b), q))),
              "")
        << "modSwitchDown Q_l u P -> Q_l";
    if (level >= 1) {
      const std::vector<int> q1 = ctx.qBasis(level - 1);
      EXPECT_EQ(
          diff(cpu::modSwitchDown(ctx, b, q1),
               cuda::download(
                   dctx, cuda::modSwitchDown(dctx, cuda::upload(dctx, b), q1))),
          "")
          << "modSwitchDown Q_l u P -> Q_{l-1} (merged)";
      EXPECT_EQ(
          diff(cpu::modSwitchDown(ctx, a, q1),
               cuda::download(
                   dctx, cuda::modSwitchDown(dctx, cuda::upload(dctx, a), q1))),
          "")
          << "modSwitchDown Q_l -> Q_{l-1}";
    }
    // Several polynomials switched in one batch (5: more than one launch
    // group), the first ones with lifted addends y (the switch of x + P y),
    // against the CPU's switch of x + P y formed limb by limb here; to Q_l
    // also with the addends read permuted (lifted_galois g: x + P
    // sigma_g(y), a rotation's c0 side; 5 and the conjugation).
    for (const std::vector<int> &keep :
         level >= 1 ? std::vector<std::vector<int>>{q, ctx.qBasis(level - 1)}
                    : std::vector<std::vector<int>>{q})
      for (uint64_t galois : keep == q
                                 ? std::vector<uint64_t>{0, 5, 2 * ctx.n() - 1}
                                 : std::vector<uint64_t>{0})
        for (int lifted : {0, 2, 5}) {
          if (galois && !lifted)
            continue;
          std::vector<Poly64> xs, ys;
          std::vector<cuda::DevicePoly> dxs, dys, douts;
          for (int i = 0; i < 5; ++i) {
            xs.push_back(randomPoly(ctx, prng, qp, true));
            dxs.push_back(cuda::upload(dctx, xs.back()));
            douts.push_back(cuda::DevicePoly{
                keep, ctx.n(), true,
                cuda::DeviceBuffer(dctx, keep.size() * ctx.n())});
            if (i < lifted) {
              ys.push_back(randomPoly(ctx, prng, q, true));
              dys.push_back(cuda::upload(dctx, ys.back()));
            }
          }
          std::vector<const cuda::DevicePoly *> in, ly;
          std::vector<cuda::DevicePoly *> out;
          for (int i = 0; i < 5; ++i) {
            in.push_back(&dxs[i]);
            out.push_back(&douts[i]);
            if (i < lifted)
              ly.push_back(&dys[i]);
          }
          cuda::modSwitchDown(dctx, in, ly, out, cuda::Scratch{}, 0, galois);
          for (int i = 0; i < 5; ++i) {
            Poly64 t = xs[i];
            if (i < lifted && galois)
              ys[i] = cpu::automorphism(ctx, ys[i], galois);
            if (i < lifted)
              for (size_t r = 0; r < q.size(); ++r) {
                const Modulus<uint64_t> &m = ctx.modulus(q[r]);
                uint64_t p_mod = 1;
                for (int pk : p)
                  p_mod = m.mul(p_mod, m.reduceWord(ctx.modulus(pk).value()));
                for (size_t k = 0; k < ctx.n(); ++k)
                  t.limb(r)[k] =
                      m.add(t.limb(r)[k], m.mul(ys[i].limb(r)[k], p_mod));
              }
            EXPECT_EQ(diff(cpu::modSwitchDown(ctx, t, keep),
                           cuda::download(dctx, douts[i])),
                      "")
                << "batched modSwitchDown part " << i << " of 5, " << lifted
                << " lifted, galois " << galois << ", to " << keep.size()
                << " limbs";
          }
        }
    if (level >= 1) {
      Poly64 c = a;
      cpu::rescale(ctx, c);
      cuda::rescale(dctx, da);
      EXPECT_EQ(diff(c, cuda::download(dctx, da)), "") << "rescale";
    }
  }

  checkAutomorphisms(ctx, dctx, prng, q);
  checkElementwise(ctx, dctx, prng, qp);

  { // Key switching (ModUp of all digits + fused inner product + ModDown).
    SwitchingKey key = randomKey(ctx, prng);
    Poly64 d = randomPoly(ctx, prng, q, true);
    auto want = Evaluator(ctx).keySwitch(d, key);
    cuda::DeviceSwitchingKey dkey = cuda::upload(dctx, key);
    auto got = cuda::Evaluator(dctx).keySwitch(cuda::upload(dctx, d), dkey);
    EXPECT_EQ(diff(want.first, cuda::download(dctx, got.first)), "")
        << "keySwitch k0";
    EXPECT_EQ(diff(want.second, cuda::download(dctx, got.second)), "")
        << "keySwitch k1";
    // The inner product alone, over raised digits (what emitted programs
    // call between their mod_up and mod_down steps).
    std::vector<Poly64> raised;
    std::vector<cuda::DevicePoly> draised;
    std::vector<const Poly64 *> digits;
    std::vector<const cuda::DevicePoly *> ddigits;
    for (int j = 0; j < ctx.digitCount(level); ++j) {
      raised.push_back(cpu::modUp(ctx, d, j));
      draised.push_back(cuda::upload(dctx, raised.back()));
    }
    for (size_t j = 0; j < raised.size(); ++j) {
      digits.push_back(&raised[j]);
      ddigits.push_back(&draised[j]);
    }
    Poly64 acc0, acc1;
    keySwitchInnerProduct(ctx, key, digits, acc0, acc1);
    cuda::DevicePoly dacc0, dacc1;
    cuda::keySwitchInnerProduct(dctx, dkey, ddigits, dacc0, dacc1);
    EXPECT_EQ(diff(acc0, cuda::download(dctx, dacc0)), "")
        << "keySwitchInnerProduct acc0";
    EXPECT_EQ(diff(acc1, cuda::download(dctx, dacc1)), "")
        << "keySwitchInnerProduct acc1";
    // With the digits read permuted (a hoisted rotation's automorphism
    // folded into the indexing): the CPU's permute-then-multiply residues,
    // for a rotation and the conjugation.
    for (const uint64_t galois :
         {galoisElementForRotation(ctx, 3, ctx.slotsMax()),
          uint64_t(2 * ctx.n() - 1)}) {
      std::vector<Poly64> permuted;
      std::vector<const Poly64 *> pdigits;
      for (const Poly64 &r : raised)
        permuted.push_back(cpu::automorphism(ctx, r, galois));
      for (const Poly64 &p : permuted)
        pdigits.push_back(&p);
      keySwitchInnerProduct(ctx, key, pdigits, acc0, acc1);
      cuda::keySwitchInnerProduct(dctx, dkey, ddigits, dacc0, dacc1, galois);
      EXPECT_EQ(diff(acc0, cuda::download(dctx, dacc0)), "")
          << "keySwitchInnerProduct acc0, galois " << galois;
      EXPECT_EQ(diff(acc1, cuda::download(dctx, dacc1)), "")
          << "keySwitchInnerProduct acc1, galois " << galois;
    }
    // Over a share of the limbs (a GPU's part when the limbs are split
    // over devices: the upper or lower half of Q_l and of P): the limbs
    // of the whole inner product, from the full key.
    keySwitchInnerProduct(ctx, key, digits, acc0, acc1);
    const std::vector<int> &qp = raised.front().basis;
    const int qn = level + 1, pn = int(qp.size()) - qn;
    for (const bool upper : {false, true}) {
      std::vector<int> share;
      for (int i = upper ? qn / 2 : 0; i < (upper ? qn : qn / 2); ++i)
        share.push_back(qp[i]);
      for (int i = upper ? pn / 2 : 0; i < (upper ? pn : pn / 2); ++i)
        share.push_back(qp[qn + i]);
      auto pick = [&](const Poly64 &p) {
        Poly64 out(share, p.n, p.ntt);
        for (size_t i = 0; i < share.size(); ++i) {
          const size_t at =
              std::find(p.basis.begin(), p.basis.end(), share[i]) -
              p.basis.begin();
          std::copy(p.limb(at), p.limb(at) + p.n, out.limb(i));
        }
        return out;
      };
      std::vector<cuda::DevicePoly> dshare;
      std::vector<const cuda::DevicePoly *> dsd;
      for (const Poly64 &r : raised)
        dshare.push_back(cuda::upload(dctx, pick(r)));
      for (const cuda::DevicePoly &x : dshare)
        dsd.push_back(&x);
      cuda::keySwitchInnerProduct(dctx, dkey, dsd, dacc0, dacc1);
      EXPECT_EQ(diff(pick(acc0), cuda::download(dctx, dacc0)), "")
          << "keySwitchInnerProduct acc0 over a share, upper " << upper;
      EXPECT_EQ(diff(pick(acc1), cuda::download(dctx, dacc1)), "")
          << "keySwitchInnerProduct acc1 over a share, upper " << upper;
      // The key sharded to the same rows (what each GPU uploads): the
      // same residues from a key of a share of the bytes.
      const cuda::KeyRows rows{upper ? qn / 2 : 0, upper ? qn : qn / 2,
                               upper ? pn / 2 : 0, upper ? pn : pn / 2};
      const cuda::DeviceSwitchingKey shard = cuda::upload(dctx, key, rows);
      EXPECT_EQ(shard.rows, int(share.size()));
      EXPECT_LT(shard.buf.words(), dkey.buf.words());
      cuda::keySwitchInnerProduct(dctx, shard, dsd, dacc0, dacc1);
      EXPECT_EQ(diff(pick(acc0), cuda::download(dctx, dacc0)), "")
          << "keySwitchInnerProduct acc0, sharded key, upper " << upper;
      EXPECT_EQ(diff(pick(acc1), cuda::download(dctx, dacc1)), "")
          << "keySwitchInnerProduct acc1, sharded key, upper " << upper;
      // Galois keys sharded to the same rows, every key (what a GPU of a
      // limb split uploads) or the listed ones: each the same words as the
      // switching key's shard.
      GaloisKeys galois;
      const uint64_t g1 = galoisElementForRotation(ctx, 1, ctx.slotsMax()),
                     g2 = uint64_t(2 * ctx.n() - 1);
      galois.keys[g1] = key;
      galois.keys[g2] = key;
      auto words = [](const cuda::DeviceSwitchingKey &k) {
        std::vector<uint64_t> w(k.buf.words());
        EXPECT_EQ(cudaMemcpy(w.data(), k.buf.data(), w.size() * 8,
                             cudaMemcpyDeviceToHost),
                  cudaSuccess);
        return w;
      };
      const std::vector<uint64_t> want_words = words(shard);
      const cuda::DeviceGaloisKeys every = cuda::upload(dctx, galois, rows);
      const cuda::DeviceGaloisKeys listed =
          cuda::upload(dctx, galois, {g2}, rows);
      ASSERT_EQ(every.keys.size(), 2u);
      ASSERT_EQ(listed.keys.size(), 1u);
      for (const uint64_t g : {g1, g2}) {
        EXPECT_EQ(every.keys.at(g).rows, shard.rows);
        EXPECT_TRUE(words(every.keys.at(g)) == want_words)
            << "Galois key " << g << " over rows, upper " << upper;
      }
      EXPECT_TRUE(words(listed.keys.at(g2)) == want_words)
          << "listed Galois key over rows, upper " << upper;
      // A shard lacks the other share's rows, and the fused key switch
      // (which reads every row) refuses it.
      EXPECT_THROW(
          cuda::keySwitchInnerProduct(dctx, shard, ddigits, dacc0, dacc1),
          InvalidArgument);
      EXPECT_THROW(
          cuda::Evaluator(dctx).keySwitch(cuda::upload(dctx, d), shard),
          InvalidArgument);
    }
  }
}

void checkPrimitives(const std::string &set, int level) {
  checkPrimitives(makeContext(set), level);
}

TEST(CudaPrimitives, SmallNTopAndLowLevels) {
  REQUIRE_GPU();
  checkPrimitives("small", 4);
  checkPrimitives("small", 2);
  checkPrimitives("small", 0);
}
// A random polynomial over Q_L of the "small" set on the device, for the
// batched ModUp tests (every digit at once).
struct ModUpCase {
  explicit ModUpCase(uint64_t seed_value)
      : ctx(makeContext("small")), dctx(ctx), prng(seed(seed_value)),
        level(ctx.maxLevel()), qp(ctx.qpBasis(level)),
        a(randomPoly(ctx, prng, ctx.qBasis(level), true)),
        da(cuda::upload(dctx, a)), digits(ctx.digitCount(level)) {
    for (int j = 0; j < digits; ++j)
      ids.push_back(j);
  }
  Context64 ctx;
  cuda::DeviceContext dctx;
  Prng prng;
  int level;
  std::vector<int> qp;
  Poly64 a;
  cuda::DevicePoly da;
  int digits;
  std::vector<int> ids; ///< 0 .. digits - 1
};

// Batched ModUp writes every digit's output with one NTT launch when the
// outputs lie a whole number of limbs apart; a row table holds row indices
// below kMaxRowIndex (2^14), so outputs further apart (pool buffers at
// N = 2^16 lie gigabytes apart) take one launch per digit. Before that
// bound was kept, this threw "ntt launch: a row outside its buffer list".
TEST(CudaPrimitives, BatchedModUpOutputsFarApart) {
  REQUIRE_GPU();
  ModUpCase m(11);
  const auto &[ctx, dctx, qp, a, da, digits, ids] =
      std::tie(m.ctx, m.dctx, m.qp, m.a, m.da, m.digits, m.ids);
  ASSERT_GE(digits, 2);
  for (size_t apart : {qp.size(), size_t(1) << 14, (size_t(1) << 14) + 64}) {
    // Outputs `apart` limbs from one another inside one buffer.
    cuda::DeviceBuffer whole(dctx,
                             ((digits - 1) * apart + qp.size()) * ctx.n());
    std::vector<cuda::DevicePoly> outs;
    std::vector<cuda::DevicePoly *> out_ptrs;
    for (int j = 0; j < digits; ++j)
      outs.push_back(cuda::DevicePoly{
          qp, ctx.n(), true,
          cuda::DeviceBuffer::borrow(whole.data() + j * apart * ctx.n(),
                                     qp.size() * ctx.n())});
    for (cuda::DevicePoly &o : outs)
      out_ptrs.push_back(&o);
    cuda::modUp(dctx, da, ids, out_ptrs, cuda::Scratch{});
    for (int j = 0; j < digits; ++j)
      EXPECT_EQ(diff(cpu::modUp(ctx, a, j), cuda::download(dctx, outs[j])), "")
          << "batched modUp digit " << j << ", outputs " << apart
          << " limbs apart";
  }
}
// Captured in a CUDA Graph, ModUp's copy of the digits' own limbs is a
// branch of its own: it follows none of the step's transforms (it follows
// what the step follows: nothing here) and the transforms do not follow it,
// so that it runs beside them instead of after the last NTT. The graph's
// outputs equal the CPU's.
/// fn() captured on dctx's stream (relaxed mode, the context's pool in
/// capture mode): the graph, or null with what failed in `error`.
cudaGraph_t captureGraph(const cuda::DeviceContext &dctx,
                         const std::function<void()> &fn, std::string &error) {
  cudaStream_t stream = dctx.stream();
  cudaGraph_t graph = nullptr;
  dctx.beginCapture();
  if (cudaStreamBeginCapture(stream, cudaStreamCaptureModeRelaxed) !=
      cudaSuccess) {
    dctx.releaseBlocks(dctx.endCapture());
    error = "cudaStreamBeginCapture failed";
    return nullptr;
  }
  try {
    fn();
  } catch (const std::exception &e) {
    error = e.what();
  }
  const cudaError_t ended = cudaStreamEndCapture(stream, &graph);
  dctx.releaseBlocks(dctx.endCapture());
  if (ended != cudaSuccess && error.empty())
    error = "cudaStreamEndCapture failed";
  if (!error.empty() && graph) {
    cudaGraphDestroy(graph);
    graph = nullptr;
  }
  return graph;
}

/// Every node of a graph.
std::vector<cudaGraphNode_t> graphNodes(cudaGraph_t graph) {
  size_t count = 0;
  EXPECT_EQ(cudaGraphGetNodes(graph, nullptr, &count), cudaSuccess);
  std::vector<cudaGraphNode_t> nodes(count);
  EXPECT_EQ(cudaGraphGetNodes(graph, nodes.data(), &count), cudaSuccess);
  nodes.resize(count);
  return nodes;
}

TEST(CudaPrimitives, ModUpCopyIsABranchOfTheGraph) {
  REQUIRE_GPU();
  ModUpCase m(12);
  const auto &[ctx, dctx, qp, a, da, digits, ids] =
      std::tie(m.ctx, m.dctx, m.qp, m.a, m.da, m.digits, m.ids);
  const int level = m.level;
  ASSERT_GE(digits, 2);
  std::vector<cuda::DevicePoly> outs;
  std::vector<cuda::DevicePoly *> out_ptrs;
  for (int j = 0; j < digits; ++j)
    outs.push_back(cuda::upload(dctx, Poly64(qp, ctx.n(), true)));
  for (cuda::DevicePoly &o : outs)
    out_ptrs.push_back(&o);
  cuda::DeviceBuffer scratch(dctx, (level + 1) * ctx.n());
  const cuda::Scratch sc{scratch.data(), (level + 1) * ctx.n()};
  // A first call outside the capture builds the level's plan (its tables
  // are uploaded with a synchronisation, which a capture refuses).
  cuda::modUp(dctx, da, ids, out_ptrs, sc);
  cudaStream_t stream = dctx.stream();
  std::string error;
  cudaGraph_t graph = captureGraph(
      dctx, [&] { cuda::modUp(dctx, da, ids, out_ptrs, sc); }, error);
  ASSERT_EQ(error, "");
  ASSERT_NE(graph, nullptr);
  const std::vector<cudaGraphNode_t> nodes = graphNodes(graph);
  auto typeOf = [](cudaGraphNode_t node) {
    cudaGraphNodeType type = cudaGraphNodeTypeEmpty;
    EXPECT_EQ(cudaGraphNodeGetType(node, &type), cudaSuccess);
    return type;
  };
  // A node's predecessors (in = true) or successors.
  auto edges = [](cudaGraphNode_t node, bool in) {
    size_t count = 0;
    std::vector<cudaGraphNode_t> v;
    for (int pass = 0; pass < 2; ++pass) {
      v.resize(count);
      cudaGraphNode_t *p = pass ? v.data() : nullptr;
#if CUDART_VERSION >= 13000
      const cudaError_t e =
          in ? cudaGraphNodeGetDependencies(node, p, nullptr, &count)
             : cudaGraphNodeGetDependentNodes(node, p, nullptr, &count);
#else
      const cudaError_t e =
          in ? cudaGraphNodeGetDependencies(node, p, &count)
             : cudaGraphNodeGetDependentNodes(node, p, &count);
#endif
      EXPECT_EQ(e, cudaSuccess);
    }
    return v;
  };
  // The copies (one per digit) form a chain of their own: no kernel
  // before or after any of them.
  int copies = 0, kernels = 0;
  for (cudaGraphNode_t node : nodes) {
    const cudaGraphNodeType type = typeOf(node);
    kernels += type == cudaGraphNodeTypeKernel;
    if (type != cudaGraphNodeTypeMemcpy)
      continue;
    ++copies;
    for (bool in : {true, false})
      for (cudaGraphNode_t other : edges(node, in))
        EXPECT_EQ(typeOf(other), cudaGraphNodeTypeMemcpy)
            << (in ? "the copy of the own limbs follows a transform"
                   : "a transform follows the copy of the own limbs");
  }
  EXPECT_EQ(copies, digits);
  EXPECT_GE(kernels, 3); // INTT, BConv, NTT (more with two-phase NTTs)
  // The outputs cleared, so that only the graph's launch writes them.
  for (cuda::DevicePoly &o : outs)
    ASSERT_EQ(cudaMemsetAsync(o.data(), 0, qp.size() * ctx.n() * 8, stream),
              cudaSuccess);
  cudaGraphExec_t exec = nullptr;
  ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
  ASSERT_EQ(cudaGraphLaunch(exec, stream), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
  for (int j = 0; j < digits; ++j)
    EXPECT_EQ(diff(cpu::modUp(ctx, a, j), cuda::download(dctx, outs[j])), "")
        << "captured modUp digit " << j;
  cudaGraphExecDestroy(exec);
  cudaGraphDestroy(graph);
}
TEST(CudaPrimitives, DigitsBalancedByBits) {
  REQUIRE_GPU();
  ASSERT_EQ(makeContext("mixed").digitLimbs(0, 8).size(), 4u);
  checkPrimitives("mixed", 8);
  checkPrimitives("mixed", 5);
}
TEST(CudaPrimitives, SetCUnevenDigits) {
  REQUIRE_GPU();
  checkPrimitives("C", 25);
  checkPrimitives("C", 13);
}
TEST(CudaPrimitives, SetB) {
  REQUIRE_GPU();
  checkPrimitives("B", 23);
}

// --- 32-bit words
// ----------------------------------------------------------------

/// A Context32 at N = 2^log_n with q_count Q and p_count P primes of 30, 29,
/// 28, ... bits (cycling down to 25), dnum 4.
Context32 makeContext32(int log_n, int q_count, int p_count) {
  ParamSpec spec;
  spec.name = "words32";
  spec.log_n = log_n;
  spec.log_scale = 25;
  spec.security = Security::kInsecureTestOnly;
  for (int i = 0; i < q_count; ++i)
    spec.q_bits.push_back(30 - i % 6);
  for (int i = 0; i < p_count; ++i)
    spec.p_bits.push_back(30 - i % 2);
  spec.dnum = 4;
  return Context32(spec);
}

/// Every 32-bit primitive on the GPU against the CPU's (which
/// tests/runtime/test_rns_exact.py checks against big integers).
void checkPrimitives32(int log_n, int q_count, int p_count, int level) {
  Context32 ctx = makeContext32(log_n, q_count, p_count);
  cuda::DeviceContext dctx(ctx);
  ASSERT_EQ(dctx.wordBits(), 32);
  Prng prng(seed(9));
  SCOPED_TRACE(ctx.describe() + " at level " + std::to_string(level));
  const std::vector<int> q = ctx.qBasis(level), qp = ctx.qpBasis(level),
                         p = ctx.pBasis();

  checkTransforms(ctx, dctx, prng, {q, qp, p});

  { // BConv: a digit to the rest of Q_l u P, P to Q_l, all of Q_l to P,
    // and q_l u P to Q_{l-1} (a merged ModDown and rescale's dropped
    // limbs: one scaling launch over the two runs).
    const std::vector<int> digit = ctx.digitLimbs(0, level);
    std::vector<int> rest;
    for (int i : qp)
      if (i >= int(digit.size()))
        rest.push_back(i);
    std::vector<std::pair<std::vector<int>, std::vector<int>>> cases = {
        {digit, rest}, {p, q}, {q, p}};
    if (level >= 1) {
      std::vector<int> dropped = {q.back()};
      dropped.insert(dropped.end(), p.begin(), p.end());
      cases.push_back({dropped, std::vector<int>(q.begin(), q.end() - 1)});
    }
    for (const auto &[from, to] : cases) {
      if (from.size() > 32)
        continue; // the GPU's BConv takes at most 32 sources
      Poly32 a = randomPoly(ctx, prng, from, false);
      EXPECT_EQ(diff(cpu::bconv(ctx, a, to),
                     cuda::download(
                         dctx, cuda::bconv(dctx, cuda::upload(dctx, a), to))),
                "")
          << "bconv " << from.size() << " -> " << to.size() << " limbs";
    }
  }

  if (level >= 1) { // Rescale.
    Poly32 a = randomPoly(ctx, prng, q, true);
    cuda::DevicePoly32 da = cuda::upload(dctx, a);
    cpu::rescale(ctx, a);
    cuda::rescale(dctx, da);
    EXPECT_EQ(diff(a, cuda::download(dctx, da)), "") << "rescale";
  }

  { // ModUp of every digit, ModDown and the modulus switches: to Q_l from
    // Q_l u P, merged to Q_{l-1}, and by a pair of primes (double-prime
    // scaling's rescale, Q_l -> Q_{l-2}), in both forms.
    Poly32 a = randomPoly(ctx, prng, q, true);
    cuda::DevicePoly32 da = cuda::upload(dctx, a);
    for (int j = 0; j < ctx.digitCount(level); ++j)
      EXPECT_EQ(diff(cpu::modUp(ctx, a, j),
                     cuda::download(dctx, cuda::modUp(dctx, da, j))),
                "")
          << "modUp digit " << j;
    for (bool form : {true, false}) {
      Poly32 b = randomPoly(ctx, prng, qp, form);
      cuda::DevicePoly32 db = cuda::upload(dctx, b);
      if (form)
        EXPECT_EQ(diff(cpu::modDown(ctx, b),
                       cuda::download(dctx, cuda::modDown(dctx, db))),
                  "")
            << "modDown";
      std::vector<std::vector<int>> keeps{q};
      if (level >= 1)
        keeps.push_back(ctx.qBasis(level - 1));
      for (const auto &keep : keeps)
        EXPECT_EQ(
            diff(cpu::modSwitchDown(ctx, b, keep),
                 cuda::download(dctx, cuda::modSwitchDown(dctx, db, keep))),
            "")
            << "modSwitchDown Q_l u P -> " << keep.size() << " limbs"
            << (form ? " ntt" : " coeff");
      if (level >= 2) {
        Poly32 c = randomPoly(ctx, prng, q, form);
        const std::vector<int> keep = ctx.qBasis(level - 2);
        EXPECT_EQ(
            diff(cpu::modSwitchDown(ctx, c, keep),
                 cuda::download(dctx, cuda::modSwitchDown(
                                          dctx, cuda::upload(dctx, c), keep))),
            "")
            << "modSwitchDown Q_l -> Q_{l-2}" << (form ? " ntt" : " coeff");
      }
    }
  }

  checkAutomorphisms(ctx, dctx, prng, q);
  checkElementwise(ctx, dctx, prng, qp);
}

/// The forms a compiled program's plan calls at 32-bit words (into memory
/// the caller provides: cuda.h's 32-bit plan primitives) against the CPU's:
/// ModUp of every digit at once, the key-switch inner product over raised
/// digits (and read permuted by an automorphism), the modulus switches of
/// several parts with a lifted addend (x + P y, a merged ModDown), BConv,
/// the transforms and the automorphism.
void checkPlanPrimitives32(int log_n, int q_count, int p_count, int level) {
  Context32 ctx = makeContext32(log_n, q_count, p_count);
  cuda::DeviceContext dctx(ctx);
  Prng prng(seed(11));
  SCOPED_TRACE(ctx.describe() + " at level " + std::to_string(level));
  const std::vector<int> q = ctx.qBasis(level), qp = ctx.qpBasis(level);
  auto into = [&](const std::vector<int> &basis, bool ntt) {
    cuda::DevicePoly32 out = cuda::upload(dctx, Poly32(basis, ctx.n(), ntt));
    return out;
  };
  const Poly32 a = randomPoly(ctx, prng, q, true);
  const cuda::DevicePoly32 da = cuda::upload(dctx, a);
  { // The transforms and the automorphism into place.
    cuda::DevicePoly32 c = into(q, false), back = into(q, true);
    cuda::intt(dctx, da, c);
    cuda::ntt(dctx, c, back);
    EXPECT_EQ(diff(a, cuda::download(dctx, back)), "") << "intt then ntt";
    const uint64_t g = galoisElementForRotation(ctx, 5, ctx.slotsMax());
    cuda::DevicePoly32 r = into(q, true);
    cuda::automorphism(dctx, da, g, r);
    EXPECT_EQ(diff(cpu::automorphism(ctx, a, g), cuda::download(dctx, r)), "")
        << "automorphism";
  }
  { // BConv into place: the first digit's limbs to the rest of Q_l u P.
    const std::vector<int> digit = ctx.digitLimbs(0, level);
    std::vector<int> rest;
    for (int i : qp)
      if (i >= int(digit.size()))
        rest.push_back(i);
    const Poly32 x = randomPoly(ctx, prng, digit, false);
    cuda::DevicePoly32 out = into(rest, false);
    cuda::bconv(dctx, cuda::upload(dctx, x), out, cuda::Scratch{});
    EXPECT_EQ(diff(cpu::bconv(ctx, x, rest), cuda::download(dctx, out)), "")
        << "bconv into";
  }
  // ModUp of every digit in one call, then the inner product with a key.
  std::vector<int> digits;
  std::vector<cuda::DevicePoly32> draised;
  for (int j = 0; j < ctx.digitCount(level); ++j) {
    digits.push_back(j);
    draised.push_back(into(qp, true));
  }
  std::vector<cuda::DevicePoly32 *> outs;
  for (cuda::DevicePoly32 &r : draised)
    outs.push_back(&r);
  cuda::modUp(dctx, da, digits, outs, cuda::Scratch{});
  std::vector<Poly32> raised;
  for (int j : digits) {
    raised.push_back(cpu::modUp(ctx, a, j));
    EXPECT_EQ(diff(raised.back(), cuda::download(dctx, draised[j])), "")
        << "modUp digit " << j;
  }
  KeyGenerator32 keygen(ctx, prng);
  const SwitchingKey32 key = keygen.relinKey().key;
  const cuda::DeviceSwitchingKey32 dkey = cuda::upload(dctx, key);
  std::vector<const Poly32 *> hd;
  std::vector<const cuda::DevicePoly32 *> dd;
  for (size_t j = 0; j < raised.size(); ++j) {
    hd.push_back(&raised[j]);
    dd.push_back(&draised[j]);
  }
  const uint64_t galois = galoisElementForRotation(ctx, 3, ctx.slotsMax());
  for (uint64_t g : {uint64_t{0}, galois, uint64_t(2 * ctx.n() - 1)}) {
    Poly32 acc0, acc1;
    keySwitchInnerProduct(ctx, key, hd, acc0, acc1, g);
    cuda::DevicePoly32 dacc0, dacc1;
    cuda::keySwitchInnerProduct(dctx, dkey, dd, dacc0, dacc1, g);
    EXPECT_EQ(diff(acc0, cuda::download(dctx, dacc0)), "")
        << "keySwitchInnerProduct acc0, galois " << g;
    EXPECT_EQ(diff(acc1, cuda::download(dctx, dacc1)), "")
        << "keySwitchInnerProduct acc1, galois " << g;
  }
  // Two parts switched from Q_l u P to Q_l and (merged) Q_{l-1}, the first
  // with a lifted addend y: (x + P y) switched, as the CPU backend does;
  // to Q_l also with y read permuted (lifted_galois: x + P sigma_g(y)).
  for (int drop_q : {0, 1})
    for (uint64_t g :
         drop_q ? std::vector<uint64_t>{0} : std::vector<uint64_t>{0, galois}) {
      if (level - drop_q < 0)
        continue;
      const std::vector<int> keep = ctx.qBasis(level - drop_q);
      const Poly32 x0 = randomPoly(ctx, prng, qp, true);
      const Poly32 x1 = randomPoly(ctx, prng, qp, true);
      const Poly32 y0 = randomPoly(ctx, prng, q, true);
      const Poly32 y = g ? cpu::automorphism(ctx, y0, g) : y0;
      Poly32 t = x0;
      for (size_t i = 0; i < y.limbs(); ++i) {
        const Modulus<uint32_t> &m = ctx.modulus(t.basis[i]);
        uint32_t p_mod = 1;
        for (int b : t.basis)
          if (b >= ctx.qCount())
            p_mod = m.mul(p_mod, m.reduceWord(ctx.modulus(b).value()));
        for (size_t k = 0; k < ctx.n(); ++k)
          t.limb(i)[k] = m.add(t.limb(i)[k], m.mul(y.limb(i)[k], p_mod));
      }
      const cuda::DevicePoly32 dx0 = cuda::upload(dctx, x0),
                               dx1 = cuda::upload(dctx, x1),
                               dy = cuda::upload(dctx, y0);
      cuda::DevicePoly32 o0 = into(keep, true), o1 = into(keep, true);
      cuda::modSwitchDown(dctx, {&dx0, &dx1}, {&dy}, {&o0, &o1},
                          cuda::Scratch{}, 0, g);
      EXPECT_EQ(
          diff(cpu::modSwitchDown(ctx, t, keep), cuda::download(dctx, o0)), "")
          << "modSwitchDown with a lifted addend to " << keep.size()
          << " limbs, galois " << g;
      EXPECT_EQ(
          diff(cpu::modSwitchDown(ctx, x1, keep), cuda::download(dctx, o1)), "")
          << "modSwitchDown to " << keep.size() << " limbs";
    }
}

/// x + P y on y's limbs (the Q limbs of x), P the product of the special
/// primes: what a lifted addend makes of a switch's input.
template <typename Word>
Poly<Word> plusP(const Context<Word> &ctx, Poly<Word> x, const Poly<Word> &y) {
  for (size_t r = 0; r < y.basis.size(); ++r) {
    const Modulus<Word> &m = ctx.modulus(y.basis[r]);
    Word p_mod = 1;
    for (int j = 0; j < ctx.pCount(); ++j)
      p_mod = m.mul(p_mod, m.reduceWord(ctx.modulus(ctx.qCount() + j).value()));
    for (size_t k = 0; k < ctx.n(); ++k)
      x.limb(r)[k] = m.add(x.limb(r)[k], m.mul(y.limb(r)[k], p_mod));
  }
  return x;
}

/// cuda::keySwitchDown (a compiled program's inner product and the switch
/// that overlaps it) against the CPU's inner product, then switch, bit for
/// bit: captured in a graph (two branches joined before the last NTT) and
/// outside one (in turn); to Q_l with lifted addends (also read permuted)
/// and to Q_{l-1} (a merged rescale: a dropped Q row in the first branch);
/// the digits read permuted too.
template <typename Word>
void checkKeySwitchDown(const Context<Word> &ctx, int level) {
  using DPoly = cuda::BasicDevicePoly<Word>;
  cuda::DeviceContext dctx(ctx);
  Prng prng(seed(23));
  SCOPED_TRACE(ctx.describe() + " at level " + std::to_string(level));
  const std::vector<int> q = ctx.qBasis(level), qp = ctx.qpBasis(level);
  const BasicSwitchingKey<Word> key = randomKey(ctx, prng);
  const auto dkey = cuda::upload(dctx, key);
  const Poly<Word> d = randomPoly(ctx, prng, q, true);
  std::vector<Poly<Word>> raised;
  std::vector<DPoly> draised;
  for (int j = 0; j < ctx.digitCount(level); ++j) {
    raised.push_back(cpu::modUp(ctx, d, j));
    draised.push_back(cuda::upload(dctx, raised.back()));
  }
  std::vector<const DPoly *> ddigits;
  for (const DPoly &r : draised)
    ddigits.push_back(&r);
  const Poly<Word> y0 = randomPoly(ctx, prng, q, true);
  const Poly<Word> y1 = randomPoly(ctx, prng, q, true);
  const DPoly dy0 = cuda::upload(dctx, y0), dy1 = cuda::upload(dctx, y1);
  const uint64_t rot = galoisElementForRotation(ctx, 3, ctx.slotsMax());
  struct Case {
    std::vector<int> keep;
    uint64_t galois, lifted_galois;
    int lifted;
  };
  std::vector<Case> cases{{q, 0, 0, 2}, {q, rot, 0, 0}, {q, 0, rot, 1}};
  if (level >= 1)
    cases.push_back({ctx.qBasis(level - 1), 0, 0, 2});
  for (const Case &c : cases)
    for (const bool captured : {true, false}) {
      SCOPED_TRACE("to " + std::to_string(c.keep.size()) + " limbs, galois " +
                   std::to_string(c.galois) + ", lifted " +
                   std::to_string(c.lifted) + " (galois " +
                   std::to_string(c.lifted_galois) + ")" +
                   (captured ? ", captured" : ""));
      // The CPU: the inner product of the (permuted) digits, then the
      // switch of acc + P y.
      std::vector<Poly<Word>> permuted;
      std::vector<const Poly<Word> *> digits;
      for (const Poly<Word> &r : raised)
        permuted.push_back(c.galois ? cpu::automorphism(ctx, r, c.galois) : r);
      for (const Poly<Word> &r : permuted)
        digits.push_back(&r);
      Poly<Word> acc0, acc1;
      keySwitchInnerProduct(ctx, key, digits, acc0, acc1);
      const Poly<Word> ys[2] = {
          c.lifted_galois ? cpu::automorphism(ctx, y0, c.lifted_galois) : y0,
          y1};
      const Poly<Word> want0 = cpu::modSwitchDown(
          ctx, c.lifted > 0 ? plusP(ctx, acc0, ys[0]) : acc0, c.keep);
      const Poly<Word> want1 = cpu::modSwitchDown(
          ctx, c.lifted > 1 ? plusP(ctx, acc1, ys[1]) : acc1, c.keep);
      // The GPU, into memory of its own (as a plan places it).
      DPoly dacc0 = cuda::upload(dctx, Poly<Word>(qp, ctx.n(), true));
      DPoly dacc1 = cuda::upload(dctx, Poly<Word>(qp, ctx.n(), true));
      DPoly o0 = cuda::upload(dctx, Poly<Word>(c.keep, ctx.n(), false));
      DPoly o1 = cuda::upload(dctx, Poly<Word>(c.keep, ctx.n(), false));
      const size_t words = qp.size() * ctx.n();
      cuda::DeviceBuffer scratch(dctx, words);
      const cuda::Scratch sc{scratch.data(), words};
      std::vector<const DPoly *> lifted;
      if (c.lifted > 0)
        lifted.push_back(&dy0);
      if (c.lifted > 1)
        lifted.push_back(&dy1);
      auto call = [&] {
        cuda::keySwitchDown(dctx, dkey, ddigits, c.galois, dacc0, dacc1, lifted,
                            {&o0, &o1}, sc, 0, c.lifted_galois);
      };
      call(); // outside a capture (and the level's tables uploaded)
      if (captured) {
        cudaStream_t stream = dctx.stream();
        for (DPoly *o : {&o0, &o1})
          ASSERT_EQ(cudaMemsetAsync(o->data(), 0,
                                    c.keep.size() * ctx.n() * sizeof(Word),
                                    stream),
                    cudaSuccess);
        std::string error;
        cudaGraph_t graph = captureGraph(dctx, call, error);
        ASSERT_EQ(error, "");
        ASSERT_NE(graph, nullptr);
        // The join: a kernel (the last NTT) after two branches.
        size_t joins = 0;
        for (cudaGraphNode_t node : graphNodes(graph)) {
          size_t deps = 0;
#if CUDART_VERSION >= 13000
          ASSERT_EQ(cudaGraphNodeGetDependencies(node, nullptr, nullptr, &deps),
                    cudaSuccess);
#else
          ASSERT_EQ(cudaGraphNodeGetDependencies(node, nullptr, &deps),
                    cudaSuccess);
#endif
          joins += deps >= 2;
        }
        EXPECT_GE(joins, 1u) << "no two branches joined";
        cudaGraphExec_t exec = nullptr;
        ASSERT_EQ(cudaGraphInstantiate(&exec, graph, 0), cudaSuccess);
        ASSERT_EQ(cudaGraphLaunch(exec, stream), cudaSuccess);
        ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
        cudaGraphExecDestroy(exec);
        cudaGraphDestroy(graph);
      }
      EXPECT_EQ(diff(want0, cuda::download(dctx, o0)), "") << "part 0";
      EXPECT_EQ(diff(want1, cuda::download(dctx, o1)), "") << "part 1";
    }
}

TEST(CudaPrimitives, KeySwitchDownMatchesTheCpu) {
  REQUIRE_GPU();
  checkKeySwitchDown(makeContext("small"), 2);
  checkKeySwitchDown(makeContext("B"), 23);
}

TEST(CudaWords32, KeySwitchDownMatchesTheCpu) {
  REQUIRE_GPU();
  checkKeySwitchDown(makeContext32(13, 9, 3), 6);
  checkKeySwitchDown(makeContext32(16, 5, 2), 4);
}

// The 32-bit primitives of compiled programs' plans (runCuda at 32 bits).
TEST(CudaWords32, PlanPrimitivesMatchTheCpu) {
  REQUIRE_GPU();
  checkPlanPrimitives32(12, 6, 3, 5);
  checkPlanPrimitives32(13, 9, 3, 4);
  checkPlanPrimitives32(16, 5, 2, 4); // the register-resident N = 2^16 NTT
}

TEST(CudaWords32, PrimitivesSmallN) {
  REQUIRE_GPU();
  checkPrimitives32(12, 6, 3, 5);
  checkPrimitives32(12, 6, 3, 1);
  checkPrimitives32(13, 9, 3, 8);
}
// N = 2^16 with few limbs: the register-resident NTT kernels at 32-bit
// words, small enough for the sanitizers (bench/gpu_run.sh SANITIZE=1).
TEST(CudaWords32, PrimitivesN16Small) {
  REQUIRE_GPU();
  checkPrimitives32(16, 5, 2, 4);
}
// Cheddar's 32-bit default shape at N = 2^16 (47 Q limbs, 12 P limbs; here
// of 25-30 bits).
TEST(CudaWords32, PrimitivesCheddarShape) {
  REQUIRE_GPU();
  checkPrimitives32(16, 47, 12, 46);
  checkPrimitives32(16, 47, 12, 22);
}
// A 32-bit context refuses 64-bit operands and the 64-bit host context, and
// a 64-bit one refuses 32-bit operands.
TEST(CudaWords32, WordSizesDoNotMix) {
  REQUIRE_GPU();
  Context32 ctx32 = makeContext32(12, 4, 2);
  Context64 ctx64 = makeContext("small");
  cuda::DeviceContext d32(ctx32), d64(ctx64);
  EXPECT_EQ(d64.wordBits(), 64);
  Prng prng(seed(3));
  EXPECT_THROW(
      cuda::upload(d32, randomPoly(ctx64, prng, ctx64.qBasis(1), true)),
      InvalidArgument);
  EXPECT_THROW(
      cuda::upload(d64, randomPoly(ctx32, prng, ctx32.qBasis(1), true)),
      InvalidArgument);
  EXPECT_THROW(d32.host(), InvalidArgument);
  EXPECT_THROW(d64.host32(), InvalidArgument);
}

// --- CKKS operations
// ------------------------------------------------------------

/// A double-prime chain at 32-bit words (ParamSpec::scale_primes = 2): q_0
/// and `pairs` pairs carrying 2^log_scale, p_count 30-bit P primes.
Context32 makeDoublePrime32(int log_n, int pairs, int p_count, int log_scale,
                            int dnum) {
  ParamSpec spec;
  spec.name = "dp32";
  spec.log_n = log_n;
  spec.q_bits.assign(1 + 2 * pairs, log_scale / 2);
  spec.q_bits[0] = 30;
  spec.p_bits.assign(p_count, 30);
  spec.dnum = dnum;
  spec.log_scale = log_scale;
  spec.scale_primes = 2;
  spec.security = Security::kInsecureTestOnly;
  return Context32(spec);
}

Context32 cheddar32() {
  ParamSpec spec;
  EXPECT_TRUE(namedParamSpec("cheddar32", spec));
  return Context32(spec);
}

/// Every CKKS operation on the GPU against the CPU's, at either word, with
/// random keys (key switching is deterministic: bit-exactness needs no real
/// key) at each of `levels`.
template <typename Word>
void checkOperations(const Context<Word> &ctx, const std::vector<int> &levels) {
  using Ct = BasicCiphertext<Word>;
  using DCt = cuda::BasicDeviceCiphertext<Word>;
  cuda::DeviceContext dctx(ctx);
  Prng prng(seed(11));
  BasicEvaluator<Word> eval(ctx);
  cuda::BasicEvaluator<Word> geval(dctx);
  const double scale = std::ldexp(1.0, int(ctx.spec().log_scale));

  const auto [rk, gk] = randomKeys<BasicRelinKey<Word>, BasicGaloisKeys<Word>>(
      ctx, prng, randomKey<Word>);
  const auto drk = cuda::upload(dctx, rk);
  const auto dgk = cuda::upload(dctx, gk);

  for (int level : levels) {
    SCOPED_TRACE(ctx.describe() + " at level " + std::to_string(level));
    Ct a = randomCiphertext(ctx, prng, level, scale);
    Ct b = randomCiphertext(ctx, prng, level, scale);
    BasicPlaintext<Word> pt;
    pt.poly = randomPoly(ctx, prng, ctx.qBasis(level), true);
    pt.level = level;
    pt.scale = scale;
    pt.slots = ctx.slotsMax();
    DCt da = cuda::upload(dctx, a), db = cuda::upload(dctx, b);
    const auto dp = cuda::upload(dctx, pt);
    auto dl = [&](const DCt &c) { return cuda::download(dctx, c); };
    EXPECT_EQ(diff(eval.add(a, b), dl(geval.add(da, db))), "") << "add";
    EXPECT_EQ(diff(eval.sub(a, b), dl(geval.sub(da, db))), "") << "sub";
    EXPECT_EQ(diff(eval.negate(a), dl(geval.negate(da))), "") << "negate";
    EXPECT_EQ(diff(eval.addPlain(a, pt), dl(geval.addPlain(da, dp))), "")
        << "addPlain";
    EXPECT_EQ(diff(eval.subPlain(a, pt), dl(geval.subPlain(da, dp))), "")
        << "subPlain";
    EXPECT_EQ(diff(eval.mulPlain(a, pt), dl(geval.mulPlain(da, dp))), "")
        << "mulPlain";
    EXPECT_EQ(diff(eval.addConst(a, -1.75), dl(geval.addConst(da, -1.75))), "")
        << "addConst";
    EXPECT_EQ(diff(eval.mulConst(a, 0.3), dl(geval.mulConst(da, 0.3))), "")
        << "mulConst";
    Ct prod = eval.multiply(a, b);
    DCt dprod = geval.multiply(da, db);
    EXPECT_EQ(diff(prod, dl(dprod)), "") << "multiply";
    Ct a2 = a; // same scale as the product, for sub(deg 2, deg 1)
    a2.scale = prod.scale;
    DCt da2 = cuda::upload(dctx, a2);
    EXPECT_EQ(diff(eval.sub(prod, a2), dl(geval.sub(dprod, da2))), "")
        << "sub degree 2";
    EXPECT_EQ(
        diff(eval.relinearize(prod, rk), dl(geval.relinearize(dprod, drk))), "")
        << "relinearize";
    EXPECT_EQ(diff(eval.multiplyRelin(a, b, rk),
                   dl(geval.multiplyRelin(da, db, drk))),
              "")
        << "multiplyRelin";
    if (level >= ctx.scalePrimes()) {
      EXPECT_EQ(diff(eval.rescale(a), dl(geval.rescale(da))), "") << "rescale";
      EXPECT_EQ(diff(eval.rescale(prod), dl(geval.rescale(dprod))), "")
          << "rescale degree 2";
    } else {
      EXPECT_THROW(geval.rescale(da), LevelMismatch);
    }
    EXPECT_EQ(
        diff(eval.modDropTo(a, level / 2), dl(geval.modDropTo(da, level / 2))),
        "")
        << "modDropTo";
    EXPECT_EQ(diff(eval.rotate(a, 1, gk), dl(geval.rotate(da, 1, dgk))), "")
        << "rotate";
    EXPECT_EQ(diff(eval.conjugate(a, gk), dl(geval.conjugate(da, dgk))), "")
        << "conjugate";
    const auto [k0, k1] = eval.keySwitch(a.c[1], rk.key);
    const auto [g0, g1] = geval.keySwitch(cuda::upload(dctx, a.c[1]), drk.key);
    EXPECT_EQ(diff(k0, cuda::download(dctx, g0)), "") << "keySwitch 0";
    EXPECT_EQ(diff(k1, cuda::download(dctx, g1)), "") << "keySwitch 1";
  }
  EXPECT_THROW(
      geval.rotate(cuda::upload(dctx, randomCiphertext(ctx, prng, 1, scale)), 2,
                   dgk),
      MissingKey);
}

void checkOperations(const std::string &set, const std::vector<int> &levels) {
  checkOperations(makeContext(set), levels);
}

// --- Program ABI
// ---------------------------------------------------------------

TEST(CudaProgram, CheckInputComparesTheScaleExactly) {
  // Generated .cu programs check each input against the manifest; a 2^30
  // input to a 2^40 program decrypted 2^10 too small before the scale was
  // part of the check. Same rule and message as the CPU's checkInput.
  REQUIRE_GPU();
  Context64 ctx = makeContext("");
  cuda::DeviceContext dctx(ctx);
  Prng prng(seed(21));
  const int level = ctx.maxLevel();
  const double s30 = std::ldexp(1.0, 30), s40 = std::ldexp(1.0, 40);
  std::vector<cuda::DeviceCiphertext> in;
  in.push_back(cuda::upload(dctx, randomCiphertext(ctx, prng, level, s30)));
  const size_t slots = ctx.slotsMax();
  EXPECT_NO_THROW(program::cudaCheckInput(in, 0, "x", 2, level, slots, s30));
  try {
    program::cudaCheckInput(in, 0, "x", 2, level, slots, s40);
    FAIL() << "a 2^30 input passed as 2^40";
  } catch (const ScaleMismatch &e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("input 'x' has scale 2^30"), std::string::npos) << msg;
    EXPECT_NE(msg.find("expects exactly 2^40"), std::string::npos) << msg;
  }
  EXPECT_THROW(program::cudaCheckInput(in, 0, "x", 2, level, slots,
                                       std::nextafter(s30, 0.0)),
               ScaleMismatch);
  EXPECT_THROW(program::cudaCheckInput(in, 0, "x", 2, level - 1, slots, s30),
               LevelMismatch);
  EXPECT_THROW(program::cudaCheckInput(in, 1, "y", 2, level, slots, s30),
               InvalidArgument);
}

TEST(CudaWords32, OperationsSmallN) {
  REQUIRE_GPU();
  // 9 Q limbs, dnum 3 (digits 3, 3, 3): 3, 2 and 1 active digits; the
  // double-prime rescale at every level down to 2, refused at 1.
  checkOperations(makeDoublePrime32(12, 4, 4, 50, 3), {8, 5, 2, 1});
}
TEST(CudaWords32, OperationsCheddarShape) {
  REQUIRE_GPU();
  // 47 Q + 12 P limbs, dnum 4 (digits 12, 12, 12, 11), N = 2^16.
  checkOperations(cheddar32(), {46, 22});
}
TEST(CudaOperations, SmallN) {
  REQUIRE_GPU();
  checkOperations("small", {4, 2, 1, 0});
}
TEST(CudaOperations, DigitsBalancedByBits) {
  REQUIRE_GPU();
  checkOperations("mixed", {8, 5, 3});
}
TEST(CudaOperations, SetA) {
  REQUIRE_GPU();
  checkOperations("A", {35, 17});
}
TEST(CudaOperations, SetB) {
  REQUIRE_GPU();
  checkOperations("B", {23, 11});
}
TEST(CudaOperations, SetCUnevenDigits) {
  REQUIRE_GPU();
  checkOperations("C", {25, 13, 22});
}

// --- Decrypt and compare
// -------------------------------------------------------------

/// With real keys of either kind (make_keys(keygen, elements) returns the
/// relinearization and Galois keys): at each of `levels`, the GPU chain
/// mul + relin, rescale, rotate by 1, conjugate matches the CPU residue for
/// residue and decrypts within `tol`.
template <typename Word, typename MakeKeys>
void checkDecryptChain(const Context<Word> &ctx, uint8_t seed_byte,
                       const std::vector<int> &levels, double tol,
                       const char *kind, MakeKeys make_keys) {
  cuda::DeviceContext dctx(ctx);
  Prng prng(seed(seed_byte));
  BasicKeyGenerator<Word> keygen(ctx, prng);
  BasicPublicKey<Word> pk = keygen.publicKey();
  const size_t slots = ctx.slotsMax();
  auto keys = make_keys(
      keygen, std::vector<uint64_t>{galoisElementForRotation(ctx, 1, slots),
                                    galoisElementForConjugation(ctx)});
  const auto &rk = keys.first;
  const auto &gk = keys.second;
  BasicEncoder<Word> encoder(ctx);
  BasicEncryptor<Word> encryptor(ctx, prng);
  BasicDecryptor<Word> decryptor(ctx, keygen.secretKey());
  BasicEvaluator<Word> eval(ctx);
  cuda::BasicEvaluator<Word> geval(dctx);
  auto drk = cuda::upload(dctx, rk);
  auto dgk = cuda::upload(dctx, gk);
  const double scale = std::ldexp(1.0, int(ctx.spec().log_scale));
  std::vector<std::complex<double>> x(slots), y(slots), want(slots);
  for (size_t i = 0; i < slots; ++i) {
    x[i] = {std::cos(0.001 * double(i)), std::sin(0.002 * double(i))};
    y[i] = {0.5 - 0.0001 * double(i % 997), 0.25};
  }
  for (size_t i = 0; i < slots; ++i)
    want[i] = std::conj(x[(i + 1) % slots] * y[(i + 1) % slots]);
  for (int level : levels) {
    BasicCiphertext<Word> cx =
        encryptor.encrypt(encoder.encode(x, level, scale, slots), pk);
    BasicCiphertext<Word> cy =
        encryptor.encrypt(encoder.encode(y, level, scale, slots), pk);
    cuda::BasicDeviceCiphertext<Word> g = geval.conjugate(
        geval.rotate(geval.rescale(geval.multiplyRelin(
                         cuda::upload(dctx, cx), cuda::upload(dctx, cy), drk)),
                     1, dgk),
        dgk);
    BasicCiphertext<Word> got = cuda::download(dctx, g);
    BasicCiphertext<Word> ref = eval.conjugate(
        eval.rotate(eval.rescale(eval.multiplyRelin(cx, cy, rk)), 1, gk), gk);
    EXPECT_EQ(diff(ref, got), "") << ctx.describe() << " at level " << level;
    auto out = encoder.decode(decryptor.decrypt(got));
    double err = 0;
    for (size_t i = 0; i < slots; ++i)
      err = std::max(err, std::abs(out[i] - want[i]));
    EXPECT_LT(err, tol) << ctx.describe() << " at level " << level;
    std::printf("[ decrypt  ] %s at level %d: max slot error %.3g after %s"
                "mul+relin, rescale, rotate, conjugate on the GPU\n",
                ctx.describe().c_str(), level, err, kind);
  }
}

TEST(CudaWords32, DecryptCheddarShape) {
  REQUIRE_GPU();
  // Real keys at the shape of Cheddar's 32-bit set: mul + relin, the
  // double-prime rescale (scale 2^58 back to 2^58 within 2^-6), rotate and
  // conjugate at the top and at 23 limbs, residue for residue with the CPU.
  // A fresh error near 2^18 / 2^58 = 2^-40 per slot (sqrt(2N/3) sigma per
  // coefficient, summed over N by the decoding, the largest of 2^15 slots)
  // grows by a few bits through the chain (the product of values below
  // 1.2, the rescale's rounding, two key switches): 1e-9 (2^-30) bounds it.
  const Context32 ctx = cheddar32();
  checkDecryptChain(ctx, 5, {ctx.maxLevel(), 22}, 1e-9, "32-bit ",
                    [](KeyGenerator32 &kg, const std::vector<uint64_t> &g) {
                      return std::make_pair(kg.relinKey(), kg.galoisKeys(g));
                    });
}

void checkDecrypt(const std::string &set) {
  Context64 ctx = makeContext(set);
  checkDecryptChain(ctx, 3, {ctx.maxLevel()}, 1e-4, "",
                    [](KeyGenerator &kg, const std::vector<uint64_t> &g) {
                      return std::make_pair(kg.relinKey(), kg.galoisKeys(g));
                    });
}

TEST(CudaDecrypt, SmallN) {
  REQUIRE_GPU();
  checkDecrypt("small");
}
TEST(CudaDecrypt, DigitsBalancedByBits) {
  REQUIRE_GPU();
  // At level 4, where the rescale divides by a 40-bit prime (the 2^40
  // scale); the 60-bit primes above would leave a 2^20 scale. The keys are
  // the top level's, of all three balanced digits.
  Context64 ctx = makeContext("mixed");
  checkDecryptChain(ctx, 3, {4}, 1e-4, "",
                    [](KeyGenerator &kg, const std::vector<uint64_t> &g) {
                      return std::make_pair(kg.relinKey(), kg.galoisKeys(g));
                    });
}
TEST(CudaDecrypt, SetCUnevenDigits) {
  REQUIRE_GPU();
  checkDecrypt("C");
}

// --- KLSS key switching
// ------------------------------------------------------------

/// KLSS sets: "B" and "athena24" by name; "klss12": log N 12, 5 Q limbs,
/// 3 P, dnum 2 (digits 3, 2), gamma 2, so key groups {p0 p1} {p2 q0}
/// {q1 q2} {q3 q4} mix P and Q; "klss13": log N 13, 7 Q limbs, dnum 3
/// (digits 3, 3, 1), gamma 3 (groups {p0 p1 p2} {q0 q1 q2} ... {q6}).
/// log_n > 0 moves the small sets to N = 2^log_n.
Context64 makeKlssContext(const std::string &name, int log_n = 0) {
  ParamSpec spec;
  if (namedParamSpec(name, spec))
    return Context64(spec);
  spec.name = name;
  spec.security = Security::kInsecureTestOnly;
  spec.log_scale = 40;
  if (name == "klss12") {
    spec.log_n = 12;
    spec.q_bits = {60, 40, 40, 40, 40};
    spec.p_bits = {60, 60, 60};
    spec.dnum = 2;
    spec.klss_gamma = 2;
    spec.t_bits.assign(5, 61);
  } else {
    spec.log_n = 13;
    spec.q_bits = {50, 40, 40, 40, 40, 40, 40};
    spec.p_bits = {50, 50, 50};
    spec.dnum = 3;
    spec.klss_gamma = 3;
    spec.t_bits.assign(5, 61);
  }
  if (log_n > 0)
    spec.log_n = log_n;
  return Context64(spec);
}

/// A KLSS key of uniform polynomials over T (key switching is
/// deterministic, so bit-exactness needs no real key).
template <typename Word>
BasicKlssKey<Word> randomKlssKey(const Context<Word> &ctx, Prng &prng) {
  BasicKlssKey<Word> k;
  k.digits = ctx.digitCount(ctx.maxLevel());
  k.groups = ctx.klssGroupCount(ctx.maxLevel());
  for (int i = 0; i < k.digits * k.groups; ++i) {
    k.b.push_back(randomPoly(ctx, prng, ctx.tBasis(), true));
    k.a.push_back(randomPoly(ctx, prng, ctx.tBasis(), true));
  }
  return k;
}

template <typename Word>
void checkKlssPrimitives(const Context<Word> &ctx, int level) {
  using P = Poly<Word>;
  using DP = cuda::BasicDevicePoly<Word>;
  cuda::DeviceContext dctx(ctx);
  Prng prng(seed(17));
  SCOPED_TRACE(ctx.describe() + " at level " + std::to_string(level));
  const std::vector<int> q = ctx.qBasis(level), qp = ctx.qpBasis(level),
                         t = ctx.tBasis();
  auto gpu = [&](const P &p) { return cuda::upload(dctx, p); };
  auto dl = [&](const DP &p) { return cuda::download(dctx, p); };

  { // Transforms, automorphisms and elementwise ops over T.
    P a = randomPoly(ctx, prng, t, false);
    DP d = gpu(a);
    cpu::ntt(ctx, a);
    cuda::ntt(dctx, d);
    EXPECT_EQ(diff(a, dl(d)), "") << "ntt over T";
    P b = randomPoly(ctx, prng, t, true);
    d = gpu(b);
    cpu::intt(ctx, b);
    cuda::intt(dctx, d);
    EXPECT_EQ(diff(b, dl(d)), "") << "intt over T";
    const uint64_t g = galoisElementForRotation(ctx, 3, ctx.slotsMax());
    for (bool form : {true, false}) {
      P c = randomPoly(ctx, prng, t, form);
      EXPECT_EQ(diff(cpu::automorphism(ctx, c, g),
                     dl(cuda::automorphism(dctx, gpu(c), g))),
                "")
          << "automorphism over T" << (form ? " ntt" : " coeff");
    }
    P x = randomPoly(ctx, prng, t, true), y = randomPoly(ctx, prng, t, true);
    DP dx = gpu(x), dy = gpu(y);
    cpu::mulInPlace(ctx, x, y);
    cuda::mulInPlace(dctx, dx, dy);
    EXPECT_EQ(diff(x, dl(dx)), "") << "mul over T";
    cpu::addInPlace(ctx, x, y);
    cuda::addInPlace(dctx, dx, dy);
    EXPECT_EQ(diff(x, dl(dx)), "") << "add over T";
  }

  { // Exact BConv: every digit of Q_l -> T, T -> every key group's limbs,
    // P -> Q_l.
    for (int j = 0; j < ctx.digitCount(level); ++j) {
      P a = randomPoly(ctx, prng, ctx.digitLimbs(j, level), false);
      EXPECT_EQ(diff(cpu::bconvExact(ctx, a, t),
                     dl(cuda::bconvExact(dctx, gpu(a), t))),
                "")
          << "bconvExact digit " << j << " -> T";
    }
    P b = randomPoly(ctx, prng, t, false);
    DP db = gpu(b);
    for (int j = 0; j < ctx.klssGroupCount(level); ++j) {
      const std::vector<int> group = ctx.klssGroupLimbs(j, level);
      EXPECT_EQ(diff(cpu::bconvExact(ctx, b, group),
                     dl(cuda::bconvExact(dctx, db, group))),
                "")
          << "bconvExact T -> group " << j;
    }
    P c = randomPoly(ctx, prng, ctx.pBasis(), false);
    EXPECT_EQ(
        diff(cpu::bconvExact(ctx, c, q), dl(cuda::bconvExact(dctx, gpu(c), q))),
        "")
        << "bconvExact P -> Q_l";
    // Small values (|x| < 2^20), the KLSS regime: exact up to the sign.
    P small(t, ctx.n(), false);
    for (size_t k = 0; k < ctx.n(); ++k) {
      const int64_t v = int64_t(prng.next64() % (1u << 21)) - (1 << 20);
      for (size_t i = 0; i < t.size(); ++i) {
        const uint64_t m = ctx.primes()[t[i]];
        small.limb(i)[k] = Word(v < 0 ? m - uint64_t(-v) : uint64_t(v));
      }
    }
    const P want = cpu::bconvExact(ctx, small, q);
    EXPECT_EQ(diff(want, dl(cuda::bconvExact(dctx, gpu(small), q))), "")
        << "bconvExact T -> Q_l, small values";
  }

  { // klssModUp of every digit.
    P d = randomPoly(ctx, prng, q, true);
    for (int j = 0; j < ctx.digitCount(level); ++j) {
      const P digit = cpu::selectLimbs(d, ctx.digitLimbs(j, level));
      EXPECT_EQ(diff(cpu::klssModUp(ctx, digit),
                     dl(cuda::klssModUp(dctx, gpu(digit)))),
                "")
          << "klssModUp digit " << j;
    }
    // All digits at once (a compiled plan's klss_mod_up): views of one
    // polynomial in, outputs side by side in one buffer (one launch per
    // stage) and in buffers of their own (one NTT each).
    const DP dd = gpu(d);
    const int digits = ctx.digitCount(level);
    std::vector<DP> views;
    for (int j = 0; j < digits; ++j) {
      const std::vector<int> limbs = ctx.digitLimbs(j, level);
      DP v;
      v.basis = limbs;
      v.n = dd.n;
      v.ntt = true;
      v.buf = cuda::DeviceBuffer::borrow(
          reinterpret_cast<uint64_t *>(dd.limb(size_t(limbs.front()))),
          DP::wordsFor(limbs.size() * dd.n));
      views.push_back(std::move(v));
    }
    const size_t tlimbs = t.size();
    DP all = gpu(
        P(std::vector<int>(tlimbs * size_t(digits), t.front()), ctx.n(), true));
    for (bool side_by_side : {true, false}) {
      std::vector<DP> own;
      std::vector<DP> outs;
      for (int j = 0; j < digits; ++j) {
        DP o;
        o.basis = t;
        o.n = ctx.n();
        o.ntt = true;
        if (side_by_side)
          o.buf = cuda::DeviceBuffer::borrow(
              reinterpret_cast<uint64_t *>(all.limb(size_t(j) * tlimbs)),
              DP::wordsFor(tlimbs * ctx.n()));
        else
          o = gpu(randomPoly(ctx, prng, t, true));
        outs.push_back(std::move(o));
      }
      std::vector<const DP *> in;
      std::vector<DP *> out;
      for (int j = 0; j < digits; ++j) {
        in.push_back(&views[j]);
        out.push_back(&outs[j]);
      }
      cuda::klssModUp(dctx, in, out, cuda::Scratch{});
      for (int j = 0; j < digits; ++j)
        EXPECT_EQ(diff(cpu::klssModUp(
                           ctx, cpu::selectLimbs(d, ctx.digitLimbs(j, level))),
                       dl(outs[j])),
                  "")
            << "batched klssModUp digit " << j
            << (side_by_side ? " (outputs side by side)" : "");
    }
  }

  BasicKlssKey<Word> key = randomKlssKey(ctx, prng);
  cuda::BasicDeviceKlssKey<Word> dkey = cuda::upload(dctx, key);
  EXPECT_EQ(dkey.digits, key.digits);
  EXPECT_EQ(dkey.groups, key.groups);
  EXPECT_EQ(dkey.buf.words() * 8, klssKeyBytes(ctx)) << "KLSS key size";

  { // The inner product over T and the way back to Q_l u P.
    std::vector<P> tdigits;
    std::vector<DP> dtdigits;
    for (int j = 0; j < ctx.digitCount(level); ++j) {
      tdigits.push_back(randomPoly(ctx, prng, t, true));
      dtdigits.push_back(gpu(tdigits.back()));
    }
    std::vector<const P *> ptrs;
    std::vector<const DP *> dptrs;
    for (size_t j = 0; j < tdigits.size(); ++j) {
      ptrs.push_back(&tdigits[j]);
      dptrs.push_back(&dtdigits[j]);
    }
    P acc0, acc1;
    klssInnerProduct(ctx, key, ptrs, level, acc0, acc1);
    DP dacc0, dacc1;
    cuda::klssInnerProduct(dctx, dkey, dptrs, level, dacc0, dacc1);
    EXPECT_EQ(diff(acc0, dl(dacc0)), "") << "klssInnerProduct acc0";
    EXPECT_EQ(diff(acc1, dl(dacc1)), "") << "klssInnerProduct acc1";
    if (!dptrs.empty()) {
      dptrs.pop_back();
      EXPECT_THROW(
          cuda::klssInnerProduct(dctx, dkey, dptrs, level, dacc0, dacc1),
          InvalidArgument);
    }
  }

  { // ModDown / modSwitchDown in coefficient form.
    P a = randomPoly(ctx, prng, qp, false);
    EXPECT_EQ(diff(cpu::modSwitchDown(ctx, a, q),
                   dl(cuda::modSwitchDown(dctx, gpu(a), q))),
              "")
        << "modSwitchDown coeff Q_l u P -> Q_l";
    if (level >= 1) {
      const std::vector<int> q1 = ctx.qBasis(level - 1);
      EXPECT_EQ(diff(cpu::modSwitchDown(ctx, a, q1),
                     dl(cuda::modSwitchDown(dctx, gpu(a), q1))),
                "")
          << "modSwitchDown coeff Q_l u P -> Q_{l-1}";
      P b = randomPoly(ctx, prng, q, false);
      EXPECT_EQ(diff(cpu::modSwitchDown(ctx, b, q1),
                     dl(cuda::modSwitchDown(dctx, gpu(b), q1))),
                "")
          << "modSwitchDown coeff Q_l -> Q_{l-1}";
    }
  }

  { // KLSS key switching.
    P d = randomPoly(ctx, prng, q, true);
    auto want = BasicEvaluator<Word>(ctx).keySwitch(d, key);
    auto got = cuda::BasicEvaluator<Word>(dctx).keySwitch(gpu(d), dkey);
    EXPECT_EQ(diff(want.first, dl(got.first)), "") << "KLSS keySwitch k0";
    EXPECT_EQ(diff(want.second, dl(got.second)), "") << "KLSS keySwitch k1";
  }
}

void checkKlssPrimitives(const std::string &set, int level) {
  checkKlssPrimitives(makeKlssContext(set), level);
}

TEST(CudaKlss, PrimitivesSmallMixedGroups) {
  REQUIRE_GPU();
  checkKlssPrimitives("klss12", 4);
  checkKlssPrimitives("klss12", 2);
  checkKlssPrimitives("klss12", 0);
}
TEST(CudaKlss, PrimitivesSmallN13) {
  REQUIRE_GPU();
  checkKlssPrimitives("klss13", 6);
  checkKlssPrimitives("klss13", 3);
}
TEST(CudaKlss, PrimitivesSetB) {
  REQUIRE_GPU();
  checkKlssPrimitives("B", 23);
  checkKlssPrimitives("B", 11);
}
TEST(CudaKlss, PrimitivesAthena24) {
  REQUIRE_GPU();
  checkKlssPrimitives("athena24", 23);
  checkKlssPrimitives("athena24", 11);
}
TEST(CudaKlss, PrimitivesAthena47) {
  REQUIRE_GPU();
  // 47 digits and 16 key groups at the top (the inner product's uncached
  // path, four whole tiles of groups), 24 digits and 9 groups at level 23
  // (a short last tile).
  checkKlssPrimitives("athena47", 46);
  checkKlssPrimitives("athena47", 23);
}

template <typename Word>
void checkKlssOperations(const Context<Word> &ctx,
                         const std::vector<int> &levels) {
  using Ct = BasicCiphertext<Word>;
  using DCt = cuda::BasicDeviceCiphertext<Word>;
  cuda::DeviceContext dctx(ctx);
  Prng prng(seed(19));
  BasicEvaluator<Word> eval(ctx);
  cuda::BasicEvaluator<Word> geval(dctx);
  const double scale = std::ldexp(1.0, int(ctx.spec().log_scale));
  const auto [rk, gk] =
      randomKeys<BasicKlssRelinKey<Word>, BasicKlssGaloisKeys<Word>>(
          ctx, prng, randomKlssKey<Word>);
  const uint64_t rot1 = galoisElementForRotation(ctx, 1, ctx.slotsMax());
  cuda::BasicDeviceKlssRelinKey<Word> drk = cuda::upload(dctx, rk);
  cuda::BasicDeviceKlssGaloisKeys<Word> dgk = cuda::upload(dctx, gk);
  auto dl = [&](const DCt &c) { return cuda::download(dctx, c); };
  for (int level : levels) {
    SCOPED_TRACE(ctx.describe() + " at level " + std::to_string(level));
    Ct a = randomCiphertext(ctx, prng, level, scale);
    Ct b = randomCiphertext(ctx, prng, level, scale);
    DCt da = cuda::upload(dctx, a), db = cuda::upload(dctx, b);
    Ct prod = eval.multiply(a, b);
    DCt dprod = geval.multiply(da, db);
    EXPECT_EQ(
        diff(eval.relinearize(prod, rk), dl(geval.relinearize(dprod, drk))), "")
        << "KLSS relinearize";
    EXPECT_EQ(diff(eval.multiplyRelin(a, b, rk),
                   dl(geval.multiplyRelin(da, db, drk))),
              "")
        << "KLSS multiplyRelin";
    EXPECT_EQ(diff(eval.relinearize(a, rk), dl(geval.relinearize(da, drk))), "")
        << "KLSS relinearize of degree 1";
    EXPECT_EQ(diff(eval.rotate(a, 1, gk), dl(geval.rotate(da, 1, dgk))), "")
        << "KLSS rotate";
    EXPECT_EQ(diff(eval.conjugate(a, gk), dl(geval.conjugate(da, dgk))), "")
        << "KLSS conjugate";
    EXPECT_EQ(diff(eval.applyGalois(a, rot1, gk),
                   dl(geval.applyGalois(da, rot1, dgk))),
              "")
        << "KLSS applyGalois";
  }
  EXPECT_THROW(
      geval.rotate(cuda::upload(dctx, randomCiphertext(ctx, prng, 1, scale)), 2,
                   dgk),
      MissingKey);
  DCt c1 = cuda::upload(dctx, randomCiphertext(ctx, prng, 1, scale));
  EXPECT_THROW(geval.relinearize(geval.multiply(c1, c1),
                                 cuda::BasicDeviceKlssRelinKey<Word>{}),
               MissingKey);
}

void checkKlssOperations(const std::string &set,
                         const std::vector<int> &levels) {
  checkKlssOperations(makeKlssContext(set), levels);
}

TEST(CudaKlss, OperationsSmall) {
  REQUIRE_GPU();
  checkKlssOperations("klss12", {4, 2, 0});
  checkKlssOperations("klss13", {6, 3});
}
TEST(CudaKlss, OperationsSetB) {
  REQUIRE_GPU();
  checkKlssOperations("B", {23, 11});
}
TEST(CudaKlss, OperationsAthena24) {
  REQUIRE_GPU();
  checkKlssOperations("athena24", {23, 11});
}

/// KLSS sets at 32-bit words (double-prime scaling, 30-bit T primes):
/// "klss32": log N 12, q_0 and two pairs, 2 P, dnum 3, gamma 2 (the CPU's
/// Ckks32 KLSS set: groups {p0 p1} {q0 q1} {q2 q3} {q4}); "klss32mix":
/// log N 13, 7 Q, 3 P, dnum 3, gamma 2 (groups {p0 p1} {p2 q0} ... mix P
/// and Q; T needs log2 3 + 13 + 80 + 60 + 1 = 155.6 bits of 180);
/// "cheddar32k": Cheddar's 32-bit Q (47 limbs, N = 2^16) with Athena's
/// small-K shape, K = 2, dnum 24 (digits of two limbs), gamma 2: more
/// than 16 digits (the inner product's uncached path) and sums of 24
/// products that wrap 64 bits. log_n > 0 moves klss32 and klss32mix to
/// N = 2^log_n.
Context32 makeKlss32(const std::string &name, int log_n = 0) {
  ParamSpec spec;
  if (name == "cheddar32k") {
    EXPECT_TRUE(namedParamSpec("cheddar32", spec));
    spec.name = name;
    spec.security = Security::kInsecureTestOnly;
    spec.p_bits = {30, 30};
    spec.dnum = 24;
    spec.klss_gamma = 2;
    spec.t_bits.assign(5, 30);
    return Context32(spec);
  }
  spec.name = name;
  spec.security = Security::kInsecureTestOnly;
  spec.scale_primes = 2;
  spec.log_scale = 50;
  spec.klss_gamma = 2;
  if (name == "klss32") {
    spec.log_n = 12;
    spec.q_bits = {30, 25, 25, 25, 25};
    spec.p_bits = {30, 30};
    spec.t_bits.assign(5, 30);
  } else {
    spec.log_n = 13;
    spec.q_bits = {30, 25, 25, 25, 25, 25, 25};
    spec.p_bits = {30, 30, 30};
    spec.t_bits.assign(6, 30);
  }
  spec.dnum = 3;
  if (log_n > 0)
    spec.log_n = log_n;
  return Context32(spec);
}

TEST(CudaWords32, KlssPrimitives) {
  REQUIRE_GPU();
  const Context32 small = makeKlss32("klss32"), mix = makeKlss32("klss32mix");
  ASSERT_LE(small.klssTBitsNeeded(), small.klssTBits());
  ASSERT_LE(mix.klssTBitsNeeded(), mix.klssTBits());
  for (int level : {4, 2, 0})
    checkKlssPrimitives(small, level);
  for (int level : {6, 3})
    checkKlssPrimitives(mix, level);
}
TEST(CudaWords32, KlssPrimitivesCheddarShape) {
  REQUIRE_GPU();
  const Context32 ctx = makeKlss32("cheddar32k");
  ASSERT_LE(ctx.klssTBitsNeeded(), ctx.klssTBits());
  checkKlssPrimitives(ctx, ctx.maxLevel());
  checkKlssPrimitives(ctx, 22);
}
TEST(CudaWords32, KlssOperations) {
  REQUIRE_GPU();
  checkKlssOperations(makeKlss32("klss32"), {4, 2, 0});
  checkKlssOperations(makeKlss32("klss32mix"), {6, 3});
  const Context32 big = makeKlss32("cheddar32k");
  checkKlssOperations(big, {big.maxLevel()});
}
TEST(CudaWords32, KlssDecrypt) {
  REQUIRE_GPU();
  // Real KLSS keys at 32-bit words: the chain of checkDecryptChain at the
  // top and lower, residue for residue with the CPU. Scale 2^50, N = 2^13:
  // a fresh error near 2^15 / 2^50 per slot grows by a few bits over the
  // chain; 1e-7 (2^-23) bounds it with room.
  const Context32 ctx = makeKlss32("klss32mix");
  checkDecryptChain(ctx, 31, {6, 4}, 1e-7, "32-bit KLSS ",
                    [](KeyGenerator32 &kg, const std::vector<uint64_t> &g) {
                      return std::make_pair(kg.klssRelinKey(),
                                            kg.klssGaloisKeys(g));
                    });
}
TEST(CudaWords32, WordSizesDoNotMixInKlss) {
  REQUIRE_GPU();
  // A 64-bit KLSS key on a 32-bit device context is refused.
  const Context32 ctx = makeKlss32("klss32");
  cuda::DeviceContext dctx(ctx);
  EXPECT_THROW(cuda::upload(dctx, KlssKey{}), InvalidArgument);
}

TEST(CudaKlss, NoKlssForm) {
  REQUIRE_GPU();
  Context64 ctx = makeContext("small");
  cuda::DeviceContext dctx(ctx);
  Prng prng(seed(23));
  cuda::DevicePoly d =
      cuda::upload(dctx, randomPoly(ctx, prng, ctx.digitLimbs(0, 4), true));
  EXPECT_THROW(cuda::klssModUp(dctx, d), InvalidArgument);
  EXPECT_THROW(cuda::upload(dctx, KlssKey{}), InvalidArgument);
}

/// Real KLSS keys (KeyGenerator::klssRelinKey / klssGaloisKeys), at each of
/// `levels`.
void checkKlssDecrypt(const std::string &set, const std::vector<int> &levels) {
  Context64 ctx = makeKlssContext(set);
  checkDecryptChain(ctx, 29, levels, 1e-3, "KLSS ",
                    [](KeyGenerator &kg, const std::vector<uint64_t> &g) {
                      return std::make_pair(kg.klssRelinKey(),
                                            kg.klssGaloisKeys(g));
                    });
}

TEST(CudaKlssDecrypt, Small) {
  REQUIRE_GPU();
  checkKlssDecrypt("klss12", {4, 2});
  checkKlssDecrypt("klss13", {6, 3});
}
TEST(CudaKlssDecrypt, SetB) {
  REQUIRE_GPU();
  checkKlssDecrypt("B", {23, 11});
}
TEST(CudaKlssDecrypt, Athena24) {
  REQUIRE_GPU();
  checkKlssDecrypt("athena24", {23, 11});
}

// --- Register-resident NTT at N = 2^15 and 2^14
// ------------------------------------------------------------------------
// Columns of 128 (2^15) or 64 (2^14) points and rows of 256 (ntt.cu), against
// the CPU residue for residue at both words: the transforms over Q, Q u P
// and P (the inverse with n^-1 by modulus), ModUp (the inverse scaled by
// row), ModDown and the modulus switches (the forward's epilogue (a - x) c,
// with a lifted addend (+ b bc) in the batched switch and the plan forms),
// rescale (kReduceIn: the last limb reduced and centred in the column
// phase, the inverse's added constant), relinearize and rotate (the
// epilogue's (a - x) c + b), KLSS (the NTT over T, the epilogue's x + b
// without a, the inverse scaled by modulus).

void checkRegisterNtt(int log_n) {
  const Context64 ctx = makeContext("small", log_n);
  ASSERT_EQ(ctx.logN(), log_n);
  checkPrimitives(ctx, 4);
  checkPrimitives(ctx, 1);
  checkOperations(ctx, {4, 1});
}
void checkRegisterNtt32(int log_n) {
  checkPrimitives32(log_n, 6, 3, 5);
  checkPrimitives32(log_n, 6, 3, 2);
  checkPlanPrimitives32(log_n, 6, 3, 5);
  checkOperations(makeDoublePrime32(log_n, 4, 4, 50, 3), {8, 2});
}
void checkRegisterNttKlss(int log_n) {
  const Context64 ctx = makeKlssContext("klss12", log_n);
  ASSERT_EQ(ctx.logN(), log_n);
  checkKlssPrimitives(ctx, 4);
  checkKlssOperations(ctx, {4, 0});
  const Context32 ctx32 = makeKlss32("klss32", log_n);
  ASSERT_LE(ctx32.klssTBitsNeeded(), ctx32.klssTBits());
  checkKlssPrimitives(ctx32, 4);
  checkKlssOperations(ctx32, {4, 0});
}

TEST(CudaRegisterNtt, N15Words64) {
  REQUIRE_GPU();
  checkRegisterNtt(15);
}
TEST(CudaRegisterNtt, N15Words32) {
  REQUIRE_GPU();
  checkRegisterNtt32(15);
}
TEST(CudaRegisterNtt, N15Klss) {
  REQUIRE_GPU();
  checkRegisterNttKlss(15);
}
TEST(CudaRegisterNtt, N14Words64) {
  REQUIRE_GPU();
  checkRegisterNtt(14);
}
TEST(CudaRegisterNtt, N14Words32) {
  REQUIRE_GPU();
  checkRegisterNtt32(14);
}
TEST(CudaRegisterNtt, N14Klss) {
  REQUIRE_GPU();
  checkRegisterNttKlss(14);
}

// The 64-bit butterflies keep values below 8q (ntt.cu's lazyBound: the
// twiddle product's cheaper quotient leaves [0, 4q)), which fits a word only
// for q < 2^61. At the largest primes allowed (61 bits, just below 2^61),
// every kernel family (generic at 2^12, register-resident at 2^14..2^16)
// against the CPU on random inputs and on the extreme ones: every
// coefficient q - 1, alternating 0 and q - 1, one q - 1 among zeros.
TEST(CudaRegisterNtt, LargestPrimesExtremeInputs) {
  REQUIRE_GPU();
  for (int log_n : {12, 14, 15, 16}) {
    ParamSpec spec;
    spec.name = "largest";
    spec.log_n = log_n;
    spec.log_scale = 40;
    spec.security = Security::kInsecureTestOnly;
    spec.q_bits = {61, 61, 61};
    spec.p_bits = {61, 61};
    spec.dnum = 3;
    const Context64 ctx(spec);
    cuda::DeviceContext dctx(ctx);
    Prng prng(seed(61 + log_n));
    const std::vector<int> qp = ctx.qpBasis(ctx.maxLevel());
    for (int q : qp)
      ASSERT_GT(ctx.modulus(q).value(),
                (uint64_t{1} << 61) - (uint64_t{1} << 40))
          << "a prime far below 2^61";
    checkTransforms(ctx, dctx, prng, {qp});
    for (int pattern = 0; pattern < 3; ++pattern)
      for (bool ntt_form : {false, true}) {
        Poly64 a(qp, ctx.n(), ntt_form);
        for (size_t r = 0; r < qp.size(); ++r) {
          const uint64_t top = ctx.modulus(qp[r]).value() - 1;
          for (size_t k = 0; k < ctx.n(); ++k)
            a.limb(r)[k] = pattern == 0   ? top
                           : pattern == 1 ? (k & 1 ? top : 0)
                                          : (k == 7 ? top : 0);
        }
        cuda::DevicePoly d = cuda::upload(dctx, a);
        if (ntt_form) {
          cpu::intt(ctx, a);
          cuda::intt(dctx, d);
        } else {
          cpu::ntt(ctx, a);
          cuda::ntt(dctx, d);
        }
        EXPECT_EQ(diff(a, cuda::download(dctx, d)), "")
            << (ntt_form ? "intt" : "ntt") << " of pattern " << pattern
            << " at N = 2^" << log_n;
      }
  }
}

} // namespace
} // namespace ember
