// FHEW/TFHE on the GPU (ember/lwe_cuda.h) against the CPU Evaluator: the
// same keys and inputs give the same output words, and the outputs decrypt
// to each gate's truth table and each lookup table's entries.

#include "ember/errors.h"
#include "ember/lwe.h"
#include "ember/lwe_cuda.h"

#include <gtest/gtest.h>

#include <cstdlib>

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

/// Every kernel path (the thread-block cluster, one 1024-thread block and
/// 256-thread blocks per ciphertext; the key switch whole or split over
/// slices) gives the CPU's words, at each set's row count: TOY 4 rows on a
/// cluster of 4, STD128 6 on 6, STD128Q 12 on 6 (two rows of one part per
/// block) and on 12, and STD128 on 3 blocks (EMBER_TFHE_CLUSTER_BLOCKS=3: the
/// generic kernel, two rows of both parts per block). STD128 and STD128Q
/// take the fast path (UnitNtt), also checked off
/// (EMBER_TFHE_CLUSTER_FAST=0).
void kernelPathsMatch(const std::string &name, int cluster,
                      const char *most = nullptr, const char *fast = nullptr) {
  Prng prng;
  SecretKey sk(Params::named(name), prng);
  EvaluationKeys ek(sk, prng);
  Evaluator cpu(ek);
  std::vector<Ciphertext> a, b;
  std::vector<int> in;
  for (int i = 0; i < 24; ++i) {
    in.push_back(int(prng.uniform(4)));
    a.push_back(sk.encrypt(in.back() >> 1, 4, prng));
    b.push_back(sk.encrypt(in.back() & 1, 4, prng));
  }
  std::vector<Ciphertext> want;
  for (size_t i = 0; i < a.size(); ++i)
    want.push_back(cpu.gate(Gate::Nand, a[i], b[i]));
  for (const char *jobs : {"100000", "0"}) {
    ASSERT_EQ(setenv("EMBER_TFHE_CLUSTER_JOBS", jobs, 1), 0);
    if (most)
      ASSERT_EQ(setenv("EMBER_TFHE_CLUSTER_BLOCKS", most, 1), 0);
    if (fast)
      ASSERT_EQ(setenv("EMBER_TFHE_CLUSTER_FAST", fast, 1), 0);
    cuda::DeviceEvaluator gpu(ek);
    unsetenv("EMBER_TFHE_CLUSTER_JOBS");
    unsetenv("EMBER_TFHE_CLUSTER_BLOCKS");
    unsetenv("EMBER_TFHE_CLUSTER_FAST");
    EXPECT_EQ(gpu.clusterBlocks(), jobs[0] == '0' ? 0 : cluster) << name;
    for (size_t count : {size_t(1), size_t(3), a.size()}) {
      const std::vector<Ciphertext> sa(a.begin(), a.begin() + count),
          sb(b.begin(), b.begin() + count);
      const std::vector<Ciphertext> out = gpu.gate(Gate::Nand, sa, sb);
      ASSERT_EQ(out.size(), count);
      for (size_t i = 0; i < count; ++i) {
        expectSame(want[i], out[i], i);
        EXPECT_EQ(int(sk.decrypt(out[i], 4)), 1 - ((in[i] >> 1) & in[i]));
      }
    }
  }
}

TEST(CudaTfhe, KernelPathsMatchTheCpuToy) { kernelPathsMatch("TOY", 4); }
TEST(CudaTfhe, KernelPathsMatchTheCpuStd128) { kernelPathsMatch("STD128", 6); }
TEST(CudaTfhe, KernelPathsMatchTheCpuStd128Q) {
  kernelPathsMatch("STD128Q", 6); // 12 rows on 6 blocks of two rows each
}
TEST(CudaTfhe, KernelPathsMatchTheCpuStd128QOnTwelveBlocks) {
  // A cluster beyond the portable 8 (EMBER_TFHE_CLUSTER_BLOCKS=16; H100
  // and H200 run it): one row per block.
  kernelPathsMatch("STD128Q", 12, "16");
}
TEST(CudaTfhe, KernelPathsMatchTheCpuStd128OnThreeBlocks) {
  kernelPathsMatch("STD128", 3, "3");
}
TEST(CudaTfhe, KernelPathsMatchTheCpuStd128GenericNtt) {
  kernelPathsMatch("STD128", 6, nullptr, "0");
}

