//===- CKKSOps.cpp - ckks ops: verifiers, type inference, folders ---------===//
#include "dialects/CKKS/IR/CKKSDialect.h"
#include "dialects/Common/SlotVectors.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

#include <cmath>
#include <optional>

using namespace mlir;
using namespace ember::ckks;

#define GET_OP_CLASSES
#include "dialects/CKKS/IR/CKKSOps.cpp.inc"

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

LogicalResult ember::ckks::detail::verifyNeedsLinearInput(Operation *op) {
  for (OpOperand &operand : op->getOpOperands())
    if (auto ct = dyn_cast<CiphertextType>(operand.get().getType());
        ct && ct.getDegree() != 2)
      return op->emitOpError("operand #")
             << operand.getOperandNumber() << " has degree " << ct.getDegree()
             << "; this op needs degree 2 (relinearize first)";
  return success();
}

/// Checks what every two-operand op needs: equal slots and levels, and (when
/// `sameScale`) equal scales.
static LogicalResult checkOperands(std::optional<Location> loc,
                                   StringRef opName, int64_t slotsA,
                                   int64_t levelA, double scaleA,
                                   int64_t slotsB, int64_t levelB,
                                   double scaleB, bool sameScale) {
  if (slotsA != slotsB)
    return emitOptionalError(loc, "'", opName,
                             "' operands have different slot counts (", slotsA,
                             " vs ", slotsB, ")");
  if (levelA != levelB)
    return emitOptionalError(loc, "'", opName,
                             "' operands are at different levels (", levelA,
                             " vs ", levelB, "); mod_drop the higher one");
  if (sameScale && !scalesMatch(scaleA, scaleB))
    return emitOptionalError(
        loc, "'", opName, "' operands have different scales (",
        formatScale(scaleA), " vs ", formatScale(scaleB), ")");
  return success();
}

/// A product's scale is the product of the scales; it must stay a finite
/// double (the result type could not hold it otherwise).
static LogicalResult checkProductScale(std::optional<Location> loc,
                                       StringRef opName, double a, double b) {
  if (!std::isfinite(a * b))
    return emitOptionalError(loc, "'", opName, "' result scale ",
                             formatScale(a), " * ", formatScale(b),
                             " overflows a double");
  return success();
}

//===----------------------------------------------------------------------===//
// Type inference (the inference is the verifier of these ops)
//===----------------------------------------------------------------------===//

static LogicalResult inferCtCt(StringRef name, bool isMul,
                               std::optional<Location> loc, ValueRange operands,
                               SmallVectorImpl<Type> &results) {
  auto a = cast<CiphertextType>(operands[0].getType());
  auto b = cast<CiphertextType>(operands[1].getType());
  if (failed(checkOperands(loc, name, a.getSlots(), a.getLevel(), a.getScale(),
                           b.getSlots(), b.getLevel(), b.getScale(), !isMul)))
    return failure();
  if (isMul) {
    if (a.getDegree() != 2 || b.getDegree() != 2)
      return emitOptionalError(loc,
                               "'ckks.mul' operands must have degree 2 "
                               "(relinearize first), got ",
                               a.getDegree(), " and ", b.getDegree());
    if (failed(checkProductScale(loc, name, a.getScale(), b.getScale())))
      return failure();
    results.push_back(CiphertextType::get(a.getContext(), a.getSlots(),
                                          a.getLevel(),
                                          a.getScale() * b.getScale(), 3));
    return success();
  }
  results.push_back(a.withDegree(std::max(a.getDegree(), b.getDegree())));
  return success();
}

#define EMBER_CTCT_INFER(OP, NAME, IS_MUL)                                     \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *, std::optional<Location> loc, ValueRange operands,         \
      DictionaryAttr, OpaqueProperties, RegionRange,                           \
      SmallVectorImpl<Type> &results) {                                        \
    return inferCtCt(NAME, IS_MUL, loc, operands, results);                    \
  }
