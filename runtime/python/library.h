// Loading a generated program's shared library (the C++ and the CUDA
// programs of ember_runtime): dlopen, its entry point, its ABI version.
#pragma once

#include "ember/errors.h"
#include "ember/program_abi.h"

#include <dlfcn.h>

#include <string>

namespace ember::python {

/// Opens `path` and returns its function `entry` after checking that the
/// library was emitted for this runtime's program ABI; `handle` receives
/// the library (the caller dlcloses it).
inline void *openProgram(const std::string &path, const char *entry,
                         void *&handle) {
  handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle)
    throw InvalidArgument("cannot load program '" + path + "': " + dlerror());
  auto abi = reinterpret_cast<int (*)()>(dlsym(handle, "ember_program_abi"));
  void *fn = dlsym(handle, entry);
  if (!abi || !fn)
    throw InvalidArgument("'" + path + "' is not an Ember program (no " +
                          entry + ")");
  if (abi() != program::kAbiVersion)
    throw InvalidArgument("'" + path + "' was emitted for program ABI " +
                          std::to_string(abi()) + ", this runtime has " +
                          std::to_string(program::kAbiVersion));
  return fn;
}

/// The word size a loaded program was emitted for (ember_program_word: 64
/// or 32); InvalidArgument when it exports none or another.
inline int programWord(void *handle, const std::string &path) {
  auto word =
      reinterpret_cast<program::WordEntry>(dlsym(handle, program::kWordEntry));
  if (!word || (word() != 32 && word() != 64))
    throw InvalidArgument("'" + path + "' does not say its word size (no " +
                          program::kWordEntry + " returning 32 or 64)");
  return word();
}

} // namespace ember::python
