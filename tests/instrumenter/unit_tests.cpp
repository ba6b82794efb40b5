// Unit tests of the instrumenter's building blocks: index polynomials and their classification,
// the edit set (nesting order, conflicts), unified diffs, nvcc flag translation, the table JSON,
// the rejoining of split launch chevrons.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "edit_set.hpp"
#include "index_form.hpp"
#include "memcarlo/instrumenter/loads_table.hpp"
#include "parse_setup.hpp"
#include "split_chevrons.hpp"
#include "unified_diff.hpp"

using namespace memcarlo::instrumenter;

TEST(Polynomial, BlockTimesDimPlusThreadPrintsInKernelOrder) {
  const Polynomial p = Polynomial::symbol("blockIdx.x") * Polynomial::symbol("blockDim.x") +
                       Polynomial::symbol("threadIdx.x");
  EXPECT_EQ(p.to_string(), "blockDim.x*blockIdx.x + threadIdx.x");
  EXPECT_EQ((p - p).to_string(), "0");
  EXPECT_EQ((p.scaled(4) + Polynomial::constant(-8)).divided_exactly(4)->to_string(),
            "blockDim.x*blockIdx.x + threadIdx.x - 2");
  EXPECT_FALSE((p + Polynomial::constant(1)).scaled(2).divided_exactly(4).has_value());
}

TEST(Polynomial, DividesBySymbolicElementSize) {
  const Polynomial bytes = Polynomial::symbol("i") * Polynomial::symbol("sizeof(T)");
  EXPECT_EQ(bytes.divided_by_symbol("sizeof(T)")->to_string(), "i");
  EXPECT_FALSE((bytes + Polynomial::constant(1)).divided_by_symbol("sizeof(T)").has_value());
}

TEST(IndexClassification, ProductOfTwoThreadValuesIsNonAffine) {
  IndexForm form;
  form.root = "a";
  form.symbols = {{"threadIdx.x", SymbolKind::kThread}, {"threadIdx.y", SymbolKind::kThread},
                  {"n", SymbolKind::kKernelParameter}};
  form.offset = {Polynomial::symbol("threadIdx.x") * Polynomial::symbol("n"), ""};
  EXPECT_EQ(classify(form), "affine");
  form.offset = {Polynomial::symbol("threadIdx.x") * Polynomial::symbol("threadIdx.y"), ""};
  EXPECT_EQ(classify(form), "non_affine");
  form.offset = SymbolicValue::unknown("remainder (%)");
  EXPECT_EQ(classify(form), "non_affine");
  EXPECT_EQ(index_to_json(form, {})["reason"], "remainder (%)");
}

TEST(IndexClassification, LoadedValueMakesTheIndexDataDependent) {
  IndexForm form;
  form.root = "y";
  form.symbols = {{"load:3", SymbolKind::kLoad}};
  form.offset = {Polynomial::symbol("load:3"), ""};
  EXPECT_EQ(classify(form), "data_dependent");
  const nlohmann::json json = index_to_json(form, {{"load:3", "load#1"}});
  EXPECT_EQ(json["expression"], "load#1");
  EXPECT_EQ(json["loads"], nlohmann::json::array({"load#1"}));
}

TEST(EditSet, NestedWrapsCloseInnerFirstAndOpenOuterFirst) {
  EditSet edits;
  // pp[i][j]: the outer access [0,8) and the inner pp[i] [0,5) start at the same offset.
  edits.wrap("f", 0, 8, "<O", "O>", "outer");
  edits.wrap("f", 0, 5, "<I", "I>", "inner");
  std::map<std::string, std::string> out;
  std::vector<std::string> errors;
  ASSERT_TRUE(edits.apply({{"f", "pp[i][j];"}}, out, errors));
  EXPECT_EQ(out["f"], "<O<Ipp[i]I>[j]O>;");
}

TEST(EditSet, CrossingWrapsAreAConflictAndNothingIsApplied) {
  EditSet edits;
  edits.wrap("f", 0, 6, "(", ")", "probe 0");
  edits.wrap("f", 3, 9, "[", "]", "probe 1");
  std::map<std::string, std::string> out;
  std::vector<std::string> errors;
  EXPECT_FALSE(edits.apply({{"f", "abcdefghij"}}, out, errors));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_NE(errors[0].find("conflicting edits: probe 0 and probe 1"), std::string::npos);
  EXPECT_TRUE(out.empty());
}

TEST(EditSet, DifferentReplacementsOfTheSameTextConflict) {
  EditSet edits;
  edits.replace("f", 2, 3, "X", "launch A");
  edits.replace("f", 2, 3, "Y", "launch B");
  edits.replace("f", 6, 1, "Z", "launch C");
  edits.replace("f", 6, 1, "Z", "launch C");  // the same edit twice is one edit
  std::map<std::string, std::string> out;
  std::vector<std::string> errors;
  EXPECT_FALSE(edits.apply({{"f", "0123456789"}}, out, errors));
  EXPECT_EQ(errors.size(), 1u);
}

