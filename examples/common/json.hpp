// A small ordered JSON value for the CLI's reports (no external dependency).
#pragma once

#include <cmath>
#include <cstdint>
#include <map>
#include <memory>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace bitgraph::cli {

/// A JSON value: null, bool, number, string, array or object (keys keep insertion order).
class json {
 public:
  using array_t = std::vector<json>;
  using object_t = std::vector<std::pair<std::string, json>>;

  json() : v_(nullptr) {}
  json(std::nullptr_t) : v_(nullptr) {}
  json(bool b) : v_(b) {}
  json(int x) : v_(static_cast<double>(x)) {}
  json(unsigned x) : v_(static_cast<double>(x)) {}
  json(long x) : v_(static_cast<double>(x)) {}
  json(unsigned long x) : v_(static_cast<double>(x)) {}
  json(long long x) : v_(static_cast<double>(x)) {}
  json(unsigned long long x) : v_(static_cast<double>(x)) {}
  json(double x) : v_(x) {}
  json(const char* s) : v_(std::string(s)) {}
  json(std::string s) : v_(std::move(s)) {}
  json(array_t a) : v_(std::make_shared<array_t>(std::move(a))) {}
  json(object_t o) : v_(std::make_shared<object_t>(std::move(o))) {}

  /// A new empty object / array.
  static json object() { return json(object_t{}); }
  static json array() { return json(array_t{}); }

  /// Sets (or appends) a key of an object.
  json& set(const std::string& key, json value) {
    auto& o = *std::get<std::shared_ptr<object_t>>(v_);
    for (auto& kv : o)
      if (kv.first == key) {
        kv.second = std::move(value);
        return *this;
      }
    o.emplace_back(key, std::move(value));
    return *this;
  }
  /// Appends to an array.
  json& push(json value) {
    std::get<std::shared_ptr<array_t>>(v_)->push_back(std::move(value));
    return *this;
  }

  /// Writes the value, indented by `indent` spaces per level.
  void write(std::ostream& os, int indent = 2, int level = 0) const {
    std::visit(
        [&](const auto& x) {
          using X = std::decay_t<decltype(x)>;
          if constexpr (std::is_same_v<X, std::nullptr_t>) {
            os << "null";
          } else if constexpr (std::is_same_v<X, bool>) {
            os << (x ? "true" : "false");
          } else if constexpr (std::is_same_v<X, double>) {
            if (!std::isfinite(x)) {
              os << "null";  // JSON has no infinity
            } else if (x == std::floor(x) && std::fabs(x) < 9.007199254740992e15) {
              os << static_cast<long long>(x);
            } else {
              std::ostringstream s;
              s.precision(10);
              s << x;
              os << s.str();
            }
          } else if constexpr (std::is_same_v<X, std::string>) {
            write_string(os, x);
          } else if constexpr (std::is_same_v<X, std::shared_ptr<array_t>>) {
            if (x->empty()) {
              os << "[]";
              return;
            }
            os << "[\n";
            for (std::size_t i = 0; i < x->size(); ++i) {
              os << std::string((level + 1) * indent, ' ');
              (*x)[i].write(os, indent, level + 1);
              os << (i + 1 < x->size() ? ",\n" : "\n");
            }
            os << std::string(level * indent, ' ') << "]";
          } else {
            if (x->empty()) {
              os << "{}";
              return;
            }
            os << "{\n";
            for (std::size_t i = 0; i < x->size(); ++i) {
              os << std::string((level + 1) * indent, ' ');
              write_string(os, (*x)[i].first);
              os << ": ";
              (*x)[i].second.write(os, indent, level + 1);
              os << (i + 1 < x->size() ? ",\n" : "\n");
            }
            os << std::string(level * indent, ' ') << "}";
          }
        },
        v_);
  }

 private:
  static void write_string(std::ostream& os, const std::string& s) {
    os << '"';
    for (char c : s) {
      switch (c) {
        case '"':
          os << "\\\"";
          break;
        case '\\':
          os << "\\\\";
          break;
        case '\n':
          os << "\\n";
          break;
        case '\t':
          os << "\\t";
          break;
        default:
          if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", c);
            os << buf;
          } else {
            os << c;
          }
      }
    }
    os << '"';
  }
  std::variant<std::nullptr_t, bool, double, std::string, std::shared_ptr<array_t>, std::shared_ptr<object_t>> v_;
};

}  // namespace bitgraph::cli
