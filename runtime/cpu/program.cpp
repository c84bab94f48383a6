// Helpers of generated C++ programs (ember/program.h).
#include "ember/program.h"

#include "ember/errors.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace ember::program {

std::vector<int> basis(const Context64 &ctx, int q_lo, int q_hi, int p_lo,
                       int p_hi) {
  std::vector<int> b;
  for (int i = q_lo; i < q_hi; ++i)
    b.push_back(i);
  for (int j = p_lo; j < p_hi; ++j)
    b.push_back(ctx.qCount() + j);
  return b;
}

void checkInputScale(const char *name, double got, double expected) {
  if (got == expected)
    return;
  auto show = [](double scale) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "2^%.12g (%.17g)", std::log2(scale), scale);
    return std::string(buf);
  };
  throw ScaleMismatch("program input '" + std::string(name) + "' has scale " +
                      show(got) + ", the program expects exactly " +
                      show(expected) +
                      " (the manifest's scale): encode the input at that "
                      "scale");
}

void checkInput(const Context64 &ctx, const std::vector<Ciphertext> &inputs,
                size_t index, const char *name, int parts, int level,
                size_t slots, double scale) {
  if (index >= inputs.size())
    throw InvalidArgument("program input '" + std::string(name) +
                          "' is missing: " + std::to_string(inputs.size()) +
                          " ciphertexts given");
  const Ciphertext &ct = inputs[index];
  std::string what = "program input '" + std::string(name) + "'";
  if (static_cast<int>(ct.c.size()) != parts)
    throw InvalidArgument(what + " has " + std::to_string(ct.c.size()) +
                          " polynomials, " + std::to_string(parts) +
                          " expected");
  if (ct.level != level)
    throw LevelMismatch(what + " is at level " + std::to_string(ct.level) +
                        ", the program expects level " + std::to_string(level));
  if (ct.slots != slots)
    throw InvalidArgument(what + " has " + std::to_string(ct.slots) +
                          " slots, " + std::to_string(slots) + " expected");
  checkInputScale(name, ct.scale, scale);
  for (const Poly64 &p : ct.c)
    if (!p.ntt || p.n != ctx.n() || p.basis != ctx.qBasis(level))
      throw InvalidArgument(what + " is not in NTT form over q_0..q_" +
                            std::to_string(level));
}

const SwitchingKey &relinKey(const EvaluationKeys &keys) {
  if (!keys.has_relin || keys.relin.key.b.empty())
    throw MissingKey("the program needs the relinearization key (see its "
                     "manifest)");
  return keys.relin.key;
}

const SwitchingKey &galoisKey(const EvaluationKeys &keys, uint64_t galois) {
  auto it = keys.galois.keys.find(galois);
  if (it == keys.galois.keys.end())
    throw MissingKey("the program needs the Galois key of element " +
                     std::to_string(galois) + " (see its manifest)");
  return it->second;
}

const KlssKey &klssRelinKey(const EvaluationKeys &keys) {
  if (!keys.has_klss_relin || keys.klss_relin.key.empty())
    throw MissingKey("the program needs the relinearization key in KLSS form "
                     "(see its manifest)");
  return keys.klss_relin.key;
}

const KlssKey &klssGaloisKey(const EvaluationKeys &keys, uint64_t galois) {
  auto it = keys.klss_galois.keys.find(galois);
  if (it == keys.klss_galois.keys.end())
    throw MissingKey("the program needs the Galois key of element " +
                     std::to_string(galois) +
                     " in KLSS form (see its manifest)");
  return it->second;
}

Poly64 view(const Poly64 &src, size_t first, size_t count) {
  Poly64 out(std::vector<int>(src.basis.begin() + first,
                              src.basis.begin() + first + count),
             src.n, src.ntt);
  std::copy(src.limb(first), src.limb(first) + count * src.n, out.limb(0));
  return out;
}

Poly64 concat(const std::vector<const Poly64 *> &parts) {
  std::vector<int> b;
  for (const Poly64 *p : parts)
    b.insert(b.end(), p->basis.begin(), p->basis.end());
  Poly64 out(b, parts.front()->n, parts.front()->ntt);
  size_t at = 0;
  for (const Poly64 *p : parts) {
    std::copy(p->data.begin(), p->data.end(), out.data.begin() + at);
    at += p->data.size();
  }
  return out;
}

Ciphertext makeCiphertext(std::vector<Poly64> polys, int level, double scale,
                          size_t slots) {
  Ciphertext ct;
  ct.c = std::move(polys);
  ct.level = level;
  ct.scale = scale;
  ct.slots = slots;
  return ct;
}

Poly64 encodeConstant(const Context64 &ctx, const std::vector<double> &values,
                      double scale, const std::vector<int> &basis, bool ntt) {
  int level = -1;
  for (size_t i = 0; i < basis.size(); ++i) {
    if (basis[i] != static_cast<int>(i) || basis[i] >= ctx.qCount())
      throw InvalidArgument("encode: constants are encoded over a prefix of "
                            "Q only");
    level = basis[i];
  }
  Encoder encoder(ctx);
  Plaintext pt = encoder.encode(values, level, scale, values.size());
  if (!ntt)
    cpu::intt(ctx, pt.poly);
  return std::move(pt.poly);
}

} // namespace ember::program
