// The engine's public API is written in these modules' types (cell analysis, JSON values).
@_exported import CellSource
@_exported import JSONCore
