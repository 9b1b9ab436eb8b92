# Installs the build tree into a fresh prefix and builds and runs a consumer project against
# it with find_package(planarmom). Run with -DBUILD_DIR=... -DSOURCE_DIR=... -DWORK_DIR=...
# [-DFORWARD=...]
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
function(run)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
endfunction()
run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${WORK_DIR}/prefix")
# FORWARD: |-separated settings of the main build (where Boost was found) for the consumer.
string(REPLACE "|" ";" forward "${FORWARD}")
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}/tests/install/consumer" -B "${WORK_DIR}/build"
    -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=Release ${forward})
run(${CMAKE_COMMAND} --build "${WORK_DIR}/build")
run("${WORK_DIR}/build/consumer")
run("${WORK_DIR}/build/sweep_consumer" "${WORK_DIR}/sweep")
message(STATUS "installed package found, linked and ran")
