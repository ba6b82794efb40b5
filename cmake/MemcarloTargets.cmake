# Shared per-target settings: warnings and the optional sanitizer instrumentation.
# Applied with target_* commands only; nothing here touches global flags.

set(MEMCARLO_ARCH_FLAGS "" CACHE STRING
    "Instruction-set flags for every memcarlo target (default on x86-64: -march=x86-64-v2, i.e. \
SSE4.2 and POPCNT, which every x86-64 CPU since 2009 has)")
if(MEMCARLO_ARCH_FLAGS STREQUAL "" AND CMAKE_SYSTEM_PROCESSOR MATCHES "x86_64|AMD64")
  set(MEMCARLO_ARCH_FLAGS_EFFECTIVE "-march=x86-64-v2")
else()
  set(MEMCARLO_ARCH_FLAGS_EFFECTIVE "${MEMCARLO_ARCH_FLAGS}")
endif()

# Code off the hot path (the command line, the reports, the instrumenter's own code, the tests)
# spends its time in a few calls, not in loops over accesses: in a Release build it is compiled
# with this instead of -O3, which halves its compile time (the engine, the trace readers and
# writers and the host runtime keep -O3). Empty: everything at the build type's level.
set(MEMCARLO_OFF_HOT_PATH_FLAGS "-Og" CACHE STRING
    "Optimization flags of code off the hot path in Release builds (empty: the build type's)")

# Every target is compiled in unity batches: CMake concatenates up to MEMCARLO_UNITY_BATCH_SIZE of
# a target's source files into one translation unit, so the headers they share (GoogleTest,
# nlohmann/json, CLI11, Clang's, the engine's) are parsed, and their templates instantiated and
# compiled, once per batch instead of once per file. Four report tests compiled at -Og cost 14.3
# CPU-s as one batch against 31.8 s one by one; the engine at -O3, 83 CPU-s against 196. The
# replay benchmark gives the same digest and rate either way. The price: names at namespace scope
# must be unique across a target's files (a helper in an anonymous namespace in two files of one
# target clashes), and editing one file recompiles its batch.
option(MEMCARLO_UNITY_BUILD "Compile every target in unity batches (see MEMCARLO_UNITY_BATCH_SIZE)" ON)
set(MEMCARLO_UNITY_BATCH_SIZE 8 CACHE STRING "Source files per unity batch (MEMCARLO_UNITY_BUILD)")

# TARGET runs the programs and uses the libraries TOOLS at run time (memcarlo profile runs
# memcarlo-cc; a test runs memcarlo): building TARGET builds them first. Not add_dependencies:
# with the Ninja generator that holds back every object of TARGET until TOOLS are linked, which
# left one core idle for a minute of the demo's build; LINK_DEPENDS makes only the link wait.
function(memcarlo_runs target)
  foreach(tool IN LISTS ARGN)
    set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "$<TARGET_FILE:${tool}>")
  endforeach()
endfunction()

# Marks TARGET as code off the hot path (see MEMCARLO_OFF_HOT_PATH_FLAGS).
function(memcarlo_off_hot_path target)
  if(MEMCARLO_OFF_HOT_PATH_FLAGS)
    separate_arguments(flags UNIX_COMMAND "${MEMCARLO_OFF_HOT_PATH_FLAGS}")
    target_compile_options(${target} PRIVATE "$<$<CONFIG:Release>:${flags}>")
  endif()
endfunction()

function(memcarlo_target_defaults target)
  if(MEMCARLO_UNITY_BUILD)
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON
                                               UNITY_BUILD_BATCH_SIZE ${MEMCARLO_UNITY_BATCH_SIZE})
  endif()
  if(MEMCARLO_ARCH_FLAGS_EFFECTIVE)
    separate_arguments(arch_flags UNIX_COMMAND "${MEMCARLO_ARCH_FLAGS_EFFECTIVE}")
    target_compile_options(${target} PRIVATE ${arch_flags})
  endif()
  target_compile_features(${target} PUBLIC cxx_std_20)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wno-sign-conversion)
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    # GCC 12 reports false -Wrestrict positives inside std::string concatenation at -O2/-O3
    # (GCC bug 105329); the warning stays on for other compilers.
    target_compile_options(${target} PRIVATE -Wno-restrict)
  endif()
  if(MEMCARLO_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(MEMCARLO_FUZZ)
    target_compile_options(${target} PRIVATE -fsanitize=fuzzer-no-link,address,undefined
                                             -fno-omit-frame-pointer -fno-sanitize-recover=undefined)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
  if(MEMCARLO_TSAN)
    target_compile_options(${target} PRIVATE -fsanitize=thread -fno-omit-frame-pointer)
    target_link_options(${target} PRIVATE -fsanitize=thread)
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
      # __threadfence is a fence, which TSan does not model (GCC warns, -Wtsan); the host runtime
      # runs a block's threads on one OS thread, so fences order nothing TSan checks there.
      target_compile_options(${target} PRIVATE -Wno-tsan)
    endif()
  endif()
  if(MEMCARLO_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-omit-frame-pointer
                                             -fno-sanitize-recover=undefined)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
    # The tests' own translation units (GoogleTest's macros, fixtures) leave out UBSan's three
    # costliest checks for them: vptr, alignment and null. GCC spends 1.55 times the CPU time
    # compiling tests/sim's first unity batch with them (26.0 s against 16.8 s at -Og; 15.2 s
    # with ASan alone). Every library, the executables and the code they inline from their own
    # .cpp files keep the whole of UBSan, and ASan catches a null dereference in tests anyway.
    get_target_property(source_dir ${target} SOURCE_DIR)
    string(FIND "${source_dir}/" "${PROJECT_SOURCE_DIR}/tests/" tests_prefix)
    if(tests_prefix EQUAL 0)
      target_compile_options(${target} PRIVATE -fno-sanitize=vptr,alignment,null)
    endif()
  endif()
endfunction()