/// A random table over Z_16, 200 inputs (messages i mod 16 with a padding
/// bit) and the CPU's outputs for the first 16.
struct FourBitCase {
  explicit FourBitCase(Fixture &f) : table(16) {
    for (uint32_t &v : table)
      v = uint32_t(f.prng.uniform(16));
    for (uint32_t i = 0; i < 200; ++i)
      in.push_back(f.sk.encrypt(i % 16, 32, f.prng));
    for (size_t i = 0; i < 16; ++i)
      want.push_back(f.cpu.lut(in[i], table));
  }
  /// Batches of 1, 16 and 200 on `gpu`: every output decrypts to its entry,
  /// the first 16 are the CPU's words.
  void check(const Fixture &f, cuda::DeviceEvaluator &gpu) const {
    for (size_t count : {size_t(1), size_t(16), in.size()}) {
      const std::vector<Ciphertext> part(in.begin(), in.begin() + count);
      const std::vector<Ciphertext> out = gpu.lut(part, table);
      ASSERT_EQ(out.size(), count);
      for (size_t i = 0; i < count; ++i) {
        ASSERT_EQ(f.sk.decrypt(out[i], 32), table[i % 16])
            << gpu.clusterBlocks() << " blocks, " << count << ": " << i;
        if (i < 16)
          expectSame(want[i], out[i], i);
      }
    }
  }
  std::vector<uint32_t> table;
  std::vector<Ciphertext> in, want;
};

/// Tables over Z_16 at STD128_4BIT (N = 2048, 12 rows, 32-bit key-switching
/// words) on every kernel path (clusters of 6 blocks, and of 12 where
/// EMBER_TFHE_CLUSTER_BLOCKS=16 asks; one-block and 256-thread kernels).
TEST(CudaTfhe, FourBitTablesMatchTheCpu) {
  Fixture f("STD128_4BIT");
  const FourBitCase c(f);
  const struct {
    const char *jobs, *most;
    int cluster;
  } paths[] = {{"100000", nullptr, 6}, {"100000", "16", 12}, {"0", nullptr, 0}};
  for (const auto &path : paths) {
    ASSERT_EQ(setenv("EMBER_TFHE_CLUSTER_JOBS", path.jobs, 1), 0);
    if (path.most)
      ASSERT_EQ(setenv("EMBER_TFHE_CLUSTER_BLOCKS", path.most, 1), 0);
    cuda::DeviceEvaluator gpu(f.ek);
    unsetenv("EMBER_TFHE_CLUSTER_JOBS");
    unsetenv("EMBER_TFHE_CLUSTER_BLOCKS");
    EXPECT_EQ(gpu.clusterBlocks(), path.cluster);
    c.check(f, gpu);
  }
}

/// Modulus raising (STD128_4BIT_MR: N = 2048, keys at P Q; TOY_MR: N = 512)
/// on clusters of 4 blocks at every batch size (200: more clusters than
/// the GPU holds at once).
TEST(CudaTfhe, ModulusRaisingTablesMatchTheCpu) {
  Fixture f("STD128_4BIT_MR");
  EXPECT_EQ(f.gpu.clusterBlocks(), 4);
  FourBitCase(f).check(f, f.gpu);
}

TEST(CudaTfhe, ModulusRaisingGatesMatchTheCpuToy) { gatesMatch("TOY_MR", 64); }

/// AP/DM blind rotation (one product per nonzero digit of a_i in base B_r)
/// on the cluster kernel at every batch size: TOY_AP (generic NTTs, 4
/// rows on 4 blocks) and STD128_AP (the fast path, 6 rows on 6 blocks;
/// 200 gates: more clusters than the GPU holds at once).
TEST(CudaTfhe, ApGatesMatchTheCpuToy) { gatesMatch("TOY_AP", 64); }

