/* The replay driver: runs a fuzz target's LLVMFuzzerTestOneInput once on
 * every file named on the command line, or in a directory named there (in
 * name order), without libFuzzer. Built with -fsanitize=address,undefined,
 * it checks the seed corpus and every crash reproducer kept in it in
 * `make fuzz-replay`. Exits non-zero if a file cannot be read (a sanitizer
 * report or a broken property ends the process by itself). */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		perror(path);
		return -1;
	}
	size_t cap = 4096, len = 0;
	uint8_t *buf = malloc(cap);
	size_t n;
	while (buf && (n = fread(buf + len, 1, cap - len, f)) > 0) {
		len += n;
		if (len == cap) {
			uint8_t *bigger = realloc(buf, cap *= 2);
			if (!bigger)
				free(buf);
			buf = bigger;
		}
	}
	int failed = ferror(f) || !buf;
	fclose(f);
	if (failed) {
		fprintf(stderr, "%s: cannot read\n", path);
		free(buf);
		return -1;
	}
	/* The input in an allocation of exactly its size, as libFuzzer gives it. */
	uint8_t *exact = malloc(len ? len : 1);
	if (!exact) {
		free(buf);
		return -1;
	}
	memcpy(exact, buf, len);
	free(buf);
	LLVMFuzzerTestOneInput(exact, len);
	free(exact);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned runs = 0;
	int status = 0;
	for (int i = 1; i < argc; i++) {
		struct stat st;
		if (stat(argv[i], &st) < 0) {
			perror(argv[i]);
			status = 1;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			status |= run_file(argv[i]) < 0;
			runs++;
			continue;
		}
		struct dirent **names;
		int n = scandir(argv[i], &names, NULL, alphasort);
		if (n < 0) {
			perror(argv[i]);
			status = 1;
			continue;
		}
		for (int j = 0; j < n; j++) {
			if (names[j]->d_name[0] != '.') {
				char path[4096];
				snprintf(path, sizeof(path), "%s/%s", argv[i], names[j]->d_name);
				status |= run_file(path) < 0;
				runs++;
			}
			free(names[j]);
		}
		free(names);
	}
	printf("%s: %u inputs replayed%s\n", argv[0], runs, status ? ", some unreadable" : "");
	return status;
}
