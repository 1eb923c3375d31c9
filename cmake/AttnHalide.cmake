# Imports Debian's Halide 14 as a plain IMPORTED target.
#
# find_package(Halide) is deliberately not used: HalideConfig runs find_dependency(LLVM 14), which
# overwrites the cached LLVM_DIR (MLIR's LLVM 19), points lit at LLVM 14's FileCheck and puts llvm-14
# into the RPATH. Halide.h includes no LLVM header, so nothing of LLVM 14 is needed to build.
find_library(ATTN_HALIDE_LIBRARY NAMES Halide14 PATHS /usr/lib/x86_64-linux-gnu REQUIRED)
find_path(ATTN_HALIDE_INCLUDE_DIR Halide.h PATH_SUFFIXES halide14 REQUIRED)
set(ATTN_HALIDE_PLUGIN_DIR "/usr/lib/x86_64-linux-gnu/halide14" CACHE PATH
    "Directory holding Halide's autoscheduler plugins")
find_package(Threads REQUIRED)

add_library(attn_halide_imported SHARED IMPORTED GLOBAL)
set_target_properties(attn_halide_imported PROPERTIES
  IMPORTED_LOCATION "${ATTN_HALIDE_LIBRARY}"
  INTERFACE_INCLUDE_DIRECTORIES "${ATTN_HALIDE_INCLUDE_DIR}"
  INTERFACE_COMPILE_DEFINITIONS "HALIDE_ENABLE_RTTI;HALIDE_WITH_EXCEPTIONS"
  INTERFACE_LINK_LIBRARIES "Threads::Threads;${CMAKE_DL_LIBS}")
add_library(attn::Halide ALIAS attn_halide_imported)
message(STATUS "Halide 14: ${ATTN_HALIDE_LIBRARY}")

# Code that includes Halide.h must catch Halide's exceptions; Debian's LLVM (and so every MLIR target)
# is built with -fno-exceptions. Such code lives in its own libraries, made with this function.
function(attn_enable_halide_exceptions target)
  target_compile_options(${target} PRIVATE -fexceptions)
  target_compile_definitions(${target} PRIVATE ATTN_HALIDE_INCLUDE_DIR="${ATTN_HALIDE_INCLUDE_DIR}"
                                               ATTN_HALIDE_PLUGIN_DIR="${ATTN_HALIDE_PLUGIN_DIR}")
  target_link_libraries(${target} PUBLIC attn::Halide)
endfunction()

# LLVM 14's assembler, for the target math attn links into Halide's kernels (lib/Conversion/
# CodeGen/Halide/Algorithm/TargetMath): bitcode that Halide's LLVM 14 reads must be written by LLVM 14
# or older (Debian: llvm-14, which scripts/setup.sh installs).
find_program(ATTN_LLVM_AS_14 NAMES llvm-as-14 llvm-as PATHS /usr/lib/llvm-14/bin NO_DEFAULT_PATH)
if(NOT ATTN_LLVM_AS_14)
  find_program(ATTN_LLVM_AS_14 NAMES llvm-as-14 REQUIRED)
endif()
message(STATUS "LLVM 14 assembler: ${ATTN_LLVM_AS_14}")