TEST(CudaTfhe, ApGatesMatchTheCpuStd128) { gatesMatch("STD128_AP", 200); }

/// A random circuit of every op kind over `inputs` bits, its plaintext
/// evaluation alongside.
Circuit randomCircuit(Prng &prng, int inputs, int ops, std::vector<int> &bits) {
  Circuit c;
  c.input_bits = inputs;
  for (int k = 0; k < ops; ++k) {
    const int out = inputs + k;
    auto pick = [&] { return int32_t(prng.uniform(out)); };
    const int code = int(prng.uniform(9));
    std::array<int32_t, 5> op = {code, out, -1, -1, -1};
    int v = 0;
    if (code < 6) {
      op[2] = pick(), op[3] = pick();
      const int a = bits[op[2]], b = bits[op[3]];
      const int table[6] = {a & b,       a | b, 1 - (a & b),
                            1 - (a | b), a ^ b, 1 - (a ^ b)};
      v = table[code];
    } else if (code == Circuit::kNot) {
      op[2] = pick();
      v = 1 - bits[op[2]];
    } else if (code == Circuit::kMux) {
      op[2] = pick(), op[3] = pick(), op[4] = pick();
      v = bits[op[2]] ? bits[op[3]] : bits[op[4]];
    } else {
      op[2] = int32_t(prng.uniform(2));
      v = op[2];
    }
    c.ops.push_back(op);
    bits.push_back(v);
  }
  c.wires = inputs + ops;
  for (int k = 0; k < 12; ++k)
    c.outputs.push_back(int32_t(prng.uniform(c.wires)));
  return c;
}

void circuitsMatch(const std::string &name, int ops) {
  Fixture f(name);
  std::vector<int> bits;
  std::vector<Ciphertext> in;
  for (int i = 0; i < 6; ++i) {
    bits.push_back(int(f.prng.uniform(2)));
    in.push_back(f.sk.encrypt(bits.back(), 4, f.prng));
  }
  const Circuit c = randomCircuit(f.prng, 6, ops, bits);
  const std::vector<Ciphertext> gpu = f.gpu.runCircuit(c, in);
  const std::vector<Ciphertext> cpu = runCircuit(f.cpu, c, in);
  ASSERT_EQ(gpu.size(), c.outputs.size());
  for (size_t i = 0; i < gpu.size(); ++i) {
    expectSame(cpu[i], gpu[i], i);
    EXPECT_EQ(int(f.sk.decrypt(gpu[i], 4)), bits[c.outputs[i]]) << i;
  }
}

TEST(CudaTfhe, CircuitsMatchTheCpuToy) { circuitsMatch("TOY", 200); }

TEST(CudaTfhe, CircuitRunsBatchedMatchTheCpu) {
  // Five runs of one circuit in one call: each run's outputs equal the
  // CPU's for its inputs.
  Fixture f("TOY");
  std::vector<int> bits0(6, 0);
  const Circuit c = randomCircuit(f.prng, 6, 120, bits0);
  std::vector<std::vector<Ciphertext>> runs(5);
  for (auto &in : runs)
    for (int i = 0; i < 6; ++i)
      in.push_back(f.sk.encrypt(int(f.prng.uniform(2)), 4, f.prng));
  const auto gpu = f.gpu.runCircuit(c, runs);
  ASSERT_EQ(gpu.size(), runs.size());
  for (size_t r = 0; r < runs.size(); ++r) {
    const std::vector<Ciphertext> cpu = runCircuit(f.cpu, c, runs[r]);
    for (size_t i = 0; i < cpu.size(); ++i)
      expectSame(cpu[i], gpu[r][i], i);
  }
}

TEST(CudaTfhe, CircuitsMatchTheCpuStd128) { circuitsMatch("STD128", 40); }

TEST(CudaTfhe, CircuitsMatchTheCpuToyModulusRaising) {
  circuitsMatch("TOY_MR", 120);
}

TEST(CudaTfhe, CircuitsMatchTheCpuToyAp) { circuitsMatch("TOY_AP", 120); }

// ---------------------------------------------------------------------------
// Radix blocks (the key-switch-first order)

