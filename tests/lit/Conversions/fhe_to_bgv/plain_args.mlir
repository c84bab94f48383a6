// A plaintext argument of a BGV program: its type becomes the run-time
// slot values (tensor<n x complex<f64>>, the real parts are the integers),
// encoded at each use's level and factor (bgv.encode_values; rns.encode_values
// after bgv-to-rns); a product with it takes a level, switched lazily: after
// the sum.
// RUN: ember-opt --fhe-to-bgv %s | FileCheck %s
// RUN: ember-opt --fhe-to-bgv --bgv-to-rns %s | FileCheck %s --check-prefix=RNS

// CHECK-LABEL: func.func @f
// CHECK-SAME: (%[[X:.*]]: !bgv.ct<8, level = 1, factor = 1>, %[[W:.*]]: tensor<8xcomplex<f64>>)
// CHECK: %[[P:.*]] = bgv.encode_values %[[W]] : tensor<8xcomplex<f64>> -> <8, level = 1, factor = 1>
// CHECK: %[[M:.*]] = bgv.mul_plain %[[X]], %[[P]]
// CHECK: %[[P1:.*]] = bgv.encode_values %[[W]] : tensor<8xcomplex<f64>> -> <8, level = 1, factor = 1>
// CHECK: %[[A:.*]] = bgv.add_plain %[[M]], %[[P1]]
// CHECK: %[[S:.*]] = bgv.mod_switch %[[A]] : <8, level = 1, factor = 1> -> <8, level = 0, factor = 1>
// CHECK: return %[[S]]
// RNS: rns.encode_values %{{.*}}, 1.000000e+00 : tensor<8xcomplex<f64>> -> !rns.poly<ntt, q[0:2]>
// RNS-NOT: q[0:1]>{{.*}}encode_values
// RNS: rns.rescale
func.func @f(%x: !fhe.ct<8>, %w: !fhe.pt<8>) -> !fhe.ct<8> {
  %m = fhe.mul %x, %w : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  %o = fhe.add %m, %w : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  return %o : !fhe.ct<8>
}
