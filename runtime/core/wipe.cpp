// secureWipe (ember/wipe.h).
#include "ember/wipe.h"

#include <openssl/crypto.h>

namespace ember {

void secureWipe(void *data, size_t bytes) {
  if (data && bytes)
    OPENSSL_cleanse(data, bytes);
}

} // namespace ember
