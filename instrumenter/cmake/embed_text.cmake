# Turns a text file into a C++ source defining `extern const char SYMBOL[]` (cmake -P script).
# Usage: cmake -DINPUT=file -DOUTPUT=file.cpp -DSYMBOL=name -P embed_text.cmake
file(READ "${INPUT}" content)
set(delimiter "memcarlo_embed")
string(FIND "${content}" ")${delimiter}\"" clash)
if(NOT clash EQUAL -1)
  message(FATAL_ERROR "${INPUT} contains the raw-string delimiter ${delimiter}")
endif()
file(WRITE "${OUTPUT}"
  "// Generated from ${INPUT} by embed_text.cmake; do not edit.\n"
  "namespace memcarlo::instrumenter::resources {\n"
  "extern const char ${SYMBOL}[];\n"
  "const char ${SYMBOL}[] = R\"${delimiter}(${content})${delimiter}\";\n"
  "}  // namespace memcarlo::instrumenter::resources\n")
