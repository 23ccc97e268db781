// Catch2's main for the test suite.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
