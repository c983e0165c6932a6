import Foundation

/// The instructions of cell code that lead to a failing call which has no line of its own.
///
/// An optimised build can end several failure paths in one shared call: LLVM's tail merging
/// keeps one copy of identical tails (for example the calls that report "Index out of range"
/// for two subscripts), and the shared instructions carry no line (line 0), so the frame of
/// the crash maps to no line of the cell. The branches into the shared tail keep theirs. This
/// follows a function's branches backwards from the failing call, through blocks with no line
/// of cell code, to the nearest instructions that have one. Where two paths meet, both are
/// returned: which of them failed is not in the frames.
///
/// The input is `llvm-objdump -d --no-show-raw-insn` of the cell library.
///
/// Thread rules: a value; used on the shell thread while a crash is reported.
struct MergedFailurePath: Sendable {
    /// One machine instruction of the listing.
    struct Instruction: Sendable, Equatable {
        var address: UInt64
        var mnemonic: String
        /// The address a direct branch goes to (`jne 0x1f59 <…>`).
        var target: UInt64?

        /// Control never reaches the next instruction from this one.
        var endsFlow: Bool { mnemonic == "jmp" || mnemonic.hasPrefix("ret") || mnemonic == "ud2" }
        var isBranch: Bool { mnemonic.hasPrefix("j") }
    }

    /// The function that contains the failing call, in address order.
    let instructions: [Instruction]

    /// Keeps the function of `listing` that contains `address`, or nil when none does.
    init?(listing: String, containing address: UInt64) {
        var functions: [[Instruction]] = [[]]
        for line in listing.split(separator: "\n") {
            if line.hasSuffix(">:") {           // `0000000000001c10 <symbol>:` starts a function
                functions.append([])
            } else if let instruction = Self.instruction(in: line) {
                functions[functions.count - 1].append(instruction)
            }
        }
        guard let function = functions.first(where: { function in
            guard let first = function.first, let last = function.last else { return false }
            return first.address <= address && address <= last.address
        }) else { return nil }
        instructions = function
    }

    /// `    1e25:      \tjne\t0x1f59 <…>` → an instruction.
    static func instruction(in line: Substring) -> Instruction? {
        let parts = line.split(separator: "\t", omittingEmptySubsequences: true)
        guard parts.count >= 2 else { return nil }
        let head = parts[0].trimmingCharacters(in: .whitespaces)
        guard head.hasSuffix(":"), let address = UInt64(head.dropLast(), radix: 16) else { return nil }
        let mnemonic = String(parts[1]).trimmingCharacters(in: .whitespaces)
        var target: UInt64?
        if mnemonic.hasPrefix("j"), parts.count >= 3 {
            let operand = parts[2].split(separator: " ").first ?? ""
            if operand.hasPrefix("0x") { target = UInt64(operand.dropFirst(2), radix: 16) }
        }
        return Instruction(address: address, mnemonic: mnemonic, target: target)
    }

    /// The addresses, in address order, of the nearest instructions with a line of cell code
    /// on every path into the call that returns to `returnAddress`.
    /// - Parameters:
    ///   - returnAddress: the frame's address: the instruction after the failing call.
    ///   - hasCellLine: whether an instruction's address maps to a line of a cell.
    func addresses(leadingToCallReturningTo returnAddress: UInt64, hasCellLine: (UInt64) -> Bool) -> [UInt64] {
        guard let call = instructions.lastIndex(where: { $0.address < returnAddress }) else { return [] }
        let starts = blockStarts(failingCall: call)
        var found: Set<Int> = []
        var visited: Set<Int> = []
        var pending = [call]
        while let position = pending.popLast(), visited.count < Self.stepLimit {
            guard visited.insert(position).inserted else { continue }
            var index = position
            while true {
                if hasCellLine(instructions[index].address) { found.insert(index); break }
                if starts.contains(index) {
                    pending += predecessors(ofBlockAt: index, failingCall: call)
                    break
                }
                index -= 1
            }
        }
        return found.sorted().map { instructions[$0].address }
    }

    /// How many paths are followed at most (a guard against a pathological listing).
    private static let stepLimit = 10_000

    /// The indices that start a basic block: the first instruction, every branch target,
    /// and every instruction after a branch, a return, a trap or the failing call (which
    /// does not return).
    private func blockStarts(failingCall: Int) -> Set<Int> {
        var starts: Set<Int> = [0]
        let index = Dictionary(uniqueKeysWithValues: instructions.enumerated().map { ($1.address, $0) })
        for (position, instruction) in instructions.enumerated() {
            if let target = instruction.target, let start = index[target] { starts.insert(start) }
            if (instruction.isBranch || instruction.endsFlow || position == failingCall), position + 1 < instructions.count {
                starts.insert(position + 1)
            }
        }
        return starts
    }

    /// The instructions that pass control to the block starting at `start`: branches to it,
    /// and the instruction before it unless control cannot fall through from there.
    private func predecessors(ofBlockAt start: Int, failingCall: Int) -> [Int] {
        let address = instructions[start].address
        var result = instructions.indices.filter { instructions[$0].target == address }
        let before = start - 1
        if before >= 0, !instructions[before].endsFlow, before != failingCall { result.append(before) }
        return result
    }
}
