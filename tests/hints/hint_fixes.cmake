# One row of tests/hints/tests.cmake's table, as a learner meets it: the program, built with
# simt-nvcc in a folder of its own, gets the hint at its line; the fix the hint asks for, applied
# to the source, makes the run clean ("simt: no findings ...", the last line) and its result right
# (the program prints "<result> (expected <result>)").
# -DKEY=<hint key> -DSIMT_NVCC=<build/bin/simt-nvcc> -DHINTS=<tests/hints> -DWORK_DIR=<scratch>
include("${HINTS}/tests.cmake")
set(row "")
foreach(each IN LISTS hint_rows)
  if(each MATCHES "^${KEY}\\|")
    set(row "${each}")
  endif()
endforeach()
if(row STREQUAL "")
  message(FATAL_ERROR "no row for the hint '${KEY}' in ${HINTS}/tests.cmake")
endif()
simt_hint_row("${row}")
get_filename_component(program "${hint_file}" NAME_WE)

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
file(READ "${HINTS}/${hint_file}" source)
file(WRITE "${WORK_DIR}/${hint_file}" "${source}")

# Builds the program as `simt-nvcc -o name name.cu` in its folder, runs it, and leaves what it
# printed (stdout and stderr in the order written) in `out`.
function(build_and_run what)
  execute_process(COMMAND "${SIMT_NVCC}" -o ${program} ${hint_file} WORKING_DIRECTORY "${WORK_DIR}"
                  RESULT_VARIABLE status OUTPUT_VARIABLE built ERROR_VARIABLE built)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "simt-nvcc did not build ${what} (status ${status}):\n${built}")
  endif()
  execute_process(COMMAND "${WORK_DIR}/${program}" WORKING_DIRECTORY "${WORK_DIR}" TIMEOUT 60
                  RESULT_VARIABLE status OUTPUT_VARIABLE ran ERROR_VARIABLE ran)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "${what} ended with status ${status}:\n${ran}")
  endif()
  set(out "${ran}" PARENT_SCOPE)
endfunction()

# The program as written: one finding of the row's kind whose first access is at the row's line
# and whose hint holds the row's phrase.
build_and_run("the program")
string(REPLACE "." "\\." at "${hint_file}:${hint_line}")
set(rest "\n${out}")
set(reported FALSE)
while(NOT reported)
  string(FIND "${rest}" "\nsimt: " start)
  if(start EQUAL -1)
    break()
  endif()
  math(EXPR start "${start} + 1")
  string(SUBSTRING "${rest}" ${start} -1 rest)
  string(FIND "${rest}" "\nsimt: " next)
  string(SUBSTRING "${rest}" 0 ${next} finding)
  string(FIND "${finding}" "${hint_phrase}" has_phrase)
  if(finding MATCHES "^simt: ${hint_kind} [^\n]*\n  [^\n]* at ${at}[ \n]" AND NOT has_phrase EQUAL -1)
    set(reported TRUE)
  endif()
endwhile()
if(NOT reported)
  message(FATAL_ERROR "no ${hint_kind} at ${hint_file}:${hint_line} with the hint '${hint_phrase}':\n${out}")
endif()
message(STATUS "as written, the program gets the hint:\n${out}")

# The fix: the row's text, found exactly once, replaced.
string(FIND "${source}" "${hint_replace}" first)
string(FIND "${source}" "${hint_replace}" last REVERSE)
if(first EQUAL -1)
  message(FATAL_ERROR "the text the fix replaces is not in ${hint_file}:\n${hint_replace}")
elseif(NOT first EQUAL last)
  message(FATAL_ERROR "the text the fix replaces is in ${hint_file} more than once:\n${hint_replace}")
endif()
string(REPLACE "${hint_replace}" "${hint_with}" fixed "${source}")
file(WRITE "${WORK_DIR}/${hint_file}" "${fixed}")
build_and_run("the fixed program")
if(NOT out MATCHES "\nsimt: no findings \\(race, bounds, init, sync checked\\)\n$")
  message(FATAL_ERROR "the fixed program's run does not end clean:\n${out}")
endif()
if(NOT out MATCHES "([0-9]+) \\(expected ([0-9]+)\\)" OR NOT CMAKE_MATCH_1 EQUAL CMAKE_MATCH_2)
  message(FATAL_ERROR "the fixed program's result is not right:\n${out}")
endif()
message(STATUS "fixed, it runs clean:\n${out}")
