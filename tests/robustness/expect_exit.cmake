# Runs PROGRAM with the environment ENV (a ;-list of NAME=VALUE), and requires its exit status
# to be STATUS, its output to match EXPECT, and it to end within SECONDS.
cmake_minimum_required(VERSION 3.25)
execute_process(COMMAND ${CMAKE_COMMAND} -E env ${ENV} ${PROGRAM} ${ARGS}
  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT ${SECONDS})
set(all "${out}${err}")
# Under ./lab test --sanitize, AddressSanitizer's one-line warning about swapcontext (the fibers)
# comes first; it is not the program's output.
string(REGEX REPLACE "==[0-9]+==WARNING: ASan doesn't fully support makecontext/swapcontext[^\n]*\n" "" all "${all}")
if(NOT status STREQUAL "${STATUS}")
  message(FATAL_ERROR "expected exit status ${STATUS} within ${SECONDS} s, got '${status}'; output:\n${all}")
endif()
if(NOT all MATCHES "${EXPECT}")
  message(FATAL_ERROR "the output does not match '${EXPECT}':\n${all}")
endif()
message(STATUS "exit status ${status}, output as expected:\n${all}")
