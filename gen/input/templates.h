/* SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause) */
/* Templates embedded from templates/ by gen/embed.sh. */
#ifndef __TPGEN_TEMPLATES_H
#define __TPGEN_TEMPLATES_H

struct tpgen_template {
	const char *name;	/* file name under templates/ */
	const char *text;
};

extern const struct tpgen_template tpgen_templates[];

#endif /* __TPGEN_TEMPLATES_H */
