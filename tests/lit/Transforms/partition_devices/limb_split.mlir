// The model's estimate of a limb split (each GPU a share of every
// polynomial's limbs, all-gathers at the base conversions; not built:
// docs/issue18-limb-partition-brief.md), printed and recorded beside the
// whole-operation plan, whatever that plan is. Two bounds: the
// collectives hidden beside the kernels, and after them.
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{params=B}" %s | ember-opt --kernel-partition-devices="devices=2 print=true" | FileCheck %s
// RUN: ember-opt "--ember-pipeline=fhe-to-kernel{params=B}" %s | ember-opt --kernel-partition-devices="devices=2" | ember-translate --emit-manifest | FileCheck %s --check-prefix=MANIFEST

// Without a key switch there is no base conversion and nothing to
// gather: both bounds are the split kernels' time.
// CHECK: kernel-partition-devices @no_switch: limbs split over 2 devices (model, not built): kernels [[T:[0-9.]+]] us, collectives 0.0 us: [[T]]-[[T]] us
// A product (relinearisation: ModUp and ModDown all-gather) and a
// rotation: collectives, and the bounds differ by them.
// CHECK: kernel-partition-devices @with_switch: limbs split over 2 devices (model, not built): kernels [[K:[0-9.]+]] us, collectives {{[1-9][0-9]*\.[0-9]}} us: [[K]]-{{[0-9.]+}} us
// CHECK: func.func @no_switch
// CHECK-SAME: kernel.limb_split_us = [
// CHECK: func.func @with_switch
// CHECK-SAME: kernel.limb_split_us = [
// MANIFEST: "limb_split_predicted_us": [
func.func @no_switch(%x: !fhe.ct<8>, %y: !fhe.ct<8>) -> !fhe.ct<8> {
  %a = fhe.add %x, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %b = fhe.add %a, %x : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  return %b : !fhe.ct<8>
}

func.func @with_switch(%x: !fhe.ct<8>, %y: !fhe.ct<8>) -> !fhe.ct<8> {
  %a = fhe.mul %x, %y : (!fhe.ct<8>, !fhe.ct<8>) -> !fhe.ct<8>
  %r = fhe.rotate %a by 1 : !fhe.ct<8>
  return %r : !fhe.ct<8>
}
