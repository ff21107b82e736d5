# Builds one example of examples/ the way a user does: scfly installed into a prefix, the
# example configured, built and tested against that prefix (find_package(scfly CONFIG)).
#   cmake -DSCFLY_BUILD=<scfly build dir> -DSRC=<example dir> -DWORK=<scratch dir> -P examples.cmake
foreach(v SCFLY_BUILD SRC WORK)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "examples.cmake: -D${v}=... is required")
  endif()
endforeach()
function(step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "examples.cmake: '${ARGN}' failed (${rc})")
  endif()
endfunction()
file(REMOVE_RECURSE ${WORK})
step(${CMAKE_COMMAND} --install ${SCFLY_BUILD} --prefix ${WORK}/prefix)
step(${CMAKE_COMMAND} -S ${SRC} -B ${WORK}/build -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${WORK}/prefix)
step(${CMAKE_COMMAND} --build ${WORK}/build -j2)
step(${CMAKE_CTEST_COMMAND} --test-dir ${WORK}/build --output-on-failure)
