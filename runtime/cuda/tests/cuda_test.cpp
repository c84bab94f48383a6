// The CUDA backend against the CPU backend: for random inputs every
// primitive and every CKKS operation must give identical residues, at a
// small N and at the parameter sets A, B and C (C has uneven digits
// 7,7,7,5); plus decrypt-and-compare checks with real keys. Needs a GPU:
// built by CI, run by bench/gpu_run.sh on the GPU host (not under ctest).
#include "ember/ckks.h"
#include "ember/cuda.h"
#include "ember/errors.h"
#include "ember/rns.h"

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <memory>
#include <string>

namespace ember {
namespace {

bool haveGpu() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess && count > 0;
}

#define REQUIRE_GPU()                                                          \
  do {                                                                         \
    if (!haveGpu())                                                            \
      GTEST_SKIP() << "no CUDA device";                                        \
  } while (0)

Prng::Seed seed(uint8_t v) {
  Prng::Seed s{};
  s.fill(v);
  return s;
}

/// "" when equal, else where the first residue differs.
std::string diff(const Poly64 &want, const Poly64 &got) {
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

std::string diff(const Ciphertext &want, const Ciphertext &got) {
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

Context64 makeContext(const std::string &name) {
  ParamSpec spec;
  if (namedParamSpec(name, spec))
    return Context64(spec);
  // Small insecure set: 5 Q limbs, dnum 2 -> uneven digits 3, 2.
  spec.name = "small";
  spec.log_n = 12;
  spec.q_bits = {60, 40, 40, 40, 40};
  spec.p_bits = {60, 60, 60};
  spec.dnum = 2;
  spec.log_scale = 40;
  spec.security = Security::kInsecureTestOnly;
  return Context64(spec);
}

Poly64 randomPoly(const Context64 &ctx, Prng &prng,
                  const std::vector<int> &basis, bool ntt) {
  return sampleUniformPoly(ctx, prng, basis, ntt);
}

/// A switching key of uniform polynomials (key switching is deterministic,
/// so bit-exactness needs no real key; the decrypt tests use real ones).
SwitchingKey randomKey(const Context64 &ctx, Prng &prng) {
  SwitchingKey k;
  const std::vector<int> all = ctx.qpBasis(ctx.maxLevel());
  for (int j = 0; j < ctx.digitCount(ctx.maxLevel()); ++j) {
    k.b.push_back(randomPoly(ctx, prng, all, true));
    k.a.push_back(randomPoly(ctx, prng, all, true));
  }
  return k;
}

Ciphertext randomCiphertext(const Context64 &ctx, Prng &prng, int level,
                            double scale) {
  Ciphertext ct;
  ct.level = level;
  ct.scale = scale;
  ct.slots = ctx.slotsMax();
  for (int i = 0; i < 2; ++i)
    ct.c.push_back(randomPoly(ctx, prng, ctx.qBasis(level), true));
  return ct;
}

// --- Primitives
// ----------------------------------------------------------------

void checkPrimitives(const std::string &set, int level) {
  Context64 ctx = makeContext(set);
  cuda::DeviceContext dctx(ctx);
  Prng prng(seed(7));
  SCOPED_TRACE(ctx.describe() + " at level " + std::to_string(level));
  const std::vector<int> q = ctx.qBasis(level), qp = ctx.qpBasis(level),
                         p = ctx.pBasis();

  for (const auto &basis : {q, qp, p}) {
    Poly64 a = randomPoly(ctx, prng, basis, false);
    cuda::DevicePoly d = cuda::upload(dctx, a);
    cpu::ntt(ctx, a);
    cuda::ntt(dctx, d);
    EXPECT_EQ(diff(a, cuda::download(dctx, d)), "") << "ntt";
    Poly64 b = randomPoly(ctx, prng, basis, true);
    d = cuda::upload(dctx, b);
    cpu::intt(ctx, b);
    cuda::intt(dctx, d);
    EXPECT_EQ(diff(b, cuda::download(dctx, d)), "") << "intt";
  }

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
    if (level >= 1) {
      Poly64 c = a;
      cpu::rescale(ctx, c);
      cuda::rescale(dctx, da);
      EXPECT_EQ(diff(c, cuda::download(dctx, da)), "") << "rescale";
    }
  }

  { // Automorphisms in both forms.
    const uint64_t n2 = 2 * ctx.n();
    for (uint64_t g : {uint64_t{5}, uint64_t{125} % n2, n2 - 1}) {
      for (bool form : {true, false}) {
        Poly64 a = randomPoly(ctx, prng, q, form);
        EXPECT_EQ(
            diff(cpu::automorphism(ctx, a, g),
                 cuda::download(
                     dctx, cuda::automorphism(dctx, cuda::upload(dctx, a), g))),
            "")
            << "automorphism " << g << (form ? " ntt" : " coeff");
      }
    }
  }

  { // Elementwise.
    Poly64 a = randomPoly(ctx, prng, qp, true),
           b = randomPoly(ctx, prng, qp, true),
           c = randomPoly(ctx, prng, qp, true);
    cuda::DevicePoly da = cuda::upload(dctx, a), db = cuda::upload(dctx, b),
                     dc = cuda::upload(dctx, c);
    std::vector<uint64_t> k(qp.size());
    for (auto &x : k)
      x = prng.next64();
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
  }
}

TEST(CudaPrimitives, SmallNTopAndLowLevels) {
  REQUIRE_GPU();
  checkPrimitives("small", 4);
  checkPrimitives("small", 2);
  checkPrimitives("small", 0);
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

// --- CKKS operations
// ------------------------------------------------------------

void checkOperations(const std::string &set, const std::vector<int> &levels) {
  Context64 ctx = makeContext(set);
  cuda::DeviceContext dctx(ctx);
  Prng prng(seed(11));
  Evaluator eval(ctx);
  cuda::Evaluator geval(dctx);
  const double scale = std::ldexp(1.0, int(ctx.spec().log_scale));

  RelinKey rk{randomKey(ctx, prng)};
  GaloisKeys gk;
  const uint64_t rot1 = galoisElementForRotation(ctx, 1, ctx.slotsMax());
  const uint64_t conj = galoisElementForConjugation(ctx);
  gk.keys[rot1] = randomKey(ctx, prng);
  gk.keys[conj] = randomKey(ctx, prng);
  cuda::DeviceRelinKey drk = cuda::upload(dctx, rk);
  cuda::DeviceGaloisKeys dgk = cuda::upload(dctx, gk);

  for (int level : levels) {
    SCOPED_TRACE(ctx.describe() + " at level " + std::to_string(level));
    Ciphertext a = randomCiphertext(ctx, prng, level, scale);
    Ciphertext b = randomCiphertext(ctx, prng, level, scale);
    Plaintext pt;
    pt.poly = randomPoly(ctx, prng, ctx.qBasis(level), true);
    pt.level = level;
    pt.scale = scale;
    pt.slots = ctx.slotsMax();
    cuda::DeviceCiphertext da = cuda::upload(dctx, a),
                           db = cuda::upload(dctx, b);
    cuda::DevicePlaintext dp = cuda::upload(dctx, pt);
    auto dl = [&](const cuda::DeviceCiphertext &c) {
      return cuda::download(dctx, c);
    };
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
    Ciphertext prod = eval.multiply(a, b);
    cuda::DeviceCiphertext dprod = geval.multiply(da, db);
    EXPECT_EQ(diff(prod, dl(dprod)), "") << "multiply";
    Ciphertext a2 = a; // same scale as the product, for sub(deg 2, deg 1)
    a2.scale = prod.scale;
    cuda::DeviceCiphertext da2 = cuda::upload(dctx, a2);
    EXPECT_EQ(diff(eval.sub(prod, a2), dl(geval.sub(dprod, da2))), "")
        << "sub degree 2";
    EXPECT_EQ(
        diff(eval.relinearize(prod, rk), dl(geval.relinearize(dprod, drk))), "")
        << "relinearize";
    EXPECT_EQ(diff(eval.multiplyRelin(a, b, rk),
                   dl(geval.multiplyRelin(da, db, drk))),
              "")
        << "multiplyRelin";
    if (level >= 1)
      EXPECT_EQ(diff(eval.rescale(a), dl(geval.rescale(da))), "") << "rescale";
    EXPECT_EQ(
        diff(eval.modDropTo(a, level / 2), dl(geval.modDropTo(da, level / 2))),
        "")
        << "modDropTo";
    EXPECT_EQ(diff(eval.rotate(a, 1, gk), dl(geval.rotate(da, 1, dgk))), "")
        << "rotate";
    EXPECT_EQ(diff(eval.conjugate(a, gk), dl(geval.conjugate(da, dgk))), "")
        << "conjugate";
  }
  EXPECT_THROW(
      geval.rotate(cuda::upload(dctx, randomCiphertext(ctx, prng, 1, scale)), 2,
                   dgk),
      MissingKey);
}

TEST(CudaOperations, SmallN) {
  REQUIRE_GPU();
  checkOperations("small", {4, 2, 1, 0});
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

void checkDecrypt(const std::string &set) {
  Context64 ctx = makeContext(set);
  cuda::DeviceContext dctx(ctx);
  Prng prng(seed(3));
  KeyGenerator keygen(ctx, prng);
  PublicKey pk = keygen.publicKey();
  RelinKey rk = keygen.relinKey();
  const size_t slots = ctx.slotsMax();
  GaloisKeys gk = keygen.galoisKeys({galoisElementForRotation(ctx, 1, slots),
                                     galoisElementForConjugation(ctx)});
  Encoder encoder(ctx);
  Encryptor encryptor(ctx, prng);
  Decryptor decryptor(ctx, keygen.secretKey());
  Evaluator eval(ctx);
  cuda::Evaluator geval(dctx);
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
  const int top = ctx.maxLevel();
  Ciphertext cx = encryptor.encrypt(encoder.encode(x, top, scale, slots), pk);
  Ciphertext cy = encryptor.encrypt(encoder.encode(y, top, scale, slots), pk);
  cuda::DeviceCiphertext g = geval.conjugate(
      geval.rotate(geval.rescale(geval.multiplyRelin(
                       cuda::upload(dctx, cx), cuda::upload(dctx, cy), drk)),
                   1, dgk),
      dgk);
  Ciphertext got = cuda::download(dctx, g);
  Ciphertext ref = eval.conjugate(
      eval.rotate(eval.rescale(eval.multiplyRelin(cx, cy, rk)), 1, gk), gk);
  EXPECT_EQ(diff(ref, got), "");
  auto out = encoder.decode(decryptor.decrypt(got));
  double err = 0;
  for (size_t i = 0; i < slots; ++i)
    err = std::max(err, std::abs(out[i] - want[i]));
  EXPECT_LT(err, 1e-4) << ctx.describe();
  std::printf("[ decrypt  ] %s: max slot error %.3g after mul+relin, "
              "rescale, rotate, conjugate on the GPU\n",
              ctx.describe().c_str(), err);
}

TEST(CudaDecrypt, SmallN) {
  REQUIRE_GPU();
  checkDecrypt("small");
}
TEST(CudaDecrypt, SetCUnevenDigits) {
  REQUIRE_GPU();
  checkDecrypt("C");
}

} // namespace
} // namespace ember
