// Secret keys on disk (mode 0600 whatever the umask) and in memory (wiped
// with secureWipe when released).
#include "ember/ckks.h"
#include "ember/errors.h"
#include "ember/serialize.h"
#include "ember/wipe.h"

#include <gtest/gtest.h>

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <new>
#include <string>

// --- Watching a buffer as it is freed ----------------------------------------
// The replaceable global operator new/delete of this test binary: when a
// buffer is being watched, delete records whether it was all zeros at the
// moment it was freed (the only way to see a destructor's wipe without
// reading freed memory).
namespace {
std::atomic<const void *> g_watched{nullptr};
std::atomic<size_t> g_watched_bytes{0};
std::atomic<int> g_watched_state{0}; // 0 not freed, 1 freed zeroed, 2 dirty

void noteFree(void *p) {
  if (!p || p != g_watched.load())
    return;
  const auto *bytes = static_cast<const unsigned char *>(p);
  bool zero = true;
  for (size_t i = 0; i < g_watched_bytes.load(); ++i)
    zero &= bytes[i] == 0;
  g_watched_state = zero ? 1 : 2;
  g_watched = nullptr;
}

void watch(const void *p, size_t bytes) {
  g_watched_state = 0;
  g_watched_bytes = bytes;
  g_watched = p;
}
} // namespace

void *operator new(std::size_t n) {
  if (void *p = std::malloc(n ? n : 1))
    return p;
  throw std::bad_alloc();
}
void operator delete(void *p) noexcept {
  noteFree(p);
  std::free(p);
}
void operator delete(void *p, std::size_t) noexcept {
  noteFree(p);
  std::free(p);
}

namespace ember {
namespace {

ParamSpec toySpec() {
  ParamSpec spec;
  spec.name = "toy";
  spec.log_n = 10;
  spec.q_bits = {40, 40};
  spec.p_bits = {50};
  spec.dnum = 2;
  spec.security = Security::kInsecureTestOnly;
  return spec;
}

std::string tempPath(const char *name) {
  return ::testing::TempDir() + "/ember_" + std::to_string(getpid()) + "_" +
         name;
}

mode_t modeOf(const std::string &path) {
  struct stat st;
  EXPECT_EQ(stat(path.c_str(), &st), 0) << path;
  return st.st_mode & 07777;
}

TEST(SecretFiles, SecretKeysAreWrittenOwnerOnly) {
  Context64 ctx(toySpec());
  Prng prng;
  KeyGenerator keygen(ctx, prng);
  const mode_t old_umask = umask(022);
  const std::string sk_path = tempPath("secret.key");
  const std::string pk_path = tempPath("public.key");
  std::remove(sk_path.c_str());
  std::remove(pk_path.c_str());
  writeFile(sk_path, serialize(ctx, keygen.secretKey()));
  EXPECT_EQ(modeOf(sk_path), mode_t{0600});
  // Overwriting a world-readable file: the key never lands in it.
  { std::ofstream(sk_path) << "old"; }
  chmod(sk_path.c_str(), 0644);
  writeFile(sk_path, serialize(ctx, keygen.secretKey()));
  EXPECT_EQ(modeOf(sk_path), mode_t{0600});
  EXPECT_EQ(deserializeSecretKey(ctx, readFile(sk_path)).s.data,
            keygen.secretKey().s.data);
  // Public material keeps the umask's mode.
  writeFile(pk_path, serialize(ctx, keygen.publicKey()));
  EXPECT_EQ(modeOf(pk_path), mode_t{0644});
  umask(old_umask);
  std::remove(sk_path.c_str());
  std::remove(pk_path.c_str());
  EXPECT_THROW(writeFile("/nonexistent-dir/secret.key",
                         serialize(ctx, keygen.secretKey())),
               SerializationError);
}

TEST(SecretMemory, WipeZeroesABuffer) {
  std::vector<uint64_t> v(1000, 0xA5A5A5A5A5A5A5A5ull);
  secureWipe(v);
  EXPECT_EQ(v.size(), 1000u);
  for (uint64_t x : v)
    ASSERT_EQ(x, 0u);
  unsigned char raw[33];
  std::memset(raw, 0xff, sizeof raw);
  secureWipe(raw + 1, 31);
  EXPECT_EQ(raw[0], 0xff);
  EXPECT_EQ(raw[32], 0xff);
  for (int i = 1; i < 32; ++i)
    ASSERT_EQ(raw[i], 0);
}

Poly64 filled(uint64_t value) {
  Poly64 p({0, 1}, 64, true);
  std::fill(p.data.begin(), p.data.end(), value);
  return p;
}

TEST(SecretMemory, SecretKeyIsZeroWhenFreed) {
  auto *sk = new SecretKey(filled(7));
  watch(sk->s.data.data(), sk->s.data.size() * sizeof(uint64_t));
  delete sk;
  EXPECT_EQ(g_watched_state.load(), 1) << "freed without being wiped";

  // Overwriting a key (move and copy assignment) wipes the old residues.
  SecretKey a(filled(1)), b(filled(2));
  watch(a.s.data.data(), a.s.data.size() * sizeof(uint64_t));
  a = std::move(b);
  EXPECT_EQ(g_watched_state.load(), 1);
  EXPECT_EQ(a.s.data[0], 2u);
  Poly64 big({0, 1, 2}, 64, true); // copy into a larger key: reallocates
  SecretKey d(big);
  watch(a.s.data.data(), a.s.data.size() * sizeof(uint64_t));
  a = d;
  EXPECT_EQ(g_watched_state.load(), 1);
  watch(nullptr, 0);
}

TEST(SecretMemory, KeyGeneratorKeyIsZeroWhenFreed) {
  Context64 ctx(toySpec());
  Prng prng;
  auto *keygen = new KeyGenerator(ctx, prng);
  const Poly64 &s = keygen->secretKey().s;
  bool nonzero = false;
  for (uint64_t x : s.data)
    nonzero |= x != 0;
  ASSERT_TRUE(nonzero);
  watch(s.data.data(), s.data.size() * sizeof(uint64_t));
  delete keygen;
  EXPECT_EQ(g_watched_state.load(), 1);
}

} // namespace
} // namespace ember
