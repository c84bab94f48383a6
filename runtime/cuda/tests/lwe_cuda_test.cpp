// FHEW/TFHE on the GPU (ember/lwe_cuda.h) against the CPU Evaluator: the
// same keys and inputs give the same output words, and the outputs decrypt
// to each gate's truth table and each lookup table's entries.

#include "ember/errors.h"
#include "ember/lwe.h"
#include "ember/lwe_cuda.h"

#include <gtest/gtest.h>

namespace ember::lwe {
namespace {

struct Fixture {
  explicit Fixture(const std::string &name)
      : sk(Params::named(name), prng), ek(sk, prng), cpu(ek), gpu(ek) {}
  Prng prng;
  SecretKey sk;
  EvaluationKeys ek;
  Evaluator cpu;
  cuda::DeviceEvaluator gpu;
};

void expectSame(const Ciphertext &cpu, const Ciphertext &gpu, size_t i) {
  ASSERT_EQ(cpu.modulus, gpu.modulus) << i;
  ASSERT_EQ(cpu.a, gpu.a) << "ciphertext " << i;
  ASSERT_EQ(cpu.b, gpu.b) << "ciphertext " << i;
}

void gatesMatch(const std::string &name, size_t count) {
  Fixture f(name);
  const struct {
    Gate g;
    int table[4];
  } gates[] = {{Gate::And, {0, 0, 0, 1}},  {Gate::Or, {0, 1, 1, 1}},
               {Gate::Nand, {1, 1, 1, 0}}, {Gate::Nor, {1, 0, 0, 0}},
               {Gate::Xor, {0, 1, 1, 0}},  {Gate::Xnor, {1, 0, 0, 1}}};
  for (const auto &g : gates) {
    std::vector<Ciphertext> a, b;
    std::vector<int> in;
    for (size_t i = 0; i < count; ++i) {
      const int bits = int(f.prng.uniform(4));
      in.push_back(bits);
      a.push_back(f.sk.encrypt(bits >> 1, 4, f.prng));
      b.push_back(f.sk.encrypt(bits & 1, 4, f.prng));
    }
    const std::vector<Ciphertext> out = f.gpu.gate(g.g, a, b);
    ASSERT_EQ(out.size(), count);
    for (size_t i = 0; i < count; ++i) {
      ASSERT_EQ(int(f.sk.decrypt(out[i], 4)), g.table[in[i]])
          << name << " " << gateName(g.g) << " input " << in[i];
      if (i < 8)
        expectSame(f.cpu.gate(g.g, a[i], b[i]), out[i], i);
    }
  }
}

TEST(CudaTfhe, GatesMatchTheCpuToy) { gatesMatch("TOY", 64); }

TEST(CudaTfhe, GatesMatchTheCpuStd128) { gatesMatch("STD128", 256); }

TEST(CudaTfhe, BootstrapAndLookupTablesMatchTheCpu) {
  Fixture f("STD128");
  std::vector<Ciphertext> bits;
  for (int i = 0; i < 64; ++i)
    bits.push_back(f.sk.encrypt(i & 1, 4, f.prng));
  const std::vector<Ciphertext> fresh = f.gpu.bootstrap(bits);
  for (size_t i = 0; i < bits.size(); ++i) {
    ASSERT_EQ(f.sk.decrypt(fresh[i], 4), i & 1);
    if (i < 4)
      expectSame(f.cpu.bootstrap(bits[i]), fresh[i], i);
  }
  const std::vector<uint32_t> table = {3, 0, 2, 1};
  std::vector<Ciphertext> in;
  for (uint32_t i = 0; i < 64; ++i)
    in.push_back(f.sk.encrypt(i % 4, 8, f.prng));
  const std::vector<Ciphertext> out = f.gpu.lut(in, table);
  for (size_t i = 0; i < in.size(); ++i) {
    ASSERT_EQ(f.sk.decrypt(out[i], 8), table[i % 4]) << i;
    if (i < 4)
      expectSame(f.cpu.lut(in[i], table), out[i], i);
  }
  EXPECT_THROW(f.gpu.lut(in, {0, 1, 2}), InvalidArgument);
}

TEST(CudaTfhe, RefusesMismatchedInputs) {
  Fixture f("TOY");
  std::vector<Ciphertext> a = {f.sk.encrypt(1, 4, f.prng)};
  std::vector<Ciphertext> b = a;
  b[0].a.pop_back();
  EXPECT_THROW(f.gpu.gate(Gate::And, a, b), InvalidArgument);
  EXPECT_THROW(f.gpu.gate(Gate::And, a, {}), InvalidArgument);
}

} // namespace
} // namespace ember::lwe
