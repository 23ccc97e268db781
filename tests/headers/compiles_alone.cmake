# Compiles one header on its own (a source that includes it and nothing else) with -fsyntax-only.
# cmake -DCXX=<compiler> -DHEADER=<include name> -DINCLUDES=<dir|dir> -DDEFINE=<macro> -DWORK_DIR=<dir> -P ...
cmake_minimum_required(VERSION 3.25)
string(MAKE_C_IDENTIFIER "${HEADER}" id)
file(MAKE_DIRECTORY "${WORK_DIR}")
set(source "${WORK_DIR}/${id}.cpp")
set(text "")
if(DEFINE)
  # A simulator header refuses to be included except from <simt/simt.hpp>, which defines this
  # first; defined here, the header is compiled with nothing of simt before it.
  string(APPEND text "#define ${DEFINE} 1\n")
endif()
string(APPEND text "#include <${HEADER}>\n")
file(WRITE "${source}" "${text}")
set(flags -std=c++20 -fsyntax-only -Wall -Wextra)
string(REPLACE "|" ";" includes "${INCLUDES}")
foreach(dir IN LISTS includes)
  list(APPEND flags "-I${dir}")
endforeach()
execute_process(COMMAND "${CXX}" ${flags} "${source}" RESULT_VARIABLE rc ERROR_VARIABLE err OUTPUT_QUIET)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "<${HEADER}> does not compile on its own (it uses what it does not include):\n${err}")
endif()
