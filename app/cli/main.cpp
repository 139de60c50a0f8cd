#include "fwi/error.hpp"
#include <cstdio>
int main() { std::puts("fwi: under construction"); return 0; }
