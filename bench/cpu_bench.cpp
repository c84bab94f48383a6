// CPU timings of the CKKS operations at a named parameter set, as the median
// of repeated runs, for bench/RESULTS.md; cheddar32 runs at 32-bit words.
//   ember_cpu_bench [SET=B] [RUNS=5]
#include "ember/ckks.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {
double medianMs(int runs, const std::function<void()> &op) {
  op(); // warm-up
  std::vector<double> times;
  for (int i = 0; i < runs; ++i) {
    auto start = std::chrono::steady_clock::now();
    op();
    auto stop = std::chrono::steady_clock::now();
    times.push_back(
        std::chrono::duration<double, std::milli>(stop - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}
} // namespace

/// The operations at the context's word (cheddar32: 32-bit words with
/// double-prime scaling; the other sets 64-bit).
template <typename Word>
void benchSet(const std::string &set, const ember::ParamSpec &spec, int runs) {
  using namespace ember;
  const Context<Word> ctx(spec);
  Prng prng;
  BasicKeyGenerator<Word> keygen(ctx, prng);
  BasicRelinKey<Word> rk = keygen.relinKey();
  BasicGaloisKeys<Word> gk =
      keygen.galoisKeys({galoisElementForRotation(ctx, 1, ctx.slotsMax())});
  BasicEncoder<Word> encoder(ctx);
  BasicEncryptor<Word> encryptor(ctx, prng);
  BasicEvaluator<Word> eval(ctx);
  std::vector<double> values(ctx.slotsMax());
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = std::sin(0.001 * static_cast<double>(i));
  const double scale = std::ldexp(1.0, static_cast<int>(spec.log_scale));

  std::printf("set %s: %s, %zu-bit words, %d runs (median), CPU\n", set.c_str(),
              ctx.describe().c_str(), 8 * sizeof(Word), runs);
  std::printf("%-8s %-12s %10s %10s %10s %10s\n", "level", "limbs",
              "hmul+relin", "hrot", "rescale", "add");
  // cheddar32 at 23 limbs (level 22), like the GPU benchmark; else half.
  const int half = set == "cheddar32" ? 22 : ctx.maxLevel() / 2;
  for (int level : {ctx.maxLevel(), half}) {
    BasicCiphertext<Word> ct = encryptor.encryptSymmetric(
        encoder.encode(values, level, scale, ctx.slotsMax()),
        keygen.secretKey());
    BasicCiphertext<Word> product = eval.multiply(ct, ct);
    double t_mul = medianMs(runs, [&] { eval.multiplyRelin(ct, ct, rk); });
    double t_rot = medianMs(runs, [&] { eval.rotate(ct, 1, gk); });
    BasicCiphertext<Word> relin = eval.relinearize(product, rk);
    double t_rescale = medianMs(runs, [&] { eval.rescale(relin); });
    double t_add = medianMs(runs, [&] { eval.add(ct, ct); });
    std::printf("%-8d %-12d %8.1fms %8.1fms %8.1fms %8.1fms\n", level,
                level + 1, t_mul, t_rot, t_rescale, t_add);
  }
}

int main(int argc, char **argv) {
  using namespace ember;
  const std::string set = argc > 1 ? argv[1] : "B";
  const int runs = argc > 2 ? std::atoi(argv[2]) : 5;
  ParamSpec spec;
  if (!namedParamSpec(set, spec)) {
    std::fprintf(stderr, "unknown parameter set '%s' (A, B, C, cheddar32)\n",
                 set.c_str());
    return 2;
  }
  if (set == "cheddar32")
    benchSet<uint32_t>(set, spec, runs);
  else
    benchSet<uint64_t>(set, spec, runs);
  return 0;
}
