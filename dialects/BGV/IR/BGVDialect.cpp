//===- BGVDialect.cpp - bgv dialect, types and ops ------------------------===//
#include "dialects/BGV/IR/BGVDialect.h"
#include "dialects/CKKS/IR/CKKSDialect.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace ember::bgv;

#include "dialects/BGV/IR/BGVDialect.cpp.inc"

/// `, scaled` (BFV's Delta m plaintexts) or nothing.
static ParseResult parseScaled(AsmParser &parser, bool &scaled) {
  scaled = succeeded(parser.parseOptionalComma());
  return scaled ? parser.parseKeyword("scaled") : success();
}

static void printScaled(AsmPrinter &printer, bool scaled) {
  if (scaled)
    printer << ", scaled";
}

#define GET_TYPEDEF_CLASSES
#include "dialects/BGV/IR/BGVTypes.cpp.inc"

#define GET_OP_CLASSES
#include "dialects/BGV/IR/BGVOps.cpp.inc"

void BGVDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/BGV/IR/BGVTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dialects/BGV/IR/BGVOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

static LogicalResult verifyShape(function_ref<InFlightDiagnostic()> emitError,
                                 int64_t slots, int64_t level,
                                 uint64_t factor) {
  if (slots < 1 || slots > (int64_t{1} << 16) || (slots & (slots - 1)))
    return emitError() << "slots = " << slots
                       << " must be a power of two in 1..65536";
  if (level < 0)
    return emitError() << "level = " << level << " must be >= 0";
  if (factor == 0)
    return emitError() << "factor must be in [1, t), got 0";
  return success();
}

LogicalResult
CiphertextType::verify(function_ref<InFlightDiagnostic()> emitError,
                       int64_t slots, int64_t level, uint64_t factor,
                       int64_t degree) {
  if (degree != 2 && degree != 3)
    return emitError() << "degree = " << degree << " must be 2 or 3";
  return verifyShape(emitError, slots, level, factor);
}

LogicalResult
PlaintextType::verify(function_ref<InFlightDiagnostic()> emitError,
                      int64_t slots, int64_t level, uint64_t factor, bool) {
  return verifyShape(emitError, slots, level, factor);
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

namespace {

/// The module's plaintext modulus, or 0 when the op is not (yet) under a
/// BGV chain (factor arithmetic is then unchecked).
uint64_t plainModulus(Operation *op) {
  ember::ckks::ParamsAttr params = ember::ckks::ParamsAttr::lookup(op);
  return params ? params.getPlain() : 0;
}

/// True under a BFV chain (`scheme = bfv`).
bool underBfv(Operation *op) {
  ember::ckks::ParamsAttr params = ember::ckks::ParamsAttr::lookup(op);
  return params && params.isBfv();
}

/// BFV ciphertexts live at the chain's top level: an error otherwise.
LogicalResult checkBfvLevel(Operation *op, int64_t level) {
  ember::ckks::ParamsAttr params = ember::ckks::ParamsAttr::lookup(op);
  if (params && params.isBfv() && level != params.getMaxLevel())
    return op->emitOpError() << "a BFV value at level " << level
                             << ": BFV ciphertexts and plaintexts stay at the "
                                "full modulus Q (level "
                             << params.getMaxLevel() << ")";
  return success();
}

/// A plaintext's form against the chain: BFV's add_plain/sub_plain take
/// `scaled` plaintexts (Delta m), its mul_plain the plain m; BGV has no
/// scaled form.
LogicalResult checkPlainForm(Operation *op, PlaintextType pt, bool added) {
  const bool bfv = underBfv(op);
  if (pt.getScaled() && !(bfv && added))
    return op->emitOpError()
           << (bfv ? "multiplies by a scaled (Delta m) plaintext; BFV's "
                     "mul_plain takes the unscaled m"
                   : "takes a scaled plaintext, which only BFV chains have");
  if (bfv && added && !pt.getScaled())
    return op->emitOpError() << "adds an unscaled plaintext under a BFV chain "
                                "(add_plain and sub_plain take Delta m: "
                                "`scaled`)";
  return success();
}

/// A product's factor: `result` is fa fb (mod t) under a chain with t.
LogicalResult checkProductFactor(Operation *op, uint64_t fa, uint64_t fb,
                                 uint64_t result, uint64_t t) {
  if (!t)
    return success();
  const uint64_t f = mulMod(fa, fb, t);
  if (result != f)
    return op->emitOpError() << "result factor " << result
                             << " is not the product of the factors mod " << t
                             << " (" << f << ")";
  return success();
}

/// Checks a factor against the chain's t: in [1, t).
LogicalResult checkFactor(Operation *op, uint64_t factor, uint64_t t) {
  if (t && factor >= t)
    return op->emitOpError() << "factor " << factor
                             << " is not below the plaintext modulus " << t;
  return success();
}

std::optional<Location> locOf(std::optional<Location> loc) { return loc; }

LogicalResult fail(std::optional<Location> loc, const Twine &message) {
  if (loc)
    return emitError(*loc, message);
  return failure();
}

LogicalResult sameShape(std::optional<Location> loc, int64_t slotsA,
                        int64_t levelA, uint64_t factorA, int64_t slotsB,
                        int64_t levelB, uint64_t factorB, StringRef what) {
  if (slotsA != slotsB)
    return fail(loc, what + ": slots differ (" + Twine(slotsA) + " and " +
                         Twine(slotsB) + ")");
  if (levelA != levelB)
    return fail(loc, what + ": levels differ (" + Twine(levelA) + " and " +
                         Twine(levelB) + "); switch the higher one down");
  if (factorA != factorB)
    return fail(loc, what + ": factors differ (" + Twine(factorA) + " and " +
                         Twine(factorB) +
                         "); scale one by the ratio of the factors mod t");
  return success();
}

} // namespace

#define CT_CT_INFERENCE(OP, WHAT)                                              \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *, std::optional<Location> loc, ValueRange operands,         \
      DictionaryAttr, OpaqueProperties, RegionRange,                           \
      SmallVectorImpl<Type> &results) {                                        \
    auto a = cast<CiphertextType>(operands[0].getType());                      \
    auto b = cast<CiphertextType>(operands[1].getType());                      \
    if (failed(sameShape(locOf(loc), a.getSlots(), a.getLevel(),               \
                         a.getFactor(), b.getSlots(), b.getLevel(),            \
                         b.getFactor(), WHAT)))                                \
      return failure();                                                        \
    results.push_back(a.withDegree(std::max(a.getDegree(), b.getDegree())));   \
    return success();                                                          \
  }