TEST(EditSet, ReplacementKeepsTheLineCount) {
  EditSet edits;
  edits.replace("f", 1, 3, "x", "launch");
  std::map<std::string, std::string> out;
  std::vector<std::string> errors;
  ASSERT_TRUE(edits.apply({{"f", "a>\n>b"}}, out, errors));
  EXPECT_EQ(out["f"], "ax\nb");
}

TEST(UnifiedDiff, ProducesHunksWithContext) {
  const std::string before = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n";
  const std::string after = "0\n1\n2\n3\n4\n5\nsix\n7\n8\n9\n10\n11\n12\n";
  const std::string diff = unified_diff("f.cu", before, after);
  EXPECT_EQ(diff,
            "--- f.cu\n+++ f.cu\n@@ -1,9 +1,10 @@\n+0\n 1\n 2\n 3\n 4\n 5\n-6\n+six\n 7\n 8\n"
            " 9\n");
  EXPECT_EQ(unified_diff("f.cu", before, before), "");
}

TEST(UserFlags, NvccFlagsBecomeClangFlags) {
  const UserFlags flags = translate_user_flags(
      {"-O3", "-I", "inc", "-DN=4", "-arch=sm_86", "-Xcompiler", "-fopenmp", "--use_fast_math",
       "-std=c++14", "-c", "k.cu", "-o", "k.o", "-isystem", "/opt/x"},
      "/work");
  EXPECT_EQ(flags.gpu_arch, "sm_86");
  const std::vector<std::string> expected = {"-I/work/inc", "-DN=4", "-std=c++14", "-isystem",
                                             "/opt/x"};
  EXPECT_EQ(flags.clang_flags, expected);
  EXPECT_EQ(translate_user_flags({"-gencode", "arch=compute_120,code=sm_120"}, "").gpu_arch,
            "sm_70");
}

TEST(LoadsTable, UsesTheKeysTheTraceReaderReads) {
  LoadEntry entry;
  entry.id = 3;
  entry.kernels = {"k"};
  entry.kind = "rmw";
  entry.depends_on = {1, 2};
  entry.redundant_of = 1;
  entry.index_json = R"({"kind":"affine"})";
  const nlohmann::json table = nlohmann::json::parse(loads_table_to_json({entry}, true));
  ASSERT_EQ(table.size(), 1u);
  for (const char* key : {"id", "function", "kernels", "file", "line", "column", "expression",
                          "kind", "element_type", "element_size", "base", "address_space",
                          "loop_depth", "sequence", "depends_on", "redundant_of", "index"}) {
    EXPECT_TRUE(table[0].contains(key)) << key;
  }
  EXPECT_EQ(table[0]["depends_on"], nlohmann::json::array({1, 2}));
  EXPECT_TRUE(table[0]["sequence"].is_number_integer());
  EXPECT_FALSE(nlohmann::json::parse(loads_table_to_json({LoadEntry{}}, false))[0].contains(
      "redundant_of"));
}

TEST(SplitChevrons, RejoinsLaunchesKeepingLengthAndEveryOtherPosition) {
  std::string text =
      "k << < blocks, threads >> > (a, b); int x = 1;\n"
      "t<float> <<\n< (n >> 1), 32 >>\n>(c);\n"
      "joined<<<1, 2>>>(d);\n";
  const std::string before = text;
  EXPECT_EQ(rejoin_split_chevrons(text), 2u);
  EXPECT_EQ(text,
            "k <<<  blocks, threads >>>  (a, b); int x = 1;\n"
            "t<float> <<<\n (n >> 1), 32 >>>\n(c);\n"
            "joined<<<1, 2>>>(d);\n");
  ASSERT_EQ(text.size(), before.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (before[i] != '<' && before[i] != '>' && before[i] != ' ' && before[i] != '\n') {
      EXPECT_EQ(text[i], before[i]) << i;
    }
  }
}

TEST(SplitChevrons, LeavesCommentsLiteralsAndOperatorTemplatesAlone) {
  const std::string untouched =
      "// k << < 1, 2 >> > (a);\n"
      "/* k << < 1, 2 >> > (a); */\n"
      "const char* s = \"k << < 1, 2 >> > (a);\";\n"
      "char c = '<'; int m = 1'000 << 2;\n"
      "operator<< <char>(out, 'x'); out << < 3 > > (b); y <<= 2;\n"
      "k << < 1, 2 >> > ; f(a);\n";
  std::string text = untouched;
  EXPECT_EQ(rejoin_split_chevrons(text), 0u);
  EXPECT_EQ(text, untouched);
}
