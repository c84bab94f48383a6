//===- RNSOps.cpp - rns op verifiers and folders
//---------------------------===//

#include "dialects/RNS/IR/RNSOps.h"
#include "dialects/CKKS/IR/CKKSDialect.h"
#include "dialects/Common/SlotVectors.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"

#include <cmath>
#include <limits>

using namespace mlir;
using namespace ember::rns;

/// `q[lo:hi], p[lo:hi]`, as in the poly type (the divisor of mul_inv).
static ParseResult parseDivisor(OpAsmParser &parser, IntegerAttr &qLo,
                                IntegerAttr &qHi, IntegerAttr &pLo,
                                IntegerAttr &pHi) {
  int64_t v[4];
  if (parser.parseKeyword("q") || parser.parseLSquare() ||
      parser.parseInteger(v[0]) || parser.parseColon() ||
      parser.parseInteger(v[1]) || parser.parseRSquare() ||
      parser.parseComma() || parser.parseKeyword("p") ||
      parser.parseLSquare() || parser.parseInteger(v[2]) ||
      parser.parseColon() || parser.parseInteger(v[3]) || parser.parseRSquare())
    return failure();
  Builder &b = parser.getBuilder();
  qLo = b.getI64IntegerAttr(v[0]);
  qHi = b.getI64IntegerAttr(v[1]);
  pLo = b.getI64IntegerAttr(v[2]);
  pHi = b.getI64IntegerAttr(v[3]);
  return success();
}

static void printDivisor(OpAsmPrinter &printer, Operation *, IntegerAttr qLo,
                         IntegerAttr qHi, IntegerAttr pLo, IntegerAttr pHi) {
  printer << "q[" << qLo.getInt() << ":" << qHi.getInt() << "], p["
          << pLo.getInt() << ":" << pHi.getInt() << "]";
}

/// A signed integer of any width, printed in decimal without a type
/// (`rns.mul_const %x, -3 : ...`): stored as an IntegerAttr of at least 64
/// bits.
static ParseResult parseSignedInteger(OpAsmParser &parser, IntegerAttr &attr) {
  APInt v;
  SMLoc loc = parser.getCurrentLocation();
  OptionalParseResult r = parser.parseOptionalInteger(v);
  if (!r.has_value())
    return parser.emitError(loc, "expected an integer");
  if (failed(*r))
    return failure();
  unsigned bits = std::max(64u, v.getSignificantBits());
  attr = IntegerAttr::get(IntegerType::get(parser.getContext(), bits),
                          v.sextOrTrunc(bits));
  return success();
}

static void printSignedInteger(OpAsmPrinter &p, Operation *, IntegerAttr attr) {
  attr.getValue().print(p.getStream(), /*isSigned=*/true);
}

#define GET_OP_CLASSES
#include "dialects/RNS/IR/RNSOps.cpp.inc"

static PolyType polyTy(Value v) { return cast<PolyType>(v.getType()); }

//===----------------------------------------------------------------------===//
// Types against the module's parameters
//===----------------------------------------------------------------------===//

