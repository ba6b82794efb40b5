// Launch chevrons split by white space (`kernel << < blocks, threads >> > (args)`): nvcc accepts
// them, Clang lexes `<<<` and `>>>` only as single tokens. The parse reads files through an
// overlay that rejoins them without moving anything else (docs/instrumenter.md, "Limits").
#pragma once

#include <string>

namespace memcarlo::instrumenter {

/// Rewrites, in place and outside comments, string and character literals, each launch whose
/// opening or closing chevrons are three `<` (or `>`) separated only by white space: the three
/// characters are written together and the white space between them follows, so the text keeps
/// its length and every line:column outside those few characters. Only a launch shape is
/// touched: the opening is not preceded by `operator` (`operator<< <T>(...)`), and its
/// configuration ends, at parenthesis depth 0 and before any `;`, `{` or `}`, in the three `>`
/// followed (after white space) by `(`. Returns how many launches it rewrote.
unsigned rejoin_split_chevrons(std::string& text);

}  // namespace memcarlo::instrumenter
