# Sanitizer and fuzzing builds (scripts/sanitize.sh, scripts/fuzz.sh; docs/HARDENING.md).
#
#   -DATTN_SANITIZE=address,undefined  instruments attn's own code (the Debian MLIR, LLVM and Halide
#                                      libraries are not instrumented; their allocations are still
#                                      tracked, malloc being intercepted process-wide)
#   -DATTN_FUZZERS=ON                  builds the libFuzzer targets in tools/fuzz (clang only), and
#                                      compiles attn's code with coverage for them
#
# With clang the sanitizer runtime is linked as a shared library (-shared-libsan): the tools are
# linked with a version script that exports nothing (cmake/exports-nothing.map), which would hide a
# static runtime's malloc/free interceptors from the shared libraries (Halide, LLVM) and make ASan
# see their frees as invalid. GCC links its sanitizer runtimes shared by default.
set(ATTN_SANITIZE "" CACHE STRING "Sanitizers for attn's code, e.g. address,undefined")
option(ATTN_FUZZERS "Build the libFuzzer targets (tools/fuzz; needs clang)" OFF)

set(ATTN_SANITIZER_RUNTIME_DIR "")
if(ATTN_SANITIZE OR ATTN_FUZZERS)
  add_compile_options(-fno-omit-frame-pointer -g1)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-runtime-dir
                    OUTPUT_VARIABLE ATTN_SANITIZER_RUNTIME_DIR OUTPUT_STRIP_TRAILING_WHITESPACE)
    if(NOT EXISTS "${ATTN_SANITIZER_RUNTIME_DIR}")
      # clang 14 answers with a per-target directory that Debian does not use.
      execute_process(COMMAND ${CMAKE_CXX_COMPILER} -print-resource-dir
                      OUTPUT_VARIABLE resource OUTPUT_STRIP_TRAILING_WHITESPACE)
      set(ATTN_SANITIZER_RUNTIME_DIR "${resource}/lib/linux")
    endif()
  endif()
endif()

if(ATTN_SANITIZE)
  add_compile_options(-fsanitize=${ATTN_SANITIZE} -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${ATTN_SANITIZE})
  if(CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    add_link_options(-shared-libsan "-Wl,-rpath,${ATTN_SANITIZER_RUNTIME_DIR}")
  endif()
  message(STATUS "attn: sanitizers ${ATTN_SANITIZE}")
endif()

if(ATTN_FUZZERS)
  if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "ATTN_FUZZERS needs clang (libFuzzer): configure with CXX=clang++-14")
  endif()
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
