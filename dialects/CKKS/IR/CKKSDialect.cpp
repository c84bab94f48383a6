//===- CKKSDialect.cpp - ckks dialect, attributes and types ---------------===//
#include "dialects/CKKS/IR/CKKSDialect.h"
#include "dialects/Common/SlotVectors.h"

#include "ember/bgv_params.h"
#include "ember/primes.h"
#include "ember/security.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/Format.h"

#include <cmath>

using namespace mlir;
using namespace ember::ckks;

#include "dialects/CKKS/IR/CKKSDialect.cpp.inc"

/// The optional tail of #ckks.params, each part printed only when present:
/// `, T = [...], gamma = g` (a KLSS form), `, h = w` (a sparse secret),
/// `, word = 32` and `, scalePrimes = 2` (double-prime scaling),
/// parsed in any order.
static ParseResult parseOptionalParams(AsmParser &parser,
                                       SmallVector<uint64_t> &t, int64_t &gamma,
                                       int64_t &h, int64_t &word,
                                       int64_t &scalePrimes, uint64_t &plain,
                                       bool &bfv) {
  t.clear();
  plain = 0;
  bfv = false;
  gamma = 0;
  h = 0;
  word = 64;
  scalePrimes = 1;
  while (succeeded(parser.parseOptionalComma())) {
    StringRef key;
    if (parser.parseKeyword(&key) || parser.parseEqual())
      return failure();
    if (key == "T") {
      SmallVector<uint64_t> primes;
      if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                         [&]() -> ParseResult {
                                           uint64_t v;
                                           if (parser.parseInteger(v))
                                             return failure();
                                           primes.push_back(v);
                                           return success();
                                         }))
        return failure();
      t = std::move(primes);
    } else if (key == "plain") {
      if (parser.parseInteger(plain))
        return failure();
    } else if (key == "scheme") {
      StringRef scheme;
      if (parser.parseKeyword(&scheme))
        return failure();
      if (scheme != "bfv" && scheme != "bgv")
        return parser.emitError(parser.getCurrentLocation(),
                                "scheme must be bgv or bfv, got '")
               << scheme << "'";
      bfv = scheme == "bfv";
    } else if (key == "gamma" || key == "h" || key == "word" ||
               key == "scalePrimes") {
      int64_t v;
      if (parser.parseInteger(v))
        return failure();
      (key == "gamma"  ? gamma
       : key == "h"    ? h
       : key == "word" ? word
                       : scalePrimes) = v;
    } else {
      return parser.emitError(
                 parser.getCurrentLocation(),
                 "expected T, gamma, h, word, scalePrimes, plain or scheme, "
                 "got '")
             << key << "'";
    }
  }
  return success();
}

static void printOptionalParams(AsmPrinter &printer, ArrayRef<uint64_t> t,
                                int64_t gamma, int64_t h, int64_t word,
                                int64_t scalePrimes, uint64_t plain, bool bfv) {
  if (!t.empty()) {
    printer << ", T = [";
    llvm::interleaveComma(t, printer);
    printer << "]";
  }
  if (gamma)
    printer << ", gamma = " << gamma;
  if (h)
    printer << ", h = " << h;
  if (word != 64)
    printer << ", word = " << word;
  if (scalePrimes != 1)
    printer << ", scalePrimes = " << scalePrimes;
  if (plain)
    printer << ", plain = " << plain;
  if (bfv)
    printer << ", scheme = bfv";
}

#define GET_ATTRDEF_CLASSES
#include "dialects/CKKS/IR/CKKSAttributes.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/CKKS/IR/CKKSTypes.cpp.inc"

void CKKSDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "dialects/CKKS/IR/CKKSAttributes.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/CKKS/IR/CKKSTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dialects/CKKS/IR/CKKSOps.cpp.inc"
      >();
}

bool ember::ckks::scalesMatch(double a, double b) {
  return std::fabs(a - b) <=
         kScaleTolerance * std::max(std::fabs(a), std::fabs(b));
}

/// log2 q rounded: a run's primes lie within a prime gap of 2^bits
/// (generateQChain), on either side.
static int nominalBits(uint64_t q) {
  return static_cast<int>(std::lround(std::log2(static_cast<double>(q))));
}

