// RUN: not ember-opt --kernel-partition-devices="devices=0" %s 2>&1 | FileCheck %s --check-prefix=ZERO
// RUN: not ember-opt --kernel-partition-devices="devices=2" %s 2>&1 | FileCheck %s --check-prefix=PARAMS
// ZERO: kernel-partition-devices: devices must be 1..64, got 0
// PARAMS: kernel-partition-devices needs the module's #ckks.params
func.func @f(%x: !rns.poly<ntt, q[0:1]>) -> !rns.poly<ntt, q[0:1]> {
  return %x : !rns.poly<ntt, q[0:1]>
}

// RUN: not ember-opt --kernel-partition-devices="devices=2 partition=bogus" %s 2>&1 | FileCheck %s --check-prefix=MODE
// MODE: kernel-partition-devices: partition must be operations or limbs, got 'bogus'
