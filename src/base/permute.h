/* base/permute.h: reorder an array in place by a sorted key array.
 *
 * PERMUTE_IN_PLACE(name, T, K) defines
 *     static void name(T *v, K *a, size_t n)
 * which puts v[a[k].i] at k for every k, cycle by cycle, with one T of
 * scratch: no second array of v while a large one is sorted (sort the
 * keys K, each holding its element's index in a size_t member i, then
 * permute). On return a[k].i == k. The caller owns both arrays. */
#ifndef SCORCH_BASE_PERMUTE_H
#define SCORCH_BASE_PERMUTE_H

#include <stddef.h>

#define PERMUTE_IN_PLACE(name, T, K)                              \
	static void name(T *v, K *a, size_t n)                    \
	{                                                         \
		for (size_t k = 0; k < n; k++) {                  \
			if (a[k].i == k)                          \
				continue;                         \
			T tmp = v[k];                             \
			size_t at = k;                            \
			while (a[at].i != k) {                    \
				size_t from = a[at].i;            \
				v[at] = v[from];                  \
				a[at].i = at;                     \
				at = from;                        \
			}                                         \
			v[at] = tmp;                              \
			a[at].i = at;                             \
		}                                                 \
	}

#endif
