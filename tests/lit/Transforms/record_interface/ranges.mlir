// ckks-record-interface records each input's range: its fhe.range (kept on
// the argument by fhe-to-ckks), else the default [-1, 1]; the manifest
// lists it, and the client refuses values outside it.
// RUN: ember-opt --fhe-to-ckks --ckks-record-interface %s | FileCheck %s
// RUN: ember-opt --ember-pipeline=fhe-to-kernel %s | ember-translate --emit-manifest | FileCheck %s --check-prefix=MANIFEST

// CHECK-LABEL: func.func @f
// CHECK-SAME: ember.interface = {inputs = [{degree = 2 : i64, level = 1 : i64, name = "in0", range = [-3.000000e+03, 2.500000e-01], scale = {{.*}} : f64, slots = 8 : i64}, {degree = 2 : i64, level = 1 : i64, name = "in1", range = [-1.000000e+00, 1.000000e+00], scale = {{.*}} : f64, slots = 8 : i64}], outputs = [{degree = 2 : i64, level = 0 : i64, name = "out0", scale = {{.*}} : f64, slots = 8 : i64}]}

// MANIFEST: "inputs": [
// MANIFEST: "name": "in0",
// MANIFEST-NEXT: "polys": 2,
// MANIFEST-NEXT: "range": [
// MANIFEST-NEXT: -3000,
// MANIFEST-NEXT: 0.25
// MANIFEST-NEXT: ],
// MANIFEST: "name": "in1",
// MANIFEST-NEXT: "polys": 2,
// MANIFEST-NEXT: "range": [
// MANIFEST-NEXT: -1,
// MANIFEST-NEXT: 1
// MANIFEST-NEXT: ],
// MANIFEST: "outputs": [
// MANIFEST-NOT: "range"
// MANIFEST: "params"
func.func @f(%x: !fhe.ct<8> {fhe.range = [-3000.0, 0.25]}, %y: !fhe.ct<8>) -> !fhe.ct<8> {
  %p = fhe.mul %x, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %p : !fhe.ct<8>
}