static LogicalResult checkTypeAgainstParams(Operation *op, Type type,
                                            ember::ckks::ParamsAttr params) {
  const unsigned numQ = params.getQ().size(), numP = params.getP().size(),
                 numT = params.getT().size();
  if (auto poly = dyn_cast<PolyType>(type)) {
    if (poly.getNumQ() && poly.getQHi() > numQ)
      return op->emitOpError("type ")
             << poly << " reaches past q" << numQ - 1 << ", the last of the "
             << numQ << " Q primes of the module's parameters";
    if (poly.getNumP() && poly.getPHi() > numP)
      return op->emitOpError("type ") << poly << " reaches past the " << numP
                                      << " P primes of the module's parameters";
    if (poly.getNumT() && poly.getTHi() > numT)
      return op->emitOpError("type ")
             << poly << " reaches past the " << numT
             << " KLSS T primes of the module's parameters";
    return success();
  }
  if (auto key = dyn_cast<EvalKeyType>(type)) {
    // Or bootstrapping's to_sparse key: a digit per limb of Q_0, over Q_0
    // and p_0 (LoadKeyOp::verify keeps that shape to it).
    const unsigned base =
        static_cast<unsigned>(ember::ckks::baseLimbs(params.getScalePrimes()));
    bool toSparse =
        key.getQ() == base && key.getP() == 1 && key.getDnum() == base;
    if (!toSparse && (key.getQ() != numQ || key.getP() != numP ||
                      key.getDnum() != params.getDnum()))
      return op->emitOpError("key type ")
             << key << " does not match the module's parameters (dnum = "
             << params.getDnum() << ", q = " << numQ << ", p = " << numP << ")";
    return success();
  }
  if (auto key = dyn_cast<KlssKeyType>(type)) {
    const unsigned digits = params.getDigitSizes().size();
    const unsigned groups = params.getKlssGroups(params.getQ().size() - 1);
    if (!params.hasKlss() || key.getT() != numT || key.getDnum() != digits ||
        key.getGroups() != groups)
      return op->emitOpError("KLSS key type ")
             << key << " does not match the module's parameters ("
             << (params.hasKlss() ? "" : "no KLSS form; ")
             << "dnum = " << digits << ", groups = " << groups
             << ", t = " << numT << ")";
  }
  return success();
}

LogicalResult ember::rns::verifyTypesAgainstParams(Operation *op) {
  auto params = ember::ckks::ParamsAttr::lookup(op);
  if (!params)
    return success();
  for (Type type : op->getOperandTypes())
    if (failed(checkTypeAgainstParams(op, type, params)))
      return failure();
  for (Type type : op->getResultTypes())
    if (failed(checkTypeAgainstParams(op, type, params)))
      return failure();
  return success();
}

LogicalResult ember::rns::verifyGaloisElement(Operation *op, int64_t galois) {
  if (galois <= 0 || galois % 2 == 0)
    return op->emitOpError(
               "Galois element must be a positive odd integer, got ")
           << galois;
  if (auto params = ember::ckks::ParamsAttr::lookup(op)) {
    int64_t twoN = int64_t{2} << params.getLogN();
    if (galois >= twoN)
      return op->emitOpError("Galois element ")
             << galois << " must be below 2N = " << twoN;
  }
  return success();
}
static bool isZero(Value v) { return v.getDefiningOp<ZeroOp>() != nullptr; }

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

OpFoldResult AddOp::fold(FoldAdaptor) {
  if (isZero(getRhs()))
    return getLhs();
  if (isZero(getLhs()))
    return getRhs();
  return {};
}

OpFoldResult SubOp::fold(FoldAdaptor) {
  if (isZero(getRhs()))
    return getLhs();
  return {};
}

OpFoldResult MulOp::fold(FoldAdaptor) {
  if (isZero(getRhs()))
    return getRhs();
  if (isZero(getLhs()))
    return getLhs();
  return {};
}

LogicalResult MulOp::verify() {
  if (!polyTy(getResult()).isNTT())
    return emitOpError("operands must be in NTT form (a coefficient-form "
                       "product is a convolution, not elementwise)");
  return success();
}

OpFoldResult NegOp::fold(FoldAdaptor) {
  if (auto inner = getInput().getDefiningOp<NegOp>())
    return inner.getInput();
  if (isZero(getInput()))
    return getInput();
  return {};
}

/// The constant of mul_const/add_const: a signless integer of at least 64
/// bits, read as signed by the printer, the folders and the emitters. A
/// narrower or unsigned one (`<{value = 1 : i1}>` in generic form, -1 when
/// read as signed) would mean one thing to the folder and another to the
/// emitted code.
static LogicalResult verifyConstant(Operation *op, IntegerAttr value) {
  auto type = dyn_cast<IntegerType>(value.getType());
  if (!type || !type.isSignless() || type.getWidth() < 64)
    return op->emitOpError("value must be a signless integer of at least 64 "
                           "bits (read as signed), got type ")
           << value.getType();
  return success();
}