/// A random radix circuit over `inputs` blocks with values in [0, t): known
/// blocks, linear forms of one or two wires (coefficients in [-2, 2], the
/// constant chosen to land in [0, t); nu2 kept at most max_nu2) and tables
/// (a new random one or an earlier one), the plaintext values alongside.
Circuit randomRadixCircuit(Prng &prng, uint32_t t, int inputs, int ops,
                           double max_nu2, std::vector<uint32_t> &values) {
  Circuit c;
  c.radix = true;
  c.block_modulus = t;
  c.input_bits = inputs;
  std::vector<double> nu2(values.size(), 1);
  for (int k = 0; k < ops; ++k) {
    const int out = inputs + k;
    auto pick = [&] { return int32_t(prng.uniform(out)); };
    const int kind = int(prng.uniform(8));
    std::array<int32_t, 5> op = {Circuit::kLut, out, pick(), -1, -1};
    uint32_t v = 0;
    double noise = 1;
    if (kind == 0) {
      op = {Circuit::kBlock, out, int32_t(prng.uniform(t)), -1, -1};
      v = uint32_t(op[2]), noise = 0;
    } else if (kind < 5) {
      const int32_t a = pick(), b = kind < 3 ? pick() : -1;
      const int32_t x = int32_t(prng.uniform(5)) - 2;
      const int32_t y = b >= 0 ? int32_t(prng.uniform(5)) - 2 : 0;
      noise = x * x * nu2[a] + (b >= 0 ? y * y * nu2[b] : 0);
      if (a == b)
        noise = (x + y) * (x + y) * nu2[a];
      if (noise > max_nu2) { // a plain copy instead
        op = {Circuit::kLinear, out, a, -1, int32_t(c.forms.size())};
        c.forms.push_back({1, 0, 0});
        v = values[a], noise = nu2[a];
      } else {
        const int64_t target = int64_t(prng.uniform(t));
        const int64_t base =
            int64_t(x) * values[a] + (b >= 0 ? int64_t(y) * values[b] : 0);
        op = {Circuit::kLinear, out, a, b, int32_t(c.forms.size())};
        c.forms.push_back({x, y, int32_t(target - base)});
        v = uint32_t(target);
      }
    } else {
      if (c.tables.empty() || prng.uniform(3) == 0) {
        std::vector<uint32_t> table(t);
        for (uint32_t &e : table)
          e = uint32_t(prng.uniform(t));
        c.tables.push_back(table);
      }
      op[3] = int32_t(prng.uniform(c.tables.size()));
      v = c.tables[op[3]][values[op[2]]];
    }
    c.ops.push_back(op);
    values.push_back(v);
    nu2.push_back(noise);
  }
  c.wires = inputs + ops;
  for (int k = 0; k < 12; ++k)
    c.outputs.push_back(int32_t(prng.uniform(c.wires)));
  c.outputs.push_back(c.wires - 1);
  return c;
}

