// SPDX-License-Identifier: MIT
/*
 * replay.c - a main for a fuzz target outside libFuzzer: runs the target
 * once on every file of the directories (or files) given, so the normal and
 * sanitizer test suites replay every past finding (tests/fuzz/regress/)
 * with gcc.  A finding that comes back aborts the run.  TAP.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int replay_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *buf = NULL;
	size_t len = 0, cap = 0, got;

	if (!f)
		return -1;
	do {
		if (len == cap) {
			uint8_t *nb = realloc(buf, cap = cap ? cap * 2 : 4096);

			if (!nb) {
				free(buf);
				fclose(f);
				return -1;
			}
			buf = nb;
		}
		got = fread(buf + len, 1, cap - len, f);
		len += got;
	} while (got);
	fclose(f);
	LLVMFuzzerTestOneInput(buf, len);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int n = 0, bad = 0;

	for (int i = 1; i < argc; i++) {
		struct stat st;
		DIR *d;
		struct dirent *de;

		if (stat(argv[i], &st) || !S_ISDIR(st.st_mode)) {
			bad |= replay_file(argv[i]);
			n++;
			continue;
		}
		if (!(d = opendir(argv[i])))
			continue;
		while ((de = readdir(d))) {
			char p[4096];

			if (de->d_name[0] == '.')
				continue;
			snprintf(p, sizeof(p), "%s/%s", argv[i], de->d_name);
			bad |= replay_file(p);
			n++;
		}
		closedir(d);
	}
	printf("1..1\n%s 1 - %d inputs replayed without a finding\n", bad ? "not ok" : "ok", n);
	return bad ? 1 : 0;
}
