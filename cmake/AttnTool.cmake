# attn_add_tool(name sources... LINK libs...): an executable that exports no symbol (see
# exports-nothing.map) and links with gold when available (3x faster links of the static MLIR libs).
include(CheckLinkerFlag)
check_linker_flag(CXX "-fuse-ld=gold" ATTN_HAVE_GOLD)

function(attn_add_tool name)
  cmake_parse_arguments(ARG "" "" "LINK" ${ARGN})
  add_executable(${name} ${ARG_UNPARSED_ARGUMENTS})
  set_target_properties(${name} PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/bin)
  target_link_libraries(${name} PRIVATE ${ARG_LINK})
  target_link_options(${name} PRIVATE
    "-Wl,--version-script=${PROJECT_SOURCE_DIR}/cmake/exports-nothing.map")
  if(ATTN_HAVE_GOLD)
    target_link_options(${name} PRIVATE -fuse-ld=gold)
  endif()
  set_property(TARGET ${name} APPEND PROPERTY LINK_DEPENDS
    "${PROJECT_SOURCE_DIR}/cmake/exports-nothing.map")
endfunction()
