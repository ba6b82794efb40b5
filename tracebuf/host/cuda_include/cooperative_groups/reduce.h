// Stand-in for <cooperative_groups/reduce.h>: cg::reduce and its operators live in the main header.
#pragma once
#include "cooperative_groups.h"
