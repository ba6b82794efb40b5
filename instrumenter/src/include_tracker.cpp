// PPCallbacks collecting includes resolved relative to the includer (see the header).
#include "include_tracker.hpp"

#include "clang/Lex/PPCallbacks.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

#include "ast_helpers.hpp"

namespace memcarlo::instrumenter {

namespace {
class RelativeIncludeCallbacks : public clang::PPCallbacks {
 public:
  RelativeIncludeCallbacks(const clang::SourceManager& sources, const std::string& toolkit,
                           std::vector<RelativeInclude>& includes)
      : sources_(sources), toolkit_(toolkit), includes_(includes) {}

  void InclusionDirective(clang::SourceLocation hash, const clang::Token&, llvm::StringRef,
                          bool angled, clang::CharSourceRange filename_range,
                          clang::OptionalFileEntryRef file, llvm::StringRef search_path,
                          llvm::StringRef, const clang::Module*,
                          clang::SrcMgr::CharacteristicKind) override {
    if (angled || !file || hash.isMacroID() || !is_user_file(sources_, hash, toolkit_)) return;
    const std::string includer = file_path_of(sources_, hash);
    llvm::SmallString<256> directory(llvm::sys::path::parent_path(includer));
    llvm::SmallString<256> searched(search_path);
    llvm::sys::fs::make_absolute(searched);
    llvm::sys::path::remove_dots(searched, true);
    if (searched != directory) return;  // found through an include path: resolves anywhere
    const clang::CharSourceRange range = filename_range;
    if (range.getBegin().isMacroID()) return;
    const unsigned begin = sources_.getFileOffset(range.getBegin());
    const unsigned end = sources_.getFileOffset(range.getEnd());
    llvm::SmallString<256> target(file->getName());
    llvm::sys::fs::make_absolute(target);
    llvm::sys::path::remove_dots(target, true);
    includes_.push_back({includer, begin, end, std::string(target.str())});
  }

 private:
  const clang::SourceManager& sources_;
  const std::string& toolkit_;
  std::vector<RelativeInclude>& includes_;
};
}  // namespace

void track_relative_includes(clang::Preprocessor& preprocessor, const std::string& toolkit,
                             std::vector<RelativeInclude>& includes) {
  preprocessor.addPPCallbacks(std::make_unique<RelativeIncludeCallbacks>(
      preprocessor.getSourceManager(), toolkit, includes));
}

}  // namespace memcarlo::instrumenter
