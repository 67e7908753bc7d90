#include "mlplugin/tuning.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace mlplugin {

const TuningEntry* TuningTable::find(const std::string& key) const {
    auto it = entries_.find(key);
    return it == entries_.end() ? nullptr : &it->second;
}

void TuningTable::set(const std::string& key, TuningEntry entry) { entries_[key] = std::move(entry); }

Status TuningTable::load(const std::string& path) {
    // A device or a pipe (/dev/zero) would be read without end, as one line growing forever.
    std::error_code ec;
    if (std::filesystem::exists(path, ec) && !std::filesystem::is_regular_file(path, ec))
        return Error{ErrorCode::IoError, "tuning table '" + path + "' is not a regular file"};
    std::ifstream f(path);
    if (!f) return {};  // no file yet: nothing measured
    std::string line;
    for (size_t number = 1; std::getline(f, line); ++number) {
        if (line.empty()) continue;
        size_t a = line.find('\t'), b = a == std::string::npos ? a : line.find('\t', a + 1);
        char* end = nullptr;
        double ms = b == std::string::npos ? 0 : std::strtod(line.c_str() + b + 1, &end);
        if (b == std::string::npos || a == 0 || b == a + 1 || end == line.c_str() + b + 1 || *end != '\0')
            return Error{ErrorCode::InvalidArgument, path + ":" + std::to_string(number) + ": expected 'key<TAB>candidate<TAB>milliseconds'"};
        entries_[line.substr(0, a)] = {line.substr(a + 1, b - a - 1), ms};
    }
    if (f.bad()) return Error{ErrorCode::IoError, path + ": read failed"};
    return {};
}

Status TuningTable::save(const std::string& path) const {
    std::ofstream f(path, std::ios::trunc);
    if (!f) return Error{ErrorCode::IoError, path + ": cannot be written"};
    for (const auto& [key, e] : entries_) f << key << '\t' << e.candidate << '\t' << e.ms << '\n';
    f.close();
    if (!f) return Error{ErrorCode::IoError, path + ": write failed"};
    return {};
}

}  // namespace mlplugin
