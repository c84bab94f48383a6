//===- FHEDialect.cpp - fhe dialect, types, ops and folders ---------------===//
#include "dialects/FHE/IR/FHEDialect.h"
#include "dialects/Common/SlotVectors.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/TypeSwitch.h"

#include <cmath>

using namespace mlir;
using namespace ember::fhe;

#include "dialects/FHE/IR/FHEDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/FHE/IR/FHETypes.cpp.inc"

#define GET_OP_CLASSES
#include "dialects/FHE/IR/FHEOps.cpp.inc"

void FHEDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/FHE/IR/FHETypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dialects/FHE/IR/FHEOps.cpp.inc"
      >();
}

Operation *FHEDialect::materializeConstant(OpBuilder &builder, Attribute value,
                                           Type type, Location loc) {
  auto dense = dyn_cast<DenseElementsAttr>(value);
  if (!dense || !ember::isSlotValuesAttr(dense) || !isa<PlaintextType>(type))
    return nullptr;
  return ConstantOp::create(builder, loc, type, dense);
}

//===----------------------------------------------------------------------===//
// The fhe.range attribute
//===----------------------------------------------------------------------===//

FailureOr<ember::fhe::SlotRange>
ember::fhe::parseRange(Attribute attr,
                       function_ref<InFlightDiagnostic()> emitError) {
  auto array = dyn_cast<ArrayAttr>(attr);
  SmallVector<double, 4> v;
  if (array)
    for (Attribute a : array)
      if (auto f = dyn_cast<FloatAttr>(a))
        v.push_back(f.getValueAsDouble());
  if (!array || v.size() != array.size() || (v.size() != 2 && v.size() != 4))
    return emitError() << "'" << kRangeAttrName
                       << "' must be [lo, hi] or [re_lo, re_hi, im_lo, "
                          "im_hi] (floats), got "
                       << attr;
  for (size_t i = 0; i < v.size(); i += 2)
    if (!std::isfinite(v[i]) || !std::isfinite(v[i + 1]) || v[i] > v[i + 1])
      return emitError() << "'" << kRangeAttrName
                         << "' needs finite bounds with lo <= hi, got " << attr;
  SlotRange r;
  r.re = {v[0], v[1]};
  if (v.size() == 4)
    r.im = {v[2], v[3]};
  return r;
}

ArrayAttr ember::fhe::getRangeAttr(MLIRContext *ctx, const SlotRange &range) {
  Builder b(ctx);
  SmallVector<Attribute, 4> v{b.getF64FloatAttr(range.re.lo),
                              b.getF64FloatAttr(range.re.hi)};
  if (range.im.lo != 0 || range.im.hi != 0) {
    v.push_back(b.getF64FloatAttr(range.im.lo));
    v.push_back(b.getF64FloatAttr(range.im.hi));
  }
  return b.getArrayAttr(v);
}

LogicalResult FHEDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attr) {
  if (attr.getName() != kRangeAttrName)
    return success();
  return parseRange(attr.getValue(), [&] { return op->emitOpError(); });
}

