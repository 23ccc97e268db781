# Which folder of sim/src may include which: each folder includes only folders below it in the
# layer order, which docs/architecture.md gives ("Layers") and the build's SIMT_SIM_LAYERS holds
# (CMakeLists.txt, which compiles each folder's sources). Fails on any include that points up
# the order or into a folder the order does not name; a folder may include its own headers.
# Since every arrow points down, the folders hold no include circle.
# cmake -DSRC=<sim/src> "-DLAYERS=fiber;device;..." -P check_layers.cmake
cmake_policy(SET CMP0057 NEW)  # if(IN_LIST)
if(NOT LAYERS)
  message(FATAL_ERROR "check_layers.cmake needs -DLAYERS=<the layer order>")
endif()

file(GLOB_RECURSE sources RELATIVE "${SRC}" "${SRC}/*.cpp" "${SRC}/*.hpp")
set(problems)
foreach(source IN LISTS sources)
  get_filename_component(folder "${source}" DIRECTORY)
  list(FIND LAYERS "${folder}" from)
  if(from EQUAL -1)
    string(APPEND problems "\n  ${source}: its folder '${folder}' has no place in the layer order")
    continue()
  endif()
  file(STRINGS "${SRC}/${source}" includes REGEX "^#include \"\\.\\./[a-z_]+/")
  foreach(line IN LISTS includes)
    string(REGEX REPLACE "^#include \"\\.\\./([a-z_]+)/([^\"]+)\".*" "\\1;\\2" parts "${line}")
    list(GET parts 0 to_folder)
    list(GET parts 1 header)
    list(FIND LAYERS "${to_folder}" to)
    if(to EQUAL -1)
      string(APPEND problems "\n  ${source} ${to_folder}/${header}: '${to_folder}' has no place in the layer order")
    elseif(to GREATER from)
      string(APPEND problems "\n  ${source} ${to_folder}/${header}: ${folder}/ is below ${to_folder}/; move what it needs down, or the code up")
    endif()
  endforeach()
endforeach()
if(problems)
  message(FATAL_ERROR "sim/src's layers (docs/architecture.md):${problems}")
endif()
list(LENGTH LAYERS n)
message(STATUS "${n} layers, every include between them pointing down")
