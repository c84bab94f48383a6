// The plan interpreter's BGV side (Plan::plain_modulus != 0): the encoding
// of BGV constants and plaintext inputs against BasicBgvEncoder, and a
// hand-built plan (ciphertext times a constant and times a plaintext input,
// a t-corrected modulus switch) against modular arithmetic on the slots.
#include "ember/bgv.h"
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

/// The generated kernel of the plan below: out[j] = in[j] * in[2] (j = 0,
/// 1) over the loop's Q limbs.
const Context64 *g_ctx = nullptr;
void multiplyKernel(const program::KernelLoop &loop,
                    const program::KernelIO &io) {
  const size_t n = g_ctx->n();
  for (int j = 0; j < 2; ++j) {
    const auto *a = static_cast<const uint64_t *>(io.in[j]);
    const auto *b = static_cast<const uint64_t *>(io.in[2]);
    auto *out = static_cast<uint64_t *>(io.out[j]);
    for (int i = 0; i < loop.q_count; ++i) {
      const Modulus<uint64_t> &q = g_ctx->modulus(loop.q_lo + i);
      for (size_t k = 0; k < n; ++k)
        out[i * n + k] = q.mul(a[i * n + k], b[i * n + k]);
    }
  }
}

TEST(ProgramBgv, PlanMultipliesByConstantsAndSwitchesModulusModT) {
  // x * c (a constant of the data file, factor 5), switched down from q_2
  // to q_0..q_1; x * w (a plaintext input, factor 3) at the top level.
  Context64 ctx = test::toyContext(4, {30, 30, 30}, {30}, 3);
  g_ctx = &ctx;
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
  const program::CpuKernel kernels[] = {multiplyKernel};
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
  const std::vector<std::vector<std::complex<double>>> plain = {
      std::vector<std::complex<double>>(w.begin(), w.end())};
  std::vector<Ciphertext> outputs;
  program::ConstantCache<Poly64> cache;
  EvaluationKeys keys;
  program::CpuArgs a;
  a.ctx = &ctx;
  a.keys = &keys;
  a.inputs = &inputs;
  a.outputs = &outputs;
  a.constants = &cache;
  a.data = &data;
  a.plain = &plain;
  program::run(a, plan);
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
  g_ctx = nullptr;
}

} // namespace
} // namespace ember