/// `runs` runs of a random radix circuit of `ops` ops over 4 blocks, in
/// one batch (and the first alone): every output word is the CPU's, and
/// decrypts to its value. max_nu2 bounds the forms' noise growth (where
/// a table still reads below 2^-20 at the set's noise).
void radixCircuitsMatch(const std::string &name, uint32_t t, int ops, int runs,
                        double max_nu2) {
  Fixture f(name);
  std::vector<uint32_t> values0(4, 0);
  for (uint32_t &v : values0)
    v = uint32_t(f.prng.uniform(t));
  const Circuit c = randomRadixCircuit(f.prng, t, 4, ops, max_nu2, values0);
  ASSERT_NO_THROW(c.validate());
  std::vector<std::vector<Ciphertext>> inputs(runs);
  std::vector<std::vector<uint32_t>> values(runs);
  for (int r = 0; r < runs; ++r) {
    for (int i = 0; i < 4; ++i) {
      values[r].push_back(r == 0 ? values0[i] : uint32_t(f.prng.uniform(t)));
      inputs[r].push_back(f.sk.encryptBlock(values[r].back(), t, f.prng));
    }
    // The plaintext values of this run's wires (the circuit's ops on them).
    for (const auto &op : c.ops) {
      const std::vector<uint32_t> &w = values[r];
      uint32_t v = 0;
      if (op[0] == Circuit::kBlock) {
        v = uint32_t(op[2]);
      } else if (op[0] == Circuit::kLut) {
        // (The forms' constants fit run 0's values; another run's may
        // leave [0, t), where the table reads negacyclically.)
        const uint32_t x = w[op[2]];
        const std::vector<uint32_t> &table = c.tables[op[3]];
        v = x < t ? table[x] : (2 * t - table[x - t]) % (2 * t);
      } else {
        const auto &form = c.forms[op[4]];
        const int64_t sum = int64_t(form[0]) * w[op[2]] +
                            (op[3] >= 0 ? int64_t(form[1]) * w[op[3]] : 0) +
                            form[2];
        v = uint32_t(((sum % (2 * t)) + 2 * t) % (2 * t));
      }
      values[r].push_back(v);
    }
  }
  const auto gpu = f.gpu.runCircuit(c, inputs);
  ASSERT_EQ(gpu.size(), size_t(runs));
  for (int r = 0; r < runs; ++r) {
    const std::vector<Ciphertext> cpu = runCircuit(f.cpu, c, inputs[r]);
    ASSERT_EQ(gpu[r].size(), c.outputs.size());
    for (size_t i = 0; i < cpu.size(); ++i) {
      expectSame(cpu[i], gpu[r][i], i);
      EXPECT_EQ(f.sk.decryptBlock(gpu[r][i], t), values[r][c.outputs[i]])
          << name << " run " << r << " output " << i;
    }
  }
  const std::vector<Ciphertext> one = f.gpu.runCircuit(c, inputs[0]);
  for (size_t i = 0; i < one.size(); ++i)
    expectSame(gpu[0][i], one[i], i);
}

TEST(CudaTfhe, RadixCircuitsMatchTheCpuToy) {
  radixCircuitsMatch("TOY_4BIT_MR", 16, 80, 5, 400);
}

/// The gadget kernels (TOY: generic cluster kernel; the one-block kernels
/// where the batch is larger than the cluster limit) with blocks over Z_4.
TEST(CudaTfhe, RadixCircuitsMatchTheCpuGadget) {
  radixCircuitsMatch("TOY", 4, 60, 3, 8);
  ASSERT_EQ(setenv("EMBER_TFHE_CLUSTER_JOBS", "0", 1), 0);
  radixCircuitsMatch("TOY", 4, 40, 3, 8);
  unsetenv("EMBER_TFHE_CLUSTER_JOBS");
}

TEST(CudaTfhe, RadixCircuitMatchesTheCpuMr) {
  radixCircuitsMatch("STD128_4BIT_MR", 16, 14, 2, 100);
}

/// DeviceEvaluator::pbs in batches of 1, 16 and 48 against Evaluator::pbs:
/// the same words, each decrypting to its entry.
TEST(CudaTfhe, PbsMatchesTheCpu) {
  Fixture f("TOY_4BIT_MR");
  std::vector<uint32_t> table(16);
  for (uint32_t &v : table)
    v = uint32_t(f.prng.uniform(16));
  std::vector<Ciphertext> in;
  for (uint32_t i = 0; i < 48; ++i)
    in.push_back(f.sk.encryptBlock(i % 16, 16, f.prng));
  for (size_t count : {size_t(1), size_t(16), in.size()}) {
    const std::vector<Ciphertext> part(in.begin(), in.begin() + count);
    const std::vector<Ciphertext> out = f.gpu.pbs(part, table);
    ASSERT_EQ(out.size(), count);
    for (size_t i = 0; i < count; ++i) {
      ASSERT_EQ(f.sk.decryptBlock(out[i], 16), table[i % 16]) << i;
      if (i < 16)
        expectSame(f.cpu.pbs(in[i], table), out[i], i);
    }
  }
  EXPECT_THROW(f.gpu.pbs({f.sk.encrypt(1, 32, f.prng)}, table),
               InvalidArgument);
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
