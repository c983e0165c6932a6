// The engine's public API is written in these modules' types (cell analysis, JSON values).
@_exported import CellSource
@_exported import JSONCore
// Comm messages pass through the engine between the kernel and the cell host.
@_exported import struct HostProtocol.CommTraffic
