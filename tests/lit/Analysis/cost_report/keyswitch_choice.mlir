// RUN: ember-opt "--ember-pipeline=fhe-to-rns{params=athena40}" --ember-cost-report %s -o /dev/null | FileCheck %s
// RUN: ember-opt "--ember-pipeline=fhe-to-rns{params=athena40 keyswitch=hybrid}" --ember-cost-report %s -o /dev/null | FileCheck %s --check-prefix=HYBRID
// The cost report lists each key switch's method and predicted time next
// to the other method's, and the key memory by form. athena40 at level 39:
// hybrid for the hoisted pair of rotations (its shared ModUp and the
// digits' automorphisms are cheaper than KLSS's two inner products over
// 6 groups), KLSS for the relinearisation.
// CHECK: ember-cost-report @f
// CHECK: key switching (rns-select-keyswitch; predicted us, the other method in brackets):
// CHECK-NEXT: level 39 hoisted x2   x1   hybrid    1264.1 us  (klss 1500.2 us)
// CHECK-NEXT: level 39 relin        x1   klss       932.3 us  (hybrid 963.9 us)
// CHECK-NEXT: total predicted:       2196.4 us
// CHECK-NEXT: key memory: hybrid 2 key(s) 503316480 bytes, klss 1 key(s) 314572800 bytes, total 817889280 bytes
// HYBRID: level 39 hoisted x2   x1   hybrid    1264.1 us  (klss 1500.2 us)
// HYBRID-NEXT: level 39 relin        x1   hybrid     963.9 us  (klss 932.3 us)
// HYBRID: key memory: hybrid 3 key(s) 754974720 bytes, klss 0 key(s) 0 bytes, total 754974720 bytes
func.func @f(%x: !fhe.ct<8>, %y: !fhe.ct<8>) -> !fhe.ct<8> {
  %a = fhe.mul %x, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %r1 = fhe.rotate %x by 1 : !fhe.ct<8>
  %r2 = fhe.rotate %x by 2 : !fhe.ct<8>
  %s = fhe.add %r1, %r2 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %t = fhe.add %s, %a : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %t : !fhe.ct<8>
}
