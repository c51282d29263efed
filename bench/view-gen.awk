# bench/view-gen.awk: folded stacks for bench/view.sh: STACKS distinct
# random stacks (depth MIN..MAX frames under one of 8 processes) over
# NAMES function names of ~26 bytes, count 1..100, from a fixed seed.
#   awk -v STACKS=200000 -v NAMES=3000 -v MIN=5 -v MAX=40 -f bench/view-gen.awk
BEGIN {
	srand(42)
	for (i = 0; i < NAMES; i++)
		name[i] = sprintf("mod%02d::Class%04d::method_%d", i % 37, int(i / 3), i)
	for (s = 0; s < STACKS; s++) {
		d = MIN + int(rand() * (MAX - MIN + 1))
		line = "proc-" (s % 8)
		for (k = 0; k < d; k++)
			line = line ";" name[int(rand() * NAMES)]
		print line " " (1 + int(rand() * 100))
	}
}
