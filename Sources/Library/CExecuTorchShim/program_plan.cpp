// Reads a .pte file's header and its method plan (see program_plan.hpp).

#include "program_plan.hpp"

#include <cstring>
#include <optional>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace bbe {
namespace {

// Field numbers of schema/program.fbs (the order of each table's fields).
namespace field {
constexpr int program_execution_plan = 1, program_segments = 4;
constexpr int plan_name = 0, plan_chains = 5, plan_operators = 6, plan_delegates = 7;
constexpr int chain_instructions = 2;
constexpr int instruction_type = 0, instruction_args = 1;
constexpr int kernel_op_index = 0, delegate_index = 0;
constexpr int operator_name = 0, operator_overload = 1;
constexpr int backend_id = 0;
constexpr int segment_offset = 0, segment_size = 1;
}  // namespace field

// The InstructionArguments union's type codes.
enum : uint8_t { kKernelCall = 1, kDelegateCall = 2, kMoveCall = 3, kJumpFalseCall = 4, kFreeCall = 5 };

/// A bounds-checked FlatBuffer reader over a byte range: each accessor returns nullopt when
/// an offset points outside it.
struct Reader {
  const uint8_t *bytes;
  size_t size;

  bool fits(uint64_t offset, uint64_t length) const { return offset <= size && length <= size - offset; }

  template <typename T> std::optional<T> scalar(uint64_t offset) const {
    if (!fits(offset, sizeof(T))) return std::nullopt;
    T value;
    std::memcpy(&value, bytes + offset, sizeof(T));
    return value;
  }

  /// The position of field `index` of the table at `table`, or nullopt when absent.
  std::optional<uint64_t> field(uint64_t table, int index) const {
    auto back = scalar<int32_t>(table);
    if (!back) return std::nullopt;
    int64_t vtable = static_cast<int64_t>(table) - *back;
    if (vtable < 0) return std::nullopt;
    auto vtable_size = scalar<uint16_t>(vtable);
    if (!vtable_size || 4u + 2u * index + 2u > *vtable_size) return std::nullopt;
    auto position = scalar<uint16_t>(vtable + 4 + 2 * index);
    if (!position || *position == 0) return std::nullopt;
    return table + *position;
  }

  /// Follows the offset stored at `at` (to a table, vector or string).
  std::optional<uint64_t> follow(std::optional<uint64_t> at) const {
    if (!at) return std::nullopt;
    auto offset = scalar<uint32_t>(*at);
    if (!offset || !fits(*at + *offset, 4)) return std::nullopt;
    return *at + *offset;
  }

  std::optional<uint64_t> table(uint64_t table, int index) const { return follow(field(table, index)); }

  /// The length of the vector at `vector`.
  uint32_t count(std::optional<uint64_t> vector) const {
    if (!vector) return 0;
    auto length = scalar<uint32_t>(*vector);
    return length && fits(*vector + 4, uint64_t(*length) * 4) ? *length : 0;
  }

  /// Element `index` (a table) of a vector of tables.
  std::optional<uint64_t> element(uint64_t vector, uint32_t index) const {
    return follow(vector + 4 + uint64_t(index) * 4);
  }

  std::string string(std::optional<uint64_t> at) const {
    auto text = follow(at);
    if (!text) return "";
    auto length = scalar<uint32_t>(*text);
    if (!length || !fits(*text + 4, *length)) return "";
    return std::string(reinterpret_cast<const char *>(bytes + *text + 4), *length);
  }
};

/// Mapped file contents, unmapped when it goes.
struct Mapping {
  void *address = MAP_FAILED;
  size_t size = 0;
  ~Mapping() {
    if (address != MAP_FAILED) munmap(address, size);
  }
};

std::string printable(const uint8_t *bytes, size_t count) {
  std::string text;
  for (size_t i = 0; i < count; ++i) text += (bytes[i] >= 32 && bytes[i] < 127) ? char(bytes[i]) : '.';
  return text;
}

}  // namespace

