# Warnings and sanitizers as INTERFACE targets so every layer opts in the same way.
add_library(fwi_warnings INTERFACE)
target_compile_options(fwi_warnings INTERFACE
  $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wshadow -Wnon-virtual-dtor -Wpedantic>)

add_library(fwi_sanitizers INTERFACE)
if(FWI_SANITIZE)
  target_compile_options(fwi_sanitizers INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-fsanitize=${FWI_SANITIZE} -fno-omit-frame-pointer>)
  target_link_options(fwi_sanitizers INTERFACE -fsanitize=${FWI_SANITIZE})
endif()
if(FWI_FUZZ)
  # Coverage feedback for libFuzzer in every engine source; only the fuzz_* executables link libFuzzer's main.
  # The readers under test are serial, and clang 14 cannot compile the kernels' OpenMP regions (they capture
  # structured bindings, C++20 P1091/P1381, clang >= 16), so the fuzz build compiles the pragmas away (one thread).
  target_compile_options(fwi_sanitizers INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-fsanitize=fuzzer-no-link -fno-openmp>)
endif()

add_library(fwi_tuning INTERFACE)
if(FWI_NATIVE)
  target_compile_options(fwi_tuning INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-march=native>)
endif()
