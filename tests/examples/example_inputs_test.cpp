// The host-side halves of the bundled examples, which need no CUDA: the reproducible generator,
// "--flag value" parsing, the SpMV matrix kinds of the paper's case study (§6.2) and the checks
// that decide whether an example prints OK.
#include <gtest/gtest.h>
#include <unistd.h>  // dup2

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "common/example_support.h"
#include "matmul/matmul_problem.h"
#include "spmv/spmv_problem.h"
#include "transpose/transpose_problem.h"

namespace {

// argv as parse_flags receives it; the strings live as long as the object.
class Arguments {
 public:
  Arguments(std::initializer_list<const char*> arguments) {
    for (const char* argument : arguments) {
      storage_.emplace_back(argument);
    }
    for (std::string& argument : storage_) {
      pointers_.push_back(argument.data());
    }
  }
  int argc() const { return static_cast<int>(pointers_.size()); }
  char** argv() { return pointers_.data(); }

 private:
  std::vector<std::string> storage_;
  std::vector<char*> pointers_;
};

TEST(ExampleRandom, FollowsTheSplitMix64ReferenceSequence) {
  // Reference outputs of splitmix64 from state 0 (Steele, Lea and Flood, OOPSLA'14; Vigna's C
  // code).
  example::Random random(0);
  EXPECT_EQ(random.next(), 0xE220A8397B1DCDAFull);
  EXPECT_EQ(random.next(), 0x6E789E6AA1B965F4ull);
  EXPECT_EQ(random.next(), 0x06C45D188009454Full);
}

TEST(ExampleRandom, DrawsStayInTheirRangesAndCoverThem) {
  example::Random random(7);
  std::set<unsigned> seen;
  for (int draw = 0; draw < 10000; ++draw) {
    const unsigned value = random.below(7);
    ASSERT_LT(value, 7u);
    seen.insert(value);
    const float uniform = random.uniform(-1.0f, 1.0f);
    ASSERT_GE(uniform, -1.0f);
    ASSERT_LT(uniform, 1.0f);
  }
  EXPECT_EQ(seen.size(), 7u);
}

TEST(ExampleFlags, AWholeNumberMustBeDecimalAndInRange) {
  unsigned value = 3;
  const example::Flag flag = example::Flag::whole_number("--n", &value, 1, 100, "a number");
  for (const char* good : {"1", "100", "42", "007"}) {
    EXPECT_TRUE(flag.accept(good, false)) << good;
  }
  for (const char* bad :
       {"0", "101", "-1", "+5", "0x10", "12a", "", " 5", "99999999999999999999"}) {
    EXPECT_FALSE(flag.accept(bad, false)) << bad;
  }
  EXPECT_EQ(value, 3u) << "checking must not store";
  EXPECT_TRUE(flag.accept("42", true));
  EXPECT_EQ(value, 42u);
}

TEST(ExampleFlags, ALetterMustBeOneOfTheListed) {
  char letter = 'u';
  const example::Flag flag = example::Flag::one_letter_of("--matrix", &letter, "ubUB", "kind");
  EXPECT_TRUE(flag.accept("B", true));
  EXPECT_EQ(letter, 'B');
  for (const char* bad : {"x", "ub", "", "uu"}) {
    EXPECT_FALSE(flag.accept(bad, true)) << bad;
  }
  EXPECT_EQ(letter, 'B');
}

TEST(ExampleFlags, ParsesEveryPairIntoItsVariable) {
  Arguments arguments{"spmv", "--rows", "12", "--matrix", "B", "--seed", "9"};
  const spmv::Options options = spmv::parse_options(arguments.argc(), arguments.argv());
  EXPECT_EQ(options.num_rows, 12u);
  EXPECT_EQ(options.matrix_kind.letter, 'B');
  EXPECT_EQ(options.matrix_kind.average_nonzeros_per_row, 128u);
  EXPECT_TRUE(options.matrix_kind.block_diagonal);
  EXPECT_EQ(options.seed, 9u);
}

TEST(ExampleFlags, NoArgumentsKeepTheDefaults) {
  Arguments arguments{"matmul"};
  const matmul::Options options = matmul::parse_options(arguments.argc(), arguments.argv());
  EXPECT_EQ(options.m, 128u);
  EXPECT_EQ(options.n, 128u);
  EXPECT_EQ(options.k, 128u);
}

TEST(ExampleFlagsDeathTest, AnUnknownFlagExitsWithStatus2) {
  Arguments arguments{"spmv", "--bogus", "3"};
  EXPECT_EXIT(spmv::parse_options(arguments.argc(), arguments.argv()), testing::ExitedWithCode(2),
              "unknown argument '--bogus'");
}

TEST(ExampleFlagsDeathTest, ABadValueExitsWithStatus2AndTheUsageStillShowsTheDefaults) {
  Arguments arguments{"spmv", "--rows", "5", "--seed", "x"};
  EXPECT_EXIT(spmv::parse_options(arguments.argc(), arguments.argv()), testing::ExitedWithCode(2),
              "invalid value 'x' for --seed.*default 4096");
}

TEST(ExampleFlagsDeathTest, AMissingValueExitsWithStatus2) {
  Arguments arguments{"spmv", "--rows"};
  EXPECT_EXIT(spmv::parse_options(arguments.argc(), arguments.argv()), testing::ExitedWithCode(2),
              "invalid value '\\(missing\\)' for --rows");
}

TEST(ExampleFlagsDeathTest, HelpPrintsTheUsageOnStdoutAndExitsWith0) {
  Arguments arguments{"spmv", "--help"};
  // A death test matches stderr only, so the child sends its stdout there.
  EXPECT_EXIT(
      {
        dup2(STDERR_FILENO, STDOUT_FILENO);
        spmv::parse_options(arguments.argc(), arguments.argv());
      },
      testing::ExitedWithCode(0), "usage: spmv \\[--matrix u\\|b\\|U\\|B\\]");
}

class SpmvMatrixKind : public testing::TestWithParam<char> {
 protected:
  spmv::MatrixKind kind() const { return spmv::matrix_kind_from_letter(GetParam()); }
};

TEST_P(SpmvMatrixKind, RowLengthsStayWithinAQuarterOfThePapersAverage) {
  const spmv::CsrMatrix matrix = spmv::generate_matrix(kind(), 4096, 1);
  const unsigned average = kind().average_nonzeros_per_row;
  EXPECT_EQ(average, GetParam() == 'u' || GetParam() == 'b' ? 32u : 128u);
  for (unsigned row = 0; row < matrix.num_rows; ++row) {
    const unsigned length = matrix.rowIndices[row + 1] - matrix.rowIndices[row];
    ASSERT_GE(length, average - average / 4) << "row " << row;
    ASSERT_LE(length, average + average / 4) << "row " << row;
  }
  const double mean = double(matrix.indices.size()) / matrix.num_rows;
  EXPECT_NEAR(mean, average, 0.02 * average);
}

TEST_P(SpmvMatrixKind, ColumnsAreSortedDistinctAndInsideTheMatrix) {
  const spmv::CsrMatrix matrix = spmv::generate_matrix(kind(), 1000, 3);
  ASSERT_EQ(matrix.rowIndices.size(), 1001u);
  ASSERT_EQ(matrix.indices.size(), matrix.val.size());
  ASSERT_EQ(matrix.rowIndices.back(), matrix.indices.size());
  for (unsigned row = 0; row < matrix.num_rows; ++row) {
    for (unsigned j = matrix.rowIndices[row]; j < matrix.rowIndices[row + 1]; ++j) {
      ASSERT_LT(matrix.indices[j], 1000u);
      if (j > matrix.rowIndices[row]) {
        ASSERT_LT(matrix.indices[j - 1], matrix.indices[j]);
      }
      ASSERT_GE(matrix.val[j], -1.0f);
      ASSERT_LT(matrix.val[j], 1.0f);
    }
  }
}

TEST_P(SpmvMatrixKind, BlockDiagonalKindsKeepRowsInTheirBlockAndRandomKindsSpreadThem) {
  const spmv::CsrMatrix matrix = spmv::generate_matrix(kind(), 4096, 1);
  std::size_t outside_own_block = 0;
  for (unsigned row = 0; row < matrix.num_rows; ++row) {
    for (unsigned j = matrix.rowIndices[row]; j < matrix.rowIndices[row + 1]; ++j) {
      if (matrix.indices[j] / spmv::kDiagonalBlockWidth != row / spmv::kDiagonalBlockWidth) {
        ++outside_own_block;
      }
    }
  }
  if (kind().block_diagonal) {
    EXPECT_EQ(outside_own_block, 0u);
  } else {
    // 15 of the 16 blocks lie outside a row's own block.
    EXPECT_GT(double(outside_own_block), 0.9 * double(matrix.indices.size()));
  }
}

TEST_P(SpmvMatrixKind, RowsStartAtEveryAlignmentSoTheVectorKernelsPrologueRuns) {
  const spmv::CsrMatrix matrix = spmv::generate_matrix(kind(), 4096, 1);
  unsigned rows_by_alignment[4] = {0, 0, 0, 0};
  for (unsigned row = 0; row < matrix.num_rows; ++row) {
    ++rows_by_alignment[matrix.rowIndices[row] % 4];
  }
  for (unsigned count : rows_by_alignment) {
    EXPECT_GT(count, 4096u / 8);
  }
}

TEST_P(SpmvMatrixKind, TheSameSeedGivesTheSameMatrixAndAnotherSeedDoesNot) {
  const spmv::CsrMatrix first = spmv::generate_matrix(kind(), 2000, 5);
  const spmv::CsrMatrix again = spmv::generate_matrix(kind(), 2000, 5);
  const spmv::CsrMatrix other = spmv::generate_matrix(kind(), 2000, 6);
  EXPECT_EQ(first.rowIndices, again.rowIndices);
  EXPECT_EQ(first.indices, again.indices);
  EXPECT_EQ(first.val, again.val);
  EXPECT_NE(first.indices, other.indices);
}

TEST_P(SpmvMatrixKind, ARowNeverHoldsMoreNonZerosThanItHasColumns) {
  // 300 rows: block-diagonal rows 256..299 have a 44-column block, random rows 300 columns.
  const spmv::CsrMatrix matrix = spmv::generate_matrix(kind(), 300, 2);
  for (unsigned row = 0; row < matrix.num_rows; ++row) {
    const unsigned column_range = kind().block_diagonal && row >= 256 ? 44 : 300;
    const unsigned length = matrix.rowIndices[row + 1] - matrix.rowIndices[row];
    ASSERT_LE(length, column_range);
  }
  const spmv::CsrMatrix tiny = spmv::generate_matrix(kind(), 10, 2);
  EXPECT_EQ(tiny.indices.size(), 100u) << "every row of a 10×10 matrix is full";
}

std::string matrix_kind_test_name(const testing::TestParamInfo<char>& parameter) {
  switch (parameter.param) {
    case 'u':
      return "u_random32";
    case 'b':
      return "b_blockdiagonal32";
    case 'U':
      return "U_random128";
    default:
      return "B_blockdiagonal128";
  }
}

INSTANTIATE_TEST_SUITE_P(PapersFourMatrices, SpmvMatrixKind, testing::Values('u', 'b', 'U', 'B'),
                         matrix_kind_test_name);

TEST(SpmvCheck, AcceptsAFloatResultAndRejectsADroppedNonZero) {
  const spmv::CsrMatrix matrix = spmv::generate_matrix(spmv::matrix_kind_from_letter('u'), 500, 1);
  const std::vector<float> y = spmv::generate_vector(500, 1);
  std::vector<double> expected;
  std::vector<double> magnitude;
  spmv::reference_spmv(matrix, y, &expected, &magnitude);

  // What a GPU thread computes: a float sum in row order.
  std::vector<float> x(500, 0.0f);
  for (unsigned row = 0; row < 500; ++row) {
    for (unsigned j = matrix.rowIndices[row]; j < matrix.rowIndices[row + 1]; ++j) {
      x[row] += matrix.val[j] * y[matrix.indices[j]];
    }
  }
  testing::internal::CaptureStdout();
  EXPECT_EQ(spmv::check_result("spmv_test", x, expected, magnitude), 0);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "spmv_test: OK\n");