EMBER_CTCT_INFER(AddOp, "ckks.add", false)
EMBER_CTCT_INFER(SubOp, "ckks.sub", false)
EMBER_CTCT_INFER(MulOp, "ckks.mul", true)
#undef EMBER_CTCT_INFER

static LogicalResult inferCtPt(StringRef name, bool isMul,
                               std::optional<Location> loc, ValueRange operands,
                               SmallVectorImpl<Type> &results) {
  auto ct = cast<CiphertextType>(operands[0].getType());
  auto pt = cast<PlaintextType>(operands[1].getType());
  if (failed(checkOperands(loc, name, ct.getSlots(), ct.getLevel(),
                           ct.getScale(), pt.getSlots(), pt.getLevel(),
                           pt.getScale(), !isMul)))
    return failure();
  if (isMul &&
      failed(checkProductScale(loc, name, ct.getScale(), pt.getScale())))
    return failure();
  results.push_back(
      isMul ? ct.withLevelAndScale(ct.getLevel(), ct.getScale() * pt.getScale())
            : ct);
  return success();
}

#define EMBER_CTPT_INFER(OP, NAME, IS_MUL)                                     \
  LogicalResult OP::inferReturnTypes(                                          \
      MLIRContext *, std::optional<Location> loc, ValueRange operands,         \
      DictionaryAttr, OpaqueProperties, RegionRange,                           \
      SmallVectorImpl<Type> &results) {                                        \
    return inferCtPt(NAME, IS_MUL, loc, operands, results);                    \
  }
EMBER_CTPT_INFER(MulPlainOp, "ckks.mul_plain", true)
EMBER_CTPT_INFER(AddPlainOp, "ckks.add_plain", false)
EMBER_CTPT_INFER(SubPlainOp, "ckks.sub_plain", false)
#undef EMBER_CTPT_INFER

LogicalResult NegOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                                      ValueRange operands, DictionaryAttr,
                                      OpaqueProperties, RegionRange,
                                      SmallVectorImpl<Type> &results) {
  results.push_back(operands[0].getType());
  return success();
}

LogicalResult MulIntOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                                         ValueRange operands, DictionaryAttr,
                                         OpaqueProperties, RegionRange,
                                         SmallVectorImpl<Type> &results) {
  results.push_back(operands[0].getType());
  return success();
}

LogicalResult MulIOp::inferReturnTypes(MLIRContext *, std::optional<Location>,
                                       ValueRange operands, DictionaryAttr,
                                       OpaqueProperties, RegionRange,
                                       SmallVectorImpl<Type> &results) {
  results.push_back(operands[0].getType());
  return success();
}

LogicalResult
TileOp::inferReturnTypes(MLIRContext *ctx, std::optional<Location> loc,
                         ValueRange operands, DictionaryAttr attributes,
                         OpaqueProperties properties, RegionRange regions,
                         SmallVectorImpl<Type> &results) {
  TileOp::Adaptor adaptor(operands, attributes, properties, regions);
  auto in = cast<CiphertextType>(operands[0].getType());
  int64_t slots = adaptor.getSlots();
  if (slots <= 0 || (slots % in.getSlots() != 0 && in.getSlots() % slots != 0))
    return emitOptionalError(loc, "'ckks.tile' reads ", in.getSlots(),
                             " slots as ", slots,
                             "; the result must be a multiple or a divisor");
  results.push_back(CiphertextType::get(ctx, slots, in.getLevel(),
                                        in.getScale(), in.getDegree()));
  return success();
}

LogicalResult RelinearizeOp::inferReturnTypes(MLIRContext *,
                                              std::optional<Location> loc,
                                              ValueRange operands,
                                              DictionaryAttr, OpaqueProperties,
                                              RegionRange,
                                              SmallVectorImpl<Type> &results) {
  auto ct = cast<CiphertextType>(operands[0].getType());
  if (ct.getDegree() != 3)
    return emitOptionalError(
        loc, "'ckks.relinearize' needs a degree-3 operand, got degree ",
        ct.getDegree());
  results.push_back(ct.withDegree(2));
  return success();
}

