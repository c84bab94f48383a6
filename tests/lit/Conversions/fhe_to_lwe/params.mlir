// The parameter set: STD128 by default, TOY only with insecure=true, an
// unknown name refused with the known ones.
// RUN: ember-opt --fhe-to-lwe %s | FileCheck %s --check-prefix=DEFAULT
// RUN: ember-opt --fhe-to-lwe=params=STD128Q %s | FileCheck %s --check-prefix=PQ
// RUN: not ember-opt --fhe-to-lwe=params=TOY %s 2>&1 | FileCheck %s --check-prefix=TOY
// RUN: not ember-opt --fhe-to-lwe=params=STD64 %s 2>&1 | FileCheck %s --check-prefix=UNKNOWN
// RUN: ember-opt --fhe-to-lwe="params=TOY insecure=true" %s | FileCheck %s --check-prefix=INSECURE

// DEFAULT: module attributes {lwe.params = "STD128"}
// PQ: module attributes {lwe.params = "STD128Q"}
// TOY: parameter set 'TOY' is insecure; pass insecure=true (tests only)
// UNKNOWN: unknown FHEW/TFHE parameter set 'STD64' (known: STD128, STD128Q, STD128_AP, STD128_4BIT, STD128_4BIT_MR, TOY, TOY_AP, TOY_MR)
// INSECURE: module attributes {lwe.params = "TOY"}
func.func @id(%x: !fhe.eint<2>) -> !fhe.eint<2> {
  return %x : !fhe.eint<2>
}
