# Shared per-target settings: warnings and the optional sanitizer instrumentation.
# Applied with target_* commands only; nothing here touches global flags.

function(memcarlo_target_defaults target)
  target_compile_features(${target} PUBLIC cxx_std_20)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wno-sign-conversion)
  if(MEMCARLO_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
  if(MEMCARLO_SANITIZE)
    target_compile_options(${target} PRIVATE -fsanitize=address,undefined -fno-omit-frame-pointer
                                             -fno-sanitize-recover=undefined)
    target_link_options(${target} PRIVATE -fsanitize=address,undefined)
  endif()
endfunction()
