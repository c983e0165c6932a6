// Raw cairo for BenchbookCharts. Only BenchbookCharts' Cairo/ folder calls it.
#include <cairo/cairo.h>