  // Drop the smallest term of row 7 that is still 1/1000 of the row's magnitude.
  const unsigned row = 7;
  float dropped = 0;
  for (unsigned j = matrix.rowIndices[row]; j < matrix.rowIndices[row + 1]; ++j) {
    const float term = matrix.val[j] * y[matrix.indices[j]];
    if (std::fabs(term) >= 1e-3 * magnitude[row] &&
        (dropped == 0 || std::fabs(term) < std::fabs(dropped))) {
      dropped = term;
    }
  }
  x[row] -= dropped;
  testing::internal::CaptureStdout();
  EXPECT_EQ(spmv::check_result("spmv_test", x, expected, magnitude), 1);
  EXPECT_NE(testing::internal::GetCapturedStdout().find("spmv_test: FAILED x[7]"),
            std::string::npos);
}

TEST(MatmulCheck, AcceptsAFloatProductAndRejectsATransposedOperand) {
  matmul::Options options;
  options.m = 20;
  options.n = 20;
  options.k = 37;
  example::Random random(4);
  const std::vector<float> a = matmul::random_matrix(options.m, options.k, &random);
  const std::vector<float> b = matmul::random_matrix(options.k, options.n, &random);
  std::vector<float> c(std::size_t{options.m} * options.n, 0.0f);
  for (unsigned row = 0; row < options.m; ++row) {
    for (unsigned col = 0; col < options.n; ++col) {
      for (unsigned i = 0; i < options.k; ++i) {
        c[row * options.n + col] += a[row * options.k + i] * b[i * options.n + col];
      }
    }
  }
  testing::internal::CaptureStdout();
  EXPECT_EQ(matmul::check_product("matmul_test", options, a, b, c), 0);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "matmul_test: OK\n");

  std::vector<float> c_transposed(c.size());
  for (unsigned row = 0; row < options.m; ++row) {
    for (unsigned col = 0; col < options.n; ++col) {
      c_transposed[col * options.m + row] = c[row * options.n + col];
    }
  }
  testing::internal::CaptureStdout();
  EXPECT_EQ(matmul::check_product("matmul_test", options, a, b, c_transposed), 1);
  EXPECT_NE(testing::internal::GetCapturedStdout().find("FAILED"), std::string::npos);
}

TEST(TransposeCheck, AcceptsTheTransposeAndRejectsTheUntransposedInput) {
  transpose::Options options;
  options.rows = 3;
  options.cols = 5;
  const std::vector<float> in = transpose::random_matrix(options);
  std::vector<float> out(in.size());
  for (unsigned row = 0; row < options.rows; ++row) {
    for (unsigned col = 0; col < options.cols; ++col) {
      out[col * options.rows + row] = in[row * options.cols + col];
    }
  }
  testing::internal::CaptureStdout();
  EXPECT_EQ(transpose::check_transpose("transpose_test", options, in, out), 0);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "transpose_test: OK\n");
  testing::internal::CaptureStdout();
  EXPECT_EQ(transpose::check_transpose("transpose_test", options, in, in), 1);
  EXPECT_NE(testing::internal::GetCapturedStdout().find("FAILED"), std::string::npos);
}

}  // namespace
