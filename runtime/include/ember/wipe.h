// Erasing secret material: the secret key, the temporaries of key
// generation and decryption that hold s-dependent data, the keystream of
// the Prng. A plain loop or memset before free may be dropped by the
// optimiser (the memory is dead); OPENSSL_cleanse is not.
#pragma once

#include <cstddef>
#include <vector>

namespace ember {

/// Overwrites `bytes` bytes at `data` with zeros (OPENSSL_cleanse).
void secureWipe(void *data, size_t bytes);

/// Overwrites a vector's elements with zeros; size and capacity are kept.
template <typename T> void secureWipe(std::vector<T> &v) {
  secureWipe(v.data(), v.size() * sizeof(T));
}

} // namespace ember
