// 30 squarings in a row. With every scale prime just below 2^40 the scale
// would square its drift at every level and overflow to inf after about 20;
// the scale-tracking chain keeps it within a prime gap of 2^40 to the end.
// RUN: ember-opt --fhe-to-ckks %s | FileCheck %s

// CHECK: logN = 16
// CHECK-LABEL: func.func @deep
// CHECK-SAME: -> !ckks.ct<8, level = 0, scale = 10995{{[0-9][0-9][0-9][0-9][0-9][0-9][0-9][0-9]}}.{{[0-9]+}}>
func.func @deep(%x0: !fhe.ct<8>) -> !fhe.ct<8> {
  %x1 = fhe.mul %x0, %x0 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %x2 = fhe.mul %x1, %x1 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %x3 = fhe.mul %x2, %x2 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %x4 = fhe.mul %x3, %x3 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %x5 = fhe.mul %x4, %x4 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %x6 = fhe.mul %x5, %x5 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %x7 = fhe.mul %x6, %x6 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %x8 = fhe.mul %x7, %x7 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %x9 = fhe.mul %x8, %x8 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %x10 = fhe.mul %x9, %x9 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %x11 = fhe.mul %x10, %x10 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %x12 = fhe.mul %x11, %x11 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %x13 = fhe.mul %x12, %x12 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %x14 = fhe.mul %x13, %x13 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %x15 = fhe.mul %x14, %x14 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %x16 = fhe.mul %x15, %x15 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %x17 = fhe.mul %x16, %x16 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %x18 = fhe.mul %x17, %x17 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %x19 = fhe.mul %x18, %x18 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %x20 = fhe.mul %x19, %x19 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %x21 = fhe.mul %x20, %x20 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %x22 = fhe.mul %x21, %x21 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %x23 = fhe.mul %x22, %x22 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %x24 = fhe.mul %x23, %x23 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %x25 = fhe.mul %x24, %x24 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %x26 = fhe.mul %x25, %x25 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %x27 = fhe.mul %x26, %x26 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %x28 = fhe.mul %x27, %x27 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %x29 = fhe.mul %x28, %x28 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %x30 = fhe.mul %x29, %x29 : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %x30 : !fhe.ct<8>
}
