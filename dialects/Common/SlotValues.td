//===- SlotValues.td - slot-value constants shared by the dialects -*- tablegen -*-===//
//
// A constant slot vector (fhe.constant, ckks.encode, rns.encode): dense f64
// values (real slots) or complex<f64> values (CKKS slots are complex).
//
//===----------------------------------------------------------------------===//
#ifndef EMBER_COMMON_SLOTVALUES_TD
#define EMBER_COMMON_SLOTVALUES_TD

include "mlir/IR/CommonAttrConstraints.td"
include "mlir/IR/CommonTypeConstraints.td"

def Ember_SlotValuesAttr : ElementsAttrBase<
    CPred<"::ember::isSlotValuesAttr($_self)">,
    "dense f64 or complex<f64> slot values"> {
  let storageType = [{ ::mlir::DenseElementsAttr }];
  let returnType = [{ ::mlir::DenseElementsAttr }];
  let convertFromStorage = "$_self";
}

// A run-time slot vector (a plaintext function argument): a 1-d tensor of
// complex<f64> (real programs pass zero imaginary parts).
def Ember_SlotValuesTensor : 1DTensorOf<[Complex<F64>]>;

#endif // EMBER_COMMON_SLOTVALUES_TD