OpFoldResult MulConstOp::fold(FoldAdaptor) {
  if (getValue().isOne())
    return getInput();
  return {};
}

LogicalResult MulConstOp::verify() {
  return verifyConstant(*this, getValueAttr());
}

OpFoldResult AddConstOp::fold(FoldAdaptor) {
  if (getValue().isZero())
    return getInput();
  return {};
}

LogicalResult AddConstOp::verify() {
  if (failed(verifyConstant(*this, getValueAttr())))
    return failure();
  if (!polyTy(getResult()).isNTT())
    return emitOpError("operand must be in NTT form (in coefficient form a "
                       "constant polynomial is not elementwise)");
  return success();
}

LogicalResult MulPOp::verify() {
  PolyType in = polyTy(getInput()), out = polyTy(getResult());
  if (in.hasP())
    return emitOpError("input already has P limbs");
  if (!out.hasP() || out.getQLo() != in.getQLo() ||
      out.getQHi() != in.getQHi() || out.getForm() != in.getForm())
    return emitOpError("result must be the input's basis extended by P, in "
                       "the same form");
  return success();
}

LogicalResult MulInvOp::verify() {
  constexpr int64_t kMaxIndex = std::numeric_limits<unsigned>::max();
  if (getQLo() < 0 || getQHi() < getQLo() || getPLo() < 0 ||
      getPHi() < getPLo() || (getQLo() == getQHi() && getPLo() == getPHi()) ||
      getQHi() > kMaxIndex || getPHi() > kMaxIndex)
    return emitOpError("divisor basis must be non-empty ranges");
  if (auto params = ember::ckks::ParamsAttr::lookup(*this))
    if ((getQLo() != getQHi() &&
         getQHi() > static_cast<int64_t>(params.getQ().size())) ||
        (getPLo() != getPHi() &&
         getPHi() > static_cast<int64_t>(params.getP().size())))
      return emitOpError("divisor q[")
             << getQLo() << ":" << getQHi() << "], p[" << getPLo() << ":"
             << getPHi() << "] reaches past the module's "
             << params.getQ().size() << " Q and " << params.getP().size()
             << " P primes";
  PolyType divisor =
      polyTy(getInput()).withBasis(getQLo(), getQHi(), getPLo(), getPHi());
  if (!divisor.disjointFrom(polyTy(getInput())))
    return emitOpError("divisor primes must not be limbs of the operand");
  return success();
}

LogicalResult EncodeOp::verify() {
  double scale = getScale().convertToDouble();
  if (!std::isfinite(scale) || scale <= 0)
    return emitOpError("scale must be positive and finite, got ") << scale;
  auto tensor = cast<ShapedType>(getValue().getType());
  if (tensor.getRank() != 1)
    return emitOpError("value must be a 1-d tensor of slot values, got rank ")
           << tensor.getRank();
  return ember::verifySlotCount([&] { return emitOpError(); },
                                tensor.getDimSize(0));
}

LogicalResult EncodeValuesOp::verify() {
  double scale = getScale().convertToDouble();
  if (!std::isfinite(scale) || scale <= 0)
    return emitOpError("scale must be positive and finite, got ") << scale;
  PolyType t = polyTy(getResult());
  if (t.hasP() || t.hasT() || t.getQLo() != 0)
    return emitOpError("encodes over a prefix of Q only, got ") << t;
  return ember::verifySlotCount([&] { return emitOpError(); },
                                getValues().getType().getDimSize(0));
}

//===----------------------------------------------------------------------===//
// Transforms and basis changes
//===----------------------------------------------------------------------===//

static LogicalResult verifyTransform(Operation *op, Form from, Form to) {
  PolyType in = polyTy(op->getOperand(0)), out = polyTy(op->getResult(0));
  if (in.getForm() != from || out.getForm() != to)
    return op->emitOpError("maps ")
           << stringifyForm(from) << " form to " << stringifyForm(to)
           << " form, got " << in << " -> " << out;
  if (!in.sameBasis(out))
    return op->emitOpError("must keep the basis, got ") << in << " -> " << out;
  return success();
}

