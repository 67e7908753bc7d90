#include "cli.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sstream>

namespace bench {

bool parseCount(const char* s, uint32_t& out) {
    char* end = nullptr;
    unsigned long v = std::strtoul(s, &end, 10);
    if (!s[0] || *end || v == 0 || v > 100000) return false;
    out = uint32_t(v);
    return true;
}

bool ArgParser::next() {
    if (++index_ >= argc_) return false;
    arg_ = argv_[index_];
    return true;
}

const char* ArgParser::value() {
    if (index_ + 1 >= argc_) {
        std::fprintf(stderr, "%s: %s needs a value\n", tool_, arg_.c_str());
        return nullptr;
    }
    return argv_[++index_];
}

bool ArgParser::count(uint32_t& out) {
    const std::string option = arg_;
    const char* v = value();
    if (v && parseCount(v, out)) return true;
    if (v) std::fprintf(stderr, "%s: %s expects an integer 1..100000\n", tool_, option.c_str());
    return false;
}

bool ArgParser::deviceIndex(int& out) {
    const char* v = value();
    uint32_t n = 0;
    if (v && (std::strcmp(v, "0") == 0 || parseCount(v, n))) {
        out = int(n);
        return true;
    }
    if (v) std::fprintf(stderr, "%s: --device expects an index\n", tool_);
    return false;
}

bool ArgParser::common(CommonOptions& o, void (*usage)()) {
    auto text = [&](std::string& out) {
        const char* v = value();
        if (v) out = v;
        return v != nullptr;
    };
    if (is("--help") || is("-h")) {
        usage();
        std::exit(0);
    }
    if (is("--smoke")) return o.smoke = true;
    if (is("--validation")) return o.validation = true;
    if (is("--device")) return deviceIndex(o.device);
    if (is("--json")) return text(o.json);
    if (is("--filter")) return text(o.filter);
    if (is("--assets")) return text(o.assets);
    return unknown();
}

bool ArgParser::unknown() const {
    std::fprintf(stderr, "%s: unknown option '%s' (see --help)\n", tool_, arg_.c_str());
    return false;
}

engine::ContextDesc contextDesc(const char* tool, const CommonOptions& o) {
    engine::ContextDesc cd;
    cd.applicationName = tool;
    cd.validation = o.validation;
    if (o.device >= 0) cd.deviceIndex = uint32_t(o.device);
    return cd;
}

std::string jsonString(const std::string& s) {
    std::string out = "\"";
    for (char ch : s) {
        if (ch == '"' || ch == '\\') out += '\\';
        if (uint8_t(ch) >= 0x20) out += ch;
    }
    return out + "\"";
}

std::string jsonNumber(std::optional<double> v) {
    if (!v || !std::isfinite(*v)) return "null";
    std::ostringstream s;
    s.precision(6);
    s << *v;
    return s.str();
}

}  // namespace bench
