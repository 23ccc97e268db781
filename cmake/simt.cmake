# simt_add_executable(<name> SOURCES <files...> [LIBRARIES <targets...>])
#
# Builds a kernel program for the simulator: each .cu source is compiled as C++ through a
# generated one-line .cpp that includes it, so the .cu file keeps its own name in reports and its
# source properties stay free for a CUDA build of the same file. Works in this tree, through
# add_subdirectory, and after find_package(simt CONFIG).
include_guard(GLOBAL)

function(simt_add_executable name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "SOURCES;LIBRARIES")
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "simt_add_executable(${name}): give the program's files after SOURCES")
  endif()
  set(sources)
  foreach(src IN LISTS ARG_SOURCES)
    cmake_path(ABSOLUTE_PATH src BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" OUTPUT_VARIABLE abs)
    if(abs MATCHES "\\.cu$")
      cmake_path(GET abs FILENAME file)
      set(wrapper "${CMAKE_CURRENT_BINARY_DIR}/simt_sim/${name}/${file}.cpp")
      file(CONFIGURE OUTPUT "${wrapper}" CONTENT "#include \"${abs}\"\n" @ONLY)
      list(APPEND sources "${wrapper}")
    else()
      list(APPEND sources "${abs}")
    endif()
  endforeach()
  add_executable(${name} ${sources})
  target_link_libraries(${name} PRIVATE simt::sim ${ARG_LIBRARIES})
endfunction()
