@testable import CellEngine
import Testing

/// The retry policy of one cell's compiles (``CompileRetryPolicy``): which failure leads to
/// which compile, and that a cell takes at most four compiles.
@Suite struct CompileRetryPolicyTests {
    typealias Failure = CompileRetryPolicy.Failure

    static func fixes(_ annotations: [String: String]) -> CellCodeGenerator.Fixes {
        var fixes = CellCodeGenerator.Fixes()
        fixes.annotations = annotations
        return fixes
    }

    static let plain = Failure(refusedMarks: false, inaccessibleMember: false, fixes: .init())

    @Test func anErrorNoCompileCanFixIsReportedAfterOneCompile() throws {
        var policy = CompileRetryPolicy()
        #expect(try policy.failed(Self.plain) == .giveUp)
        #expect(throws: CompileRetryPolicy.Misuse.self) { try policy.failed(Self.plain) }
        #expect(throws: CompileRetryPolicy.Misuse.self) { try policy.succeeded() }
    }

    @Test func refusedMarksAreDroppedOnceThenTheFixesFollow() throws {
        var policy = CompileRetryPolicy()
        let refused = Failure(refusedMarks: true, inaccessibleMember: false, fixes: .init())
        #expect(try policy.failed(refused) == .compileWithoutMarks)
        // The unmarked compile refusing marks again is not retried a second time.
        #expect(try policy.failed(refused) == .giveUp)

        var fixing = CompileRetryPolicy()
        #expect(try fixing.failed(refused) == .compileWithoutMarks)
        let opaque = Failure(refusedMarks: false, inaccessibleMember: false, fixes: Self.fixes(["v": "some P"]))
        #expect(try fixing.failed(opaque) == .compile(fixes: opaque.fixes, loadingTypeModules: false))
        try fixing.succeeded()
    }

    @Test func aParseWithoutMarksThatFailsGoesOnToTheFixes() throws {
        var policy = CompileRetryPolicy()
        #expect(throws: CompileRetryPolicy.Misuse.self) { try policy.couldNotParseWithoutMarks() }
        let refusedAndInaccessible = Failure(refusedMarks: true, inaccessibleMember: true, fixes: .init())
        #expect(try policy.failed(refusedAndInaccessible) == .compileWithoutMarks)
        try policy.couldNotParseWithoutMarks()
        #expect(try policy.failed(refusedAndInaccessible) == .compile(fixes: .init(), loadingTypeModules: true))
    }

    @Test func anInaccessibleMemberLoadsTheTypeModulesOnce() throws {
        var policy = CompileRetryPolicy()
        let inaccessible = Failure(refusedMarks: false, inaccessibleMember: true, fixes: .init())
        #expect(try policy.failed(inaccessible) == .compile(fixes: .init(), loadingTypeModules: true))
        #expect(policy.loadingTypeModules)
        #expect(try policy.failed(inaccessible) == .giveUp, "loading them again changes nothing")
    }

    @Test func fixesGoOnWhileEachRoundBringsSomethingNewAtMostTwice() throws {
        var policy = CompileRetryPolicy()
        let first = Self.fixes(["pair": "(some P, some P)"])
        let second = Self.fixes(["pair": "(some P, some P)", "a": "some P"])
        let third = Self.fixes(["pair": "(some P, some P)", "a": "some P", "b": "some Q"])
        #expect(try policy.failed(.init(refusedMarks: false, inaccessibleMember: false, fixes: first))
            == .compile(fixes: first, loadingTypeModules: false))
        #expect(policy.fixes == first)
        #expect(try policy.failed(.init(refusedMarks: false, inaccessibleMember: true, fixes: second))
            == .compile(fixes: second, loadingTypeModules: true))
        #expect(try policy.failed(.init(refusedMarks: false, inaccessibleMember: false, fixes: third)) == .giveUp,
                "a third round is not taken")
    }

    @Test func noCellTakesMoreThanFourCompiles() throws {
        // Every failure asks for everything: marks refused, a member inaccessible, new fixes.
        var policy = CompileRetryPolicy()
        var compiles = 1
        var round = 0
        while true {
            round += 1
            let failure = Failure(refusedMarks: true, inaccessibleMember: true, fixes: Self.fixes(["v\(round)": "some P"]))
            if try policy.failed(failure) == .giveUp { break }
            compiles += 1
            #expect(compiles <= 4)
            if compiles > 4 { break }
        }
        #expect(compiles == 4)
    }
}