int64_t ember::ckks::inputLevel(llvm::ArrayRef<uint64_t> q) {
  if (q.size() < 2)
    return static_cast<int64_t>(q.size()) - 1;
  int64_t level = 1;
  while (level + 1 < static_cast<int64_t>(q.size()) &&
         nominalBits(q[level + 1]) == nominalBits(q[1]))
    ++level;
  return level;
}

std::vector<double> ember::ckks::levelScales(llvm::ArrayRef<uint64_t> q,
                                             int64_t logScale) {
  std::vector<double> scales(q.size());
  const int64_t bottomTop = inputLevel(q);
  double s = 0;
  for (int64_t l = static_cast<int64_t>(q.size()) - 1; l >= 0; --l) {
    // A run's top level: its start scale.
    if (l == bottomTop)
      s = std::ldexp(1.0, static_cast<int>(logScale));
    else if (l > bottomTop && (l + 1 == static_cast<int64_t>(q.size()) ||
                               nominalBits(q[l + 1]) != nominalBits(q[l])))
      s = std::ldexp(1.0, nominalBits(q[l]));
    scales[l] = s;
    if (l > 0)
      s = s * s / static_cast<double>(q[l]);
  }
  return scales;
}

bool ember::ckks::isRunBoundary(llvm::ArrayRef<uint64_t> q,
                                llvm::ArrayRef<double> s, int64_t level) {
  if (level < 1 || level >= static_cast<int64_t>(q.size()))
    return false;
  return !scalesMatch(s[level - 1],
                      s[level] * s[level] / static_cast<double>(q[level]));
}

Operation *CKKSDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                            Type type, Location loc) {
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense || !ember::isSlotValuesAttr(dense) || !isa<PlaintextType>(type))
    return nullptr;
  return EncodeOp::create(builder, loc, type, dense);
}

/// Every ckks type in `module` (op results, block arguments and the types
/// inside attributes, such as function signatures, which is what
/// ckks-record-interface writes into the manifest) against the module's
/// parameters: at most N/2 slots, a level within the chain. A nested module
/// with its own parameters is checked against those, when its own attribute
/// is verified.
static LogicalResult verifyTypesAgainstParams(ModuleOp module,
                                              ParamsAttr params) {
  const int64_t maxSlots = int64_t{1} << (params.getLogN() - 1);
  const int64_t maxLevel = params.getMaxLevel();
  auto checkType = [&](Operation *op, Type type) -> LogicalResult {
    int64_t slots = 0, level = 0;
    if (auto ct = dyn_cast<CiphertextType>(type)) {
      slots = ct.getSlots();
      level = ct.getLevel();
    } else if (auto pt = dyn_cast<PlaintextType>(type)) {
      slots = pt.getSlots();
      level = pt.getLevel();
    } else {
      return success();
    }
    if (slots > maxSlots)
      return op->emitError("type ")
             << type << " has " << slots
             << " slots, more than N/2 = " << maxSlots
             << " of the module's parameters (logN = " << params.getLogN()
             << ")";
    if (level > maxLevel)
      return op->emitError("type ")
             << type << " is at level " << level
             << ", beyond the module's maximum level " << maxLevel << " ("
             << maxLevel + 1 << " Q primes)";
    return success();
  };
  // Walks `type` and the types nested in it (tensors of ciphertexts, ...).
  auto checkNested = [&](Operation *op, Type type) -> LogicalResult {
    LogicalResult result = success();
    type.walk([&](Type t) {
      if (succeeded(result))
        result = checkType(op, t);
    });
    return result;
  };
  WalkResult walk = module->walk<WalkOrder::PreOrder>([&](Operation *op) {
    if (op != module.getOperation() && isa<ModuleOp>(op) &&
        op->hasAttr(CKKSDialect::kParamsAttrName))
      return WalkResult::skip();
    for (Type type : op->getResultTypes())
      if (failed(checkNested(op, type)))
        return WalkResult::interrupt();
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (BlockArgument arg : block.getArguments())
          if (failed(checkNested(op, arg.getType())))
            return WalkResult::interrupt();
    LogicalResult inAttrs = success();
    op->getAttrDictionary().walk([&](Type type) {
      if (succeeded(inAttrs))
        inAttrs = checkType(op, type);
    });
    return failed(inAttrs) ? WalkResult::interrupt() : WalkResult::advance();
  });
  return failure(walk.wasInterrupted());
}