//===----------------------------------------------------------------------===//
// Verifiers and folders
//===----------------------------------------------------------------------===//

LogicalResult EncodeOp::verify() {
  return ember::verifySlotValues(*this, getValue(), getType().getSlots());
}

OpFoldResult EncodeOp::fold(FoldAdaptor) { return getValue(); }

LogicalResult EncodeValuesOp::verify() {
  int64_t n = getValues().getType().getDimSize(0);
  if (n != getType().getSlots())
    return emitOpError("has ") << n << " slot values for a plaintext of "
                               << getType().getSlots() << " slots";
  return success();
}

OpFoldResult AddPlainOp::fold(FoldAdaptor) {
  if (ember::isZeroSlotConstant(getPlaintext()))
    return getCiphertext();
  return {};
}

OpFoldResult SubPlainOp::fold(FoldAdaptor) {
  if (ember::isZeroSlotConstant(getPlaintext()))
    return getCiphertext();
  return {};
}

LogicalResult RotateOp::verify() {
  return ember::verifyRotationOffset(*this, getOffset(), getType().getSlots());
}

OpFoldResult RotateOp::fold(FoldAdaptor) {
  return ember::foldRotation(*this, getType().getSlots());
}

LogicalResult KeySwitchOp::verify() {
  if (getGaloisElement() <= 0 || getGaloisElement() % 2 == 0)
    return emitOpError("galois element must be odd and positive, got ")
           << getGaloisElement();
  if (ParamsAttr params = ParamsAttr::lookup(*this)) {
    int64_t twoN = int64_t{2} << params.getLogN();
    if (getGaloisElement() >= twoN)
      return emitOpError("galois element ")
             << getGaloisElement() << " must be below 2N = " << twoN;
  }
  return success();
}

LogicalResult HoistedRotateOp::verify() {
  ArrayRef<int64_t> offsets = getOffsets();
  if (offsets.empty())
    return emitOpError("needs at least one offset");
  if (offsets.size() != getNumResults())
    return emitOpError("has ") << offsets.size() << " offsets but "
                               << getNumResults() << " results";
  auto in = getInput().getType();
  for (auto [i, type] : llvm::enumerate(getResultTypes()))
    if (type != in)
      return emitOpError("result #")
             << i << " type " << type << " differs from the input type " << in;
  for (int64_t offset : offsets)
    if (failed(ember::verifyRotationOffset(*this, offset, in.getSlots())))
      return failure();
  return success();
}

LogicalResult HoistedRotateSumOp::verify() {
  if (getOffsets().empty())
    return emitOpError("needs at least one offset");
  for (int64_t offset : getOffsets())
    if (failed(
            ember::verifyRotationOffset(*this, offset, getType().getSlots())))
      return failure();
  return success();
}

LogicalResult HoistedDotOp::verify() {
  ArrayRef<int64_t> offsets = getOffsets();
  if (offsets.empty())
    return emitOpError("needs at least one offset");
  if (getWeights().size() != offsets.size())
    return emitOpError("has ") << offsets.size() << " offsets but "
                               << getWeights().size() << " weights";
  CiphertextType in = getInput().getType(), out = getType();
  for (int64_t offset : offsets)
    if (failed(ember::verifyRotationOffset(*this, offset, in.getSlots())))
      return failure();
  if (in.getDegree() != 2)
    return emitOpError("input must have degree 2, got ") << in.getDegree();
  for (auto [i, w] : llvm::enumerate(getWeights())) {
    auto pt = cast<PlaintextType>(w.getType());
    if (pt.getSlots() != in.getSlots() || pt.getLevel() != in.getLevel())
      return emitOpError("weight #")
             << i << " must have the input's slots and level (" << in.getSlots()
             << ", " << in.getLevel() << "), got " << pt;
    if (!w.getDefiningOp<EncodeOp>())
      return emitOpError("weight #") << i << " must be a ckks.encode constant";
  }
  const double scale =
      in.getScale() * cast<PlaintextType>(getWeights()[0].getType()).getScale();
  for (auto [i, w] : llvm::enumerate(getWeights())) {
    double s = in.getScale() * cast<PlaintextType>(w.getType()).getScale();
    if (std::fabs(s - scale) > 1e-9 * scale)
      return emitOpError("weight #") << i << " gives the product scale " << s
                                     << ", weight #0 gives " << scale;
  }
  if (out.getSlots() != in.getSlots() || out.getLevel() != in.getLevel() ||
      out.getDegree() != 2 || std::fabs(out.getScale() - scale) > 1e-9 * scale)
    return emitOpError("result must be ")
           << in.withLevelAndScale(in.getLevel(), scale) << ", got " << out;
  return success();
}

