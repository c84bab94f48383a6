// A hand-written BFV plan (Plan::bfv_plain_modulus = t), shared by the CPU
// test (runtime/tests/program_test.cpp: against BfvEvaluator and modular
// arithmetic) and the GPU test (runtime/cuda/tests/bgv_cuda_test.cpp:
// against the CPU's residues). Input x (a ciphertext at the full Q, scale
// Delta), plaintext input w, constants c0 (Delta m form) and c1 (the
// multiplier form, scale 1). Outputs, each at the full Q and scale Delta:
//   0: the HPS tensor product x * x (kBfvTensor, 3 parts);
//   1: x * x relinearized as the compiler emits it (kLoadKey, kModUp of
//      d2, kKsInnerProduct, kModSwitchDown to Q with d0, d1 as lifted
//      addends: CKKS's key switch), plus c0 (kernel 1);
//   2: x * w, w encoded at scale 1 (kernel 0);
//   3: x * c1 + w, w encoded at scale Delta (kernels 0 and 1).
// Kernel 0: out[j] = in[j] * in[2] (j = 0, 1); kernel 1: out[0] = in[0] +
// in[2], out[1] = in[1]; both over the loop's Q limbs (the CPU forms below;
// the GPU test has its own).
#pragma once

#include "ember/ckks.h"
#include "ember/program_plan.h"

#include <array>
#include <cstdint>
#include <initializer_list>
#include <vector>

namespace ember::test {

/// The context the CPU kernels below read their moduli from (set it before
/// a run).
inline const Context64 *&kernelContext() {
  static const Context64 *ctx = nullptr;
  return ctx;
}
/// Kernel 0 on the CPU: out[j] = in[j] * in[2] (j = 0, 1).
inline void multiplyKernel(const program::KernelLoop &loop,
                           const program::KernelIO &io) {
  const Context64 &ctx = *kernelContext();
  const size_t n = ctx.n();
  for (int j = 0; j < 2; ++j) {
    const auto *a = static_cast<const uint64_t *>(io.in[j]);
    const auto *b = static_cast<const uint64_t *>(io.in[2]);
    auto *out = static_cast<uint64_t *>(io.out[j]);
    for (int i = 0; i < loop.q_count; ++i) {
      const Modulus<uint64_t> &q = ctx.modulus(loop.q_lo + i);
      for (size_t k = 0; k < n; ++k)
        out[i * n + k] = q.mul(a[i * n + k], b[i * n + k]);
    }
  }
}
/// Kernel 1 on the CPU: out[0] = in[0] + in[2], out[1] = in[1].
inline void addKernel(const program::KernelLoop &loop,
                      const program::KernelIO &io) {
  const Context64 &ctx = *kernelContext();
  const size_t n = ctx.n();
  const auto *a0 = static_cast<const uint64_t *>(io.in[0]);
  const auto *a1 = static_cast<const uint64_t *>(io.in[1]);
  const auto *b = static_cast<const uint64_t *>(io.in[2]);
  auto *out0 = static_cast<uint64_t *>(io.out[0]);
  auto *out1 = static_cast<uint64_t *>(io.out[1]);
  for (int i = 0; i < loop.q_count; ++i) {
    const Modulus<uint64_t> &q = ctx.modulus(loop.q_lo + i);
    for (size_t k = 0; k < n; ++k) {
      out0[i * n + k] = q.add(a0[i * n + k], b[i * n + k]);
      out1[i * n + k] = a1[i * n + k];
    }
  }
}

struct BfvPlan {
  std::vector<program::BufferSpec> buffers;
  std::vector<int32_t> args;
  std::vector<program::Step> steps;
  uint64_t t = 0;
  const char *input_names[1] = {"x"};
  const char *plain_names[1] = {"w"};

  /// The plan's tables with these kernels (kernel 0 and kernel 1 above).
  template <typename Kernel>
  program::Plan<Kernel> plan(const Kernel *kernels) const {
    return {buffers.data(),
            buffers.size(),
            args.data(),
            steps.data(),
            steps.size(),
            kernels,
            2,
            input_names,
            plain_names,
            0,
            0,
            t};
  }

