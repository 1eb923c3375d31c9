# install(): the tools, their Python scripts, the host target's kernel runtime (attn_runtime.a with
# its headers) and a CMake package, so that a project can find_package(attn) (attnConfig.cmake.in).
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS attn-opt attn-compile attn-run attn-tune attn-bench
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The tools find their scripts at ../share/attn/<path in the source tree> (tools/common/Python.cpp).
foreach(script tools/attn-run/heatmap.py tools/attn-bench/report.py tools/attn-bench/numpy_additive.py)
  get_filename_component(dir ${script} DIRECTORY)
  install(FILES ${PROJECT_SOURCE_DIR}/${script} DESTINATION ${CMAKE_INSTALL_DATADIR}/attn/${dir})
endforeach()

# The host's runtime, written by the attn-compile just built.
set(runtime_dir ${PROJECT_BINARY_DIR}/host-runtime)
set(runtime_files attn_runtime.a attn_runtime.h HalideRuntime.h HalideBuffer.h)
list(TRANSFORM runtime_files PREPEND ${runtime_dir}/ OUTPUT_VARIABLE runtime_paths)
set(run_attn_compile $<TARGET_FILE:attn-compile>)
if(ATTN_SANITIZE OR ATTN_FUZZERS)
  # A sanitized attn-compile runs as scripts/sanitize.sh runs the tools: without leak checks (the
  # uninstrumented MLIR, LLVM and Halide libraries keep global state for the life of the process).
  set(run_attn_compile ${CMAKE_COMMAND} -E env
      "ASAN_OPTIONS=verify_asan_link_order=0:allow_user_poisoning=0:detect_leaks=0"
      $<TARGET_FILE:attn-compile>)
endif()
add_custom_command(OUTPUT ${runtime_paths}
  COMMAND ${run_attn_compile} ${PROJECT_SOURCE_DIR}/cmake/attn-runtime.mlir -o ${runtime_dir} > /dev/null
  DEPENDS attn-compile ${PROJECT_SOURCE_DIR}/cmake/attn-runtime.mlir
  COMMENT "Writing the host target's kernel runtime (attn_runtime.a)")
add_custom_target(attn-host-runtime ALL DEPENDS ${runtime_paths})
install(FILES ${runtime_dir}/attn_runtime.a DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${runtime_dir}/attn_runtime.h ${runtime_dir}/HalideRuntime.h ${runtime_dir}/HalideBuffer.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/attn/runtime)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/attnConfig.cmake.in
  ${PROJECT_BINARY_DIR}/attnConfig.cmake INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/attn)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/attnConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/attnConfig.cmake ${PROJECT_BINARY_DIR}/attnConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/attn)
