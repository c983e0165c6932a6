// What a .pte file says about itself before the runtime loads it: its header (identifier,
// extended header, sizes) and, for the method `forward`, what each instruction runs. The
// runtime's headers do not ship the program schema's generated reader, so this reads the
// FlatBuffer itself (schema/program.fbs of ExecuTorch 1.x, file identifier "ET12"), with every
// offset checked against the file's size.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bbe {

/// One instruction of a method's chain.
struct PlannedInstruction {
  enum class Kind { kernel, delegate, move, jump, free, unknown } kind = Kind::unknown;
  /// For a kernel call, "aten::convolution.out"; for a delegate call, the backend id
  /// ("XnnpackBackend"); otherwise the instruction's kind ("MoveCall").
  std::string name;
  /// For a delegate call, the delegate's index in the method; else -1.
  int32_t delegate = -1;
};

/// The parts of a program Benchbook checks and names things by.
struct ProgramPlan {
  /// Bytes the file must have: the program and every data segment after it.
  uint64_t expected_size = 0;
  /// The method's chains, each a list of instructions.
  std::vector<std::vector<PlannedInstruction>> chains;
  /// Operator names the method calls ("aten::add.out"), in the program's order.
  std::vector<std::string> operators;
  /// Backend ids of the method's delegates, in the program's order.
  std::vector<std::string> backends;
  /// The program's method names.
  std::vector<std::string> methods;
};

/// Checks the file's header and reads the plan of `method`. Returns an empty string on success,
/// otherwise what is wrong, in words ("the file is truncated: ..."). `corrupt` is set when the
/// file is not a well-formed ExecuTorch program (as opposed to unreadable).
std::string read_plan(const std::string &path, const std::string &method, ProgramPlan &plan, bool &corrupt);

}  // namespace bbe
