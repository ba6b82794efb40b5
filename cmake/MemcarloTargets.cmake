# Shared per-target settings: warnings and the optional sanitizer instrumentation.
# Applied with target_* commands only; nothing here touches global flags.

function(memcarlo_target_defaults target)
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
  if(MEMCARLO_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-omit-frame-pointer
                                             -fno-sanitize-recover=undefined)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()
