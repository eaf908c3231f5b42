// Catch2's main for tests/fuzz-regressions/fuzz_findings_test.cpp, built by fuzz/Makefile.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