LogicalResult NTTOp::verify() {
  return verifyTransform(*this, Form::coeff, Form::ntt);
}
LogicalResult INTTOp::verify() {
  return verifyTransform(*this, Form::ntt, Form::coeff);
}

OpFoldResult NTTOp::fold(FoldAdaptor) {
  if (auto inv = getInput().getDefiningOp<INTTOp>())
    return inv.getInput();
  return {};
}
OpFoldResult INTTOp::fold(FoldAdaptor) {
  if (auto fwd = getInput().getDefiningOp<NTTOp>())
    return fwd.getInput();
  return {};
}

LogicalResult BConvOp::verify() {
  PolyType in = polyTy(getInput()), out = polyTy(getResult());
  if (in.isNTT() || out.isNTT())
    return emitOpError("works in coefficient form, got ")
           << in << " -> " << out;
  if (!in.disjointFrom(out))
    return emitOpError("source and target bases overlap: ")
           << in << " -> " << out;
  return success();
}

LogicalResult DropLimbsOp::verify() {
  PolyType in = polyTy(getInput()), out = polyTy(getResult());
  if (in.getForm() != out.getForm())
    return emitOpError("must keep the form");
  bool qInside = !out.getNumQ() ||
                 (out.getQLo() >= in.getQLo() && out.getQHi() <= in.getQHi());
  bool pInside = !out.getNumP() ||
                 (out.getPLo() >= in.getPLo() && out.getPHi() <= in.getPHi());
  if (!qInside || !pInside)
    return emitOpError("result basis must be a sub-basis of the input's, got ")
           << in << " -> " << out;
  return success();
}

OpFoldResult DropLimbsOp::fold(FoldAdaptor) {
  if (getInput().getType() == getResult().getType())
    return getInput();
  // A sub-basis of a sub-basis: drop from the original directly.
  if (auto inner = getInput().getDefiningOp<DropLimbsOp>()) {
    getInputMutable().assign(inner.getInput());
    return getResult();
  }
  return {};
}

/// Checks that non-empty ranges [lo, hi) tile [from, to) exactly.
static bool tiles(SmallVector<std::pair<unsigned, unsigned>> ranges,
                  unsigned from, unsigned to) {
  llvm::sort(ranges);
  unsigned next = from;
  for (auto [lo, hi] : ranges) {
    if (lo != next)
      return false;
    next = hi;
  }
  return next == to;
}

LogicalResult ConcatOp::verify() {
  PolyType out = polyTy(getResult());
  SmallVector<std::pair<unsigned, unsigned>> qs, ps;
  for (Value part : getParts()) {
    PolyType t = polyTy(part);
    if (t.getForm() != out.getForm())
      return emitOpError("parts must be in the result's form");
    if (t.getNumQ())
      qs.push_back({t.getQLo(), t.getQHi()});
    if (t.getNumP())
      ps.push_back({t.getPLo(), t.getPHi()});
  }
  if (!tiles(qs, out.getQLo(), out.getQHi()) ||
      !tiles(ps, out.getPLo(), out.getPHi()))
    return emitOpError("parts must be disjoint and cover the result basis ")
           << out;
  return success();
}

LogicalResult AutomorphismOp::verify() {
  return verifyGaloisElement(*this, getGalois());
}

OpFoldResult AutomorphismOp::fold(FoldAdaptor) {
  if (getGalois() == 1)
    return getInput();
  return {};
}

//===----------------------------------------------------------------------===//
// Modulus switching and key switching
//===----------------------------------------------------------------------===//

