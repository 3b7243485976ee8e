// splice FILE into a pipe once, CHUNK bytes per splice(), and drain the pipe
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static char buf[1 << 20];
	size_t chunk = argc > 2 ? strtoul(argv[2], NULL, 0) : 4096;
	int fd = open(argv[1], O_RDONLY), p[2];
	loff_t off = 0;
	ssize_t n;

	if (fd < 0 || pipe(p) || chunk > sizeof(buf))
		return perror("setup"), 1;
	while ((n = splice(fd, &off, p[1], NULL, chunk, 0)) > 0)
		if (read(p[0], buf, n) != n)
			return perror("read"), 1;
	return n < 0 ? (perror("splice"), 1) : 0;
}
