// Reads the object symbols of the loaded ELF files (.symtab, else .dynsym) into tables by name and
// by address. A variable's runtime address is its symbol value plus its file's load bias, which
// dl_iterate_phdr reports (0 for a non-PIE executable).
#include "symbol_table.hpp"

#include <cxxabi.h>
#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <string>
#include <unordered_map>
#include <vector>

namespace memcarlo::host::detail {
namespace {

struct LoadedFile {
  std::string path;
  std::uint64_t bias = 0;
};

/// The executable first (dl_iterate_phdr reports it first, with an empty name), then the shared
/// objects that have a file.
std::vector<LoadedFile> loaded_files() {
  std::vector<LoadedFile> files;
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) {
        auto& found = *static_cast<std::vector<LoadedFile>*>(data);
        const std::string name = info->dlpi_name != nullptr ? info->dlpi_name : "";
        if (found.empty()) {
          found.push_back({"/proc/self/exe", info->dlpi_addr});
        } else if (!name.empty()) {
          found.push_back({name, info->dlpi_addr});
        }
        return 0;
      },
      &files);
  return files;
}

class Tables {
 public:
  void add_file(const LoadedFile& file);
  [[nodiscard]] NameLookup find(std::string_view name) const {
    NameLookup lookup;
    if (const auto it = by_name_.find(std::string(name)); it != by_name_.end()) {
      lookup.candidates = it->second.size();
      if (lookup.candidates == 1) {
        lookup.variable = it->second.front();
      }
    }
    return lookup;
  }
  [[nodiscard]] std::optional<VariableSymbol> at(const void* address) const {
    const auto it = by_address_.find(reinterpret_cast<std::uint64_t>(address));
    return it != by_address_.end() ? std::optional(it->second) : std::nullopt;
  }

 private:
  void add(const std::string& name, const VariableSymbol& variable) {
    std::vector<VariableSymbol>& same = by_name_[name];
    if (std::none_of(same.begin(), same.end(),
                     [&](const VariableSymbol& v) { return v.address == variable.address; })) {
      same.push_back(variable);
    }
  }

  std::unordered_map<std::string, std::vector<VariableSymbol>> by_name_;
  std::map<std::uint64_t, VariableSymbol> by_address_;
};

/// The file mapped read-only, unmapped when it goes.
class MappedFile {
 public:
  explicit MappedFile(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      return;
    }
    struct stat status {};
    if (::fstat(fd, &status) == 0 && status.st_size > 0) {
      void* data =
          ::mmap(nullptr, static_cast<std::size_t>(status.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
      if (data != MAP_FAILED) {
        data_ = static_cast<const unsigned char*>(data);
        size_ = static_cast<std::size_t>(status.st_size);
      }
    }
    ::close(fd);
  }
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile() {
    if (data_ != nullptr) {
      ::munmap(const_cast<unsigned char*>(data_), size_);
    }
  }
  /// `count` objects of type T at `offset`, or null when the file is shorter.
  template <class T>
  const T* at(std::uint64_t offset, std::uint64_t count = 1) const {
    if (data_ == nullptr || offset > size_ || count > (size_ - offset) / sizeof(T)) {
      return nullptr;
    }
    return reinterpret_cast<const T*>(data_ + offset);
  }

 private:
  const unsigned char* data_ = nullptr;
  std::size_t size_ = 0;
};

std::string demangled(const char* name) {
  int status = 0;
  char* text = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  std::string result = status == 0 && text != nullptr ? text : "";
  std::free(text);
  return result;
}

void Tables::add_file(const LoadedFile& file) {
  const MappedFile mapped(file.path);
  const auto* header = mapped.at<Elf64_Ehdr>(0);
  if (header == nullptr || std::memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 ||
      header->e_ident[EI_CLASS] != ELFCLASS64 || header->e_shentsize != sizeof(Elf64_Shdr)) {
    return;
  }
  const auto* sections = mapped.at<Elf64_Shdr>(header->e_shoff, header->e_shnum);
  if (sections == nullptr) {
    return;
  }
  // .symtab has every variable, local ones too; a stripped file has only .dynsym's exports.
  const Elf64_Shdr* symbols = nullptr;
  for (const Elf64_Word type : {SHT_SYMTAB, SHT_DYNSYM}) {
    for (std::size_t i = 0; i < header->e_shnum && symbols == nullptr; ++i) {
      if (sections[i].sh_type == type && sections[i].sh_link < header->e_shnum) {
        symbols = &sections[i];
      }
    }
  }
  if (symbols == nullptr) {
    return;
  }
  const Elf64_Shdr& strings = sections[symbols->sh_link];
  const auto* entries =
      mapped.at<Elf64_Sym>(symbols->sh_offset, symbols->sh_size / sizeof(Elf64_Sym));
  const auto* names = mapped.at<char>(strings.sh_offset, strings.sh_size);
  if (entries == nullptr || names == nullptr || strings.sh_size == 0 ||
      names[strings.sh_size - 1] != '\0') {
    return;
  }
  for (std::size_t i = 0; i < symbols->sh_size / sizeof(Elf64_Sym); ++i) {
    const Elf64_Sym& symbol = entries[i];
    if (ELF64_ST_TYPE(symbol.st_info) != STT_OBJECT || symbol.st_shndx == SHN_UNDEF ||
        symbol.st_name == 0 || symbol.st_name >= strings.sh_size) {
      continue;
    }
    const char* name = names + symbol.st_name;
    // NOLINTNEXTLINE(performance-no-int-to-ptr): a symbol value is an address.
    const VariableSymbol variable{reinterpret_cast<void*>(file.bias + symbol.st_value),
                                  static_cast<std::size_t>(symbol.st_size)};
    add(name, variable);
    if (std::strncmp(name, "_Z", 2) == 0) {
      if (const std::string readable = demangled(name); !readable.empty()) {
        add(readable, variable);
      }
    }
    by_address_.try_emplace(reinterpret_cast<std::uint64_t>(variable.address), variable);
  }
}

/// The executable's table, then (on the first miss) the shared objects' as well.
class ProgramSymbols {
 public:
  NameLookup find(std::string_view name) {
    std::lock_guard lock(mutex_);
    load_executable();
    NameLookup lookup = tables_.find(name);
    if (lookup.candidates == 0 && load_shared_objects()) {
      lookup = tables_.find(name);
    }
    return lookup;
  }
  std::optional<VariableSymbol> at(const void* address) {
    std::lock_guard lock(mutex_);
    load_executable();
    std::optional<VariableSymbol> variable = tables_.at(address);
    if (!variable && load_shared_objects()) {
      variable = tables_.at(address);
    }
    return variable;
  }

 private:
  /// False when they were loaded before.
  bool load_shared_objects() {
    if (shared_objects_loaded_) {
      return false;
    }
    shared_objects_loaded_ = true;
    for (std::size_t i = 1; i < files_.size(); ++i) {
      tables_.add_file(files_[i]);
    }
    return true;
  }

  void load_executable() {
    if (!files_.empty()) {
      return;
    }
    files_ = loaded_files();
    if (!files_.empty()) {
      tables_.add_file(files_.front());
    }
  }

  std::mutex mutex_;
  std::vector<LoadedFile> files_;
  Tables tables_;
  bool shared_objects_loaded_ = false;
};

ProgramSymbols& program_symbols() {
  static ProgramSymbols symbols;
  return symbols;
}

}  // namespace

NameLookup find_variable_by_name(std::string_view name) {
  return program_symbols().find(name);
}

std::optional<VariableSymbol> find_variable_at(const void* address) {
  return program_symbols().at(address);
}

}  // namespace memcarlo::host::detail
