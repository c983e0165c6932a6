import CellSource

/// Groups the top-level items that must share a local scope (see ``LocalScope``).
///
/// Each item that needs one claims a run of items: a binding needing `try`/`await` or a
/// binding `guard`, itself; a declaration without a value, up to the last statement that
/// assigns one of its names (Swift checks there that it is given a value exactly once); an
/// `async let`, up to the last statement that mentions its names (so the work it started
/// overlaps the statements between). Overlapping runs merge, and a run holding a `defer`
/// lasts to the end of the cell. The cell's shown last expression stays outside: it reads
/// the notebook variables the scope made. Declarations inside a run stay at module scope.
enum LocalScopes {
    static func group(_ items: [TopLevelItem]) -> [CellItem] {
        let resultIndex = items.indices.last.flatMap { items[$0].item?.isResult == true ? $0 : nil }
        let lastStatement = (resultIndex ?? items.count) - 1
        var runs: [ClosedRange<Int>] = []
        for (index, item) in items.enumerated() {
            var end: Int
            switch item.scoping {
            case .none:
                continue
            case .own:
                end = index
            case .deferred(let names):
                end = items.indices.last { $0 > index && !items[$0].assigned.isDisjoint(with: names) } ?? index
            case .asyncLet(let names):
                end = items.indices.last { $0 > index && $0 != resultIndex && !items[$0].identifiers.isDisjoint(with: names) } ?? index
            }
            if items[index...max(index, end)].contains(where: \.isDefer) { end = max(end, lastStatement) }
            runs.append(index...max(index, end))
        }
        let merged = merge(runs)

        var result: [CellItem] = []
        var index = 0
        while index < items.count {
            if let run = merged.first(where: { $0.lowerBound == index }) {
                result += scope(items[run])
                index = run.upperBound + 1
                continue
            }
            let item = items[index]
            result += item.unset.map(CellItem.unsetBinding)
            if let emitted = item.item { result.append(emitted) }
            index += 1
        }
        return result
    }

    /// Runs sorted by start, overlapping ones joined.
    private static func merge(_ runs: [ClosedRange<Int>]) -> [ClosedRange<Int>] {
        var merged: [ClosedRange<Int>] = []
        for run in runs.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, run.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, run.upperBound)
            } else {
                merged.append(run)
            }
        }
        return merged
    }

    /// The scope for a run of items, preceded by the declarations in it (module scope).
    private static func scope(_ run: ArraySlice<TopLevelItem>) -> [CellItem] {
        var declarations: [CellItem] = []
        var statements: [SourceSnippet] = []
        var exports: [ScopeExport] = []
        var isAsync = false
        for item in run {
            guard let text = item.localText else {
                if let declaration = item.item { declarations.append(declaration) }
                continue
            }
            statements.append(text)
            exports += item.exports
            if item.awaits { isAsync = true }
            if case .asyncLet = item.scoping { isAsync = true }
        }
        return declarations + [.localScope(LocalScope(statements: statements, exports: exports, isAsync: isAsync))]
    }
}
