// tmpl.cpp: the C++ workload of the fixture recordings (tests/fixtures.sh).
// main(T) spends about T seconds (default 0.3) in templates, a namespace,
// an operator and the standard library, so that a recording of it holds
// mangled names of every common kind: nested templates, std::map of
// std::string (long libstdc++ names), a class template's member, a lambda.
#include <cstdio>
#include <cstdlib>
#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace shapes {

template <typename T> struct Grid {
	std::vector<T> cells;
	explicit Grid(size_t n) : cells(n * n) {}
	__attribute__((noinline)) T sweep(int rounds)
	{
		T acc = 0;
		for (int r = 0; r < rounds; r++)
			for (auto &c : cells)
				acc += c = c * (T)3 + (T)1;
		return acc;
	}
};

template <typename T> __attribute__((noinline)) T operator+(const Grid<T> &a, int b)
{
	return a.cells.empty() ? (T)b : a.cells[0] + (T)b;
}

} // namespace shapes

struct Catalog {
	std::map<std::string, int> names;
	__attribute__((noinline)) void fill(int n)
	{
		for (int i = 0; i < n; i++)
			names[std::to_string(i * 7919 % 10007) + "-key"] += i;
	}
};

static double now()
{
	using clock = std::chrono::steady_clock;
	return std::chrono::duration<double>(clock::now().time_since_epoch()).count();
}

int main(int argc, char **argv)
{
	double total = argc > 1 ? std::atof(argv[1]) : 0.3;
	double end = now() + total;
	unsigned long sink = 0;
	auto step = [&sink](int n) __attribute__((noinline)) {
		shapes::Grid<double> g(64);
		sink += (unsigned long)g.sweep(n);
		shapes::Grid<unsigned> u(32);
		sink += u.sweep(n) + (u + 1);
	};
	while (now() < end) {
		step(40);
		Catalog c;
		c.fill(4000);
		sink += c.names.size();
	}
	std::printf("done %lu\n", sink);
	return 0;
}
