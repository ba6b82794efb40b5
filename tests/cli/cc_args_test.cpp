// memcarlo-cc's understanding of nvcc command lines and of nvcc --resource-usage output.
#include <gtest/gtest.h>

#include "cc/cc_driver.hpp"
#include "cc/nvcc_args.hpp"

namespace memcarlo::cli::cc {
namespace {

TEST(NvccArguments, ClassifiesInputsAndKeepsWhatEachBackendNeeds) {
  const CcInvocation in = parse_nvcc_arguments(
      {"-O3", "-std=c++17", "-Iinclude", "-I", "common", "-DN=4", "-arch=sm_80", "-gencode",
       "arch=compute_90,code=sm_90", "-Xcompiler", "-fopenmp,-Wall", "main.cu", "util.cpp",
       "lib.o", "-Llibs", "-lm", "-o", "app", "--use_fast_math", "-lineinfo"});
  ASSERT_EQ(in.inputs.size(), 3u);
  EXPECT_EQ(in.inputs[0].kind, InputKind::kCuda);
  EXPECT_EQ(in.inputs[1].kind, InputKind::kCxx);
  EXPECT_EQ(in.inputs[2].kind, InputKind::kObject);
  EXPECT_EQ(in.output, "app");
  EXPECT_FALSE(in.compile_only);
  EXPECT_EQ(in.standard, "c++17");
  EXPECT_EQ(in.preprocessor, (std::vector<std::string>{"-Iinclude", "-Icommon", "-DN=4"}));
  EXPECT_EQ(in.optimization, (std::vector<std::string>{"-O3"}));
  EXPECT_EQ(in.host_compiler_flags, (std::vector<std::string>{"-fopenmp", "-Wall"}));
  EXPECT_EQ(in.linker, (std::vector<std::string>{"-Llibs", "-lm"}));
  EXPECT_EQ(in.gpu, (std::vector<std::string>{"-arch=sm_80", "-gencode",
                                               "arch=compute_90,code=sm_90", "-lineinfo"}));
  EXPECT_EQ(in.cuda_only, (std::vector<std::string>{"--use_fast_math"}));
  EXPECT_EQ(in.notes.size(), 1u);
}

TEST(NvccArguments, LanguageOptionMakesAnyFileCuda) {
  const CcInvocation in = parse_nvcc_arguments({"-x", "cu", "kernel.cpp", "-c", "-o", "k.o"});
  ASSERT_EQ(in.inputs.size(), 1u);
  EXPECT_EQ(in.inputs[0].kind, InputKind::kCuda);
  EXPECT_TRUE(in.compile_only);
  EXPECT_EQ(default_object_name("src/kernel.cu"), "kernel.o");
}

TEST(NvccArguments, RelocatableDeviceCodeAndMissingValues) {
  EXPECT_TRUE(parse_nvcc_arguments({"-dc", "a.cu"}).relocatable_device);
  EXPECT_TRUE(parse_nvcc_arguments({"-dc", "a.cu"}).compile_only);
  EXPECT_TRUE(parse_nvcc_arguments({"-rdc=true", "a.cu"}).relocatable_device);
  EXPECT_THROW(parse_nvcc_arguments({"a.cu", "-o"}), std::invalid_argument);
  EXPECT_THROW(parse_nvcc_arguments({"a.cu", "-Xcompiler"}), std::invalid_argument);
}

TEST(ResourceUsage, ReadsRegistersAndSharedMemoryPerDemangledKernel) {
  const std::string ptxas =
      "ptxas info    : 0 bytes gmem\n"
      "ptxas info    : Compiling entry function '_Z11spmv_scalariPKiS0_PKfS2_Pf' for 'sm_75'\n"
      "ptxas info    : Function properties for _Z11spmv_scalariPKiS0_PKfS2_Pf\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 18 registers, 392 bytes cmem[0]\n"
      "ptxas info    : Compiling entry function '_Z9transposeILi32EEvPfPKfii' for 'sm_75'\n"
      "ptxas info    : Function properties for _Z9transposeILi32EEvPfPKfii\n"
      "    0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\n"
      "ptxas info    : Used 12 registers, 4224 bytes smem, 376 bytes cmem[0]\n";
  EXPECT_EQ(parse_resource_usage(ptxas), "spmv_scalar:18:0,transpose<32>:12:4224");
  EXPECT_EQ(parse_resource_usage("nothing useful\n"), "");
}

}  // namespace
}  // namespace memcarlo::cli::cc
