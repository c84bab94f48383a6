// A plaintext argument (!fhe.pt: slot values the server is given when the
// program runs) through every stage: a tensor of complex<f64> argument,
// ckks.encode_values at each level and scale its uses need (here 2^40 for
// the product and 2^80 for the lazy addition), rns.encode_values, a
// kernel.call "encode_values", and in the emitted plan a kPlainInput step
// (the value is given, with 8 slots) and one kEncodeValues per encoding.
// The interface and the manifest list it as plain, by its name.
// RUN: ember-opt --ember-pipeline=fhe-to-rns --mlir-print-ir-after=ckks-record-interface %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=CKKS
// RUN: ember-opt --ember-pipeline=fhe-to-rns %s | FileCheck %s --check-prefix=RNS
// RUN: ember-opt --ember-pipeline=fhe-to-kernel %s -o %t.k.mlir
// RUN: FileCheck %s --check-prefix=KERNEL < %t.k.mlir
// RUN: ember-translate --emit-cpp %t.k.mlir | FileCheck %s --check-prefix=CPP
// RUN: ember-translate --emit-manifest %t.k.mlir | FileCheck %s --check-prefix=MANIFEST

// CKKS: func.func @weighted(%[[X:.*]]: !ckks.ct<8, level = 1, scale = 1099511627776.0> {ember.name = "x"}, %[[W:.*]]: tensor<8xcomplex<f64>> {ember.name = "w"})
// CKKS-SAME: ember.interface = {inputs = [{degree = 2 : i64, level = 1 : i64, name = "x", {{.*}}}, {name = "w", plain, range = [-1.000000e+00, 1.000000e+00], slots = 8 : i64}]
// CKKS-NEXT: %[[P1:.*]] = ckks.encode_values %[[W]] : tensor<8xcomplex<f64>> -> !ckks.pt<8, level = 1, scale = 1099511627776.0>
// CKKS-NEXT: %[[M:.*]] = ckks.mul_plain %[[X]], %[[P1]]
// CKKS-NEXT: %[[P2:.*]] = ckks.encode_values %[[W]] : tensor<8xcomplex<f64>> -> !ckks.pt<8, level = 1, scale = 1.2089258196146292e+24>
// CKKS-NEXT: ckks.add_plain %[[M]], %[[P2]]

// RNS: func.func @weighted(%{{.*}}: !rns.poly<ntt, q[0:2]>, %{{.*}}: !rns.poly<ntt, q[0:2]>, %[[W:.*]]: tensor<8xcomplex<f64>>)
// RNS: rns.encode_values %[[W]], 0x4270000000000000 : tensor<8xcomplex<f64>> -> !rns.poly<ntt, q[0:2]>
// RNS: rns.encode_values %[[W]], 1.2089258196146292E+24 : tensor<8xcomplex<f64>> -> !rns.poly<ntt, q[0:2]>

// KERNEL: kernel.call "encode_values"(%arg2) {{{.*}}scale = 0x4270000000000000 : f64} : (tensor<8xcomplex<f64>>) -> !rns.poly<ntt, q[0:2]>

// CPP: {StepKind::kInput, {{[0-9]+}}, 2, {{[0-9]+}}, 0, {0, 1, 8, 0}, {{.*}} // input 'x'
// CPP-NEXT: {StepKind::kPlainInput, {{[0-9]+}}, 0, {{[0-9]+}}, 0, {0, 8, 0, 0}, {{.*}} // plain input 'w'
// CPP-NEXT: {StepKind::kEncodeValues, {{[0-9]+}}, 1, {{[0-9]+}}, 0, {0, 0, 0, 0}, 1.09951162777600000e+12, -1}
// CPP: {StepKind::kEncodeValues, {{[0-9]+}}, 1, {{[0-9]+}}, 0, {0, 0, 0, 0}, 1.20892581961462917e+24, -1}
// CPP: const char *const kInputNames[1] = {"x"};
// CPP-NEXT: const char *const kPlainNames[1] = {"w"};

// MANIFEST: "inputs": [
// MANIFEST: "name": "x",
// MANIFEST: "name": "w",
// MANIFEST-NEXT: "plain": true,
// MANIFEST-NEXT: "range": [
// MANIFEST: "slots": 8
func.func @weighted(%x: !fhe.ct<8> {ember.name = "x"}, %w: !fhe.pt<8> {ember.name = "w"}) -> !fhe.ct<8> {
  %y = fhe.mul %x, %w : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  %z = fhe.add %y, %w : (!fhe.ct<8>, !fhe.pt<8>) -> !fhe.ct<8>
  return %z : !fhe.ct<8>
}
