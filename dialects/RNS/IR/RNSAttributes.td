//===- RNSAttributes.td - rns attributes and enums ---------*- tablegen -*-===//

#ifndef EMBER_DIALECT_RNS_ATTRIBUTES_TD
#define EMBER_DIALECT_RNS_ATTRIBUTES_TD

include "mlir/IR/EnumAttr.td"

/// The representation of a polynomial's limbs.
def RNS_Form : I32EnumAttr<"Form", "polynomial representation", [
    I32EnumAttrCase<"coeff", 0>,
    I32EnumAttrCase<"ntt", 1>
  ]> {
  let cppNamespace = "::ember::rns";
  let genSpecializedAttr = 0;
}

#endif // EMBER_DIALECT_RNS_ATTRIBUTES_TD
