/* Ours: <iostream> for C++ units only, for sources that use std::cerr without including it (nvcc's
   headers pull it in); a study names it with "flags": ["-include", "{study}/inputs/shim/cxx_iostream.h"]. */
#ifdef __cplusplus
#include <iostream>
#endif