  /// An argument list; returns its offset.
  int32_t list(std::initializer_list<int32_t> v) {
    const int32_t at = static_cast<int32_t>(args.size());
    args.insert(args.end(), v);
    return at;
  }
  void step(program::StepKind kind, std::initializer_list<int32_t> out,
            std::initializer_list<int32_t> in, std::array<int64_t, 4> imm,
            double scale = 0) {
    const int32_t o = list(out), i = list(in);
    steps.push_back({kind,
                     o,
                     static_cast<int32_t>(out.size()),
                     i,
                     static_cast<int32_t>(in.size()),
                     {imm[0], imm[1], imm[2], imm[3]},
                     scale,
                     -1});
  }
};

/// The plan over a context of q_limbs Q primes (level q_limbs - 1) and
/// p_limbs special primes whose relinearization key has `digits` digits,
/// for `slots` slots; delta: BasicBfvEncoder::delta().
inline BfvPlan makeBfvPlan(int q_limbs, int p_limbs, int digits, int64_t slots,
                           double delta, uint64_t t) {
  using program::StepKind;
  BfvPlan p;
  p.t = t;
  const int16_t L = static_cast<int16_t>(q_limbs);
  const int16_t K = static_cast<int16_t>(p_limbs);
  const int64_t top = q_limbs - 1;
  auto buffer = [&](int16_t p_hi, uint8_t key = 0) {
    p.buffers.push_back(
        {0, key ? int16_t(0) : L, 0, p_hi, uint8_t(!key), 0, key, -1});
    return static_cast<int32_t>(p.buffers.size() - 1);
  };
  auto q = [&] { return buffer(0); };
  const int32_t x0 = q(), x1 = q(), w_mul = q(), w_delta = q(), c0 = q(),
                c1 = q();
  p.step(StepKind::kInput, {x0, x1}, {}, {0, top, slots, 0}, delta);
  p.step(StepKind::kConstant, {c0}, {}, {0, 0, slots, 0}, delta);
  p.step(StepKind::kConstant, {c1}, {}, {1, slots, slots, 0}, 1.0);
  p.step(StepKind::kPlainInput, {}, {}, {0, slots, 0, 0});
  p.step(StepKind::kEncodeValues, {w_mul}, {}, {0, 0, 0, 0}, 1.0);
  p.step(StepKind::kEncodeValues, {w_delta}, {}, {0, 0, 0, 0}, delta);
  // 0: the tensor product.
  const int32_t d0 = q(), d1 = q(), d2 = q();
  p.step(StepKind::kBfvTensor, {d0, d1, d2}, {x0, x1, x0, x1}, {0, 0, 0, 0});
  const int32_t copy3 = p.list({0, 0, 0}); // read again below: not moved
  p.step(StepKind::kOutput, {}, {d0, d1, d2}, {top, slots, copy3, 0}, delta);
  // 1: relinearized, plus c0.
  const int32_t key = buffer(0, 1);
  p.step(StepKind::kLoadKey, {key}, {}, {0, 0, 0, 0});
  std::vector<int32_t> ups, digit_ids;
  for (int j = 0; j < digits; ++j) {
    ups.push_back(buffer(K));
    digit_ids.push_back(j);
  }
  auto append = [&](const std::vector<int32_t> &v) {
    const int32_t at = static_cast<int32_t>(p.args.size());
    p.args.insert(p.args.end(), v.begin(), v.end());
    return at;
  };
  const int32_t d2_at = p.list({d2});
  p.steps.push_back({StepKind::kModUp,
                     append(ups),
                     digits,
                     d2_at,
                     1,
                     {append(digit_ids), 0, 0, 0},
                     0,
                     -1});
  const int32_t acc0 = buffer(K), acc1 = buffer(K);
  std::vector<int32_t> ip_in = {key};
  ip_in.insert(ip_in.end(), ups.begin(), ups.end());
  const int32_t acc_at = p.list({acc0, acc1});
  p.steps.push_back({StepKind::kKsInnerProduct,
                     acc_at,
                     2,
                     append(ip_in),
                     1 + digits,
                     {0, 0, 0, 0},
                     0,
                     -1});
  const int32_t r0 = q(), r1 = q();
  p.step(StepKind::kModSwitchDown, {r0, r1}, {acc0, acc1, d0, d1},
         {0, 0, 0, 0});
  const int32_t s0 = q(), s1 = q();
  p.step(StepKind::kLaunch, {s0, s1}, {r0, r1, c0}, {1, x0, 0, 0});
  const int32_t keep2 = p.list({1, 1});
  p.step(StepKind::kOutput, {}, {s0, s1}, {top, slots, keep2, 0}, delta);
  // 2: x * w.
  const int32_t m0 = q(), m1 = q();
  p.step(StepKind::kLaunch, {m0, m1}, {x0, x1, w_mul}, {0, x0, 0, 0});
  p.step(StepKind::kOutput, {}, {m0, m1}, {top, slots, keep2, 0}, delta);
  // 3: x * c1 + w.
  const int32_t n0 = q(), n1 = q(), a0 = q(), a1 = q();
  p.step(StepKind::kLaunch, {n0, n1}, {x0, x1, c1}, {0, x0, 0, 0});
  p.step(StepKind::kLaunch, {a0, a1}, {n0, n1, w_delta}, {1, x0, 0, 0});
  p.step(StepKind::kOutput, {}, {a0, a1}, {top, slots, keep2, 0}, delta);
  return p;
}

} // namespace ember::test