CT_CT_INFERENCE(AddOp, "bgv.add")
CT_CT_INFERENCE(SubOp, "bgv.sub")
#undef CT_CT_INFERENCE

#define CT_PT_INFERENCE(OP, WHAT)                                              \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *, std::optional<Location> loc, ValueRange operands,         \
      DictionaryAttr, OpaqueProperties, RegionRange,                           \
      SmallVectorImpl<Type> &results) {                                        \
    auto a = cast<CiphertextType>(operands[0].getType());                      \
    auto p = cast<PlaintextType>(operands[1].getType());                       \
    if (failed(sameShape(locOf(loc), a.getSlots(), a.getLevel(),               \
                         a.getFactor(), p.getSlots(), p.getLevel(),            \
                         p.getFactor(), WHAT)))                                \
      return failure();                                                        \
    results.push_back(a);                                                      \
    return success();                                                          \
  }
CT_PT_INFERENCE(AddPlainOp, "bgv.add_plain")
CT_PT_INFERENCE(SubPlainOp, "bgv.sub_plain")
#undef CT_PT_INFERENCE

#define SAME_TYPE_INFERENCE(OP)                                                \
  LogicalResult OP::inferReturnTypes(MLIRContext *, std::optional<Location>,   \
                                     ValueRange operands, DictionaryAttr,      \
                                     OpaqueProperties, RegionRange,            \
                                     SmallVectorImpl<Type> &results) {         \
    results.push_back(operands[0].getType());                                  \
    return success();                                                          \
  }
SAME_TYPE_INFERENCE(MulIntOp)
SAME_TYPE_INFERENCE(AddIntOp)
SAME_TYPE_INFERENCE(NegOp)
#undef SAME_TYPE_INFERENCE

LogicalResult RotateOp::inferReturnTypes(MLIRContext *,
                                         std::optional<Location> loc,
                                         ValueRange operands, DictionaryAttr,
                                         OpaqueProperties, RegionRange,
                                         SmallVectorImpl<Type> &results) {
  auto a = cast<CiphertextType>(operands[0].getType());
  if (a.getDegree() != 2)
    return fail(loc, "bgv.rotate takes a degree-2 ciphertext (relinearize "
                     "first)");
  results.push_back(a);
  return success();
}

LogicalResult RelinearizeOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> loc,
                                              ValueRange operands,
                                              DictionaryAttr, OpaqueProperties,
                                              RegionRange,
                                              SmallVectorImpl<Type> &results) {
  auto a = cast<CiphertextType>(operands[0].getType());
  if (a.getDegree() != 3)
    return fail(loc, "bgv.relinearize takes a degree-3 ciphertext");
  results.push_back(a.withDegree(2));
  return success();
}

LogicalResult EncodeOp::verify() {
  auto pt = cast<PlaintextType>(getType());
  auto shaped = dyn_cast<ShapedType>(getValue().getType());
  if (!shaped || shaped.getRank() != 1 ||
      !shaped.getElementType().isInteger(64))
    return emitOpError() << "values must be a 1-d tensor of i64";
  if (shaped.getDimSize(0) != pt.getSlots())
    return emitOpError() << shaped.getDimSize(0)
                         << " values for a plaintext of " << pt.getSlots()
                         << " slots";
  if (pt.getScaled() && !underBfv(*this))
    return emitOpError() << "encodes a scaled plaintext, which only BFV "
                            "chains have";
  if (failed(checkBfvLevel(*this, pt.getLevel())))
    return failure();
  return checkFactor(*this, pt.getFactor(), plainModulus(*this));
}

