# The MLIR compiler: dialects, passes, pipelines, ember-opt/ember-translate
# and the lit tests. Included from the top-level CMakeLists.txt when
# EMBER_BUILD_COMPILER is ON (MLIR 22 was found).
#
# Every library links the shared libMLIR/libLLVM (targets MLIR and LLVM), so
# a clean build compiles only Ember's own sources.

list(APPEND CMAKE_MODULE_PATH "${MLIR_CMAKE_DIR}" "${LLVM_CMAKE_DIR}")
include(TableGen)
include(AddLLVM)
include(AddMLIR)

# Generated .inc files are included by their repository-relative path, e.g.
# "dialects/CKKS/IR/CKKSOps.h.inc"; ember/*.h come from the header-only part of
# the runtime (security table, NTT prime generation).
include_directories(SYSTEM ${LLVM_INCLUDE_DIRS} ${MLIR_INCLUDE_DIRS})
include_directories(${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR}
                    ${PROJECT_SOURCE_DIR}/runtime/include)
add_definitions(${LLVM_DEFINITIONS})

# ember_add_library(<name> SRCS... [DEPENDS tablegen-targets...] [LINK libs...])
# A static library of Ember compiler code linked against libMLIR/libLLVM.
function(ember_add_library name)
  cmake_parse_arguments(ARG "" "" "DEPENDS;LINK" ${ARGN})
  add_library(${name} STATIC ${ARG_UNPARSED_ARGUMENTS})
  target_link_libraries(${name} PUBLIC ${ARG_LINK} MLIR LLVM)
  if(ARG_DEPENDS)
    add_dependencies(${name} ${ARG_DEPENDS})
  endif()
endfunction()

# ember_add_pass_tablegen(<Name>): <Name>.td -> <Name>.h.inc (pass decls),
# target Ember<Name>IncGen.
function(ember_add_pass_tablegen name)
  set(LLVM_TARGET_DEFINITIONS ${name}.td)
  mlir_tablegen(${name}.h.inc -gen-pass-decls -name ${name})
  add_public_tablegen_target(Ember${name}IncGen)
endfunction()

add_subdirectory(dialects)
add_subdirectory(compiler)

# --- lit tests ---------------------------------------------------------------
find_program(EMBER_LIT lit PATHS ${PROJECT_SOURCE_DIR}/.venv/bin NO_DEFAULT_PATH)
if(NOT EMBER_LIT)
  find_program(EMBER_LIT lit)
endif()
set(EMBER_LIT_TOOLS_DIR ${CMAKE_BINARY_DIR}/bin)
set(EMBER_LLVM_TOOLS_DIR ${LLVM_TOOLS_BINARY_DIR})
configure_file(${PROJECT_SOURCE_DIR}/tests/lit/lit.site.cfg.py.in
               ${CMAKE_BINARY_DIR}/tests/lit/lit.site.cfg.py @ONLY)
set(EMBER_LIT_DEPENDS ember-opt ember-translate)
add_custom_target(check-ember-lit
  COMMAND ${EMBER_LIT} -sv ${CMAKE_BINARY_DIR}/tests/lit
  DEPENDS ${EMBER_LIT_DEPENDS}
  COMMENT "Running the Ember lit tests"
  USES_TERMINAL)
