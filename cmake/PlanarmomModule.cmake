# planarmom_add_library(NAME SOURCES ... [PUBLIC_DEPS ...] [PRIVATE_DEPS ...])
# One static library per module, exported as planarmom::NAME, headers under NAME/include.
function(planarmom_add_library name)
  cmake_parse_arguments(ARG "" "" "SOURCES;PUBLIC_DEPS;PRIVATE_DEPS" ${ARGN})
  set(target planarmom_${name})
  add_library(${target} STATIC ${ARG_SOURCES})
  add_library(planarmom::${name} ALIAS ${target})
  set_target_properties(${target} PROPERTIES EXPORT_NAME ${name} POSITION_INDEPENDENT_CODE ON)
  target_include_directories(${target} PUBLIC
    $<BUILD_INTERFACE:${CMAKE_CURRENT_SOURCE_DIR}/include>
    $<INSTALL_INTERFACE:${CMAKE_INSTALL_INCLUDEDIR}>)
  target_link_libraries(${target} PUBLIC ${ARG_PUBLIC_DEPS}
                                  PRIVATE ${ARG_PRIVATE_DEPS} $<BUILD_INTERFACE:planarmom_warnings>)
  install(TARGETS ${target} EXPORT planarmomTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
          LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
  install(DIRECTORY include/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
endfunction()

# planarmom_optional_dependency(NAME TARGET target HEADER h LIBRARY lib WITH src WITHOUT src
#                               MISSING text)
# A Debian library a module uses where it is installed: found by its header and library, the
# WITH source compiled and linked against it; otherwise the WITHOUT source, and MISSING said.
function(planarmom_optional_dependency name)
  cmake_parse_arguments(ARG "" "TARGET;HEADER;LIBRARY;WITH;WITHOUT;MISSING" "" ${ARGN})
  find_path(${name}_INCLUDE_DIR ${ARG_HEADER})
  find_library(${name}_LIBRARY ${ARG_LIBRARY})
  if(${name}_INCLUDE_DIR AND ${name}_LIBRARY)
    target_sources(${ARG_TARGET} PRIVATE ${ARG_WITH})
    target_include_directories(${ARG_TARGET} PRIVATE ${${name}_INCLUDE_DIR})
    target_link_libraries(${ARG_TARGET} PRIVATE ${${name}_LIBRARY})
  else()
    message(STATUS "${ARG_MISSING}")
    target_sources(${ARG_TARGET} PRIVATE ${ARG_WITHOUT})
  endif()
endfunction()
