# Paste into the top-level CMakeLists.txt right after the add_compile_options(-Wall ...) line, before
# the first add_library: fuzz/ instruments every target defined after it (ASan, UBSan, libFuzzer's
# coverage), so THUNDERCC_FUZZ=ON is for a build directory of its own, configured with Clang
# (CC=clang CXX=clang++). scripts/fuzz.sh does not need it: it configures fuzz/ on its own.
option(THUNDERCC_FUZZ "Build the libFuzzer harnesses in fuzz/ (Clang; instruments the whole build with ASan+UBSan)" OFF)
if(THUNDERCC_FUZZ)
  add_subdirectory(fuzz)
endif()
