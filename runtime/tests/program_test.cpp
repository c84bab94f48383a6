// The plan interpreter's BGV side (Plan::plain_modulus != 0): the encoding
// of BGV constants and plaintext inputs against BasicBgvEncoder, and a
// hand-built plan (ciphertext times a constant and times a plaintext input,
// a t-corrected modulus switch) against modular arithmetic on the slots.
// Its BFV side (Plan::bfv_plain_modulus != 0): the two encodings against
// BasicBfvEncoder, and a hand-built plan (bfv_plan.h: the HPS tensor
// product, its relinearization, plaintext products and sums) against
// BfvEvaluator bit for bit and modular arithmetic on the slots.
#include "bfv_plan.h"
#include "ember/bfv.h"
#include "ember/bgv.h"
#include "ember/bgv_params.h"
#include "ember/errors.h"
#include "ember/program.h"
#include "test_util.h"

#include <gtest/gtest.h>

namespace ember {
namespace {

using program::BufferSpec;
using program::Step;
using program::StepKind;

constexpr uint64_t kT = 97; // prime, 1 (mod 2N) for N = 16

std::vector<double> randomIntegers(Prng &prng, size_t count) {
  std::vector<double> v(count);
  for (double &x : v) // signed and beyond t: the encoding takes them mod t
    x = static_cast<double>(static_cast<int64_t>(prng.uniform(4 * kT)) -
                            static_cast<int64_t>(2 * kT));
  return v;
}

std::vector<int64_t> asIntegers(const std::vector<double> &v) {
  return std::vector<int64_t>(v.begin(), v.end());
}

using PlainValues = std::vector<std::vector<std::complex<double>>>;
/// program::run of a plan on the CPU; its outputs.
std::vector<Ciphertext>
runPlan(const program::Plan<program::CpuKernel> &plan, const Context64 &ctx,
        const EvaluationKeys &keys, const std::vector<Ciphertext> &inputs,
        const program::ConstantData *data, const PlainValues &plain,
        program::ConstantCache<Poly64> *cache) {
  std::vector<Ciphertext> outputs;
  program::CpuArgs a;
  a.ctx = &ctx;
  a.keys = &keys;
  a.inputs = &inputs;
  a.outputs = &outputs;
  a.constants = cache;
  a.data = data;
  a.plain = &plain;
  program::run(a, plan);
  return outputs;
}

TEST(ProgramCkks, ConstantsOverQAndP) {
  // A weight of the compiler's ckks.hoisted_dot: encoded over Q_1 u P. Its
  // Q limbs are the encoding over Q_1; each P limb holds the same integer
  // coefficients (the centred residues mod q_0, exact: |c| < q_0 / 2).
  Context64 ctx = test::toyContext(4, {50, 40, 40}, {50, 45}, 2);
  Prng prng(Prng::Seed{12});
  program::ConstantData data;
  for (int i = 0; i < 16; ++i) // 8 complex slot values
    data.values.push_back(static_cast<double>(prng.uniform(2001)) / 1000 - 1);
  const double scale = 0x1p30;
  std::vector<int> qp = ctx.qBasis(1);
  for (int p : ctx.pBasis())
    qp.push_back(p);
  const Poly64 q = program::encodeConstant(ctx, &data, 0, 8, true, scale,
                                           ctx.qBasis(1), false, 0, 0);
  const Poly64 got =
      program::encodeConstant(ctx, &data, 0, 8, true, scale, qp, false, 0, 0);
  ASSERT_EQ(got.basis, qp);
  EXPECT_TRUE(std::equal(q.data.begin(), q.data.end(), got.data.begin()));
  const uint64_t q0 = ctx.primes()[0];
  int nonzero = 0;
  for (size_t j = q.basis.size(); j < qp.size(); ++j) {
    const uint64_t p = ctx.primes()[qp[j]];
    for (size_t k = 0; k < got.n; ++k) {
      const uint64_t r = q.limb(0)[k];
      const bool negative = r > q0 / 2;
      const uint64_t magnitude = negative ? q0 - r : r;
      const uint64_t want = negative ? (p - magnitude % p) % p : magnitude % p;
      EXPECT_EQ(got.limb(j)[k], want) << "limb " << j << ", coefficient " << k;
      nonzero += magnitude != 0;
    }
  }
  EXPECT_GT(nonzero, 0);
  // NTT form: the coefficient form transformed.
  Poly64 ntt =
      program::encodeConstant(ctx, &data, 0, 8, true, scale, qp, true, 0, 0);
  Poly64 coeff = got;
  cpu::ntt(ctx, coeff);
  EXPECT_EQ(ntt.data, coeff.data);
  // P before Q, or a gap in Q: refused.
  EXPECT_THROW(program::encodeConstant(ctx, &data, 0, 8, true, scale,
                                       {qp[2], 0, 1}, true, 0, 0),
               InvalidArgument);
  EXPECT_THROW(program::encodeConstant(ctx, &data, 0, 8, true, scale,
                                       {0, 2, qp[2]}, true, 0, 0),
               InvalidArgument);
}

TEST(ProgramBgv, EncodingIsTheEncodersAtTheBasisLevel) {
  Context64 ctx = test::toyContext(4, {30, 30, 30}, {30}, 3);
  BgvEncoder enc(ctx, kT);
  Prng prng(Prng::Seed{11});
  for (int level = 0; level <= ctx.maxLevel(); ++level)
    for (size_t slots : {size_t{8}, size_t{2}}) {
      const std::vector<double> v = randomIntegers(prng, slots);
      const uint64_t mu = 1 + prng.uniform(kT - 1);
      const Poly64 want = enc.encode(asIntegers(v), level, slots, mu).poly;
      const Poly64 got = program::encodeBgv(ctx, v, static_cast<double>(mu), kT,
                                            ctx.qBasis(level), true);
      EXPECT_EQ(got.basis, want.basis);
      EXPECT_TRUE(got.ntt);
      EXPECT_EQ(got.data, want.data) << "level " << level;
      // Coefficient form: the same polynomial.
      Poly64 coeff = program::encodeBgv(ctx, v, static_cast<double>(mu), kT,
                                        ctx.qBasis(level), false);
      EXPECT_FALSE(coeff.ntt);
      cpu::ntt(ctx, coeff);
      EXPECT_EQ(coeff.data, want.data);
      // From a data file, and as a plaintext input's (complex) values.
      program::ConstantData data;
      data.values = {0.5, 0.25}; // other constants' values before it
      data.values.insert(data.values.end(), v.begin(), v.end());
      EXPECT_EQ(program::encodeConstant(ctx, &data, 2, slots, false,
                                        static_cast<double>(mu),
                                        ctx.qBasis(level), true, kT)
                    .data,
                want.data);
      const std::vector<std::complex<double>> values(v.begin(), v.end());
      EXPECT_EQ(program::encodeValues(ctx, values, static_cast<double>(mu),
                                      ctx.qBasis(level), true, kT)
                    .data,
                want.data);
    }
}

TEST(ProgramBgv, RefusesWhatIsNotABgvPlaintext) {
  Context64 ctx = test::toyContext(4, {30, 30}, {30}, 2);
  const std::vector<int> q = ctx.qBasis(1);
  EXPECT_THROW(program::encodeBgv(ctx, {1.0, 2.5}, 1, kT, q, true),
               InvalidArgument); // not an integer
  EXPECT_THROW(program::encodeBgv(ctx, {1.0, 0x1p63}, 1, kT, q, true),
               InvalidArgument); // beyond int64
  EXPECT_THROW(program::encodeBgv(ctx, {1.0, std::nan("")}, 1, kT, q, true),
               InvalidArgument);
  EXPECT_THROW(program::encodeBgv(ctx, {1.0, 2.0}, 0, kT, q, true),
               InvalidArgument); // factor outside [1, t)
  EXPECT_THROW(program::encodeBgv(ctx, {1.0, 2.0}, 1.5, kT, q, true),
               InvalidArgument);
  EXPECT_THROW(program::encodeBgv(ctx, {1.0, 2.0}, double(kT), kT, q, true),
               InvalidArgument);
  EXPECT_THROW(program::encodeBgv(ctx, {1.0, 2.0}, 1, 67, q, true),
               InvalidArgument); // t does not batch
  EXPECT_THROW(program::encodeBgv(ctx, {1.0, 2.0}, 1, kT, {1}, true),
               InvalidArgument); // not a prefix of Q
  program::ConstantData data;
  data.values = {1, 0, 2, 0};
  EXPECT_THROW(program::encodeConstant(ctx, &data, 0, 2, true, 1, q, true, kT),
               InvalidArgument); // complex constants in a BGV program
  EXPECT_THROW(program::encodeValues(ctx, {{1, 0}, {2, 1}}, 1, q, true, kT),
               InvalidArgument); // an imaginary part
}

TEST(ProgramBgv, PlanMultipliesByConstantsAndSwitchesModulusModT) {
  // x * c (a constant of the data file, factor 5), switched down from q_2
  // to q_0..q_1; x * w (a plaintext input, factor 3) at the top level.
  Context64 ctx = test::toyContext(4, {30, 30, 30}, {30}, 3);
  test::kernelContext() = &ctx;
  Prng prng(Prng::Seed{12});
  KeyGenerator keygen(ctx, prng, kT);
  Encryptor encryptor(ctx, prng, kT);
  Decryptor decryptor(ctx, keygen.secretKey());
  BgvEncoder encoder(ctx, kT);
  const size_t slots = 8;
  const int top = ctx.maxLevel();
  const std::vector<double> x = randomIntegers(prng, slots);
  const std::vector<double> c = randomIntegers(prng, slots);
  const std::vector<double> w = randomIntegers(prng, slots);
  const uint64_t mu_c = 5, mu_w = 3;
  const double switched = static_cast<double>(
      bgv::switchedFactor(ctx, mu_c, top, kT)); // mu_c q_2^-1 mod t

  const int16_t L = static_cast<int16_t>(top + 1), below = L - 1;
  const BufferSpec buffers[] = {
      {0, L, 0, 0, 1, 0, 0, -1},     // 0, 1: x
      {0, L, 0, 0, 1, 0, 0, -1},     //
      {0, L, 0, 0, 1, 0, 0, -1},     // 2: c
      {0, L, 0, 0, 1, 0, 0, -1},     // 3, 4: x c
      {0, L, 0, 0, 1, 0, 0, -1},     //
      {0, below, 0, 0, 1, 0, 0, -1}, // 5, 6: x c switched down
      {0, below, 0, 0, 1, 0, 0, -1}, //
      {0, L, 0, 0, 1, 0, 0, -1},     // 7: w
      {0, L, 0, 0, 1, 0, 0, -1},     // 8, 9: x w
      {0, L, 0, 0, 1, 0, 0, -1},     //
  };
  const int32_t args[] = {
      0, 1,          // 0: input parts
      2,             // 2: constant
      0, 1, 2, 3, 4, // 3: launch in, 6: launch out
      3, 4, 5, 6,    // 8: switch in, 10: switch out
      5, 6, 1, 1,    // 12: output in, 14: movable
      7,             // 16: encoded w
      0, 1, 7, 8, 9, // 17: launch in, 20: launch out
      8, 9,          // 22: output in
  };
  const Step steps[] = {
      {StepKind::kInput, 0, 2, 0, 0, {0, top, int64_t(slots), 0}, 1.0, -1},
      {StepKind::kConstant, 2, 1, 0, 0, {0, 0, int64_t(slots), 0}, 5.0, -1},
      {StepKind::kPlainInput, 0, 0, 0, 0, {0, int64_t(slots), 0, 0}, 0, -1},
      {StepKind::kEncodeValues, 16, 1, 0, 0, {0, 0, 0, 0}, 3.0, -1},
      {StepKind::kLaunch, 6, 2, 3, 3, {0, 2, 0, 0}, 0, -1},
      {StepKind::kModSwitchDown, 10, 2, 8, 2, {0, 0, 0, 0}, 0, -1},
      {StepKind::kOutput,
       0,
       0,
       12,
       2,
       {top - 1, int64_t(slots), 14, 0},
       switched,
       -1},
      {StepKind::kLaunch, 20, 2, 17, 3, {0, 2, 0, 0}, 0, -1},
      {StepKind::kOutput,
       0,
       0,
       22,
       2,
       {top, int64_t(slots), 14, 0},
       double(mu_w),
       -1},
  };
  const program::CpuKernel kernels[] = {test::multiplyKernel};
  const char *input_names[] = {"x"};
  const char *plain_names[] = {"w"};
  const program::Plan<program::CpuKernel> plan{buffers,
                                               std::size(buffers),
                                               args,
                                               steps,
                                               std::size(steps),
                                               kernels,
                                               1,
                                               input_names,
                                               plain_names,
                                               0,
                                               kT};

  program::ConstantData data;
  data.values = c;
  const std::vector<Ciphertext> inputs = {encryptor.encrypt(
      encoder.encode(asIntegers(x), top, slots), keygen.publicKey())};
  const PlainValues plain = {
      std::vector<std::complex<double>>(w.begin(), w.end())};
  program::ConstantCache<Poly64> cache;
  const std::vector<Ciphertext> outputs =
      runPlan(plan, ctx, EvaluationKeys{}, inputs, &data, plain, &cache);
  ASSERT_EQ(outputs.size(), 2u);
  EXPECT_EQ(outputs[0].level, top - 1);
  EXPECT_EQ(outputs[0].scale, switched);
  EXPECT_EQ(outputs[1].level, top);
  const std::vector<uint64_t> xc =
      encoder.decode(decryptor.decrypt(outputs[0]));
  const std::vector<uint64_t> xw =
      encoder.decode(decryptor.decrypt(outputs[1]));
  for (size_t i = 0; i < slots; ++i) {
    const auto mod = [](double v) {
      const int64_t r = static_cast<int64_t>(v) % int64_t(kT);
      return static_cast<uint64_t>(r < 0 ? r + int64_t(kT) : r);
    };
    EXPECT_EQ(xc[i], mod(x[i]) * mod(c[i]) % kT) << i;
    EXPECT_EQ(xw[i], mod(x[i]) * mod(w[i]) % kT) << i;
  }
  EXPECT_GT(encoder.noiseBudget(decryptor.decrypt(outputs[0])), 0);
  test::kernelContext() = nullptr;
}

// --- BFV ---------------------------------------------------------------------

constexpr uint64_t kBfvT = 65537; // 1 (mod 2N) for N = 2^12

/// N = 2^12, Q = 3 x 60 bits, P = 60 bits, 3 digits (insecure: a test set).
Context64 bfvContext() { return test::toyContext(12, {60, 60, 60}, {60}, 3); }

/// Signed integers beyond t (the encodings take them mod t).
std::vector<double> randomBfvIntegers(Prng &prng, size_t count) {
  std::vector<double> v(count);
  for (double &x : v)
    x = static_cast<double>(static_cast<int64_t>(prng.uniform(4 * kBfvT)) -
                            static_cast<int64_t>(2 * kBfvT));
  return v;
}

uint64_t modT(double v) {
  const int64_t r = static_cast<int64_t>(v) % int64_t(kBfvT);
  return static_cast<uint64_t>(r < 0 ? r + int64_t(kBfvT) : r);
}

TEST(ProgramBfv, EncodingsAreTheEncoders) {
  Context64 ctx = bfvContext();
  BfvEncoder enc(ctx, kBfvT);
  Prng prng(Prng::Seed{21});
  const std::vector<int> q = ctx.qBasis(ctx.maxLevel());
  for (size_t slots : {ctx.slotsMax(), size_t{8}}) {
    const std::vector<double> v = randomBfvIntegers(prng, slots);
    for (bool multiplier : {true, false}) {
      const Poly64 want = multiplier
                              ? enc.encodeMultiplier(asIntegers(v), slots).poly
                              : enc.encode(asIntegers(v), slots).poly;
      const Poly64 got = program::encodeBfv(ctx, v, multiplier, kBfvT, q, true);
      EXPECT_EQ(got.basis, want.basis);
      EXPECT_TRUE(got.ntt);
      EXPECT_EQ(got.data, want.data) << "multiplier " << multiplier;
      Poly64 coeff = program::encodeBfv(ctx, v, multiplier, kBfvT, q, false);
      EXPECT_FALSE(coeff.ntt);
      cpu::ntt(ctx, coeff);
      EXPECT_EQ(coeff.data, want.data);
      // A plan's steps: scale 1 is the multiplier form, any other (Delta)
      // the Delta m form; from the data file and as a plaintext input.
      const double scale = multiplier ? 1.0 : enc.delta();
      program::ConstantData data;
      data.values = {0.5, 0.25}; // other constants' values before it
      data.values.insert(data.values.end(), v.begin(), v.end());
      EXPECT_EQ(program::encodeConstant(ctx, &data, 2, slots, false, scale, q,
                                        true, 0, kBfvT)
                    .data,
                want.data);
      const std::vector<std::complex<double>> values(v.begin(), v.end());
      EXPECT_EQ(
          program::encodeValues(ctx, values, scale, q, true, 0, kBfvT).data,
          want.data);
    }
  }
  // The scale a BFV program's inputs are checked against: the compiler's
  // Delta is the encoder's, exactly.
  std::vector<uint64_t> primes(ctx.primes().begin(),
                               ctx.primes().begin() + ctx.qCount());
  EXPECT_EQ(bgv::bfvDelta(primes, kBfvT), enc.delta());
}

TEST(ProgramBfv, RefusesWhatIsNotABfvPlaintext) {
  Context64 ctx = bfvContext();
  const std::vector<int> q = ctx.qBasis(ctx.maxLevel());
  EXPECT_THROW(program::encodeBfv(ctx, {1.0, 2.5}, true, kBfvT, q, true),
               InvalidArgument); // not an integer
  EXPECT_THROW(program::encodeBfv(ctx, {1.0, 0x1p63}, false, kBfvT, q, true),
               InvalidArgument); // beyond int64
  EXPECT_THROW(
      program::encodeBfv(ctx, {1.0, std::nan("")}, false, kBfvT, q, true),
      InvalidArgument);
  EXPECT_THROW(program::encodeBfv(ctx, {1.0, 2.0}, true, 67, q, true),
               InvalidArgument); // t does not batch
  // Only over the full Q: not a lower level, not with P.
  EXPECT_THROW(program::encodeBfv(ctx, {1.0, 2.0}, true, kBfvT,
                                  ctx.qBasis(ctx.maxLevel() - 1), true),
               InvalidArgument);
  EXPECT_THROW(program::encodeBfv(ctx, {1.0, 2.0}, false, kBfvT,
                                  ctx.qpBasis(ctx.maxLevel()), true),
               InvalidArgument);
  program::ConstantData data;
  data.values = {1, 0, 2, 0};
  EXPECT_THROW(
      program::encodeConstant(ctx, &data, 0, 2, true, 1, q, true, 0, kBfvT),
      InvalidArgument); // complex constants in a BFV program
  data.values = {1, 2.5};
  EXPECT_THROW(
      program::encodeConstant(ctx, &data, 0, 2, false, 1, q, true, 0, kBfvT),
      InvalidArgument);
  EXPECT_THROW(
      program::encodeValues(ctx, {{1, 0}, {2, 1}}, 1, q, true, 0, kBfvT),
      InvalidArgument); // an imaginary part
  EXPECT_THROW(
      program::encodeValues(ctx, {{1, 0}, {2.5, 0}}, 3, q, true, 0, kBfvT),
      InvalidArgument); // not an integer
  // 32-bit words: BFV is 64-bit only.
  Context32 ctx32(test::toyContext(12, {30, 30}, {30}, 2).spec());
  EXPECT_THROW(program::encodeBfv(ctx32, {1.0, 2.0}, true, kBfvT,
                                  ctx32.qBasis(ctx32.maxLevel()), true),
               InvalidArgument);
}

void expectSameCiphertext(const Ciphertext &got, const Ciphertext &want,
                          const char *what) {
  EXPECT_EQ(got.level, want.level) << what;
  EXPECT_EQ(got.scale, want.scale) << what;
  ASSERT_EQ(got.c.size(), want.c.size()) << what;
  for (size_t j = 0; j < want.c.size(); ++j) {
    EXPECT_EQ(got.c[j].basis, want.c[j].basis) << what << ", part " << j;
    EXPECT_TRUE(got.c[j].ntt) << what << ", part " << j;
    EXPECT_TRUE(got.c[j].data == want.c[j].data)
        << what << ": part " << j << " differs from BfvEvaluator's";
  }
}

TEST(ProgramBfv, PlanMultipliesRelinearizesAndEncodesAsTheEvaluator) {
  Context64 ctx = bfvContext();
  test::kernelContext() = &ctx;
  Prng prng(Prng::Seed{22});
  KeyGenerator keygen(ctx, prng); // BFV keys: error factor 1
  Encryptor encryptor(ctx, prng);
  Decryptor decryptor(ctx, keygen.secretKey());
  BfvEvaluator eval(ctx, kBfvT);
  const BfvEncoder &encoder = eval.encoder();
  const size_t slots = 64;
  const int top = ctx.maxLevel();
  const test::BfvPlan bfv =
      test::makeBfvPlan(top + 1, ctx.pCount(), ctx.digitCount(top),
                        int64_t(slots), encoder.delta(), kBfvT);
  const program::CpuKernel kernels[] = {test::multiplyKernel, test::addKernel};
  const program::Plan<program::CpuKernel> plan = bfv.plan(kernels);

  const std::vector<double> x = randomBfvIntegers(prng, slots);
  const std::vector<double> c0 = randomBfvIntegers(prng, slots);
  const std::vector<double> c1 = randomBfvIntegers(prng, slots);
  program::ConstantData data;
  data.values = c0;
  data.values.insert(data.values.end(), c1.begin(), c1.end());
  const std::vector<Ciphertext> inputs = {encryptor.encrypt(
      encoder.encode(asIntegers(x), slots), keygen.publicKey())};
  ASSERT_EQ(inputs[0].scale, encoder.delta());
  EvaluationKeys keys;
  keys.has_relin = true;
  keys.relin = keygen.relinKey();
  program::ConstantCache<Poly64> cache;

  // Two runs (the second with the constants cached, another w).
  for (int run = 0; run < 2; ++run) {
    const std::vector<double> w = randomBfvIntegers(prng, slots);
    const PlainValues plain = {
        std::vector<std::complex<double>>(w.begin(), w.end())};
    const std::vector<Ciphertext> outputs =
        runPlan(plan, ctx, keys, inputs, &data, plain, &cache);
    ASSERT_EQ(outputs.size(), 4u);

    // Bit for bit the hand-written evaluator's results.
    const Ciphertext &ct = inputs[0];
    const Ciphertext tensor = eval.multiply(ct, ct);
    expectSameCiphertext(outputs[0], tensor, "tensor");
    expectSameCiphertext(outputs[1],
                         eval.addPlain(eval.relinearize(tensor, keys.relin),
                                       encoder.encode(asIntegers(c0), slots)),
                         "relinearized + c0");
    expectSameCiphertext(
        outputs[2],
        eval.mulPlain(ct, encoder.encodeMultiplier(asIntegers(w), slots)),
        "x * w");
    expectSameCiphertext(
        outputs[3],
        eval.addPlain(
            eval.mulPlain(ct, encoder.encodeMultiplier(asIntegers(c1), slots)),
            encoder.encode(asIntegers(w), slots)),
        "x * c1 + w");

    // And the slots' modular arithmetic (the tensor decrypts with s^2).
    std::vector<std::vector<uint64_t>> got;
    for (const Ciphertext &out : outputs) {
      got.push_back(encoder.decode(decryptor.decrypt(out)));
      EXPECT_GT(encoder.noiseBudget(decryptor.decrypt(out)), 0);
      EXPECT_EQ(out.slots, slots);
    }
    for (size_t i = 0; i < slots; ++i) {
      const uint64_t xx = modT(x[i]) * modT(x[i]) % kBfvT;
      EXPECT_EQ(got[0][i], xx) << i;
      EXPECT_EQ(got[1][i], (xx + modT(c0[i])) % kBfvT) << i;
      EXPECT_EQ(got[2][i], modT(x[i]) * modT(w[i]) % kBfvT) << i;
      EXPECT_EQ(got[3][i], (modT(x[i]) * modT(c1[i]) + modT(w[i])) % kBfvT)
          << i;
    }
  }
  test::kernelContext() = nullptr;
}

TEST(ProgramBfv, PlanRefusesWhatIsNotBfv) {
  Context64 ctx = bfvContext();
  test::kernelContext() = &ctx;
  Prng prng(Prng::Seed{23});
  KeyGenerator keygen(ctx, prng);
  Encryptor encryptor(ctx, prng);
  BfvEncoder encoder(ctx, kBfvT);
  const size_t slots = 8;
  const int top = ctx.maxLevel();
  const program::CpuKernel kernels[] = {test::multiplyKernel, test::addKernel};
  const std::vector<Ciphertext> inputs = {
      encryptor.encrypt(encoder.encode(std::vector<int64_t>(slots, 3), slots),
                        keygen.publicKey())};
  EvaluationKeys keys;
  keys.has_relin = true;
  keys.relin = keygen.relinKey();
  program::ConstantData data;
  data.values.assign(2 * slots, 1.0);
  auto run = [&](const test::BfvPlan &bfv,
                 const std::vector<std::complex<double>> &w) {
    runPlan(bfv.plan(kernels), ctx, keys, inputs, &data, {w}, nullptr);
  };
  const std::vector<std::complex<double>> w(slots, 2.0);
  test::BfvPlan good =
      test::makeBfvPlan(top + 1, ctx.pCount(), ctx.digitCount(top),
                        int64_t(slots), encoder.delta(), kBfvT);
  EXPECT_NO_THROW(run(good, w));
  // A complex or non-integer plaintext input.
  std::vector<std::complex<double>> bad = w;
  bad[3] = {2.0, 0.5};
  EXPECT_THROW(run(good, bad), InvalidArgument);
  bad[3] = 2.25;
  EXPECT_THROW(run(good, bad), InvalidArgument);
  // A constant encoded below the full Q (buffer 4 is c0).
  test::BfvPlan low = good;
  low.buffers[4].q_hi = static_cast<int16_t>(top);
  EXPECT_THROW(run(low, w), InvalidArgument);
  // kBfvTensor outside a BFV program, or on a buffer not in NTT form.
  auto tensorError = [&](uint64_t t, uint8_t ntt) -> std::string {
    test::BfvPlan p;
    p.t = t;
    const int16_t L = static_cast<int16_t>(top + 1);
    for (int b = 0; b < 5; ++b)
      p.buffers.push_back({0, L, 0, 0, uint8_t(b == 2 ? ntt : 1), 0, 0, -1});
    p.step(program::StepKind::kInput, {0, 1}, {}, {0, top, int64_t(slots), 0},
           encoder.delta());
    p.step(program::StepKind::kBfvTensor, {2, 3, 4}, {0, 1, 0, 1},
           {0, 0, 0, 0});
    try {
      run(p, w);
    } catch (const Error &e) {
      return e.what();
    }
    return "";
  };
  EXPECT_NE(tensorError(0, 1).find("not BFV"), std::string::npos);
  EXPECT_NE(tensorError(kBfvT, 0).find("NTT form"), std::string::npos);
  EXPECT_EQ(tensorError(kBfvT, 1), "");
  test::kernelContext() = nullptr;
}

} // namespace
} // namespace ember