/// All values of a range share one poly type; returns it or null.
static PolyType commonType(Operation *op, ValueRange values, StringRef what) {
  if (values.empty()) {
    op->emitOpError("needs at least one ") << what;
    return {};
  }
  PolyType ty = polyTy(values.front());
  for (Value v : values)
    if (v.getType() != ty) {
      op->emitOpError("all ") << what << "s must have one type, got " << ty
                              << " and " << v.getType();
      return {};
    }
  return ty;
}

LogicalResult RescaleOp::verify() {
  PolyType in = commonType(*this, getInputs(), "input");
  PolyType out = in ? commonType(*this, getResults(), "result") : PolyType();
  if (!in || !out)
    return failure();
  if (getInputs().size() != getResults().size())
    return emitOpError("needs one result per input");
  if (in.hasP() || !in.isNTT())
    return emitOpError("input must be over Q only and in NTT form, got ") << in;
  // One scale prime per level, or a pair under double-prime scaling.
  ember::ckks::ParamsAttr params = ember::ckks::ParamsAttr::lookup(*this);
  const unsigned drop = params ? params.getScalePrimes() : 1;
  if (in.getNumQ() < drop + 1)
    return emitOpError("cannot rescale a polynomial with ")
           << in.getNumQ() << " Q limbs by " << drop << " prime(s)";
  if (out != in.withBasis(in.getQLo(), in.getQHi() - drop, 0, 0))
    return emitOpError("result must drop exactly the top ")
           << (drop == 1 ? "Q limb"
                         : "pair of Q limbs (double-prime "
                           "scaling)")
           << ", got " << in << " -> " << out;
  return success();
}

LogicalResult DecomposeOp::verify() {
  PolyType in = polyTy(getInput());
  if (in.hasP() || in.hasT())
    return emitOpError("input must be over Q only, got ") << in;
  unsigned next = in.getQLo();
  for (Value d : getDigits()) {
    PolyType dt = polyTy(d);
    if (dt.hasP() || dt.getForm() != in.getForm() || dt.getQLo() != next)
      return emitOpError("digit ") << dt << " does not continue the tiling of "
                                   << in << " at q" << next;
    next = dt.getQHi();
  }
  if (next != in.getQHi())
    return emitOpError("digits end at q")
           << next << ", input at q" << in.getQHi();
  return success();
}

LogicalResult ModUpOp::verify() {
  if (getDigits().size() != getResults().size())
    return emitOpError("needs one result per digit");
  PolyType out = commonType(*this, getResults(), "result");
  if (!out)
    return failure();
  if (!out.hasP() || out.hasT() || !out.isNTT())
    return emitOpError("results must be over Q_l u P in NTT form, got ") << out;
  for (Value d : getDigits()) {
    PolyType dt = polyTy(d);
    if (dt.hasP() || dt.hasT() || !dt.isNTT() || dt.getQLo() < out.getQLo() ||
        dt.getQHi() > out.getQHi())
      return emitOpError("digit ")
             << dt << " must be an NTT-form sub-range of the Q part of " << out;
  }
  return success();
}

LogicalResult LoadKeyOp::verify() {
  if (auto kind = getEncapsulation()) {
    if (*kind != "to_sparse" && *kind != "from_sparse")
      return emitOpError("encapsulation key must be to_sparse or "
                         "from_sparse, got '")
             << *kind << "'";
    if (getGalois())
      return emitOpError("an encapsulation key has no Galois element");
    auto key = dyn_cast<EvalKeyType>(getType());
    if (!key)
      return emitOpError("encapsulation keys are hybrid (!rns.evk)");
    // A digit per limb of Q_0: q_0 alone, or q_0 and the base pair under
    // double-prime scaling.
    unsigned base = key.getQ() == 3 ? 3 : 1;
    if (auto params = ember::ckks::ParamsAttr::lookup(*this))
      base = static_cast<unsigned>(
          ember::ckks::baseLimbs(params.getScalePrimes()));
    if (*kind == "to_sparse" &&
        (key.getDnum() != base || key.getQ() != base || key.getP() != 1))
      return emitOpError("the to_sparse key is !rns.evk<dnum = ")
             << base << ", q = " << base
             << ", p = 1> (a digit per limb of Q_0, and p_0), got " << key;
    return success();
  }
  if (auto key = dyn_cast<EvalKeyType>(getType()))
    if (auto params = ember::ckks::ParamsAttr::lookup(*this))
      if (key.getQ() != params.getQ().size() ||
          key.getP() != params.getP().size() ||
          key.getDnum() != params.getDnum())
        return emitOpError("key type ")
               << key << " does not match the module's parameters (dnum = "
               << params.getDnum() << ", q = " << params.getQ().size()
               << ", p = " << params.getP().size() << ")";
  if (auto g = getGalois())
    return verifyGaloisElement(*this, *g);
  return success();
}