static LogicalResult verifySameShape(Operation *op, CiphertextType in,
                                     CiphertextType out) {
  if (in.getSlots() != out.getSlots())
    return op->emitOpError("changes the slot count (")
           << in.getSlots() << " -> " << out.getSlots() << ")";
  if (in.getDegree() != out.getDegree())
    return op->emitOpError("changes the degree (")
           << in.getDegree() << " -> " << out.getDegree() << ")";
  return success();
}

LogicalResult RescaleOp::verify() {
  CiphertextType in = getInput().getType(), out = getType();
  if (failed(verifySameShape(*this, in, out)))
    return failure();
  if (in.getLevel() == 0)
    return emitOpError("cannot rescale at level 0");
  if (out.getLevel() != in.getLevel() - 1)
    return emitOpError("result level must be ")
           << in.getLevel() - 1 << " (input level - 1), got " << out.getLevel();
  ParamsAttr params = ParamsAttr::lookup(*this);
  if (!params)
    return emitOpError("needs the module's '")
           << CKKSDialect::kParamsAttrName << "' to know q_" << in.getLevel();
  if (in.getLevel() > params.getMaxLevel())
    return emitOpError("input level ")
           << in.getLevel() << " exceeds the parameters' maximum level "
           << params.getMaxLevel();
  double expected = in.getScale() /
                    static_cast<double>(params.getLevelModuli()[in.getLevel()]);
  if (!scalesMatch(out.getScale(), expected))
    return emitOpError("result scale must be input scale / q_")
           << in.getLevel() << " = " << formatScale(expected) << ", got "
           << formatScale(out.getScale());
  return success();
}

LogicalResult ModRaiseOp::verify() {
  CiphertextType in = getInput().getType(), out = getType();
  if (out.getSlots() % in.getSlots() != 0)
    return emitOpError("reads ")
           << in.getSlots() << " slots raised at " << out.getSlots()
           << "; the result's slot count must be a multiple of the input's";
  if (in.getDegree() != out.getDegree())
    return emitOpError("changes the degree (")
           << in.getDegree() << " -> " << out.getDegree() << ")";
  if (in.getLevel() != 0)
    return emitOpError("input must be at level 0, got level ") << in.getLevel();
  if (!scalesMatch(in.getScale(), getInputScale().convertToDouble()))
    return emitOpError("input scale ")
           << formatScale(in.getScale()) << " is not the input_scale "
           << formatScale(getInputScale().convertToDouble())
           << " its constants assume";
  if (ParamsAttr params = ParamsAttr::lookup(*this))
    if (out.getLevel() != params.getMaxLevel())
      return emitOpError("result level must be the top level ")
             << params.getMaxLevel() << ", got " << out.getLevel();
  if (out.getLevel() == 0)
    return emitOpError("result level must be above 0");
  return success();
}

LogicalResult ModDropOp::verify() {
  CiphertextType in = getInput().getType(), out = getType();
  if (failed(verifySameShape(*this, in, out)))
    return failure();
  if (out.getLevel() >= in.getLevel())
    return emitOpError("result level ")
           << out.getLevel() << " must be below the input level "
           << in.getLevel();
  if (!scalesMatch(in.getScale(), out.getScale()))
    return emitOpError("must keep the scale (")
           << formatScale(in.getScale()) << " -> "
           << formatScale(out.getScale()) << ")";
  return success();
}
