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

add_library(fwi_tuning INTERFACE)
if(FWI_NATIVE)
  target_compile_options(fwi_tuning INTERFACE $<$<COMPILE_LANGUAGE:CXX>:-march=native>)
endif()