std::string read_plan(const std::string &path, const std::string &method, ProgramPlan &plan, bool &corrupt) {
  corrupt = false;
  int descriptor = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (descriptor < 0) return std::string("it cannot be opened: ") + std::strerror(errno);
  struct stat status;
  Mapping mapping;
  if (fstat(descriptor, &status) == 0 && status.st_size > 0) {
    mapping.size = static_cast<size_t>(status.st_size);
    mapping.address = mmap(nullptr, mapping.size, PROT_READ, MAP_PRIVATE, descriptor, 0);
  }
  close(descriptor);
  corrupt = true;
  if (mapping.size < 8) return "the file has " + std::to_string(mapping.size) + " bytes, too few for a program header";
  if (mapping.address == MAP_FAILED) {
    corrupt = false;
    return std::string("it cannot be memory-mapped: ") + std::strerror(errno);
  }
  Reader file{static_cast<const uint8_t *>(mapping.address), mapping.size};
  if (std::memcmp(file.bytes + 4, "ET", 2) != 0) {
    return "its header has no ExecuTorch identifier (bytes 4-7 are '" + printable(file.bytes + 4, 4) +
           "', an ExecuTorch program has 'ET12'): it is not an ExecuTorch program";
  }
  if (std::memcmp(file.bytes + 4, "ET12", 4) != 0) {
    return "it was written for ExecuTorch program schema '" + printable(file.bytes + 4, 4) +
           "', and this runtime reads 'ET12': export it again with a matching executorch";
  }
  // The extended header ("eh00" at byte 8) gives the program's size and where segments start.
  uint64_t program_size = mapping.size, segment_base = 0;
  if (file.fits(8, 24) && std::memcmp(file.bytes + 8, "eh00", 4) == 0) {
    program_size = *file.scalar<uint64_t>(16);
    segment_base = *file.scalar<uint64_t>(24);
  }
  if (program_size > mapping.size) {
    return "the file is truncated: its header says the program takes " + std::to_string(program_size) +
           " bytes, but the file has " + std::to_string(mapping.size);
  }
  Reader program{file.bytes, static_cast<size_t>(program_size)};
  auto root = program.follow(uint64_t(0));
  if (!root) return "its program table lies outside the file";
  plan.expected_size = program_size;
  auto segments = program.table(*root, field::program_segments);
  for (uint32_t i = 0, n = program.count(segments); i < n; ++i) {
    auto segment = program.element(*segments, i);
    if (!segment) return "its segment list is damaged";
    auto offset = program.field(*segment, field::segment_offset);
    auto size = program.field(*segment, field::segment_size);
    uint64_t end = segment_base + (offset ? program.scalar<uint64_t>(*offset).value_or(0) : 0) +
                   (size ? program.scalar<uint64_t>(*size).value_or(0) : 0);
    if (end > plan.expected_size) plan.expected_size = end;
  }
  if (plan.expected_size > mapping.size) {
    return "the file is truncated: its data segments (weights, delegate blobs) end at byte " +
           std::to_string(plan.expected_size) + ", but the file has " + std::to_string(mapping.size) + " bytes";
  }
  auto plans = program.table(*root, field::program_execution_plan);
  std::optional<uint64_t> chosen;
  for (uint32_t i = 0, n = program.count(plans); i < n; ++i) {
    auto candidate = program.element(*plans, i);
    if (!candidate) return "its method list is damaged";
    std::string name = program.string(program.field(*candidate, field::plan_name));
    plan.methods.push_back(name);
    if (name == method) chosen = candidate;
  }
  if (!chosen) {
    std::string names;
    for (const auto &name : plan.methods) names += (names.empty() ? "" : ", ") + name;
    return "it has no method '" + method + "' (its methods: " + (names.empty() ? "none" : names) + ")";
  }
  auto operators = program.table(*chosen, field::plan_operators);
  for (uint32_t i = 0, n = program.count(operators); i < n; ++i) {
    auto entry = program.element(*operators, i);
    if (!entry) return "its operator list is damaged";
    std::string name = program.string(program.field(*entry, field::operator_name));
    std::string overload = program.string(program.field(*entry, field::operator_overload));
    plan.operators.push_back(overload.empty() ? name : name + "." + overload);
  }
  auto delegates = program.table(*chosen, field::plan_delegates);
  for (uint32_t i = 0, n = program.count(delegates); i < n; ++i) {
    auto entry = program.element(*delegates, i);
    if (!entry) return "its delegate list is damaged";
    plan.backends.push_back(program.string(program.field(*entry, field::backend_id)));
  }
  auto chains = program.table(*chosen, field::plan_chains);
  for (uint32_t c = 0, chain_count = program.count(chains); c < chain_count; ++c) {
    auto chain = program.element(*chains, c);
    if (!chain) return "its chain list is damaged";
    std::vector<PlannedInstruction> instructions;
    auto list = program.table(*chain, field::chain_instructions);
    for (uint32_t i = 0, n = program.count(list); i < n; ++i) {
      PlannedInstruction instruction;
      auto entry = program.element(*list, i);
      auto type = entry ? program.field(*entry, field::instruction_type) : std::nullopt;
      auto args = entry ? program.table(*entry, field::instruction_args) : std::nullopt;
      uint8_t code = type ? program.scalar<uint8_t>(*type).value_or(0) : 0;
      auto index = [&](int number) -> int32_t {
        auto at = args ? program.field(*args, number) : std::nullopt;
        return at ? program.scalar<int32_t>(*at).value_or(-1) : 0;  // an absent int field is 0
      };
      switch (code) {
        case kKernelCall: {
          instruction.kind = PlannedInstruction::Kind::kernel;
          int32_t op = index(field::kernel_op_index);
          instruction.name = op >= 0 && size_t(op) < plan.operators.size() ? plan.operators[op] : "unknown operator";
          break;
        }
        case kDelegateCall: {
          instruction.kind = PlannedInstruction::Kind::delegate;
          instruction.delegate = index(field::delegate_index);
          instruction.name = instruction.delegate >= 0 && size_t(instruction.delegate) < plan.backends.size()
                                 ? plan.backends[instruction.delegate] : "unknown backend";
          break;
        }
        case kMoveCall: instruction.kind = PlannedInstruction::Kind::move; instruction.name = "MoveCall"; break;
        case kJumpFalseCall: instruction.kind = PlannedInstruction::Kind::jump; instruction.name = "JumpFalseCall"; break;
        case kFreeCall: instruction.kind = PlannedInstruction::Kind::free; instruction.name = "FreeCall"; break;
        default: instruction.name = "instruction type " + std::to_string(code); break;
      }
      instructions.push_back(std::move(instruction));
    }
    plan.chains.push_back(std::move(instructions));
  }
  corrupt = false;
  return "";
}

}  // namespace bbe
