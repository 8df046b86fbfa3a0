/* the record layout this build reads: offset, size and sign of each field, from the format files */
static const struct field_layout {
	const char *event;	/* events/<sys>/<event> */
	const char *field;
	unsigned int offset, size;
	bool is_signed;
} layout[] = {
	{{LAYOUT}}
};

/*
 * The running kernel's format file says where each field this build reads
 * is: a tool generated for another kernel refuses to run rather than print
 * wrong values.
 */
static int check_layout(const char *tracefs)
{
	char path[512], line[512], name[128];
	const char *event = NULL;
	FILE *f = NULL;
	size_t i;
	int err = 0;

	for (i = 0; i < sizeof(layout) / sizeof(layout[0]) && !err; i++) {
		const struct field_layout *l = &layout[i];
		unsigned int off, size, sign;
		bool found = false;

		if (!event || strcmp(event, l->event)) {
			if (f)
				fclose(f);
			event = l->event;
			snprintf(path, sizeof(path), "%s/events/%s/format", tracefs, event);
			f = fopen(path, "r");
			if (!f) {
				fprintf(stderr, "{{TOOL}}: cannot read %s: %s\n", path, strerror(errno));
				return -errno;
			}
		}
		rewind(f);
		while (!found && fgets(line, sizeof(line), f)) {
			char *decl = strstr(line, "field:"), *semi, *n;

			if (!decl || !(semi = strchr(decl, ';')) ||
			    sscanf(semi, ";%*[ \t]offset:%u;%*[ \t]size:%u;%*[ \t]signed:%u;", &off, &size, &sign) != 3)
				continue;
			*semi = '\0';
			n = strrchr(decl, ' ');
			snprintf(name, sizeof(name), "%s", n ? n + 1 : decl);
			if ((n = strchr(name, '[')))	/* char comm[16] */
				*n = '\0';
			found = !strcmp(name, l->field);
		}
		if (!found) {
			fprintf(stderr, "{{TOOL}}: %s: this kernel's record has no field '%s'; regenerate the tool "
				"for this kernel\n", l->event, l->field);
			err = -ENOENT;
		} else if (off != l->offset || size != l->size || (bool)sign != l->is_signed) {
			fprintf(stderr, "{{TOOL}}: %s: %s is at %u (%u bytes, %ssigned) here, %u (%u bytes, %ssigned) "
				"in this build; regenerate the tool for this kernel\n", l->event, l->field, off, size,
				sign ? "" : "un", l->offset, l->size, l->is_signed ? "" : "un");
			err = -EINVAL;
		}
	}
	if (f)
		fclose(f);
	return err;
}

