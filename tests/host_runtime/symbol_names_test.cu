// cudaMemcpyToSymbol and friends with the symbol named by a string (CUDA 2-4, Rodinia's kmeans:
// cudaMemcpyToSymbol("c_clusters", ...)) or given by address (the C API), found in the program's
// symbol table; and what happens when the name names no variable, or two.
#include <cuda_runtime.h>

#include <cstring>
#include <string>
#include <vector>

#include "host_test_util.h"

using host_test::DeviceArray;

__constant__ float symbol_test_coefficients[16];
__device__ int symbol_test_counter;
static __device__ int symbol_test_static_counter;
static __constant__ int symbol_test_duplicate[4];
// Passed as the symbol itself: its characters name no variable.
__constant__ const char symbol_test_greeting[] = "hello";
// Passed as a name: its characters are one.
const char symbol_test_name_holder[] = "symbol_test_coefficients";

void symbol_test_read_other_unit(float* out);
const void* symbol_test_duplicate_of_second_unit();

namespace {

__global__ void scale_by_coefficients(const float* in, float* out) {
  out[threadIdx.x] = in[threadIdx.x] * symbol_test_coefficients[threadIdx.x];
}

std::vector<float> ramp(std::size_t count, float step) {
  std::vector<float> values(count);
  for (std::size_t i = 0; i < count; ++i) {
    values[i] = step * static_cast<float>(i + 1);
  }
  return values;
}

class HostSymbolNamesDeathTest : public ::testing::Test {
 protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

constexpr unsigned kUnknownNameLine = __LINE__ + 3;
void copy_to_unknown_name() {
  const float value = 1.0f;
  cudaMemcpyToSymbol("symbol_test_no_such_variable", &value, sizeof value);
}

constexpr unsigned kDuplicateLine = __LINE__ + 3;
void copy_to_duplicate_name() {
  const int values[4] = {};
  cudaMemcpyToSymbol("symbol_test_duplicate", values, sizeof values);
}

}  // namespace

TEST(HostSymbolNames, AStringNamesAVariableOfThisUnit) {
  const std::vector<float> coefficients = ramp(16, 0.5f);
  ASSERT_CUDA(cudaMemcpyToSymbol("symbol_test_coefficients", coefficients.data(),
                                 16 * sizeof(float), 0, cudaMemcpyHostToDevice));
  const DeviceArray<float> in(std::vector<float>(16, 2.0f));
  DeviceArray<float> out(16);
  memcarlo_launch("scale_by_coefficients", scale_by_coefficients, 1, 16, 0, 0, in.get(), out.get());
  const auto o = out.to_host();
  for (std::size_t i = 0; i < 16; ++i) {
    EXPECT_EQ(o[i], 2.0f * coefficients[i]) << i;
  }
  float back[4] = {};
  ASSERT_CUDA(
      cudaMemcpyFromSymbol(back, "symbol_test_coefficients", sizeof back, 8 * sizeof(float)));
  EXPECT_EQ(back[0], coefficients[8]);
  EXPECT_EQ(back[3], coefficients[11]);
  // The variable's extent comes from the symbol table: 64 bytes.
  EXPECT_EQ(cudaMemcpyToSymbol("symbol_test_coefficients", coefficients.data(), 16 * sizeof(float),
                               sizeof(float)),
            cudaErrorInvalidValue);
  EXPECT_EQ(cudaMemcpyFromSymbol(back, "symbol_test_coefficients", sizeof back, 0,
                                 cudaMemcpyHostToDevice),
            cudaErrorInvalidMemcpyDirection);
  cudaGetLastError();  // the expected failures above are not left for the next test
  ASSERT_CUDA(cudaMemcpyToSymbolAsync("symbol_test_coefficients", coefficients.data(),
                                      sizeof(float), 15 * sizeof(float), cudaMemcpyHostToDevice,
                                      nullptr));
  EXPECT_EQ(symbol_test_coefficients[15], coefficients[0]);
}

TEST(HostSymbolNames, AStringNamesAVariableOfAnotherUnitOrANamespace) {
  const std::vector<float> table = ramp(8, 1.0f);
  ASSERT_CUDA(cudaMemcpyToSymbol("symbol_test_other_unit_table", table.data(), 8 * sizeof(float)));
  const int scale = 3;
  ASSERT_CUDA(cudaMemcpyToSymbol("symbol_test::scale_factor", &scale, sizeof scale));
  DeviceArray<float> out(8);
  symbol_test_read_other_unit(out.get());
  const auto o = out.to_host();
  for (std::size_t i = 0; i < 8; ++i) {
    EXPECT_EQ(o[i], 3.0f * table[i]) << i;
  }
}

TEST(HostSymbolNames, AddressAndSizeByNameAndByAddress) {
  void* address = nullptr;
  std::size_t size = 0;
  ASSERT_CUDA(cudaGetSymbolAddress(&address, "symbol_test_coefficients"));
  EXPECT_EQ(address, static_cast<void*>(symbol_test_coefficients));
  ASSERT_CUDA(cudaGetSymbolSize(&size, "symbol_test_coefficients"));
  EXPECT_EQ(size, sizeof symbol_test_coefficients);
  // A static variable: GCC mangles its symbol (_ZL...), the lookup demangles it.
  ASSERT_CUDA(cudaGetSymbolAddress(&address, "symbol_test_static_counter"));
  EXPECT_EQ(address, static_cast<void*>(&symbol_test_static_counter));
  // The address from cudaGetSymbolAddress is device memory to cudaMemcpy.
  const int seven = 7;
  ASSERT_CUDA(cudaMemcpy(address, &seven, sizeof seven, cudaMemcpyHostToDevice));
  EXPECT_EQ(symbol_test_static_counter, 7);
  // The C API's form: the variable's address as a const void*.
  const int forty_two = 42;
  ASSERT_CUDA(cudaMemcpyToSymbol(static_cast<const void*>(&symbol_test_counter), &forty_two,
                                 sizeof forty_two));
  EXPECT_EQ(symbol_test_counter, 42);
  ASSERT_CUDA(cudaGetSymbolSize(&size, static_cast<const void*>(symbol_test_coefficients)));
  EXPECT_EQ(size, 16 * sizeof(float));
}

TEST(HostSymbolNames, AConstCharArrayIsAVariableUnlessItsCharactersNameOne) {
  char text[8] = {};
  ASSERT_CUDA(cudaMemcpyFromSymbol(text, symbol_test_greeting, sizeof symbol_test_greeting));
  EXPECT_STREQ(text, "hello");
  const float value = 9.0f;
  ASSERT_CUDA(cudaMemcpyToSymbol(symbol_test_name_holder, &value, sizeof value));
  EXPECT_EQ(symbol_test_coefficients[0], 9.0f);
  // A `const char*` variable holding a name, as some programs keep them.
  const char* name = "symbol_test_coefficients";
  ASSERT_CUDA(cudaMemcpyToSymbol(name, &value, sizeof value, sizeof(float)));
  EXPECT_EQ(symbol_test_coefficients[1], 9.0f);
}

TEST_F(HostSymbolNamesDeathTest, ANameOfNoVariableEndsTheProgramNamingCallNameAndLine) {
  EXPECT_EXIT(copy_to_unknown_name(), ::testing::ExitedWithCode(70),
              "memcarlo host runtime: cudaMemcpyToSymbol\\(\"symbol_test_no_such_variable\", "
              "\\.\\.\\.\\): the program has no __device__ or __constant__ variable named "
              "symbol_test_no_such_variable .*\\(.*symbol_names_test\\.cu:" +
                  std::to_string(kUnknownNameLine) + "\\)");
}

TEST_F(HostSymbolNamesDeathTest, ANameOfTwoStaticVariablesIsAmbiguous) {
  ASSERT_NE(symbol_test_duplicate_of_second_unit(),
            static_cast<const void*>(symbol_test_duplicate));
  EXPECT_EXIT(copy_to_duplicate_name(), ::testing::ExitedWithCode(70),
              "cudaMemcpyToSymbol\\(\"symbol_test_duplicate\", \\.\\.\\.\\): 2 variables are "
              "named symbol_test_duplicate .*symbol_names_test\\.cu:" +
                  std::to_string(kDuplicateLine) + "\\)");
}

TEST_F(HostSymbolNamesDeathTest, AnAddressOfNoVariableIsRefused) {
  std::vector<float> host(4);
  EXPECT_EXIT(cudaMemcpyToSymbol(static_cast<const void*>(host.data()), host.data(), 4),
              ::testing::ExitedWithCode(70),
              "cudaMemcpyToSymbol\\(0x[0-9a-f]+, \\.\\.\\.\\): the symbol is not the address of a "
              "__device__ or __constant__ variable");
}
