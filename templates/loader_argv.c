
/* a byte a shell reads as itself, unquoted */
static bool shell_plain(unsigned char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       strchr("@%+=:,./-_", c);
}

/*
 * An argument list as tpgen_read_argv() keeps it (the strings, then the count
 * and whether some were left out in the last two bytes), as a shell command
 * line: an argument with spaces or quotes in '...', one with control bytes in
 * $'...' with \xHH, " ..." after it when something was left out.
 */
static const char *tpgen_argv_str(const char *buf, size_t size)
{
	static char out[4 * 4096 + 16];
	unsigned int n = (unsigned char)buf[size - 2], i;
	size_t off = 0, len = 0, end = size - 2;

	for (i = 0; i < n && off < end; i++) {
		const unsigned char *a = (const unsigned char *)buf + off;
		size_t alen = strnlen((const char *)a, end - off), k;
		bool plain = alen > 0, ctl = false;

		for (k = 0; k < alen; k++) {
			plain &= shell_plain(a[k]);
			ctl |= a[k] < 0x20 || a[k] >= 0x7f;
		}
		if (len + 4 * alen + 8 >= sizeof(out))
			break;
		if (i)
			out[len++] = ' ';
		if (plain) {
			memcpy(out + len, a, alen);
			len += alen;
		} else if (!ctl) {
			out[len++] = '\'';
			for (k = 0; k < alen; k++) {
				if (a[k] == '\'') {
					memcpy(out + len, "'\\''", 4);
					len += 4;
				} else {
					out[len++] = a[k];
				}
			}
			out[len++] = '\'';
		} else {
			out[len++] = '$';
			out[len++] = '\'';
			for (k = 0; k < alen; k++) {
				if (a[k] < 0x20 || a[k] >= 0x7f)
					len += sprintf(out + len, "\\x%02x", a[k]);
				else if (a[k] == '\'' || a[k] == '\\')
					len += sprintf(out + len, "\\%c", a[k]);
				else
					out[len++] = a[k];
			}
			out[len++] = '\'';
		}
		off += alen + 1;
	}
	if (buf[size - 1] || i < n)
		len += snprintf(out + len, sizeof(out) - len, "%s...", len ? " " : "");
	out[len] = '\0';
	return out;
}
