MemcpyHtoD,0x00007f0a2c000000,4096
kernel-1.traceg
