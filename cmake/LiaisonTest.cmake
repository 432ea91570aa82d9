# Test code is compiled at -O1 in optimised builds: it halves their compile time, the largest part
# of CI's build, while the libraries under test keep -O2. Debug (the sanitizer build) stays -O0.
function(liaison_test_compile_options target)
    target_compile_options(${target} PRIVATE $<$<CONFIG:Release,RelWithDebInfo,MinSizeRel>:-O1>)
endfunction()

# liaison_add_test(<name> [NO_SUPPORT | SUPPORT <library>] SOURCES <files...> LIBS <targets...> [TIMEOUT <s>] [LABELS <labels...>])
# Builds one Qt Test executable and registers it with CTest, offscreen and with test-mode paths.
function(liaison_add_test name)
    cmake_parse_arguments(arg "NO_SUPPORT" "TIMEOUT;SUPPORT" "SOURCES;LIBS;LABELS" ${ARGN})
    qt_add_executable(${name} ${arg_SOURCES})
    if(NOT arg_SUPPORT)
        set(arg_SUPPORT liaison_testsupport)
    endif()
    if(arg_NO_SUPPORT)
        target_link_libraries(${name} PRIVATE ${arg_LIBS} Qt6::Test)
    else()
        target_link_libraries(${name} PRIVATE ${arg_LIBS} ${arg_SUPPORT} Qt6::Test)
    endif()
    liaison_test_compile_options(${name})
    add_test(NAME ${name} COMMAND ${name})
    if(NOT arg_TIMEOUT)
        set(arg_TIMEOUT 300)
    endif()
    set_tests_properties(${name} PROPERTIES
        TIMEOUT ${arg_TIMEOUT}
        LABELS "${arg_LABELS}"
        ENVIRONMENT "QT_QPA_PLATFORM=offscreen;LIAISON_BINARY=$<TARGET_FILE:liaison>;LIAISON_SOURCE_DIR=${CMAKE_SOURCE_DIR}")
endfunction()
