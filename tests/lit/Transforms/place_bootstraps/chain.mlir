// RUN: ember-opt --fhe-place-bootstraps="levels=2" %s | FileCheck %s
// RUN: ember-opt --fhe-place-bootstraps="levels=2 output-levels=2" %s | FileCheck %s --check-prefix=OUT
// RUN: ember-opt --fhe-place-bootstraps="levels=5" %s | FileCheck %s --check-prefix=FITS

// (The sites are the lines of %b and %d.)
// Five squarings with two levels between bootstraps: every placement needs
// two bootstraps and the ops cost the same, so they come as late as the
// levels allow: after the second and the fourth product.
// CHECK-LABEL: func.func @chain
// CHECK-SAME: ember.bootstrap_placement = {bootstrap_cost = 1.000000e+03 : f64, bootstraps = 2 : i64, levels = 2 : i64, op_cost = 1.300000e+02 : f64, sites = ["{{.*}}chain.mlir:[[#@LINE+20]]", "{{.*}}chain.mlir:[[#@LINE+22]]"], units = "relative"}
// CHECK: %[[A:.*]] = fhe.mul %{{.*}}, %{{.*}}
// CHECK-NEXT: %[[B:.*]] = fhe.mul %[[A]], %[[A]]
// CHECK-NEXT: %[[RB:.*]] = fhe.bootstrap %[[B]]
// CHECK-NEXT: %[[C:.*]] = fhe.mul %[[RB]], %[[RB]]
// CHECK-NEXT: %[[D:.*]] = fhe.mul %[[C]], %[[C]]
// CHECK-NEXT: %[[RD:.*]] = fhe.bootstrap %[[D]]
// CHECK-NEXT: %[[E:.*]] = fhe.mul %[[RD]], %[[RD]]
// CHECK-NEXT: return %[[E]]
// Two levels kept at the output: a third bootstrap, after the last product.
// OUT: bootstraps = 3
// OUT: fhe.bootstrap
// OUT: fhe.bootstrap
// OUT: %[[E:.*]] = fhe.mul
// OUT-NEXT: %[[RE:.*]] = fhe.bootstrap %[[E]]
// OUT-NEXT: return %[[RE]]
// FITS: bootstraps = 0
// FITS-NOT: fhe.bootstrap
func.func @chain(%x: !fhe.ct<8>) -> !fhe.ct<8> {
  %a = fhe.mul %x, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %b = fhe.mul %a, %a : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %c = fhe.mul %b, %b : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %d = fhe.mul %c, %c : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %e = fhe.mul %d, %d : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %e : !fhe.ct<8>
}
