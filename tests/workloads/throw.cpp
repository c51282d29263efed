// throw: C++ exceptions thrown and caught in a loop for SECONDS (default
// 0.3). g++ -O2 puts main's catch block in a cold part (main.cold), so
// DWARF-unwound samples there carry an inline row named main beside
// frames of main itself: perf's call graphs merge the two by name, and
// its lookups among a node's kids mix names and addresses (t7723).
#include <chrono>
#include <cstdlib>
#include <stdexcept>

__attribute__((noinline)) static void thrower(int depth)
{
	if (depth == 0)
		throw std::runtime_error("thrown");
	thrower(depth - 1);
}

int main(int argc, char **argv)
{
	double secs = argc > 1 ? std::atof(argv[1]) : 0.3;
	auto t0 = std::chrono::steady_clock::now();
	long caught = 0;
	while (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() < secs) {
		try {
			thrower(5);
		} catch (const std::exception &) {
			caught++;
		}
	}
	return caught == 0;
}
