import Foundation
@testable import SystemSupport
import Testing

/// What `usage_request` sums: process counters and the machine's memory and CPU, read from
/// `/proc` with psutil's formulas.
@Suite struct ProcessStatisticsTests {
    @Test func statFieldsAreReadAfterTheLastParenthesis() throws {
        // comm may hold spaces and parentheses; utime 250, stime 50, cutime 100, cstime 0 ticks.
        let stat = "4242 (a (b) c) S 1 4242 4242 0 -1 4194560 500 0 0 0 250 50 100 0 20 0 3 0 1234 1000 10"
        let parsed = try #require(ProcessStatistics.parse(stat: stat, pid: 4242))
        let tick = Double(ProcessStatistics.clockTicksPerSecond)
        #expect(parsed.name == "a (b) c")
        #expect(parsed.cpuSeconds == 300 / tick)
        #expect(parsed.waitedChildrenCPUSeconds == 100 / tick)
        #expect(!parsed.hasEnded)
        #expect(try #require(ProcessStatistics.parse(stat: stat.replacingOccurrences(of: ") S ", with: ") Z "), pid: 4242)).hasEnded)
        #expect(ProcessStatistics.parse(stat: "4242 (x) S 1", pid: 4242) == nil)
    }

    @Test func pssComesFromSmapsRollup() {
        let rollup = "55d0-7ffd ---p 00000000 00:00 0 [rollup]\nRss:  20480 kB\nPss:  12345 kB\nPss_Anon: 100 kB\n"
        #expect(ProcessStatistics.proportionalSetSize(inSmapsRollup: rollup) == 12345 * 1024)
        #expect(ProcessStatistics.proportionalSetSize(inSmapsRollup: "") == 0)
    }

    @Test func memoryFollowsPsutilsFormulas() throws {
        let meminfo = """
        MemTotal:       1000 kB
        MemFree:         200 kB
        MemAvailable:    600 kB
        Buffers:          10 kB
        Cached:          300 kB
        SReclaimable:     20 kB
        Shmem:             5 kB
        Active:          400 kB
        Inactive:        100 kB
        Slab:             30 kB
        """
        let memory = try #require(SystemMemory.parse(meminfo: meminfo))
        #expect(memory.bytes == ["total": 1_024_000, "available": 614_400, "used": 409_600, "free": 204_800,
                                 "active": 409_600, "inactive": 102_400, "buffers": 10_240, "cached": 327_680,
                                 "shared": 5_120, "slab": 30_720])
        #expect(memory.percent == 40)
        #expect(Set(memory.bytes.keys).union(["percent"]) == Set(SystemMemory.fields))
    }

    @Test func cpuPercentIsBusyOverAllTime() throws {
        let first = try #require(SystemCPUTimes.parse(stat: "cpu  100 0 100 700 100 0 0 0 50 0\ncpu0 1 2 3 4\n"))
        let later = try #require(SystemCPUTimes.parse(stat: "cpu  250 0 150 800 100 0 0 0 80 0\n"))
        // Guest time is already in user: total 1000 then 1300, busy 200 then 400.
        #expect(first.total == 1000 && first.busy == 200)
        #expect(later.busyPercent(since: first) == 66.7)
        #expect(first.busyPercent(since: first) == 0)
    }

    @Test func theTreeOfThisProcessHoldsAChildItStarted() throws {
        let child = try ChildProcess(.init(executable: "/bin/sleep", arguments: ["5"]))
        defer { _ = child.kill() }
        let tree = ProcessStatistics.tree(from: getpid())
        #expect(tree.first == getpid())
        #expect(tree.contains(child.pid))
        let me = try #require(ProcessStatistics.read(getpid()))
        #expect(me.proportionalSetSize > 1_000_000, "a Swift test process maps more than a megabyte")
        #expect(try #require(ProcessStatistics.read(child.pid)).name == "sleep")
        #expect(ProcessStatistics.read(-1) == nil)
    }

    @Test func theMachineIsReadable() throws {
        let memory = try #require(SystemMemory.read())
        #expect(memory.bytes["total"]! > 0 && memory.bytes["available"]! <= memory.bytes["total"]!)
        #expect(try #require(SystemCPUTimes.read()).total > 0)
        #expect(SystemCPUTimes.logicalCount >= 1)
    }
}