LogicalResult CKKSDialect::verifyOperationAttribute(Operation *op,
                                                    NamedAttribute attr) {
  if (attr.getName() == kScaleAdjustAttrName) {
    if (!isa<MulPlainOp>(op) || !isa<UnitAttr>(attr.getValue()))
      return op->emitError("'") << kScaleAdjustAttrName
                                << "' is a unit attribute of ckks.mul_plain";
    return success();
  }
  if (attr.getName() != kParamsAttrName)
    return op->emitError("unknown ckks attribute '")
           << attr.getName().getValue() << "'";
  if (!isa<ModuleOp>(op))
    return op->emitError("'") << kParamsAttrName << "' belongs on a module";
  auto params = dyn_cast<ParamsAttr>(attr.getValue());
  if (!params)
    return op->emitError("'")
           << kParamsAttrName << "' must be a #ckks.params attribute";
  return verifyTypesAgainstParams(cast<ModuleOp>(op), params);
}

//===----------------------------------------------------------------------===//
// #ckks.params
//===----------------------------------------------------------------------===//

/// The largest prime the runtime's words hold
/// (WordTraits<uint64_t / uint32_t>::kMaxPrimeBits).
static int64_t maxPrimeBits(int64_t word) { return word == 32 ? 30 : 61; }

double ParamsAttr::getDefaultScale() const {
  return std::ldexp(1.0, getLogScale());
}

int64_t ember::ckks::baseLimbs(int64_t scalePrimes) {
  return scalePrimes == 2 ? 3 : 1;
}

std::vector<uint64_t> ember::ckks::levelModuli(ArrayRef<uint64_t> q,
                                               int64_t scalePrimes) {
  if (scalePrimes == 1)
    return std::vector<uint64_t>(q.begin(), q.end());
  const int64_t base = baseLimbs(scalePrimes);
  const int64_t levels = (static_cast<int64_t>(q.size()) - base) / 2;
  std::vector<uint64_t> out(levels + 1, 0);
  for (int64_t l = 1; l <= levels; ++l) {
    // Level l's pair is q[base + 2(l-1)], q[base + 2(l-1) + 1]; 30-bit
    // primes, so the product fits a word.
    const int64_t a = base + 2 * (l - 1);
    out[l] = q[a] * q[a + 1];
  }
  return out;
}

double ember::ckks::baseBits(ArrayRef<uint64_t> q, int64_t scalePrimes) {
  double bits = 0;
  for (int64_t i = 0; i < baseLimbs(scalePrimes); ++i)
    bits += std::log2(static_cast<double>(q[i]));
  return bits;
}

std::vector<uint64_t> ParamsAttr::getLevelModuli() const {
  return levelModuli(getQ(), getScalePrimes());
}

double ParamsAttr::getBaseBits() const {
  return baseBits(getQ(), getScalePrimes());
}

int64_t ParamsAttr::getInputLevel() const {
  return inputLevel(getLevelModuli());
}

double ParamsAttr::getLevelScale(int64_t level) const {
  return levelScales(getLevelModuli(), getLogScale())[level];
}

int64_t ParamsAttr::getLogQP() const { return ember::logQP(getQ(), getP()); }

double ParamsAttr::getBfvDelta() const {
  return ember::bgv::bfvDelta(getQ().vec(), getPlain());
}

std::vector<int> ParamsAttr::getDigitSizes() const {
  return ember::digitSizes(getQ(), getP(), getDnum());
}

int64_t ParamsAttr::getKlssGroups(int64_t level) const {
  int64_t gamma = getGamma() > 0 ? getGamma() : 1;
  return (static_cast<int64_t>(getP().size()) + level + 1 + gamma - 1) / gamma;
}

uint64_t ParamsAttr::getHybridKeyBytes() const {
  return getDigitSizes().size() * getKeyDigitBytes();
}

uint64_t ParamsAttr::getKeyDigitBytes() const {
  return 2 * (getQ().size() + getP().size()) * (uint64_t{1} << getLogN()) *
         getWordBytes();
}

uint64_t ParamsAttr::getToSparseKeyBytes() const {
  return static_cast<uint64_t>(getBaseLimbs()) * getKeyDigitBytes();
}

