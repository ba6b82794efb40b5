// Block-buffered line reader over plain files (read(2)) and .xz files (liblzma, when built with
// it). Lines may end in "\n" or "\r\n"; a last line without a terminator is still returned.
#include "line_source.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "memcarlo/accelsim/accelsim.hpp"

#ifdef MEMCARLO_ACCELSIM_HAVE_LZMA
#include <lzma.h>
#endif

namespace memcarlo::accelsim::detail {
namespace {

constexpr std::size_t kBufferBytes = std::size_t{4} << 20;  // also the longest line accepted
constexpr std::size_t kCompressedBufferBytes = std::size_t{1} << 20;

}  // namespace

bool is_xz_path(std::string_view path) {
  return path.size() > 3 && path.substr(path.size() - 3) == ".xz";
}

#ifdef MEMCARLO_ACCELSIM_HAVE_LZMA
struct LineSource::Decoder {
  lzma_stream stream = LZMA_STREAM_INIT;
  std::vector<std::uint8_t> input = std::vector<std::uint8_t>(kCompressedBufferBytes);
  bool input_done = false;
  bool finished = false;
  ~Decoder() { lzma_end(&stream); }
};
#else
struct LineSource::Decoder {};
#endif

LineSource::LineSource(std::string path) : path_(std::move(path)) {
  if (is_xz_path(path_) && !accelsim::xz_supported()) {
    throw ImportError(path_, 0,
                      "this memcarlo was built without liblzma; decompress the file with "
                      "`xz -dk` and import the .traceg");
  }
  fd_ = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd_ < 0) {
    throw ImportError(path_, 0, std::string("cannot open: ") + std::strerror(errno));
  }
  struct stat info {};
  if (::fstat(fd_, &info) == 0) {
    if (S_ISDIR(info.st_mode)) {
      ::close(fd_);
      fd_ = -1;
      throw ImportError(path_, 0, "is a directory, expected a file");
    }
    file_size_ = static_cast<std::uint64_t>(info.st_size);
  }
#ifdef MEMCARLO_ACCELSIM_HAVE_LZMA
  if (is_xz_path(path_)) {
    decoder_ = std::make_unique<Decoder>();
    if (lzma_stream_decoder(&decoder_->stream, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK) {
      throw ImportError(path_, 0, "cannot initialise the xz decoder");
    }
  }
#endif
  buffer_.resize(kBufferBytes);
}

LineSource::~LineSource() {
  if (fd_ >= 0) {
    ::close(fd_);
  }
}

std::uint64_t LineSource::bytes_read() const {
  return raw_bytes_read_;
}

void LineSource::fail(const std::string& message) const {
  throw ImportError(path_, line_number_, message);
}

std::size_t LineSource::read_raw(char* out, std::size_t capacity) {
  for (;;) {
    const ssize_t n = ::read(fd_, out, capacity);
    if (n >= 0) {
      raw_bytes_read_ += static_cast<std::uint64_t>(n);
      return static_cast<std::size_t>(n);
    }
    if (errno != EINTR) {
      throw ImportError(path_, line_number_, std::string("read failed: ") + std::strerror(errno));
    }
  }
}

std::size_t LineSource::read_some(char* out, std::size_t capacity) {
  if (!decoder_) {
    return read_raw(out, capacity);
  }
#ifdef MEMCARLO_ACCELSIM_HAVE_LZMA
  Decoder& d = *decoder_;
  if (d.finished) {
    return 0;
  }
  d.stream.next_out = reinterpret_cast<std::uint8_t*>(out);
  d.stream.avail_out = capacity;
  while (d.stream.avail_out == capacity) {
    if (d.stream.avail_in == 0 && !d.input_done) {
      const std::size_t n = read_raw(reinterpret_cast<char*>(d.input.data()), d.input.size());
      d.stream.next_in = d.input.data();
      d.stream.avail_in = n;
      d.input_done = n == 0;
    }
    const lzma_ret result = lzma_code(&d.stream, d.input_done ? LZMA_FINISH : LZMA_RUN);
    if (result == LZMA_STREAM_END) {
      d.finished = true;
      break;
    }
    if (result != LZMA_OK) {
      const char* why = result == LZMA_FORMAT_ERROR ? "not in the .xz format"
                        : result == LZMA_DATA_ERROR ? "compressed data is corrupt"
                        : result == LZMA_BUF_ERROR  ? "compressed data is truncated"
                        : result == LZMA_MEM_ERROR  ? "out of memory"
                                                    : "xz decoder error";
      throw ImportError(path_, line_number_, std::string("xz: ") + why);
    }
  }
  return capacity - d.stream.avail_out;
#else
  (void)out;
  (void)capacity;
  return 0;
#endif
}

bool LineSource::next(std::string_view& line) {
  for (;;) {
    const char* start = buffer_.data() + begin_;
    const auto* newline = static_cast<const char*>(std::memchr(start, '\n', end_ - begin_));
    if (newline != nullptr || (eof_ && begin_ < end_)) {
      const char* stop = newline != nullptr ? newline : buffer_.data() + end_;
      begin_ = static_cast<std::size_t>(stop - buffer_.data()) + (newline != nullptr ? 1 : 0);
      if (stop > start && stop[-1] == '\r') {
        --stop;
      }
      line = std::string_view(start, static_cast<std::size_t>(stop - start));
      ++line_number_;
      return true;
    }
    if (eof_) {
      return false;
    }
    // Keep the partial line, move it to the front and fill the rest.
    if (begin_ > 0) {
      std::memmove(buffer_.data(), buffer_.data() + begin_, end_ - begin_);
      end_ -= begin_;
      begin_ = 0;
    }
    if (end_ == buffer_.size()) {
      ++line_number_;
      fail("line longer than " + std::to_string(kBufferBytes) + " bytes");
    }
    const std::size_t n = read_some(buffer_.data() + end_, buffer_.size() - end_);
    end_ += n;
    eof_ = n == 0;
  }
}

}  // namespace memcarlo::accelsim::detail

namespace memcarlo::accelsim {

bool xz_supported() {
#ifdef MEMCARLO_ACCELSIM_HAVE_LZMA
  return true;
#else
  return false;
#endif
}

}  // namespace memcarlo::accelsim