ParseResult LoadKeyOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &b = parser.getBuilder();
  if (succeeded(parser.parseOptionalKeyword("galois"))) {
    int64_t g;
    if (parser.parseInteger(g))
      return failure();
    result.addAttribute(getGaloisAttrName(result.name), b.getI64IntegerAttr(g));
  } else if (succeeded(parser.parseOptionalKeyword("to_sparse"))) {
    result.addAttribute(getEncapsulationAttrName(result.name),
                        b.getStringAttr("to_sparse"));
  } else if (succeeded(parser.parseOptionalKeyword("from_sparse"))) {
    result.addAttribute(getEncapsulationAttrName(result.name),
                        b.getStringAttr("from_sparse"));
  } else if (parser.parseKeyword("relin")) {
    return failure();
  }
  Type key;
  if (parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonType(key))
    return failure();
  result.addTypes(key);
  return success();
}

void LoadKeyOp::print(OpAsmPrinter &p) {
  if (auto g = getGalois())
    p << " galois " << *g;
  else if (auto kind = getEncapsulation())
    p << " " << *kind;
  else
    p << " relin";
  p.printOptionalAttrDict((*this)->getAttrs(),
                          {getGaloisAttrName(), getEncapsulationAttrName()});
  p << " : " << getType();
}

LogicalResult KSInnerProductOp::verify() {
  PolyType dt = commonType(*this, getDigits(), "digit");
  if (!dt)
    return failure();
  auto key = cast<EvalKeyType>(getKey().getType());
  if (getDigits().size() > key.getDnum())
    return emitOpError("has ") << getDigits().size()
                               << " digits but the key only " << key.getDnum();
  if (!dt.isNTT() || !dt.hasP() || dt.getQLo() != 0 ||
      dt.getQHi() > key.getQ() || dt.getPLo() != 0 || dt.getPHi() != key.getP())
    return emitOpError("digits ")
           << dt << " must be NTT-form over Q_l u P within the key's basis "
           << key;
  if (getAcc0().getType() != dt || getAcc1().getType() != dt)
    return emitOpError("accumulators must have the digits' type ") << dt;
  return success();
}

LogicalResult ModDownOp::verify() {
  if (getInputs().size() != getResults().size())
    return emitOpError("needs one result per input");
  PolyType in = commonType(*this, getInputs(), "input");
  PolyType out = in ? commonType(*this, getResults(), "result") : PolyType();
  if (!in || !out)
    return failure();
  if (!in.hasP() || in.hasT())
    return emitOpError("input must be over Q_l u P, got ") << in;
  if (out.hasP() || out.hasT() || out.getForm() != in.getForm() ||
      out.getQLo() != in.getQLo() || out.getQHi() > in.getQHi() ||
      out.getNumQ() == 0)
    return emitOpError("result must be a non-empty prefix of the input's Q "
                       "limbs in the input's form, got ")
           << in << " -> " << out;
  if (getLifted().size() > getInputs().size())
    return emitOpError("has more lifted addends than inputs");
  for (Value y : getLifted()) {
    PolyType yt = polyTy(y);
    if (!in.isNTT() || yt.hasP() || yt.hasT() || !yt.isNTT() ||
        yt.getQLo() != in.getQLo() || yt.getQHi() != in.getQHi())
      return emitOpError("a lifted addend must be an NTT-form polynomial "
                         "over the input's Q limbs, got ")
             << yt << " for " << in;
  }
  if (auto g = getLiftedGaloisAttr()) {
    if (getLifted().empty())
      return emitOpError("has lifted_galois but no lifted addend");
    if (failed(verifyGaloisElement(*this, g.getInt())))
      return failure();
    if (out.getNumQ() != in.getNumQ())
      return emitOpError("lifted_galois needs a plain ModDown (no Q limb "
                         "dropped), got ")
             << in << " -> " << out;
  }
  return success();
}