uint64_t ParamsAttr::getKlssKeyBytes() const {
  return getDigitSizes().size() * getKlssGroups(getQ().size() - 1) * 2 *
         getT().size() * (uint64_t{1} << getLogN()) * getWordBytes();
}

double ember::ckks::klssTBitsNeeded(int64_t logN, ArrayRef<uint64_t> q,
                                    ArrayRef<uint64_t> p, int64_t dnum,
                                    int64_t gamma) {
  // Mirrors Context::klssTBitsNeeded of the runtime: digits of
  // ember::digitSizes, key groups of gamma primes in the order
  // p_0..p_{K-1}, q_0..q_L.
  std::vector<int> digits = ember::digitSizes(q, p, dnum);
  double digit = 0, group = 0;
  size_t start = 0;
  for (int size : digits) {
    double bits = 0;
    for (size_t i = start; i < start + size; ++i)
      bits += std::log2(static_cast<double>(q[i]));
    digit = std::max(digit, bits);
    start += size;
  }
  std::vector<uint64_t> order(p.begin(), p.end());
  order.insert(order.end(), q.begin(), q.end());
  for (size_t k = 0; k < order.size(); k += gamma) {
    double bits = 0;
    for (size_t i = k; i < std::min(order.size(), k + size_t(gamma)); ++i)
      bits += std::log2(static_cast<double>(order[i]));
    group = std::max(group, bits);
  }
  return std::log2(static_cast<double>(digits.size())) + logN + digit + group +
         1;
}

double ember::ckks::log2Product(ArrayRef<uint64_t> primes) {
  double bits = 0;
  for (uint64_t prime : primes)
    bits += std::log2(static_cast<double>(prime));
  return bits;
}

std::vector<uint64_t> ember::ckks::fewestTPrimes(int64_t logN,
                                                 ArrayRef<uint64_t> q,
                                                 ArrayRef<uint64_t> p,
                                                 int64_t dnum, int64_t gamma,
                                                 int64_t word) {
  std::vector<uint64_t> exclude(q.begin(), q.end());
  exclude.insert(exclude.end(), p.begin(), p.end());
  const double need = klssTBitsNeeded(logN, q, p, dnum, gamma);
  const int bits = tempPrimeBits(word);
  for (int count = static_cast<int>(std::ceil(need / bits));; ++count) {
    std::vector<uint64_t> t = ember::generateNttPrimes(
        static_cast<int>(logN), std::vector<int>(count, bits), exclude);
    if (log2Product(t) >= need)
      return t;
  }
}

ParamsAttr ParamsAttr::lookup(Operation *op) {
  for (; op; op = op->getParentOp())
    if (auto attr = op->getAttrOfType<ParamsAttr>(CKKSDialect::kParamsAttrName))
      return attr;
  return {};
}

