/* fuzz-inline seed: inlined calls in a static binary without libc. */
static inline unsigned mix(unsigned x) { return x * 2654435761u ^ (x >> 13); }
static inline unsigned twice(unsigned x) { return mix(mix(x)); }
struct pair { unsigned a, b; };
unsigned stage(unsigned x) { struct pair p = { twice(x), x };
	for (unsigned i = 0; i < (x & 7); i++) p.a += mix(i + p.b);
	return p.a; }
volatile unsigned sink;
void _start(void) { for (unsigned i = 0;; i++) sink += stage(i) + twice(sink); }
