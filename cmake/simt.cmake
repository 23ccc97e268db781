# simt_add_executable(<name> SOURCES <files...> [LIBRARIES <targets...>] [SIMULATOR_ONLY]
#                     [UNCHECKED] [CHECKS_DEVICE_ITSELF])
#
# Builds a kernel program for the simulator as <name>: each .cu source is compiled as C++ after
# simt's front end (simt_cudafe, sim/frontend) has rewritten its kernel<<<...>>>(...)
# launches into calls of simt's launcher and put the CUDA runtime API in front of it, as nvcc
# does; a #line keeps the .cu file's own name and lines in compiler errors and reports.
#
# Checked (the default): the program's own sources are compiled with the compiler's
# thread-sanitizer instrumentation, whose entry points simt implements (sim/src/check/
# raw_access.cpp), so that every load and store through a raw pointer or a plain __shared__
# array is checked as a view's access is. UNCHECKED compiles them as they are, and simt's views
# without their checks too: every access runs at native speed and none is checked (no bounds, no
# races, no uninitialised reads: what a checker needs never reaches it). For timing, not for
# learning.
#
# Where the CUDA language is enabled (simt enables it when it finds a toolkit, unless SIMT_CUDA is
# OFF), the same sources also build as <name>_cuda: the .cu files compiled by nvcc for sm_80 and
# sm_90 plus PTX, against the CUDA backend; on a machine without a GPU it says so and exits with
# ctest's skip code (77) before main. CHECKS_DEVICE_ITSELF leaves that out, for a program that
# must start without a GPU (a test runner asked for its list of tests) and meets simt's own
# check at its first use of the GPU instead. SIMULATOR_ONLY skips the GPU build, for programs
# that use the simulator's own API (simt::sim::...). LINEINFO (or SIMT_LINEINFO set ON where the
# function is called) lets SIMT_PROFILE count the arithmetic of every source line, not only of
# those that touch memory (simt::lineinfo), and gives the GPU build nvcc's -lineinfo: what a
# program about to be profiled is built with.
#
# Works in this tree, through add_subdirectory, and after find_package(simt CONFIG).
include_guard(GLOBAL)

# CMake 3.25 predates nvcc's C++20 support (CUDA 12) and knows no flag for CUDA_STANDARD 20.
if(CMAKE_CUDA_COMPILER_VERSION VERSION_GREATER_EQUAL 12.0 AND NOT CMAKE_CUDA20_STANDARD_COMPILE_OPTION)
  set(CMAKE_CUDA20_STANDARD_COMPILE_OPTION "-std=c++20")
  set(CMAKE_CUDA20_EXTENSION_COMPILE_OPTION "-std=c++20")
endif()

# sm_80 and sm_90 machine code, and sm_90 PTX that newer GPUs compile when they load it.
set(SIMT_CUDA_ARCHITECTURES "80-real;90" CACHE STRING "GPU architectures of the <name>_cuda builds")

function(simt_add_executable name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "SIMULATOR_ONLY;UNCHECKED;CHECKS_DEVICE_ITSELF;LINEINFO" ""
                        "SOURCES;LIBRARIES")
  if(NOT ARG_SOURCES)
    message(FATAL_ERROR "simt_add_executable(${name}): give the program's files after SOURCES")
  endif()
  if(SIMT_LINEINFO)
    set(ARG_LINEINFO ON)
  endif()
  set(sim_sources)
  set(cuda_sources)
  set(source_dirs)
  foreach(src IN LISTS ARG_SOURCES)
    cmake_path(ABSOLUTE_PATH src BASE_DIRECTORY "${CMAKE_CURRENT_SOURCE_DIR}" OUTPUT_VARIABLE abs)
    list(APPEND cuda_sources "${abs}")
    if(abs MATCHES "\\.cu$" AND TARGET simt::sim)
      # The front end rewrites the launch brackets and nothing else; #line keeps the .cu's name
      # and lines in compiler errors and reports. Quoted includes are looked up beside the .cu.
      cmake_path(GET abs FILENAME file)
      cmake_path(GET abs PARENT_PATH dir)
      set(rewritten "${CMAKE_CURRENT_BINARY_DIR}/simt_sim/${name}/${file}.cpp")
      file(MAKE_DIRECTORY "${CMAKE_CURRENT_BINARY_DIR}/simt_sim/${name}")
      # The project's headers it includes are rewritten too (their copies under
      # ${rewritten}.inc); the depfile names them, so that editing one redoes the rewrite.
      add_custom_command(OUTPUT "${rewritten}"
        COMMAND "$<TARGET_FILE:simt::cudafe>" "${abs}" "${rewritten}"
        DEPENDS "${abs}" simt::cudafe
        DEPFILE "${rewritten}.d"
        COMMENT "simt: reading the launches of ${file}"
        VERBATIM)
      list(APPEND sim_sources "${rewritten}")
      list(APPEND source_dirs "${dir}")
    else()
      list(APPEND sim_sources "${abs}")
    endif()
  endforeach()

  if(TARGET simt::sim)
    add_executable(${name} ${sim_sources})
    target_link_libraries(${name} PRIVATE simt::sim ${ARG_LIBRARIES})
    # Compile flags only: linking stays free of the sanitizer's runtime, whose entry points
    # simt::sim provides.
    # The checks come with a target (simt::checks), not a variable, so that they reach the
    # program from whichever directory it is declared in: this tree, a parent project's after
    # add_subdirectory, or one that found simt with find_package.
    if(ARG_UNCHECKED)
      target_compile_definitions(${name} PRIVATE SIMT_UNCHECKED)
    else()
      target_link_libraries(${name} PRIVATE simt::checks)
      if(ARG_LINEINFO)
        target_link_libraries(${name} PRIVATE simt::lineinfo)
      endif()
    endif()
    if(source_dirs)
      list(REMOVE_DUPLICATES source_dirs)
      target_include_directories(${name} PRIVATE ${source_dirs})
    endif()
  endif()

  get_property(languages GLOBAL PROPERTY ENABLED_LANGUAGES)
  if(NOT ARG_SIMULATOR_ONLY AND TARGET simt::cuda AND "CUDA" IN_LIST languages
     AND NOT SIMT_CUDA STREQUAL "OFF")
    if(ARG_CHECKS_DEVICE_ITSELF)
      add_executable(${name}_cuda ${cuda_sources})
    else()
      # Every GPU build exits with the skip code on a machine without a GPU. The path is the
      # function's own folder's: a variable set beside the function would not reach a caller in
      # another directory.
      add_executable(${name}_cuda ${cuda_sources}
                     "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/require_device.cu")
    endif()
    target_link_libraries(${name}_cuda PRIVATE simt::cuda ${ARG_LIBRARIES})
    if(ARG_LINEINFO)
      target_compile_options(${name}_cuda PRIVATE $<$<COMPILE_LANGUAGE:CUDA>:-lineinfo>)
    endif()
    # A host .cpp of the program may include <cuda_runtime.h> too; nvcc finds it for .cu files.
    target_include_directories(${name}_cuda PRIVATE ${CMAKE_CUDA_TOOLKIT_INCLUDE_DIRECTORIES})
    set_target_properties(${name}_cuda PROPERTIES
      CUDA_ARCHITECTURES "${SIMT_CUDA_ARCHITECTURES}"
      CUDA_STANDARD 20 CUDA_STANDARD_REQUIRED ON CUDA_EXTENSIONS OFF)
  endif()
endfunction()
