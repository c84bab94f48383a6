// libFuzzer harness: ember::deserializeParams on untrusted bytes.
//
// Input: one mode byte, then the file. Mode bit 0 set: re-seal (fix the
// payload length and the SHA-256 checksum after mutation, fuzz_runtime.h),
// so that the parameter fields themselves are fuzzed. Any outcome other
// than a context or an ember::Error (SerializationError, SecurityError) is a
// bug: a crash, a sanitizer report, another exception type.
#include "fuzz_runtime.h"

#include "ember/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size < 1)
    return 0;
  const bool resealed = data[0] & 1;
  ember::Bytes bytes(data + 1, data + size);
  if (resealed)
    ember::fuzz::reseal(bytes, nullptr, nullptr);
  try {
    std::unique_ptr<ember::Context64> ctx = ember::deserializeParams(bytes);
    // A loaded context must serialize back to the same parameters.
    ember::Bytes again = ember::serializeParams(*ctx);
    if (ember::deserializeParams(again)->hash() != ctx->hash())
      __builtin_trap();
  } catch (const ember::Error &) {
  }
  return 0;
}
