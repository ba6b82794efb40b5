# Runs `memcarlo trace import` on a malformed trace and checks the exit code (2) and that the
# message names the file and line; then checks that a good import and export succeed.
file(REMOVE_RECURSE ${WORK})
file(MAKE_DIRECTORY ${WORK})
execute_process(
  COMMAND ${MEMCARLO} trace import --format accelsim ${DATA}/malformed/kernelslist.g
          -o ${WORK}/out.mct
  RESULT_VARIABLE code ERROR_VARIABLE stderr OUTPUT_QUIET)
if(NOT code EQUAL 2)
  message(FATAL_ERROR "expected exit code 2, got ${code}: ${stderr}")
endif()
if(NOT stderr MATCHES "kernel-1.traceg:19: address mode 2 with 32 active lanes needs 31 deltas")
  message(FATAL_ERROR "unexpected message: ${stderr}")
endif()
if(EXISTS ${WORK}/out.mct)
  message(FATAL_ERROR "a partial output was left behind")
endif()

execute_process(COMMAND ${MEMCARLO} trace import --format nvbit x -o y RESULT_VARIABLE code
                ERROR_VARIABLE stderr OUTPUT_QUIET)
if(NOT code EQUAL 1 OR NOT stderr MATCHES "unknown trace format 'nvbit'")
  message(FATAL_ERROR "unknown format: exit code ${code}: ${stderr}")
endif()

file(COPY ${DATA}/malformed/kernelslist.g DESTINATION ${WORK}/good)
file(READ ${DATA}/malformed/kernel-1.traceg text)
string(REPLACE " 4 2 0x00007f0a2c000080 4 0" " 4 1 0x00007f0a2c000080 4 0" text "${text}")
file(WRITE ${WORK}/good/kernel-1.traceg "${text}")
foreach(step
    "trace;import;--format;accelsim;${WORK}/good;-o;${WORK}/good.mct"
    "trace;check;${WORK}/good.mct"
    "trace;export;--format;accelsim;${WORK}/good.mct;-o;${WORK}/exported;--binary-version;80"
    "trace;import;--format;accelsim;${WORK}/exported/kernel-1.traceg;-o;${WORK}/again.mct")
  execute_process(COMMAND ${MEMCARLO} ${step} RESULT_VARIABLE code OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "memcarlo ${step}: exit code ${code}\n${out}${err}")
  endif()
endforeach()
file(READ ${WORK}/exported/kernel-1.traceg exported)
if(NOT exported MATCHES "-binary version = 80\n")
  message(FATAL_ERROR "--binary-version not applied")
endif()
