// Writes the seed corpora of the runtime harnesses from real serialized
// objects: `ember_fuzz_seeds OUT` creates OUT/fuzz_params/ and
// OUT/fuzz_objects/, each file one mode/selector byte followed by a valid
// file (both the raw and the re-seal variant). Valid seeds let the fuzzer
// start past the checksum; see fuzz/README.md.
#include "fuzz_runtime.h"

#include "ember/ckks.h"
#include "ember/errors.h"
#include "ember/random.h"

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

void write(const fs::path &dir, const std::string &name, uint8_t mode,
           const ember::Bytes &file) {
  ember::Bytes out{mode};
  out.insert(out.end(), file.begin(), file.end());
  ember::writeFile((dir / name).string(), out);
}

/// The raw and the re-seal variant of one seed.
void writeBoth(const fs::path &dir, const std::string &name, uint8_t selector,
               const ember::Bytes &file) {
  write(dir, name + "-raw", static_cast<uint8_t>(selector << 1), file);
  write(dir, name + "-reseal", static_cast<uint8_t>(selector << 1 | 1), file);
}

} // namespace

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUT_DIR\n", argv[0]);
    return 2;
  }
  const fs::path out = argv[1];
  const fs::path params = out / "fuzz_params", objects = out / "fuzz_objects";
  fs::create_directories(params);
  fs::create_directories(objects);

  // Parameters: the object harness's context (KLSS form, insecure), the
  // same without KLSS, and a 128-bit secure N = 2^11 set.
  auto ctx = ember::fuzz::makeFuzzContext();
  write(params, "fuzz-klss-raw", 0, ember::serializeParams(*ctx));
  write(params, "fuzz-klss-reseal", 1, ember::serializeParams(*ctx));
  {
    ember::ParamSpec spec = ctx->spec();
    spec.klss_gamma = 0;
    spec.t_bits.clear();
    ember::Context64 plain(spec);
    write(params, "fuzz-plain-reseal", 1, ember::serializeParams(plain));
    ember::ParamSpec secure;
    secure.name = "secure11";
    secure.log_n = 11;
    secure.q_bits = {25};
    secure.p_bits = {25};
    secure.log_scale = 20;
    ember::Context64 small(secure);
    write(params, "secure11-raw", 0, ember::serializeParams(small));
    write(params, "secure11-reseal", 1, ember::serializeParams(small));
  }

  // Objects, with the selector order of fuzz_objects.cpp: secret key,
  // public key, evaluation keys, ciphertext, plaintext.
  ember::Prng prng{ember::Prng::Seed{}};
  ember::KeyGenerator keygen(*ctx, prng);
  ember::Encoder encoder(*ctx);
  ember::Encryptor enc(*ctx, prng);
  ember::Evaluator eval(*ctx);
  ember::PublicKey pk = keygen.publicKey();
  writeBoth(objects, "secret-key", 0,
            ember::serialize(*ctx, keygen.secretKey()));
  writeBoth(objects, "public-key", 1, ember::serialize(*ctx, pk));
  ember::EvaluationKeys keys;
  keys.has_relin = true;
  keys.relin = keygen.relinKey();
  keys.galois = keygen.galoisKeys({5});
  writeBoth(objects, "eval-keys-hybrid", 2, ember::serialize(*ctx, keys));
  ember::EvaluationKeys klss;
  klss.has_klss_relin = true;
  klss.klss_relin = keygen.klssRelinKey();
  klss.klss_galois = keygen.klssGaloisKeys({2 * ctx->n() - 1});
  writeBoth(objects, "eval-keys-klss", 2, ember::serialize(*ctx, klss));
  ember::EvaluationKeys encapsulation; // h' <= N = 16 in the fuzz context
  encapsulation.has_encapsulation = true;
  encapsulation.encapsulation = keygen.encapsulationKeys(4);
  writeBoth(objects, "eval-keys-encapsulation", 2,
            ember::serialize(*ctx, encapsulation));
  ember::Plaintext pt = encoder.encode(std::vector<double>{0.5, 1, 2, 3},
                                       ctx->maxLevel(), 1 << 20, 4);
  ember::Ciphertext ct = enc.encrypt(pt, pk);
  writeBoth(objects, "ciphertext", 3, ember::serialize(*ctx, ct));
  writeBoth(objects, "ciphertext-degree3", 3,
            ember::serialize(*ctx, eval.multiply(ct, ct)));
  writeBoth(objects, "ciphertext-level0", 3,
            ember::serialize(*ctx, eval.modDropTo(ct, 0)));
  writeBoth(objects, "plaintext", 4, ember::serialize(*ctx, pt));
  // The same kinds at 32-bit words (selector bit 7: the 32-bit context).
  {
    auto ctx32 = ember::fuzz::makeFuzzContext32();
    ember::KeyGenerator32 keygen32(*ctx32, prng);
    ember::Encoder32 encoder32(*ctx32);
    ember::Encryptor32 enc32(*ctx32, prng);
    const ember::PublicKey32 pk32 = keygen32.publicKey();
    writeBoth(objects, "secret-key-32", 0x40,
              ember::serialize(*ctx32, keygen32.secretKey()));
    writeBoth(objects, "public-key-32", 0x41, ember::serialize(*ctx32, pk32));
    ember::EvaluationKeys32 keys32;
    keys32.has_relin = true;
    keys32.relin = keygen32.relinKey();
    keys32.galois = keygen32.galoisKeys({5});
    writeBoth(objects, "eval-keys-32", 0x42, ember::serialize(*ctx32, keys32));
    const ember::Plaintext32 pt32 = encoder32.encode(
        std::vector<double>{0.5, 1, 2, 3}, ctx32->maxLevel(), 1 << 20, 4);
    writeBoth(objects, "ciphertext-32", 0x43,
              ember::serialize(*ctx32, enc32.encrypt(pt32, pk32)));
    writeBoth(objects, "plaintext-32", 0x44, ember::serialize(*ctx32, pt32));
  }
  std::printf("seeds written to %s\n", out.string().c_str());
  return 0;
}
