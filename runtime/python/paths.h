// The runtime that the module builds compiled programs against (g++ for
// .cpp, nvcc for .cu): its headers and static libraries. Each path is as
// compiled in (absolute, into the source and build trees) or, in the
// installed package (EMBER_RUNTIME_RELATIVE, cmake/EmberInstall.cmake),
// relative to the folder of the module's own file. Defined in program.cpp.
#pragma once

#include <string>

namespace ember {

/// `path` as compiled in, resolved next to the module when it is relative.
std::string runtimePath(const char *path);
/// EMBER_RUNTIME_INCLUDE_DIR and EMBER_RUNTIME_LIBRARY, resolved once (the
/// module resolves them when it is imported).
const std::string &runtimeIncludeDir();
const std::string &runtimeLibrary();
/// `s` quoted for the shell of the build commands.
std::string shellQuote(const std::string &s);

} // namespace ember