LogicalResult FHEDialect::verifyRegionArgAttribute(Operation *op, unsigned,
                                                   unsigned arg,
                                                   NamedAttribute attr) {
  if (attr.getName() != kRangeAttrName)
    return success();
  return parseRange(attr.getValue(), [&] {
    return op->emitOpError("argument ") << arg << ": ";
  });
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

LogicalResult
CiphertextType::verify(function_ref<InFlightDiagnostic()> emitError,
                       int64_t slots) {
  return ember::verifySlotCount(emitError, slots);
}

LogicalResult
PlaintextType::verify(function_ref<InFlightDiagnostic()> emitError,
                      int64_t slots) {
  return ember::verifySlotCount(emitError, slots);
}

//===----------------------------------------------------------------------===//
// Encrypted integers
//===----------------------------------------------------------------------===//

static LogicalResult verifyWidth(function_ref<InFlightDiagnostic()> emitError,
                                 unsigned width) {
  if (width < 1 || width > ember::fhe::kMaxIntWidth)
    return emitError() << "an encrypted integer has 1 to "
                       << ember::fhe::kMaxIntWidth << " bits, got " << width;
  return success();
}

LogicalResult
EncryptedUIntType::verify(function_ref<InFlightDiagnostic()> emitError,
                          unsigned width) {
  return verifyWidth(emitError, width);
}

LogicalResult
EncryptedSIntType::verify(function_ref<InFlightDiagnostic()> emitError,
                          unsigned width) {
  return verifyWidth(emitError, width);
}

ember::fhe::IntShape ember::fhe::getIntShape(Type type) {
  if (auto u = dyn_cast<EncryptedUIntType>(type))
    return {u.getWidth(), false};
  if (auto s = dyn_cast<EncryptedSIntType>(type))
    return {s.getWidth(), true};
  return {};
}

bool ember::fhe::IntShape::fits(int64_t v) const {
  if (isSigned)
    return v >= -(int64_t(1) << (width - 1)) && v < (int64_t(1) << (width - 1));
  return v >= 0 && v < (int64_t(1) << width);
}

LogicalResult IntConstantOp::verify() {
  const IntShape shape = getIntShape(getType());
  if (!shape.fits(getValue()))
    return emitOpError() << "value " << getValue() << " does not fit "
                         << getType();
  return success();
}

LogicalResult IntCmpOp::verify() {
  static const char *const kPredicates[] = {"eq", "ne", "lt", "le", "gt", "ge"};
  if (!llvm::is_contained(kPredicates, getPredicate()))
    return emitOpError() << "unknown predicate '" << getPredicate()
                         << "' (eq, ne, lt, le, gt, ge)";
  if (getLhs().getType() != getRhs().getType())
    return emitOpError() << "compares " << getLhs().getType() << " with "
                         << getRhs().getType();
  if (getType().getWidth() != 1)
    return emitOpError() << "gives an encrypted bit (!fhe.eint<1>), not "
                         << getType();
  return success();
}

LogicalResult IntLutOp::verify() {
  const IntShape in = getIntShape(getInput().getType()),
                 out = getIntShape(getType());
  if (in.width > kMaxLutInputWidth)
    return emitOpError() << "a table over " << in.width
                         << " input bits; at most " << kMaxLutInputWidth;
  const size_t entries = size_t(1) << in.width;
  if (getTable().size() != entries)
    return emitOpError() << "the table has " << getTable().size()
                         << " entries, 2^" << in.width << " = " << entries
                         << " needed";
  for (auto [i, v] : llvm::enumerate(getTable()))
    if (!out.fits(v))
      return emitOpError() << "entry " << i << " = " << v << " does not fit "
                           << getType();
  return success();
}

static int64_t getSlots(Type type) {
  if (auto ct = dyn_cast<CiphertextType>(type))
    return ct.getSlots();
  return cast<PlaintextType>(type).getSlots();
}

//===----------------------------------------------------------------------===//
// Ops
//===----------------------------------------------------------------------===//

LogicalResult ConstantOp::verify() {
  return ember::verifySlotValues(*this, getValue(), getType().getSlots());
}

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

static LogicalResult verifyBinary(Operation *op) {
  Type lhs = op->getOperand(0).getType(), rhs = op->getOperand(1).getType();
  auto result = cast<CiphertextType>(op->getResult(0).getType());
  if (!isa<CiphertextType>(lhs) && !isa<CiphertextType>(rhs))
    return op->emitOpError("needs at least one encrypted operand; fold "
                           "plaintext-only arithmetic before tracing");
  if (getSlots(lhs) != getSlots(rhs) || getSlots(lhs) != result.getSlots())
    return op->emitOpError("slot counts differ: ")
           << getSlots(lhs) << ", " << getSlots(rhs) << " -> "
           << result.getSlots();
  return success();
}

LogicalResult AddOp::verify() { return verifyBinary(*this); }
LogicalResult SubOp::verify() { return verifyBinary(*this); }
LogicalResult MulOp::verify() { return verifyBinary(*this); }

OpFoldResult AddOp::fold(FoldAdaptor) {
  if (ember::isZeroSlotConstant(getRhs()) && getLhs().getType() == getType())
    return getLhs();
  if (ember::isZeroSlotConstant(getLhs()) && getRhs().getType() == getType())
    return getRhs();
  return {};
}

OpFoldResult SubOp::fold(FoldAdaptor) {
  if (ember::isZeroSlotConstant(getRhs()) && getLhs().getType() == getType())
    return getLhs();
  return {};
}

LogicalResult RotateOp::verify() {
  return ember::verifyRotationOffset(*this, getOffset(), getType().getSlots());
}

OpFoldResult RotateOp::fold(FoldAdaptor) {
  return ember::foldRotation(*this, getType().getSlots());
}

LogicalResult PolyEvalOp::verify() {
  StringRef basis = getBasis();
  if (basis != "chebyshev" && basis != "power")
    return emitOpError("basis must be \"chebyshev\" or \"power\", got \"")
           << basis << "\"";
  ArrayRef<double> c = getCoeffs(), iv = getInterval();
  for (auto [k, v] : llvm::enumerate(c))
    if (!std::isfinite(v))
      return emitOpError("coefficient ") << k << " is not finite";
  size_t degree = c.size();
  while (degree > 0 && c[degree - 1] == 0.0)
    --degree;
  if (degree < 2)
    return emitOpError("needs a polynomial of degree at least 1 (nonzero "
                       "coefficients past the constant), got ")
           << c.size() << " coefficients";
  if (iv.size() != 2 || !std::isfinite(iv[0]) || !std::isfinite(iv[1]) ||
      !(iv[0] < iv[1]))
    return emitOpError("interval must be [lo, hi] with finite lo < hi");
  if (basis == "power" && (iv[0] != -1.0 || iv[1] != 1.0))
    return emitOpError("the power basis takes no interval (it must be "
                       "[-1.0, 1.0]): map x first, or use the Chebyshev "
                       "basis on [lo, hi]");
  return success();
}

LogicalResult LinearTransformOp::verify() {
  const int64_t slots = getType().getSlots();
  ArrayRef<int64_t> offsets = getOffsets();
  auto shape = cast<ShapedType>(getDiagonals().getType()).getShape();
  if (offsets.empty())
    return emitOpError("needs at least one diagonal");
  if (shape.size() != 2 || shape[0] != static_cast<int64_t>(offsets.size()) ||
      shape[1] != slots)
    return emitOpError("diagonals must be a ")
           << offsets.size() << "x" << slots
           << " tensor (one row of slot values per offset)";
  llvm::SmallDenseSet<int64_t> seen;
  for (int64_t o : offsets) {
    if (o < 0 || o >= slots)
      return emitOpError("offset ") << o << " is outside [0, " << slots << ")";
    if (!seen.insert(o).second)
      return emitOpError("offset ") << o << " appears twice";
  }
  std::vector<std::complex<double>> values =
      ember::slotValues(getDiagonals(), slots * offsets.size());
  for (std::complex<double> v : values)
    if (!std::isfinite(v.real()) || !std::isfinite(v.imag()))
      return emitOpError("diagonals contain a NaN or infinite value");
  for (size_t j = 0; j < offsets.size(); ++j)
    if (std::all_of(values.begin() + j * slots,
                    values.begin() + (j + 1) * slots,
                    [](std::complex<double> v) { return v == 0.0; }))
      return emitOpError("diagonal ")
             << j << " (offset " << offsets[j] << ") is all zero: drop it";
  if (getBaby() < 0 || getBaby() > slots)
    return emitOpError("baby must be in [0, ")
           << slots << "], got " << getBaby();
  return success();
}

LogicalResult TileOp::verify() {
  int64_t in = getInput().getType().getSlots(), out = getType().getSlots();
  if (out < in || out % in != 0)
    return emitOpError("tiles ")
           << in << " slots to " << out << "; the result must be a multiple";
  return success();
}

LogicalResult ModRaiseOp::verify() {
  int64_t in = getInput().getType().getSlots(), out = getType().getSlots();
  if (out < in || out % in != 0)
    return emitOpError("reads ")
           << in << " slots raised at " << out
           << "; the result's slot count must be a multiple of the input's";
  return success();
}

LogicalResult UntileOp::verify() {
  int64_t in = getInput().getType().getSlots(), out = getType().getSlots();
  if (out > in || in % out != 0)
    return emitOpError("reads ")
           << in << " slots at a period of " << out
           << "; the result's slot count must divide the input's";
  return success();
}

OpFoldResult UntileOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  // untile(tile(x)) is x.
  if (auto tile = getInput().getDefiningOp<TileOp>())
    if (tile.getInput().getType() == getType())
      return tile.getInput();
  return {};
}

OpFoldResult TileOp::fold(FoldAdaptor) {
  if (getInput().getType() == getType())
    return getInput();
  return {};
}
