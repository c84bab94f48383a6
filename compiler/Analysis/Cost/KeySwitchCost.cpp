//===- KeySwitchCost.cpp - time model of hybrid and KLSS key switching ----===//
#include "compiler/Analysis/Cost/KeySwitchCost.h"

#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Format.h"

#include <cmath>
#include <vector>

using namespace ember;

KeySwitchConstants KeySwitchConstants::forWord(int64_t word) {
  KeySwitchConstants c;
  if (word == 32) {
    c.nttLimbUs *= 0.42;
    c.bconvMacUs *= 0.24;
    c.exactBconvMacUs *= 0.24;
    c.ipMacUs *= 0.48;
  }
  return c;
}

std::string KeySwitchConstants::parse(llvm::StringRef spec) {
  llvm::SmallVector<llvm::StringRef> items;
  spec.split(items, ',', -1, /*KeepEmpty=*/false);
  for (llvm::StringRef item : items) {
    auto [key, value] = item.split('=');
    key = key.trim();
    double *field = llvm::StringSwitch<double *>(key)
                        .Case("ntt", &nttLimbUs)
                        .Case("bconv-mac", &bconvMacUs)
                        .Case("exact-bconv-mac", &exactBconvMacUs)
                        .Case("ip-mac", &ipMacUs)
                        .Case("dram-gbps", &dramGBps)
                        .Case("fixed", &fixedUs)
                        .Default(nullptr);
    if (!field)
      return ("unknown cost constant '" + key +
              "' (expected ntt, bconv-mac, "
              "exact-bconv-mac, ip-mac, "
              "dram-gbps, fixed)")
          .str();
    if (value.trim().getAsDouble(*field) || *field < 0)
      return ("cost constant '" + key + "' needs a non-negative number, got '" +
              value + "'")
          .str();
  }
  if (dramGBps <= 0)
    return "dram-gbps must be positive";
  return "";
}

void KeySwitchConstants::print(llvm::raw_ostream &os) const {
  os << llvm::format("key-switch cost constants (N = 2^16, H200): ntt = %.3f "
                     "us/limb, bconv-mac = %.3f us, exact-bconv-mac = %.3f "
                     "us, ip-mac = %.3f us (per MAC per coefficient), "
                     "dram-gbps = %.0f, fixed = %.1f us/product\n",
                     nttLimbUs, bconvMacUs, exactBconvMacUs, ipMacUs, dramGBps,
                     fixedUs);
}

double KeySwitchWork::us(const KeySwitchConstants &c, int64_t logN) const {
  const double n = std::ldexp(1.0, static_cast<int>(logN) - 16); // N / 2^16
  const double nttScale = n * static_cast<double>(logN) / 16.0;
  return c.fixedUs * innerProducts + c.nttLimbUs * nttScale * nttLimbs +
         n * (c.bconvMacUs * bconvMacs + c.exactBconvMacUs * exactBconvMacs +
              c.ipMacUs * ipMacs) +
         (keyBytes + otherBytes) / (c.dramGBps * 1e3);
}

namespace {
/// Digit sizes at `level`: ember::digitSizes over the chain, cut at q_level.
std::vector<double> digitsAt(ckks::ParamsAttr params, int64_t level) {
  std::vector<double> out;
  int64_t lo = 0;
  for (int size : params.getDigitSizes()) {
    if (lo > level)
      break;
    out.push_back(
        static_cast<double>(std::min<int64_t>(lo + size, level + 1) - lo));
    lo += size;
  }
  return out;
}
} // namespace

KeySwitchWork ember::hybridWork(ckks::ParamsAttr params,
                                const KeySwitchGroup &g) {
  const double l1 = g.level + 1, k = params.getP().size();
  const double limbBytes =
      std::ldexp(static_cast<double>(params.getWordBytes()), params.getLogN());
  std::vector<double> digits = digitsAt(params, g.level);
  const double beta = digits.size();
  KeySwitchWork w;
  // ModUp (shared): INTT of Q_l, NTT of the new limbs, BConv.
  w.nttLimbs += l1 + beta * (l1 + k) - l1;
  for (double a : digits)
    w.bconvMacs += a * (l1 + k - a);
  // Automorphisms of the raised digits (hoisting): each permutes one
  // digit's l+1+K limbs (g.automorphisms counts digits x rotations; until
  // 2026-11-26 this was multiplied by the digit count again, which made a
  // rotation at Athena's 47-digit shape 7x dearer than measured).
  w.otherBytes += g.automorphisms * 2 * (l1 + k) * limbBytes;
  // Per product: 2 x beta x (l+1+K) MACs, the key's limbs at this level.
  w.ipMacs += g.innerProducts * 2 * beta * (l1 + k);
  w.keyBytes += g.innerProducts * 2 * beta * (l1 + k) * limbBytes;
  // Per ModDown of a pair: INTT of P, BConv P -> Q_l, NTT of Q_l.
  w.nttLimbs += g.modDowns * (2 * k + 2 * l1);
  w.bconvMacs += g.modDowns * 2 * k * l1;
  w.otherBytes += g.inputAutomorphisms * 2 * l1 * limbBytes;
  w.innerProducts = g.innerProducts;
  return w;
}

KeySwitchWork ember::klssWork(ckks::ParamsAttr params,
                              const KeySwitchGroup &g) {
  const double l1 = g.level + 1, k = params.getP().size();
  const double r = params.getT().size();
  const double groups = params.getKlssGroups(g.level);
  const double limbBytes =
      std::ldexp(static_cast<double>(params.getWordBytes()), params.getLogN());
  std::vector<double> digits = digitsAt(params, g.level);
  const double beta = digits.size();
  KeySwitchWork w;
  // klss_mod_up (shared): INTT of Q_l, exact BConv to T, NTT over T.
  w.nttLimbs += l1 + beta * r;
  w.exactBconvMacs += l1 * r;
  w.otherBytes += g.automorphisms * 2 * r * limbBytes; // one T digit each
  // Per product: groups x beta x r' MACs per polynomial over T, INTT over T
  // of every group's pair, exact BConv T -> the group's limbs.
  w.ipMacs += g.innerProducts * 2 * groups * beta * r;
  w.keyBytes += g.innerProducts * 2 * beta * groups * r * limbBytes;
  w.nttLimbs += g.innerProducts * 2 * groups * r;
  w.exactBconvMacs += g.innerProducts * 2 * r * (l1 + k);
  // Per ModDown in coefficient form: BConv P -> Q_l, NTT of Q_l.
  w.nttLimbs += g.modDowns * 2 * l1;
  w.bconvMacs += g.modDowns * 2 * k * l1;
  w.otherBytes += g.inputAutomorphisms * 2 * l1 * limbBytes;
  w.innerProducts = g.innerProducts;
  return w;
}
