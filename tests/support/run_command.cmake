# What the -P scripts that test a command-line route share (./lab run, simt-nvcc): run a command
# in WORK_DIR and stop the test with its output when it fails; match that output.
#   include(${CMAKE_CURRENT_LIST_DIR}/../support/run_command.cmake)

# Runs the command in WORK_DIR; `all` is its stdout and stderr merged in the order they came
# (one pipe, as a terminal shows them). A status other than 0 ends the test.
function(run)
  execute_process(COMMAND ${ARGN} WORKING_DIRECTORY "${WORK_DIR}" RESULT_VARIABLE status
                  OUTPUT_VARIABLE all ERROR_VARIABLE all TIMEOUT 600)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "exit status ${status} from ${ARGN}:\n${all}")
  endif()
  set(all "${all}" PARENT_SCOPE)
endfunction()

# Ends the test, saying `why`, unless the last run's output matches `pattern`.
function(expect pattern why)
  if(NOT all MATCHES "${pattern}")
    message(FATAL_ERROR "${why}: the output does not match '${pattern}':\n${all}")
  endif()
endfunction()

# For a script that builds SOURCE by simt-nvcc (-DMODE=nvcc, -DSIMT_NVCC=...) or runs it by
# `./lab run` (-DMODE=lab, -DLAB=...): a fresh WORK_DIR with the source in mine/, and `program`,
# the command that runs it (append its arguments).
macro(route_program)
  file(REMOVE_RECURSE "${WORK_DIR}")
  file(MAKE_DIRECTORY "${WORK_DIR}/mine")
  file(COPY "${SOURCE}" DESTINATION "${WORK_DIR}/mine")
  get_filename_component(route_name "${SOURCE}" NAME_WE)
  get_filename_component(route_file "${SOURCE}" NAME)
  if(MODE STREQUAL "nvcc")
    run("${SIMT_NVCC}" -o ${route_name} mine/${route_file})
    set(program "${WORK_DIR}/${route_name}")
  elseif(MODE STREQUAL "lab")
    set(program "${LAB}" run mine/${route_file})
  else()
    message(FATAL_ERROR "MODE must be nvcc or lab")
  endif()
endmacro()
