// Widgets are written in the runtime's display types and JSON values.
@_exported import BenchbookRuntime
@_exported import JSONCore
