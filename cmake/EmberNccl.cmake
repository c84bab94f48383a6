# NCCL: the transfers of programs partitioned over several GPUs (issue 18;
# ember/nccl.h), included by runtime/cuda/CMakeLists.txt. Sets
# EMBER_NCCL_INCLUDE_DIR, EMBER_NCCL_LIBRARY, the option EMBER_ENABLE_NCCL
# (ON when found) and, when on, the imported target Ember::NCCL.
#
# Looked for as a pair (nccl.h and the library of one
# installation): the CUDA toolkit's include/lib folders, then the Python
# package nvidia.nccl (pip nvidia-nccl-cu12/13, which the GPU host has: its
# lib/ may hold only libnccl.so.2), then the system's (libnccl-dev).
# EMBER_NCCL_INCLUDE_DIR and EMBER_NCCL_LIBRARY, when both are given, win. The
# library is linked by its path: targets linking EmberCuda get its folder
# in their run path (an imported target), and the Python module passes the
# path to the nvcc that builds compiled programs (runtime/python/cuda.cpp).
if(NOT EMBER_NCCL_INCLUDE_DIR OR NOT EMBER_NCCL_LIBRARY)
  set(_ember_nccl_pairs)
  foreach(_inc IN LISTS CUDAToolkit_INCLUDE_DIRS)
    list(APPEND _ember_nccl_pairs "${_inc}|${CUDAToolkit_LIBRARY_DIR}")
  endforeach()
  # The Python package: the build's interpreter, then python3 on the PATH
  # (a virtual environment may not hold nvidia-nccl).
  set(_ember_pythons)
  if(Python3_EXECUTABLE)
    list(APPEND _ember_pythons "${Python3_EXECUTABLE}")
  endif()
  find_program(_ember_python3 NAMES python3 NO_CACHE)
  if(_ember_python3)
    list(APPEND _ember_pythons "${_ember_python3}")
  endif()
  foreach(_py IN LISTS _ember_pythons)
    execute_process(
      COMMAND "${_py}" -c
        "import nvidia.nccl as m; print(list(m.__path__)[0])"
      OUTPUT_VARIABLE _ember_nccl_py OUTPUT_STRIP_TRAILING_WHITESPACE
      RESULT_VARIABLE _ember_nccl_rc ERROR_QUIET)
    if(_ember_nccl_rc EQUAL 0 AND _ember_nccl_py)
      list(APPEND _ember_nccl_pairs
           "${_ember_nccl_py}/include|${_ember_nccl_py}/lib")
    endif()
  endforeach()
  list(APPEND _ember_nccl_pairs "/usr/include|/usr/lib/x86_64-linux-gnu"
       "/usr/local/include|/usr/local/lib")
  foreach(_pair IN LISTS _ember_nccl_pairs)
    string(REPLACE "|" ";" _pair "${_pair}")
    list(GET _pair 0 _inc)
    list(GET _pair 1 _lib)
    if(NOT EXISTS "${_inc}/nccl.h")
      continue()
    endif()
    find_library(_ember_nccl_lib NAMES nccl libnccl.so.2 PATHS "${_lib}"
                 NO_DEFAULT_PATH NO_CACHE)
    if(_ember_nccl_lib)
      set(EMBER_NCCL_INCLUDE_DIR "${_inc}" CACHE PATH
          "Folder of nccl.h (programs over several GPUs)" FORCE)
      set(EMBER_NCCL_LIBRARY "${_ember_nccl_lib}" CACHE FILEPATH
          "The NCCL library (programs over several GPUs)" FORCE)
      break()
    endif()
  endforeach()
endif()
if(EMBER_NCCL_INCLUDE_DIR AND EMBER_NCCL_LIBRARY)
  set(_ember_nccl_default ON)
else()
  set(_ember_nccl_default OFF)
endif()
option(EMBER_ENABLE_NCCL
       "Link NCCL: programs partitioned over several GPUs" ${_ember_nccl_default})
if(EMBER_ENABLE_NCCL)
  if(NOT EMBER_NCCL_INCLUDE_DIR OR NOT EMBER_NCCL_LIBRARY)
    message(FATAL_ERROR "EMBER_ENABLE_NCCL is ON but NCCL was not found: "
                        "set EMBER_NCCL_INCLUDE_DIR and EMBER_NCCL_LIBRARY, "
                        "or pip install nvidia-nccl-cu12")
  endif()
  if(NOT TARGET Ember::NCCL)
    add_library(Ember::NCCL SHARED IMPORTED GLOBAL)
    set_target_properties(Ember::NCCL PROPERTIES
      IMPORTED_LOCATION "${EMBER_NCCL_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${EMBER_NCCL_INCLUDE_DIR}")
  endif()
endif()
