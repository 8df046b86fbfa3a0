# SPDX-License-Identifier: (LGPL-2.1 OR BSD-2-Clause)
# Reads 'bpftool btf dump file F format raw'; independent of tpgen's C code.
#   mode=kernel: "<tp> <nargs> <size>..." for each btf_trace_<tp> typedef
#                (a pointer to a prototype; arguments after 'void *__data')
#   mode=header: "<tp> <nmembers> <size>..." for each struct <tp>_raw_args,
#                and "BAD <tp> ..." for a member off its slot or a wrong size
function tsize(id, depth,    k) {
	if (id == 0 || depth > 40)
		return -1
	k = kind[id]
	if (k == "PTR")
		return 8
	if (k == "INT" || k == "STRUCT" || k == "UNION" || k == "ENUM" || k == "ENUM64" || k == "FLOAT")
		return sz[id]
	if (k == "TYPEDEF" || k == "CONST" || k == "VOLATILE" || k == "RESTRICT" || k == "TYPE_TAG")
		return tsize(ref[id], depth + 1)
	if (k == "ARRAY")
		return nelem[id] * tsize(ref[id], depth + 1)
	return -1
}
function field(s, key,    i, n, parts) {
	n = split(s, parts, " ")
	for (i = 1; i <= n; i++)
		if (index(parts[i], key "=") == 1)
			return substr(parts[i], length(key) + 2)
	return ""
}
/^\[[0-9]+\] / {
	cur = substr($1, 2, length($1) - 2)
	kind[cur] = $2
	nm = ""
	if (match($0, /'[^']*'/))
		nm = substr($0, RSTART + 1, RLENGTH - 2)
	name[cur] = nm
	sz[cur] = field($0, "size")
	ref[cur] = field($0, "type_id")
	if ($2 == "ARRAY")
		nelem[cur] = field($0, "nr_elems")
	np[cur] = 0
	if ($2 == "TYPEDEF" && index(nm, "btf_trace_") == 1)
		tps[++ntps] = cur
	if ($2 == "STRUCT" && nm ~ /_raw_args$/)
		structs[++nstructs] = cur
	next
}
/^\t'/ {
	if (kind[cur] == "FUNC_PROTO" || kind[cur] == "STRUCT" || kind[cur] == "UNION") {
		n = ++np[cur]
		mtype[cur, n] = field($0, "type_id")
		moff[cur, n] = field($0, "bits_offset")
	}
}
END {
	if (mode == "kernel") {
		for (i = 1; i <= ntps; i++) {
			id = tps[i]
			p = ref[ref[id]]
			line = substr(name[id], 11) " " (np[p] - 1)
			for (j = 2; j <= np[p]; j++)
				line = line " " tsize(mtype[p, j], 0)
			print line
		}
	} else {
		for (i = 1; i <= nstructs; i++) {
			id = structs[i]
			tp = substr(name[id], 1, length(name[id]) - 9)
			line = tp " " np[id]
			for (j = 1; j <= np[id]; j++) {
				line = line " " tsize(mtype[id, j], 0)
				if (moff[id, j] != (j - 1) * 64)
					print "BAD " tp ": member " j " at bit " moff[id, j] ", not " (j - 1) * 64
			}
			if (sz[id] != np[id] * 8)
				print "BAD " tp ": " sz[id] " bytes for " np[id] " members"
			print line
		}
	}
}
