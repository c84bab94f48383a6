//===- RNSDialect.cpp - rns dialect and types
//------------------------------===//

#include "dialects/RNS/IR/RNSDialect.h"
#include "dialects/RNS/IR/RNSOps.h"
#include "dialects/RNS/IR/RNSTypes.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace ember::rns;

#include "dialects/RNS/IR/RNSAttributes.cpp.inc"
#include "dialects/RNS/IR/RNSDialect.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "dialects/RNS/IR/RNSTypes.cpp.inc"

void RNSDialect::initialize() {
  addTypes<
#define GET_TYPEDEF_LIST
#include "dialects/RNS/IR/RNSTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "dialects/RNS/IR/RNSOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// PolyType: !rns.poly<ntt, q[0:6], p[0:4]>
//===----------------------------------------------------------------------===//

LogicalResult PolyType::verify(function_ref<InFlightDiagnostic()> emitError,
                               Form form, unsigned qLo, unsigned qHi,
                               unsigned pLo, unsigned pHi, unsigned tLo,
                               unsigned tHi) {
  if (qHi < qLo)
    return emitError() << "empty Q range q[" << qLo << ":" << qHi << "]";
  if (pHi < pLo)
    return emitError() << "empty P range p[" << pLo << ":" << pHi << "]";
  if (tHi < tLo)
    return emitError() << "empty T range t[" << tLo << ":" << tHi << "]";
  if (qHi == qLo && pHi == pLo && tHi == tLo)
    return emitError() << "polynomial basis has no limbs";
  if (tHi != tLo && (qHi != qLo || pHi != pLo))
    return emitError() << "a polynomial over KLSS temporary primes t[" << tLo
                       << ":" << tHi << "] cannot also hold Q or P limbs";
  return success();
}

LogicalResult EvalKeyType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  unsigned dnum, unsigned q, unsigned p) {
  if (dnum == 0 || q == 0 || p == 0 || dnum > q)
    return emitError() << "a hybrid key needs 1 <= dnum <= q and p >= 1, got "
                          "dnum = "
                       << dnum << ", q = " << q << ", p = " << p;
  return success();
}

LogicalResult KlssKeyType::verify(function_ref<InFlightDiagnostic()> emitError,
                                  unsigned dnum, unsigned groups, unsigned t) {
  if (dnum == 0 || groups == 0 || t == 0)
    return emitError() << "a KLSS key needs dnum, groups and t >= 1, got dnum "
                          "= "
                       << dnum << ", groups = " << groups << ", t = " << t;
  return success();
}

bool PolyType::disjointFrom(PolyType other) const {
  bool qOverlap = getNumQ() && other.getNumQ() && getQLo() < other.getQHi() &&
                  other.getQLo() < getQHi();
  bool pOverlap = getNumP() && other.getNumP() && getPLo() < other.getPHi() &&
                  other.getPLo() < getPHi();
  bool tOverlap = getNumT() && other.getNumT() && getTLo() < other.getTHi() &&
                  other.getTLo() < getTHi();
  return !qOverlap && !pOverlap && !tOverlap;
}

/// Parses `[lo:hi]`.
static ParseResult parseRange(AsmParser &parser, unsigned &lo, unsigned &hi) {
  if (parser.parseLSquare() || parser.parseInteger(lo) || parser.parseColon() ||
      parser.parseInteger(hi) || parser.parseRSquare())
    return failure();
  return success();
}

Type PolyType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  StringRef formName;
  if (parser.parseLess() || parser.parseKeyword(&formName))
    return {};
  std::optional<Form> form = symbolizeForm(formName);
  if (!form) {
    parser.emitError(loc, "expected 'ntt' or 'coeff', got '")
        << formName << "'";
    return {};
  }
  unsigned qLo = 0, qHi = 0, pLo = 0, pHi = 0, tLo = 0, tHi = 0;
  bool seenQ = false, seenP = false, seenT = false;
  while (succeeded(parser.parseOptionalComma())) {
    StringRef part;
    SMLoc partLoc = parser.getCurrentLocation();
    if (parser.parseKeyword(&part))
      return {};
    if (part == "q" && !seenQ) {
      seenQ = true;
      if (parseRange(parser, qLo, qHi))
        return {};
    } else if (part == "p" && !seenP && !seenT) {
      seenP = true;
      if (parseRange(parser, pLo, pHi))
        return {};
    } else if (part == "t" && !seenT) {
      seenT = true;
      if (parseRange(parser, tLo, tHi))
        return {};
    } else {
      parser.emitError(partLoc,
                       "expected 'q[lo:hi]' then 'p[lo:hi]', or 't[lo:hi]'");
      return {};
    }
  }
  if (parser.parseGreater())
    return {};
  return getChecked([&] { return parser.emitError(loc); }, parser.getContext(),
                    *form, qLo, qHi, pLo, pHi, tLo, tHi);
}

void PolyType::print(AsmPrinter &printer) const {
  printer << "<" << stringifyForm(getForm());
  if (getNumQ())
    printer << ", q[" << getQLo() << ":" << getQHi() << "]";
  if (getNumP())
    printer << ", p[" << getPLo() << ":" << getPHi() << "]";
  if (getNumT())
    printer << ", t[" << getTLo() << ":" << getTHi() << "]";
  printer << ">";
}
