@testable import CellEngine
import Foundation
import SystemSupport
import XCTest

final class DiagnosticsTests: XCTestCase {
    func testUserLocationsAreKeptAndGeneratedOnesHidden() {
        let output = """
        In[3]:2:9: error: cannot find 'y' in scope
        /tmp/benchbook-1/Cell7.swift:12:5: error: generic parameter 'T' could not be inferred in Cell6.Point
        In[3]:2:9: error: cannot find 'y' in scope
        error: link command failed
        """
        let found = CompilerDiagnostics.parse(output, cellLabel: "In[3]")
        XCTAssertEqual(found.count, 3)
        XCTAssertEqual(found[0], CellDiagnostic(message: "cannot find 'y' in scope", position: SourcePosition(line: 2, column: 9)))
        XCTAssertEqual(found[1].message, "generic parameter 'T' could not be inferred in Point")
        XCTAssertNil(found[1].position)
    }

    func testScopeAndUnsetStorageReadAsValues() {
        let found = CompilerDiagnostics.parse("""
        In[3]:2:9: error: cannot use __bb_scope_total.result.1 in __benchbook_entry()
        In[3]:3:1: error: type of __bb_unset_names.value is _BenchbookScope<[Int]>
        """, cellLabel: "In[3]")
        XCTAssertEqual(found.map(\.message), ["cannot use value in the cell", "type of value is [Int]"])
    }

    func testInsertedTextIsSubtractedFromColumns() {
        let found = CompilerDiagnostics.parse("In[1]:1:60: error: oops", cellLabel: "In[1]",
                                                insertions: [Insertion(position: SourcePosition(line: 1, column: 40), length: 7)])
        XCTAssertEqual(found.first?.position, SourcePosition(line: 1, column: 53))
    }
}

final class AutolinkTests: XCTestCase {
    func testEntriesOfARealObjectMatchSwiftAutolinkExtract() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("autolink-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let source = work.appendingPathComponent("a.swift")
        try "import Foundation\npublic func f() -> Date { Date() }\n".write(to: source, atomically: true, encoding: .utf8)
        let swiftc = EngineConfiguration.beside(executable: URL(fileURLWithPath: "/x")).compiler
        let object = work.appendingPathComponent("a.o")
        try runTool(swiftc, ["-c", "-parse-as-library", source.path, "-o", object.path])
        let listed = work.appendingPathComponent("a.autolink")
        try runTool(swiftc.deletingLastPathComponent().appendingPathComponent("swift-autolink-extract"), [object.path, "-o", listed.path])
        let expected = try String(contentsOf: listed, encoding: .utf8).split(separator: "\n").map(String.init)
        XCTAssertTrue(expected.contains("-lFoundation"))
        // The tool orders the entries its own way; the set of libraries is what counts.
        let read = try XCTUnwrap(AutolinkEntries.read(from: try Data(contentsOf: object)))
        XCTAssertEqual(Set(read), Set(expected))
        XCTAssertEqual(read.count, Set(read).count, "entries are listed once")
        XCTAssertNil(AutolinkEntries.read(from: Data("not an object".utf8)))
    }
}

final class LinkCommandTests: XCTestCase {
    func testLoadedLibrariesAreLeftOutAndEverythingElseKept() {
        let command = LinkCommand(linker: URL(fileURLWithPath: "/usr/bin/ld.gold"),
                                  template: ["-shared", "crti.o", LinkCommand.objectPlaceholder, "-lgcc", "--as-needed",
                                             "-lgcc_s", "--no-as-needed", "-lc", "-o", LinkCommand.outputPlaceholder])
        let (_, arguments) = command.arguments(linking: ["a.o", "-lCell2"], output: "libCell3.so") {
            LoadedLibraries.contains(["libc.so.6", "libgcc_s.so.1", "libCell2.so"], library: $0)
        }
        // -lCell2 comes from the caller's `linking`, which the caller has already filtered.
        XCTAssertEqual(arguments, ["-shared", "crti.o", "a.o", "-lCell2", "-lgcc", "--as-needed", "--no-as-needed",
                                   "-o", "libCell3.so"])
        XCTAssertEqual(command.arguments(linking: ["a.o"], output: "x.so").1.filter { $0.hasPrefix("-l") },
                       ["-lgcc", "-lgcc_s", "-lc"], "nothing is left out unless asked")
    }

    func testSearchPathsAreLeftOutOnlyWhenNoLibraryIsNamed() {
        let command = LinkCommand(linker: URL(fileURLWithPath: "/usr/bin/ld.gold"),
                                  template: ["-shared", "-L/usr/lib", LinkCommand.objectPlaceholder, "-lgcc",
                                             "-o", LinkCommand.outputPlaceholder])
        let linking = ["a.o", "-L", "/work", "-lCell2"]
        XCTAssertEqual(command.arguments(linking: linking, output: "x.so").1,
                       ["-shared", "-L/usr/lib", "a.o", "-L", "/work", "-lCell2", "-lgcc", "-o", "x.so"])
        XCTAssertEqual(command.arguments(linking: ["a.o", "-L", "/work"], output: "x.so") { $0 == "gcc" }.1,
                       ["-shared", "a.o", "-o", "x.so"])
        XCTAssertEqual(LinkCommand.withoutSearchPaths(["-L", "/a", "-L/b", "-o", "-Lc", "x"]), ["-o", "x"])
    }