LogicalResult EncodeValuesOp::verify() {
  auto pt = cast<PlaintextType>(getType());
  auto values = cast<ShapedType>(getValues().getType());
  if (values.getDimSize(0) != pt.getSlots())
    return emitOpError() << values.getDimSize(0)
                         << " values for a plaintext of " << pt.getSlots()
                         << " slots";
  if (pt.getScaled() && !underBfv(*this))
    return emitOpError() << "encodes a scaled plaintext, which only BFV "
                            "chains have";
  if (failed(checkBfvLevel(*this, pt.getLevel())))
    return failure();
  return checkFactor(*this, pt.getFactor(), plainModulus(*this));
}

LogicalResult MulOp::verify() {
  auto a = getLhs().getType(), b = getRhs().getType();
  auto r = getResult().getType();
  if (a.getDegree() != 2 || b.getDegree() != 2)
    return emitOpError() << "takes degree-2 ciphertexts (relinearize first)";
  if (a.getSlots() != b.getSlots() || a.getLevel() != b.getLevel())
    return emitOpError() << "operands differ in slots or level ("
                         << a.getLevel() << " and " << b.getLevel() << ")";
  if (r.getDegree() != 3 || r.getLevel() != a.getLevel() ||
      r.getSlots() != a.getSlots())
    return emitOpError() << "result must be degree 3 at the operands' level";
  if (failed(checkBfvLevel(*this, a.getLevel())))
    return failure();
  return checkProductFactor(*this, a.getFactor(), b.getFactor(), r.getFactor(),
                            plainModulus(*this));
}

LogicalResult MulPlainOp::verify() {
  auto a = getCiphertext().getType();
  auto p = getPlaintext().getType();
  auto r = getResult().getType();
  if (a.getSlots() != p.getSlots() || a.getLevel() != p.getLevel())
    return emitOpError() << "plaintext differs in slots or level ("
                         << a.getLevel() << " and " << p.getLevel() << ")";
  if (r.getDegree() != a.getDegree() || r.getLevel() != a.getLevel() ||
      r.getSlots() != a.getSlots())
    return emitOpError() << "result must keep the ciphertext's slots, level "
                            "and degree";
  if (failed(checkPlainForm(*this, p, /*added=*/false)))
    return failure();
  return checkProductFactor(*this, a.getFactor(), p.getFactor(), r.getFactor(),
                            plainModulus(*this));
}

LogicalResult ModSwitchOp::verify() {
  auto a = getInput().getType();
  auto r = getResult().getType();
  if (underBfv(*this))
    return emitOpError() << "under a BFV chain: BFV ciphertexts stay at the "
                            "full modulus Q (no modulus switching)";
  if (a.getLevel() == 0)
    return emitOpError() << "at level 0: no prime left to switch away";
  if (r.getLevel() != a.getLevel() - 1 || r.getSlots() != a.getSlots() ||
      r.getDegree() != a.getDegree())
    return emitOpError() << "result must be one level lower ("
                         << a.getLevel() - 1 << "), same slots and degree";
  ember::ckks::ParamsAttr params = ember::ckks::ParamsAttr::lookup(*this);
  if (params && params.getPlain()) {
    if (a.getLevel() > params.getMaxLevel())
      return emitOpError() << "level " << a.getLevel()
                           << " is above the chain's " << params.getMaxLevel();
    uint64_t f = switchedFactor(a.getFactor(), params.getQ()[a.getLevel()],
                                params.getPlain());
    if (r.getFactor() != f)
      return emitOpError() << "result factor " << r.getFactor()
                           << " is not mu q_" << a.getLevel() << "^-1 mod t ("
                           << f << ")";
  }
  return success();
}

LogicalResult AdjustFactorOp::verify() {
  auto a = getInput().getType();
  auto r = getResult().getType();
  if (r.getLevel() != a.getLevel() || r.getSlots() != a.getSlots() ||
      r.getDegree() != a.getDegree())
    return emitOpError() << "result must keep slots, level and degree";
  if (underBfv(*this))
    return emitOpError() << "under a BFV chain: BFV has no factors to adjust";
  if (uint64_t t = plainModulus(*this)) {
    int64_t v = static_cast<int64_t>(getValue()) % static_cast<int64_t>(t);
    uint64_t c = static_cast<uint64_t>(v < 0 ? v + static_cast<int64_t>(t) : v);
    if (mulMod(a.getFactor(), c, t) != r.getFactor() % t)
      return emitOpError() << "factor " << a.getFactor() << " times "
                           << static_cast<int64_t>(getValue()) << " is not "
                           << r.getFactor() << " mod " << t;
  }
  return success();
}

LogicalResult AddPlainOp::verify() {
  return checkPlainForm(*this, getPlaintext().getType(), /*added=*/true);
}

LogicalResult SubPlainOp::verify() {
  return checkPlainForm(*this, getPlaintext().getType(), /*added=*/true);
}
