// SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
/* busy OBJ: load OBJ, attach its programs, say "ready", hold them until stdin closes */
#include <stdio.h>
#include <unistd.h>
#include <bpf/libbpf.h>

int main(int argc, char **argv)
{
	struct bpf_object *obj;
	struct bpf_program *prog;
	char c;

	obj = bpf_object__open_file(argv[1], NULL);
	if (!obj || bpf_object__load(obj)) {
		fprintf(stderr, "busy: cannot load %s\n", argv[1]);
		return 1;
	}
	bpf_object__for_each_program(prog, obj)
		if (!bpf_program__attach(prog)) {
			fprintf(stderr, "busy: cannot attach %s\n", bpf_program__name(prog));
			return 1;
		}
	printf("ready\n");
	fflush(stdout);
	while (read(0, &c, 1) > 0)
		;
	bpf_object__close(obj);
	return 0;
}
