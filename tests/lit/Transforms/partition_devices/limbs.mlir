// partition=limbs: every polynomial's limbs split over the GPUs. At set B
// (24 Q limbs, 8 P limbs) device 0 holds q[0:12] and p[0:4] of every
// polynomial, device 1 q[12:24] and p[4:8]. The only collectives are the
// base conversions' gathers (and the inputs' split, the results' gather):
// NTTs, generated kernels and the inner product stay on each device's
// limbs.
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{params=B devices=2 partition=limbs}" %s | FileCheck %s
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{params=B expand-modswitch=true}" %s | ember-opt --kernel-partition-devices="devices=2 partition=limbs print=true" -o /dev/null | FileCheck %s --check-prefix=PRINT
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{params=B devices=3 partition=limbs}" %s | FileCheck %s --check-prefix=THREE

// PRINT: kernel-partition-devices @mul_rotate: limbs split, Q bounds 0 12 24, P bounds 0 4 8

// CHECK-LABEL: func.func @mul_rotate
// CHECK-SAME: kernel.devices = 2 : i64
// CHECK-SAME: kernel.partition = "limbs"
// The inputs: device 0 keeps its share and sends device 1's.
// CHECK: kernel.view %arg0[0 : 12] {device = 0 : i64} : !rns.poly<ntt, q[0:24]> -> !rns.poly<ntt, q[0:12]>
// CHECK: %[[HI:.*]] = kernel.view %arg0[12 : 12] {device = 0 : i64} : !rns.poly<ntt, q[0:24]> -> !rns.poly<ntt, q[12:24]>
// CHECK: kernel.call "transfer"(%[[HI]]) {device = 0 : i64, {{.*}}to = 1 : i64}
// The tensor product: one kernel per device over its limbs, no transfer.
// CHECK: kernel.launch "k0"({{.*}}) {{{.*}}device = 0 : i64{{.*}}} : ({{.*}}q[0:12]>{{.*}}) -> !rns.poly<ntt, q[0:12]>
// CHECK-NEXT: ^bb0
// CHECK-NEXT: rns.mul {{.*}} : !rns.poly<ntt, q[0:12]>
// CHECK: kernel.launch "k0"({{.*}}) {{{.*}}device = 1 : i64{{.*}}} : ({{.*}}q[12:24]>{{.*}}) -> !rns.poly<ntt, q[12:24]>
// CHECK-NEXT: ^bb0
// CHECK-NEXT: rns.mul {{.*}} : !rns.poly<ntt, q[12:24]>
// Each device loads the whole relinearization key.
// CHECK-DAG: kernel.call "load_key"() {device = 0 : i64} : () -> !rns.evk<dnum = 3, q = 24, p = 8>
// CHECK-DAG: kernel.call "load_key"() {device = 1 : i64} : () -> !rns.evk<dnum = 3, q = 24, p = 8>
// ModUp of digit 0 (q[0:8], all on device 0): its INTT there, the
// coefficients sent to device 1, each device converting to its own limbs.
// CHECK: %[[D0:.*]] = kernel.call "intt"(%{{.*}}) {device = 0 : i64{{.*}}} : (!rns.poly<ntt, q[0:8]>) -> !rns.poly<coeff, q[0:8]>
// CHECK-NEXT: kernel.call "bconv"(%[[D0]]) {device = 0 : i64{{.*}}} : (!rns.poly<coeff, q[0:8]>) -> !rns.poly<coeff, q[8:12], p[0:4]>
// CHECK-NEXT: %[[S0:.*]] = kernel.call "transfer"(%[[D0]]) {device = 0 : i64, {{.*}}to = 1 : i64} : (!rns.poly<coeff, q[0:8]>)
// CHECK-NEXT: kernel.call "bconv"(%[[S0]]) {device = 1 : i64{{.*}}} : (!rns.poly<coeff, q[0:8]>) -> !rns.poly<coeff, q[12:24], p[4:8]>
// Digit 1 (q[8:16]) is split: each half's INTT on its device, then an
// exchange and a concat on each side before the conversion.
// CHECK: %[[A:.*]] = kernel.call "intt"(%{{.*}}) {device = 0 : i64{{.*}}} : (!rns.poly<ntt, q[8:12]>) -> !rns.poly<coeff, q[8:12]>
// CHECK: %[[B:.*]] = kernel.call "intt"(%{{.*}}) {device = 1 : i64{{.*}}} : (!rns.poly<ntt, q[12:16]>) -> !rns.poly<coeff, q[12:16]>
// CHECK: %[[BT:.*]] = kernel.call "transfer"(%[[B]]) {device = 1 : i64, {{.*}}to = 0 : i64}
// CHECK: %[[G0:.*]] = kernel.call "concat"(%[[A]], %[[BT]]) {device = 0 : i64{{.*}}} : (!rns.poly<coeff, q[8:12]>, !rns.poly<coeff, q[12:16]>) -> !rns.poly<coeff, q[8:16]>
// CHECK: kernel.call "bconv"(%[[G0]]) {device = 0 : i64
// The inner product: each device over its share of the raised digits.
// CHECK: kernel.call "ks_inner_product"({{.*}}) {device = 0 : i64{{.*}}} : (!rns.evk<dnum = 3, q = 24, p = 8>, !rns.poly<ntt, q[0:12], p[0:4]>, !rns.poly<ntt, q[0:12], p[0:4]>, !rns.poly<ntt, q[0:12], p[0:4]>) -> (!rns.poly<ntt, q[0:12], p[0:4]>, !rns.poly<ntt, q[0:12], p[0:4]>)
// CHECK: kernel.call "ks_inner_product"({{.*}}) {device = 1 : i64{{.*}}} : (!rns.evk<dnum = 3, q = 24, p = 8>, !rns.poly<ntt, q[12:24], p[4:8]>, !rns.poly<ntt, q[12:24], p[4:8]>, !rns.poly<ntt, q[12:24], p[4:8]>) -> (!rns.poly<ntt, q[12:24], p[4:8]>, !rns.poly<ntt, q[12:24], p[4:8]>)
// ModDown: the P limbs gathered (p[0:4] from device 0, p[4:8] from 1).
// CHECK: kernel.call "concat"({{.*}}) {device = 0 : i64{{.*}}} : (!rns.poly<coeff, p[0:4]>, !rns.poly<coeff, p[4:8]>) -> !rns.poly<coeff, p[0:8]>
// CHECK-NEXT: kernel.call "bconv"({{.*}}) {device = 0 : i64{{.*}}} : (!rns.poly<coeff, p[0:8]>) -> !rns.poly<coeff, q[0:12]>
// The epilogue (NTT, subtraction, P^-1) runs on each device's limbs.
// CHECK: kernel.launch "k{{[0-9]+}}"({{.*}}) {{{.*}}device = 1 : i64{{.*}}} : (!rns.poly<coeff, q[12:23]>, !rns.poly<ntt, q[12:23]>) -> !rns.poly<ntt, q[12:23]>
// CHECK-NEXT: ^bb0
// CHECK-NEXT: rns.ntt {{.*}} : !rns.poly<coeff, q[12:23]> -> !rns.poly<ntt, q[12:23]>
// The results: device 1's share sent back and joined on device 0.
// CHECK: %[[R:.*]] = kernel.call "transfer"({{.*}}) {device = 1 : i64, {{.*}}to = 0 : i64} : (!rns.poly<ntt, q[12:23]>)
// CHECK: %[[W:.*]] = kernel.call "concat"(%{{.*}}, %[[R]]) {device = 0 : i64{{.*}}} : (!rns.poly<ntt, q[0:12]>, !rns.poly<ntt, q[12:23]>) -> !rns.poly<ntt, q[0:23]>
// CHECK: return %[[W]]

