# `pip install .`: what the installed Python package holds. Included from the
# top-level CMakeLists.txt when EMBER_PYTHON_PACKAGE is ON (pyproject.toml sets
# it; scikit-build-core installs into the wheel's platlib folder). Everything
# the package needs at run time lies inside it, so an installation is
# self-contained and needs neither the repository nor a build folder:
#
#   ember_runtime*.so            the runtime module (`import ember_runtime`)
#   ember/                       the frontend (copied by scikit-build-core)
#   ember/_install.json          what was built, and why a part was not
#   ember/_runtime/include/      the runtime's headers     } emitted programs are
#   ember/_runtime/lib/          libEmberRuntime.a, with   } built against these
#                                CUDA libEmberCuda.a       } (g++ / nvcc)
#   ember/_bin/                  ember-opt, ember-translate, ember-compile
#                                (only with the compiler)
#
# frontend/ember/_toolchain.py looks for each of these next to the package
# first, then in a build folder.
if(NOT EMBER_BUILD_RUNTIME OR NOT EMBER_BUILD_PYTHON)
  message(FATAL_ERROR "the Python package needs the runtime and its module "
                      "(EMBER_BUILD_RUNTIME, EMBER_BUILD_PYTHON)")
endif()

# With CUDA the module links the shared CUDA runtime: keep its folder in the
# module's run path once installed.
set_target_properties(ember_runtime PROPERTIES INSTALL_RPATH_USE_LINK_PATH ON)
install(TARGETS ember_runtime LIBRARY DESTINATION .)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/runtime/include/
        DESTINATION ${EMBER_PACKAGE_RUNTIME_DIR}/include)
install(TARGETS EmberRuntime ARCHIVE DESTINATION ${EMBER_PACKAGE_RUNTIME_DIR}/lib)
if(EMBER_ENABLE_CUDA)
  install(TARGETS EmberCuda ARCHIVE DESTINATION ${EMBER_PACKAGE_RUNTIME_DIR}/lib)
endif()

if(EMBER_BUILD_COMPILER)
  # The tools link the shared libMLIR/libLLVM of /usr/lib/llvm-22: keep that
  # folder in their run path once installed.
  set_target_properties(ember-opt ember-translate PROPERTIES
    INSTALL_RPATH_USE_LINK_PATH ON)
  install(TARGETS ember-opt ember-translate RUNTIME DESTINATION ember/_bin)
  install(PROGRAMS ${PROJECT_SOURCE_DIR}/compiler/tools/ember-compile
          DESTINATION ember/_bin)
endif()

# ember/_install.json: which optional parts were built and, for one that was
# not, why (the NotAvailableError that asks for it says so).
function(_ember_part_json out built found option missing)
  if(built)
    set(${out} "true" PARENT_SCOPE)
  elseif(found)
    set(${out} "false, \"${out}_missing\": \"built with ${option}=OFF\""
        PARENT_SCOPE)
  else()
    set(${out} "false, \"${out}_missing\": \"${missing} when it was built\""
        PARENT_SCOPE)
  endif()
endfunction()
_ember_part_json(compiler "${EMBER_BUILD_COMPILER}" "${_ember_compiler_default}"
                 EMBER_BUILD_COMPILER "MLIR 22 was not found")
_ember_part_json(cuda "${EMBER_ENABLE_CUDA}" "${_ember_cuda_default}"
                 EMBER_ENABLE_CUDA "nvcc was not found")
file(WRITE ${CMAKE_BINARY_DIR}/_install.json
     "{\"compiler\": ${compiler}, \"cuda\": ${cuda}}\n")
install(FILES ${CMAKE_BINARY_DIR}/_install.json DESTINATION ember)
