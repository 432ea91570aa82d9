# Test code is compiled at -O1 in optimised builds: it halves their compile time, the largest part
# of CI's build, while the libraries under test keep -O2. Debug (the sanitizer build) stays -O0.
function(liaison_test_compile_options target)
    target_compile_options(${target} PRIVATE $<$<CONFIG:Release,RelWithDebInfo,MinSizeRel>:-O1>)
endfunction()

# A test's Q_OBJECT classes live in its one source, which includes "<source>.moc". AUTOMOC would
# cost two steps a test that take about as long as compiling the test itself (measured 3.3 s and
# 3.1 s against 6.5 s, docs/performance.md "CI's time"): moc given the target's include paths
# opens every Qt header the source includes (2.6 s where 0.03 s does without them, the output the
# same), and an empty mocs_compilation.cpp is compiled with the 200 MB precompiled header. So the
# tests run moc themselves, on the source alone. A test that needs moc to see a macro from a header
# (a Q_OBJECT class in a header of tests/ must go into liaison_testsupport) would fail to compile.
# A source that speaks D-Bus keeps AUTOMOC: its slots take QDBusVariant, which moc knows for a
# metatype only from Qt's headers (without them the slot's argument type is not registered).
function(liaison_test_moc target)
    foreach(src ${ARGN})
        file(STRINGS ${src} dbus REGEX "QDBus" LIMIT_COUNT 1)
        if(dbus)
            return()
        endif()
    endforeach()
    set_target_properties(${target} PROPERTIES AUTOMOC OFF)
    set(dir ${CMAKE_CURRENT_BINARY_DIR}/${target}_moc)
    foreach(src ${ARGN})
        get_filename_component(src ${src} ABSOLUTE)
        get_filename_component(base ${src} NAME_WE)
        set(out ${dir}/${base}.moc)
        add_custom_command(OUTPUT ${out}
            COMMAND Qt6::moc ${src} -o ${out}
            DEPENDS ${src} Qt6::moc
            COMMENT "moc ${base}.cpp" VERBATIM)
        set_source_files_properties(${out} PROPERTIES HEADER_FILE_ONLY ON)
        target_sources(${target} PRIVATE ${out})
    endforeach()
    target_include_directories(${target} PRIVATE ${dir})
endfunction()

# liaison_add_test(<name> [NO_SUPPORT | SUPPORT <library>] SOURCES <files...> LIBS <targets...> [TIMEOUT <s>] [LABELS <labels...>])
# Builds one Qt Test executable and registers it with CTest, offscreen and with test-mode paths.
function(liaison_add_test name)
    cmake_parse_arguments(arg "NO_SUPPORT" "TIMEOUT;SUPPORT" "SOURCES;LIBS;LABELS" ${ARGN})
    qt_add_executable(${name} ${arg_SOURCES})
    liaison_test_moc(${name} ${arg_SOURCES})
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
