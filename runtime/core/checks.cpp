#include "checks.h"

#include "ember/errors.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace ember::checks {

namespace {
bool sameScale(double a, double b) {
  return std::fabs(a - b) <= 1e-9 * std::max(std::fabs(a), std::fabs(b));
}
std::string levelText(int level) { return "level " + std::to_string(level); }
std::string scaleText(double scale) {
  return "2^" + std::to_string(std::log2(scale));
}
} // namespace

void binary(const Operand &a, const Operand &b, const char *op) {
  if (a.level != b.level)
    throw LevelMismatch(std::string(op) + ": operands at " +
                        levelText(a.level) + " and " + levelText(b.level) +
                        " (mod_drop the higher one first)");
  if (!sameScale(a.scale, b.scale))
    throw ScaleMismatch(std::string(op) + ": operand scales " +
                        scaleText(a.scale) + " and " + scaleText(b.scale) +
                        " differ");
  if (a.slots != b.slots)
    throw InvalidArgument(std::string(op) + ": operands have " +
                          std::to_string(a.slots) + " and " +
                          std::to_string(b.slots) + " slots");
}

void plain(const Operand &ct, const Operand &pt, const char *op,
           bool need_scale) {
  if (ct.level != pt.level)
    throw LevelMismatch(std::string(op) + ": ciphertext at " +
                        levelText(ct.level) + ", plaintext at " +
                        levelText(pt.level));
  if (need_scale && !sameScale(ct.scale, pt.scale))
    throw ScaleMismatch(std::string(op) + ": ciphertext scale " +
                        scaleText(ct.scale) + " and plaintext scale " +
                        scaleText(pt.scale) + " differ");
  if (ct.slots != pt.slots)
    throw InvalidArgument(std::string(op) + ": ciphertext has " +
                          std::to_string(ct.slots) + " slots, plaintext " +
                          std::to_string(pt.slots));
}

void multiply(const Operand &a, const Operand &b) {
  if (a.level != b.level)
    throw LevelMismatch("multiply: operands at " + levelText(a.level) +
                        " and " + levelText(b.level));
  if (a.slots != b.slots)
    throw InvalidArgument("multiply: operands have different slot counts");
  if (a.degree != 1 || b.degree != 1)
    throw InvalidArgument("multiply needs degree-1 ciphertexts (relinearize "
                          "the degree-2 operand first)");
}

void relinearize(int degree, bool has_key) {
  if (degree != 1 && degree != 2)
    throw InvalidArgument("relinearize needs a degree-2 ciphertext");
  if (degree == 2 && !has_key)
    throw MissingKey("relinearize: no relinearization key was generated");
}

void rescale(int level, int primes) {
  if (level < primes)
    throw LevelMismatch(
        "rescale: the ciphertext is at level " + std::to_string(level) +
        (primes == 1 ? std::string()
                     : " and a double-prime rescale divides by two primes") +
        "; the program is deeper than its parameters allow");
}

void modDrop(int from, int to) {
  if (to > from || to < 0)
    throw LevelMismatch("mod_drop: cannot go from " + levelText(from) + " to " +
                        levelText(to));
}

void mulConstScale(double const_scale) {
  if (!(const_scale > 0) || !std::isfinite(const_scale))
    throw InvalidArgument("mul_const: the constant's scale must be positive");
}

void galois(int degree, bool has_key, uint64_t galois,
            const std::string &what) {
  if (degree != 1)
    throw InvalidArgument("rotations need a degree-1 ciphertext (relinearize "
                          "first)");
  if (has_key)
    return;
  throw MissingKey("no Galois key for " + (what.empty() ? "" : what + " ") +
                   "(element " + std::to_string(galois) +
                   "); generate it with the client's keys");
}

} // namespace ember::checks
