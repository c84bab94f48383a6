//===- TfheCircuit.h - the lwe circuit as the runtime's table -------------===//
//
// `ember-translate --emit-tfhe-circuit`: a module lowered by fhe-to-lwe as
// the JSON circuit that ember::lwe::runCircuit executes (the FHEW/TFHE
// program artifact: every op is a runtime bootstrap or a linear op, so the
// circuit is the program; there are no generated kernels).
//
//===----------------------------------------------------------------------===//
#pragma once

namespace ember::target {
void registerTfheTranslations();
} // namespace ember::target
