#pragma once
// Command-line and JSON helpers shared by the benchmark tools (ml_bench, frame_bench,
// pipeline_stats): the options they all take, one argument walker with the same messages
// everywhere, the engine context those options ask for, and JSON value formatting.
#include "engine/context.h"

#include <cstdint>
#include <optional>
#include <string>

namespace bench {

// A count in [1, 100000]: false for an empty string, trailing text, 0 or anything larger.
bool parseCount(const char* s, uint32_t& out);

// Options every benchmark takes: --smoke, --validation, --device INDEX, --json FILE,
// --filter TEXT, --assets DIR.
struct CommonOptions {
    bool smoke = false;
    bool validation = false;
    int device = -1;  // -1: the context's default choice
    std::string json;
    std::string filter;
    std::string assets = "assets";
};

// Walks argv. Per argument the tool checks its own options (is(), value(), count()), then hands
// the rest to common(). Every message starts with the tool's name; a false return means the
// message was printed and the tool should exit with 2.
class ArgParser {
public:
    ArgParser(const char* tool, int argc, char** argv) : tool_(tool), argc_(argc), argv_(argv) {}

    bool next();  // moves to the next argument; false when none is left
    bool is(const char* option) const { return arg_ == option; }
    const std::string& arg() const { return arg_; }
    // The argument after the current option; nullptr (after a message) when there is none.
    const char* value();
    bool count(uint32_t& out);     // value() as parseCount reads it
    bool deviceIndex(int& out);    // value() as a device index (0 or a count)
    // --help/-h (prints `usage`, exits 0) and the CommonOptions; anything else is reported as
    // an unknown option.
    bool common(CommonOptions& o, void (*usage)());
    bool unknown() const;          // "tool: unknown option 'x' (see --help)"; false

private:
    const char* tool_;
    int argc_;
    char** argv_;
    int index_ = 0;
    std::string arg_;
};

// The context a benchmark runs on: named after the tool, validation and device from `o`.
engine::ContextDesc contextDesc(const char* tool, const CommonOptions& o);

// JSON values: a quoted string (quotes and backslashes escaped, control characters dropped);
// a number with 6 significant digits, or null when absent or not finite.
std::string jsonString(const std::string& s);
std::string jsonNumber(std::optional<double> v);

}  // namespace bench
