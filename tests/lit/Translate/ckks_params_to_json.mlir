// ember-translate --ckks-params-to-json prints the module's #ckks.params as
// the "params" object of the client manifest; without them it fails.
// RUN: not ember-translate --ckks-params-to-json %s --split-input-file 2>/dev/null | FileCheck %s
// RUN: not ember-translate --ckks-params-to-json %s --split-input-file 2>&1 >/dev/null | FileCheck %s --check-prefix=ERR

// CHECK: {
// CHECK-NEXT: "dnum": 3,
// CHECK-NEXT: "log_n": 13,
// CHECK-NEXT: "log_scale": 40,
// CHECK-NEXT: "p": [
// CHECK-NEXT: 1152921504606748673
// CHECK-NEXT: ],
// CHECK-NEXT: "q": [
// CHECK-NEXT: 1152921504606830593,
// CHECK-NEXT: 1099511480321,
// CHECK-NEXT: 1099510890497
// CHECK-NEXT: ],
// CHECK-NEXT: "security": 128
// CHECK-NEXT: }
module attributes {ckks.params = #ckks.params<logN = 13, Q = [1152921504606830593, 1099511480321, 1099510890497], P = [1152921504606748673], logScale = 40, dnum = 3, security = 128>} {
}

// -----

// ERR: error: module has no 'ckks.params' attribute (run fhe-to-ckks first)
module {
}
