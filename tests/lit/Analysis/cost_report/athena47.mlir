// RUN: ember-opt "--ember-pipeline=fhe-to-rns{params=athena47}" --rns-select-keyswitch=print-table=true %s -o /dev/null 2>&1 | FileCheck %s
// RUN: ember-opt "--ember-pipeline=fhe-to-rns{params=athena47}" --ember-cost-report %s -o /dev/null | FileCheck %s --check-prefix=REPORT
// Athena's small-K shape (L+1, K, gamma, r') = (47, 1, 3, 3): one special
// prime, so hybrid needs a digit per limb and raises 47 of them. The model
// predicts KLSS 0.43x hybrid for a relinearisation at the top level and
// 0.56x at level 23; measured with the runtime's operations on an H200
// (bench/RESULTS.md): 0.36x and 0.52x (1582 against 4424 us, 662 against
// 1282). The pass picks KLSS for both key switches of the program.
// CHECK: rns-select-keyswitch table: N = 2^16, L+1 = 47, K = 1, dnum = 47, gamma = 3, r' = 3
// CHECK: level  hybrid-relin  klss-relin  hybrid-rot  klss-rot
// CHECK: 46        4547.9      1966.0      4572.5    1990.6
// CHECK: 23        1258.1       708.9      1270.7     721.5
// REPORT: level 46 galois       x1   klss      2002.9 us  (hybrid 5139.3 us)
// REPORT-NEXT: level 46 relin        x1   klss      1966.0 us  (hybrid 4547.9 us)
func.func @f(%x: !fhe.ct<8>, %y: !fhe.ct<8>) -> !fhe.ct<8> {
  %a = fhe.mul %x, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %r1 = fhe.rotate %x by 1 : !fhe.ct<8>
  %t = fhe.add %r1, %a : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %t : !fhe.ct<8>
}