LogicalResult ParamsAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 int64_t logN, ArrayRef<uint64_t> q,
                                 ArrayRef<uint64_t> p, int64_t logScale,
                                 int64_t dnum, int64_t security,
                                 ArrayRef<uint64_t> t, int64_t gamma, int64_t h,
                                 int64_t word, int64_t scalePrimes,
                                 uint64_t plain, bool bfv) {
  if (logN < 10 || logN > 17)
    return emitError() << "logN = " << logN << " is outside 10..17";
  if (q.empty())
    return emitError() << "Q needs at least one prime";
  if (p.empty())
    return emitError() << "P needs at least one prime";
  if (word != 32 && word != 64)
    return emitError() << "word = " << word << " must be 32 or 64";
  if (scalePrimes != 1 && scalePrimes != 2)
    return emitError() << "scalePrimes = " << scalePrimes
                       << " must be 1 or 2 (double-prime scaling)";
  if (scalePrimes == 2 && (q.size() < 3 || q.size() % 2 == 0))
    return emitError() << "double-prime scaling needs q_0 and pairs of primes "
                          "(an odd count, at least 3), got "
                       << q.size() << " Q primes";
  const uint64_t twoN = uint64_t{2} << logN;
  for (ArrayRef<uint64_t> primes : {q, p, t})
    for (uint64_t prime : primes)
      if (ember::primeBits(prime) > maxPrimeBits(word))
        return emitError() << "prime " << prime << " has "
                           << ember::primeBits(prime)
                           << " bits, more than the runtime's " << word
                           << "-bit words hold (" << maxPrimeBits(word) << ")";
  for (ArrayRef<uint64_t> primes : {q, p})
    for (uint64_t prime : primes) {
      if (prime % twoN != 1 || !ember::isPrime(prime))
        return emitError() << prime << " is not an NTT prime (prime, = 1 mod "
                           << twoN << ")";
      if (llvm::count(q, prime) + llvm::count(p, prime) > 1)
        return emitError() << "prime " << prime
                           << " appears more than once in Q and P";
    }
  if (t.empty() != (gamma == 0))
    return emitError() << "a KLSS form needs both T (temporary primes, "
                       << (t.empty() ? "missing" : "given") << ") and gamma ("
                       << (gamma ? "given" : "missing") << ")";
  if (gamma < 0)
    return emitError() << "gamma = " << gamma << " must be positive";

  for (uint64_t prime : t) {
    if (prime % twoN != 1 || !ember::isPrime(prime))
      return emitError() << "T prime " << prime
                         << " is not an NTT prime (prime, = 1 mod " << twoN
                         << ")";
    if (llvm::is_contained(q, prime) || llvm::is_contained(p, prime) ||
        llvm::count(t, prime) > 1)
      return emitError() << "T prime " << prime
                         << " is not distinct from the other Q, P and T primes";
  }
  if (logScale < 1 || logScale > 60)
    return emitError() << "logScale = " << logScale << " is outside 1..60";
  if (bfv && !plain)
    return emitError() << "scheme = bfv needs a plaintext modulus (plain = t)";
  if (plain) {
    // The runtime's BGV needs t prime, batching (t = 1 mod 2N), below
    // every prime (ember/bgv.h checkPlainModulus) and carried exactly in
    // a double (kMaxPlainModulus).
    if (plain <= 2 || plain >= (uint64_t{1} << 52) || !ember::isPrime(plain))
      return emitError() << "plaintext modulus " << plain
                         << " must be a prime in 3..2^52";
    if (plain % twoN != 1)
      return emitError() << "plaintext modulus " << plain
                         << " is not 1 mod 2N = " << twoN
                         << " (it does not batch at N = 2^" << logN << ")";
    for (ArrayRef<uint64_t> primes : {q, p})
      for (uint64_t prime : primes)
        if (prime <= plain)
          return emitError() << "prime " << prime
                             << " is not above the plaintext modulus " << plain;
    if (word != 64 || scalePrimes != 1)
      return emitError() << "a BGV chain takes 64-bit words and one prime "
                            "per level";
  }
  if (dnum < 1 || dnum > static_cast<int64_t>(q.size()))
    return emitError() << "dnum = " << dnum << " is outside 1.." << q.size();
  if (!t.empty()) {
    double need = klssTBitsNeeded(logN, q, p, dnum, gamma);
    double have = log2Product(t);
    auto oneDecimal = [](double v) {
      std::string text;
      llvm::raw_string_ostream(text) << llvm::format("%.1f", v);
      return text;
    };
    if (have < need)
      return emitError() << "the KLSS temporary basis T has "
                         << oneDecimal(have) << " bits (" << t.size()
                         << " primes) but the exact products need "
                         << oneDecimal(need)
                         << " (log2 digits + logN + largest digit + largest "
                            "key group of gamma = "
                         << gamma
                         << " primes + 1): add T primes or lower gamma";
  }
  if (security != 128 && security != 0)
    return emitError() << "security must be 128 or 0 (insecure test mode), got "
                       << security;
  if (h < 0 || h > (int64_t{1} << logN))
    return emitError() << "Hamming weight h = " << h << " is outside 0..N";
  if (security == 128) {
    int64_t logQP = ember::logQP(q, p);
    int64_t bound = h ? ember::maxLogQPSparse128(static_cast<int>(logN),
                                                 static_cast<int>(h))
                      : ember::maxLogQP128(logN);
    if (logQP > bound)
      return emitError() << "log2(QP) = " << logQP << " exceeds " << bound
                         << ", the 128-bit security bound for N = 2^" << logN
                         << (h ? " and a secret of Hamming weight " +
                                     std::to_string(h)
                               : std::string());
  }
  // Hybrid key switching divides a digit times the key error by P: the
  // runtime refuses a P smaller than a digit (Context's constructor, with
  // the same bit of slack).
  std::vector<int> digitSizes = ember::digitSizes(q, p, dnum);
  double logP = log2Product(p);
  for (size_t d = 0, start = 0; d < digitSizes.size();
       start += digitSizes[d], ++d) {
    double logDigit = log2Product(q.slice(start, digitSizes[d]));
    if (logP + 1 < logDigit)
      return emitError() << "P has " << static_cast<int64_t>(logP)
                         << " bits, fewer than key-switching digit " << d
                         << " (" << static_cast<int64_t>(std::ceil(logDigit))
                         << " bits): add P primes or raise dnum";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// Types: !ckks.ct<slots, level = L, scale = S[, degree = D]>,
//        !ckks.pt<slots, level = L, scale = S>
//===----------------------------------------------------------------------===//

static LogicalResult verifyScaled(function_ref<InFlightDiagnostic()> emitError,
                                  int64_t slots, int64_t level,
                                  uint64_t scaleBits) {
  if (failed(ember::verifySlotCount(emitError, slots)))
    return failure();
  if (level < 0)
    return emitError() << "level must be non-negative, got " << level;
  double scale = llvm::bit_cast<double>(scaleBits);
  if (!std::isfinite(scale) || scale <= 0)
    return emitError() << "scale must be positive and finite, got "
                       << formatScale(scale);
  return success();
}

LogicalResult
CiphertextType::verify(function_ref<InFlightDiagnostic()> emitError,
                       int64_t slots, int64_t level, uint64_t scaleBits,
                       int64_t degree) {
  if (failed(verifyScaled(emitError, slots, level, scaleBits)))
    return failure();
  if (degree != 2 && degree != 3)
    return emitError() << "degree must be 2 or 3, got " << degree;
  return success();
}

LogicalResult
PlaintextType::verify(function_ref<InFlightDiagnostic()> emitError,
                      int64_t slots, int64_t level, uint64_t scaleBits) {
  return verifyScaled(emitError, slots, level, scaleBits);
}

std::string ember::ckks::formatScale(double scale) {
  std::string text;
  llvm::raw_string_ostream(text) << llvm::format("%.17g", scale);
  if (text.find('.') == std::string::npos) {
    size_t e = text.find('e');
    text.insert(e == std::string::npos ? text.size() : e, ".0");
  }
  return text;
}

void CKKSDialect::printType(Type type, DialectAsmPrinter &printer) const {
  auto print = [&](StringRef mnemonic, int64_t slots, int64_t level,
                   double scale) {
    printer << mnemonic << "<" << slots << ", level = " << level
            << ", scale = ";
    printer << formatScale(scale);
  };
  if (auto ct = dyn_cast<CiphertextType>(type)) {
    print("ct", ct.getSlots(), ct.getLevel(), ct.getScale());
    if (ct.getDegree() != 2)
      printer << ", degree = " << ct.getDegree();
    printer << ">";
    return;
  }
  auto pt = cast<PlaintextType>(type);
  print("pt", pt.getSlots(), pt.getLevel(), pt.getScale());
  printer << ">";
}

Type CKKSDialect::parseType(DialectAsmParser &parser) const {
  StringRef mnemonic;
  SMLoc loc = parser.getCurrentLocation();
  if (parser.parseKeyword(&mnemonic))
    return {};
  if (mnemonic != "ct" && mnemonic != "pt") {
    parser.emitError(loc, "unknown ckks type '") << mnemonic << "'";
    return {};
  }
  int64_t slots = 0, level = 0, degree = 2;
  double scale = 0;
  if (parser.parseLess() || parser.parseInteger(slots) || parser.parseComma() ||
      parser.parseKeyword("level") || parser.parseEqual() ||
      parser.parseInteger(level) || parser.parseComma() ||
      parser.parseKeyword("scale") || parser.parseEqual() ||
      parser.parseFloat(scale))
    return {};
  if (mnemonic == "ct" && succeeded(parser.parseOptionalComma()) &&
      (parser.parseKeyword("degree") || parser.parseEqual() ||
       parser.parseInteger(degree)))
    return {};
  if (parser.parseGreater())
    return {};
  auto emitError = [&] { return parser.emitError(loc); };
  if (mnemonic == "ct")
    return CiphertextType::getChecked(emitError, getContext(), slots, level,
                                      scale, degree);
  return PlaintextType::getChecked(emitError, getContext(), slots, level,
                                   scale);
}