LogicalResult KlssModUpOp::verify() {
  if (getDigits().size() != getResults().size())
    return emitOpError("needs one result per digit");
  PolyType out = commonType(*this, getResults(), "result");
  if (!out)
    return failure();
  if (!out.hasT() || !out.isNTT() || out.getTLo() != 0)
    return emitOpError("results must be NTT-form polynomials over T "
                       "(t[0:R]), got ")
           << out;
  unsigned next = 0;
  for (Value d : getDigits()) {
    PolyType dt = polyTy(d);
    if (dt.hasP() || dt.hasT() || !dt.isNTT() || dt.getQLo() != next)
      return emitOpError("digit ")
             << dt << " must be an NTT-form Q range continuing at q" << next;
    next = dt.getQHi();
  }
  return success();
}

LogicalResult KlssInnerProductOp::verify() {
  PolyType dt = commonType(*this, getDigits(), "digit");
  if (!dt)
    return failure();
  auto key = cast<KlssKeyType>(getKey().getType());
  if (getDigits().size() > key.getDnum())
    return emitOpError("has ") << getDigits().size()
                               << " digits but the key only " << key.getDnum();
  if (!dt.isNTT() || !dt.hasT() || dt.getTLo() != 0 ||
      dt.getTHi() != key.getT())
    return emitOpError("digits ")
           << dt
           << " must be NTT-form over the key's T basis t[0:" << key.getT()
           << "]";
  PolyType acc = polyTy(getAcc0());
  if (getAcc1().getType() != acc || acc.isNTT() || acc.hasT() || !acc.hasP() ||
      acc.getQLo() != 0 || acc.getNumQ() == 0 || acc.getPLo() != 0)
    return emitOpError("accumulators must be two coefficient-form "
                       "polynomials over Q_l u P (q[0:l+1], p[0:K]), got ")
           << getAcc0().getType() << " and " << getAcc1().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// BFV
//===----------------------------------------------------------------------===//

LogicalResult BfvTensorOp::verify() {
  PolyType ty = polyTy(getA0());
  if (!ty.isNTT() || ty.hasP() || ty.hasT() || ty.getQLo() != 0)
    return emitOpError("takes NTT-form polynomials over q[0:L+1], got ") << ty;
  auto params = ember::ckks::ParamsAttr::lookup(*this);
  if (!params)
    return success();
  if (!params.isBfv())
    return emitOpError("needs a BFV chain (#ckks.params<..., plain = t, "
                       "scheme = bfv>)");
  if (ty.getQHi() != params.getQ().size())
    return emitOpError("takes polynomials over the full Q (q[0:")
           << params.getQ().size() << "]), got " << ty;
  return success();
}

//===----------------------------------------------------------------------===//
// Fusion regions
//===----------------------------------------------------------------------===//

LogicalResult FusedOp::verify() {
  Block &body = getBody().front();
  if (body.getArgumentTypes() != getInputs().getTypes())
    return emitOpError("block arguments must match the inputs' types");
  // The op verifier runs before the block's own checks: an empty body has
  // no terminator to ask for.
  auto yield = body.empty() ? YieldOp() : dyn_cast<YieldOp>(body.back());
  if (!yield)
    return emitOpError("body must end in rns.yield");
  if (yield.getValues().getTypes() != getResults().getTypes())
    return emitOpError("yielded types must match the results' types");
  return success();
}
