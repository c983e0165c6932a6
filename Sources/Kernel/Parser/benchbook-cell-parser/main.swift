// benchbook-cell-parser: parses notebook cells for the kernel (see ParserService).
//
// The kernel starts one beside itself and keeps it; it restarts it when it is killed
// after a timeout or an interrupt, or crashes on pathological text.

import CellParsing

ParserService.serveForever()