    /// A cell's 128-bit division calls libgcc's `__divti3`: with `libgcc.a` left out of the
    /// link, the copy in `libgcc_s.so.1` (loaded in the host, as in this process) serves it.
    func testLibgccRoutinesResolveFromTheLoadedSharedLibgcc() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("link-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let clang = EngineConfiguration.beside(executable: URL(fileURLWithPath: "/x")).compiler
            .deletingLastPathComponent().appendingPathComponent("clang")
        let source = work.appendingPathComponent("d.c"), object = work.appendingPathComponent("d.o")
        try "long long benchbook_divide(long long a, long long b) { return (long long)((__int128)a * 1000 / b); }\n"
            .write(to: source, atomically: true, encoding: .utf8)
        try runTool(clang, ["-c", "-fPIC", "-O0", source.path, "-o", object.path])
        let command = LinkCommand.discover(clang: clang)
        let loaded = LoadedLibraries.names(of: getpid())
        let library = work.appendingPathComponent("libd.so")
        let (linker, arguments) = command.arguments(linking: [object.path], output: library.path) {
            LoadedLibraries.contains(loaded, library: LinkCommand.sharedStandIns[$0] ?? $0)
        }
        XCTAssertFalse(arguments.contains { $0.hasPrefix("-l") || $0.hasPrefix("-L") }, "\(arguments)")
        try runTool(linker, arguments)
        let undefined = try ChildProcess.run(ChildProcess.Configuration(
            executable: "/usr/bin/nm", arguments: ["-D", "--undefined-only", library.path]))
        XCTAssertTrue(undefined.text.contains("__divti3"), "the division is left to the loaded libgcc_s: \(undefined.text)")
        let handle = try XCTUnwrap(dlopen(library.path, RTLD_NOW | RTLD_LOCAL), String(cString: dlerror()))
        defer { dlclose(handle) }
        let divide = unsafeBitCast(try XCTUnwrap(dlsym(handle, "benchbook_divide")),
                                   to: (@convention(c) (Int64, Int64) -> Int64).self)
        XCTAssertEqual(divide(123_456_789_012, 7), 123_456_789_012 * 1000 / 7)
    }

    func testTheDiscoveredLinkerBuildsALibraryThatLoadsWithoutNamingLibc() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("link-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let clang = EngineConfiguration.beside(executable: URL(fileURLWithPath: "/x")).compiler
            .deletingLastPathComponent().appendingPathComponent("clang")
        let command = LinkCommand.discover(clang: clang)
        XCTAssertNotEqual(command.linker.lastPathComponent, "clang", "clang names a linker for -shared")
        let source = work.appendingPathComponent("f.c")
        let object = work.appendingPathComponent("f.o")
        try "#include <string.h>\nint benchbook_length(const char *s) { return (int)strlen(s); }\n"
            .write(to: source, atomically: true, encoding: .utf8)
        let compiled = try ChildProcess.run(ChildProcess.Configuration(
            executable: clang.path, arguments: ["-c", "-fPIC", source.path, "-o", object.path]))
        XCTAssertEqual(compiled.status, .exited(code: 0), compiled.text)
        let library = work.appendingPathComponent("libf.so")
        let (linker, arguments) = command.arguments(linking: [object.path], output: library.path) { $0 == "c" }
        XCTAssertFalse(arguments.contains("-lc"))
        let linked = try ChildProcess.run(ChildProcess.Configuration(executable: linker.path, arguments: arguments))
        XCTAssertEqual(linked.status, .exited(code: 0), linked.text)
        // strlen resolves from the libc this process has loaded, as a cell's symbols do in the host.
        let handle = try XCTUnwrap(dlopen(library.path, RTLD_NOW | RTLD_LOCAL), String(cString: dlerror()))
        defer { dlclose(handle) }
        let symbol = try XCTUnwrap(dlsym(handle, "benchbook_length"))
        let length = unsafeBitCast(symbol, to: (@convention(c) (UnsafePointer<CChar>) -> Int32).self)
        XCTAssertEqual("benchbook".withCString { length($0) }, 9)
    }
}

extension XCTestCase {
    /// Runs a tool and fails the test when it does not exit with 0.
    fileprivate func runTool(_ tool: URL, _ arguments: [String]) throws {
        let run = try ChildProcess.run(ChildProcess.Configuration(executable: tool.path, arguments: arguments))
        XCTAssertEqual(run.status, .exited(code: 0), "\(tool.lastPathComponent) \(arguments): \(run.text)")
    }
}
