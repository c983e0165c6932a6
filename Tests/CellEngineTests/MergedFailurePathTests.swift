@testable import CellEngine
import Testing

/// Following branches back from a failing call that an optimised build left without a line.
///
/// The listing has the shape measured on an optimised comm callback (issue 23): two paths
/// that report a failure share the call at 0x1f94 (tail merging), one entered by a jump from
/// line 7's check, the other by a branch in line 8's code; the shared instructions and the
/// blocks before them have no line.
@Suite struct MergedFailurePathTests {
    static let listing = """

    0000000000001c10 <$s5Cell1closure_TA>:
        1c10:      \tpushq\t%rbp
        1d0a:      \ttestq\t%rax, %rax
        1d0d:      \tjne\t0x1f11 <$s5Cell1closure_TA+0x301>
        1d13:      \tmovq\t%rax, %rdi
        1e20:      \tcmpq\t%r15, %rax
        1e25:      \tjne\t0x1f59 <$s5Cell1closure_TA+0x349>
        1e2b:      \tretq
        1f11:      \tmovzbl\t%cl, %ecx
        1f1c:      \tcallq\t0x2360 <$s8JSONCore9JSONValueOSgWOe>
        1f21:      \tsubq\t$0x8, %rsp
        1f52:      \tpushq\t$0x2b4
        1f57:      \tjmp\t0x1f8f <$s5Cell1closure_TA+0x37f>
        1f59:      \tsubq\t$0x8, %rsp
        1f8a:      \tpushq\t$0x47a
        1f8f:      \tpushq\t$0x2
        1f94:      \tcallq\t0x1650 <$ss17_assertionFailure@plt>
        1f99:      \tjs\t0x1f21 <$s5Cell1closure_TA+0x311>
        1f9b:      \tretq

    0000000000001ff0 <$s5Cell1other>:
        1ff0:      \tpushq\t%r14

    """

    /// Which addresses have a line of cell code: line 7's check and line 8's branch and its exit.
    static let cellLines: [UInt64: Int] = [0x1c10: 3, 0x1d0a: 7, 0x1d0d: 7, 0x1e20: 8, 0x1e25: 8, 0x1e2b: 8]

    @Test func bothPathsIntoTheSharedCallAreFound() throws {
        let function = try #require(MergedFailurePath(listing: Self.listing, containing: 0x1f99))
        #expect(function.instructions.first?.address == 0x1c10 && function.instructions.last?.address == 0x1f9b)
        let found = function.addresses(leadingToCallReturningTo: 0x1f99) { Self.cellLines[$0] != nil }
        #expect(found == [0x1d0d, 0x1e25])
    }

    @Test func aCallWithOnePathGivesOneLine() throws {
        // Without line 8's branch, only line 7's jump reaches the call.
        let listing = Self.listing.replacingOccurrences(of: "jne\t0x1f59", with: "jne\t0x1e2b")
        let function = try #require(MergedFailurePath(listing: listing, containing: 0x1f99))
        // 0x1f59's block is then entered only by falling through from 0x1f57's jmp, which cannot.
        #expect(function.addresses(leadingToCallReturningTo: 0x1f99) { Self.cellLines[$0] != nil } == [0x1d0d])
    }

    @Test func branchesAndTheirTargetsAreRead() throws {
        let branch = try #require(MergedFailurePath.instruction(in: "    1e25:      \tjne\t0x1f59 <$s5Cell1closure_TA+0x349>"))
        #expect(branch == .init(address: 0x1e25, mnemonic: "jne", target: 0x1f59))
        let call = try #require(MergedFailurePath.instruction(in: "    1f94:      \tcallq\t0x1650 <f@plt>"))
        #expect(call.target == nil && !call.endsFlow)
        #expect(MergedFailurePath.instruction(in: "0000000000001c10 <f>:") == nil)
        #expect(MergedFailurePath(listing: Self.listing, containing: 0x3000) == nil)
    }

    @Test func locationsInOneCellAreJoinedOnce() {
        #expect(CrashReport.joined(["In[1], line 7", "In[1], line 8"]) == "In[1], line 7 or line 8")
        #expect(CrashReport.joined(["In[1], line 7"]) == "In[1], line 7")
        #expect(CrashReport.joined(["In[1], line 7", "In[2], line 1"]) == "In[1], line 7 or In[2], line 1")
        #expect(CrashReport.joined([]) == nil)
    }
}
