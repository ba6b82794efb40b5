// How the histogram kernel is launched; only histogram.cu includes it (so only the dependency
// file that memcarlo-cc writes for histogram.o knows about it).
#pragma once
#define HISTOGRAM_BLOCKS 4
#define HISTOGRAM_THREADS 128