// Three devices: Q split 8 / 8 / 8, P 2 / 3 / 3.
// THREE: kernel.devices = 3 : i64
// THREE: kernel.call "ks_inner_product"({{.*}}) {device = 2 : i64{{.*}}} : (!rns.evk<dnum = 3, q = 24, p = 8>, !rns.poly<ntt, q[16:24], p[5:8]>
func.func @mul_rotate(%x: !fhe.ct<8>, %y: !fhe.ct<8>) -> !fhe.ct<8> {
  %a = fhe.mul %x, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %r = fhe.rotate %a by 1 : !fhe.ct<8>
  return %r : !fhe.ct<8>
}

// A program without key switching: transfers only for the inputs and the
// results; the kernel runs on each device's limbs.
// CHECK-LABEL: func.func @plain
// CHECK-COUNT-4: kernel.call "transfer"({{.*}}) {device = 0 : i64, {{.*}}to = 1 : i64}
// CHECK-NOT: "transfer"
// CHECK-COUNT-4: kernel.launch
// CHECK-NOT: "transfer"
// CHECK-NOT: bconv
// CHECK: kernel.call "transfer"({{.*}}) {device = 1 : i64, {{.*}}to = 0 : i64}
// CHECK-NOT: bconv
// CHECK: return
func.func @plain(%x: !fhe.ct<8>, %y: !fhe.ct<8>) -> !fhe.ct<8> {
  %a = fhe.add %x, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %a : !fhe.ct<8>
}
