#!/bin/sh
# header_names.sh - every name the public headers give a program is prefixed.
#
# A header that a program includes shares that program's one namespace of
# macros and file-scope identifiers: an unprefixed FSHIFT or NR_RUNNING
# silently takes the place of the program's own.  This reads every
# include/uprocfs/*.h and checks the names it defines at file scope:
#   macros            #define NAME
#   enum constants    the members of every enum { ... }
#   functions         NAME( on a declaration that starts in column 0
#   objects           extern ... NAME; / NAME[...];
#   typedefs          typedef ... NAME; / (*NAME)(...)
#   struct/enum tags  struct NAME { / enum NAME {
# against the prefixes of the modules (seq, mach, psi, pfs, calc_load) and
# the include guards.  It also checks that tests/unit/test_headers.c, which
# compiles them all against a program's own kernel names, includes each one.
#
# TAP.  usage: header_names.sh SOURCE-ROOT
set -u

root=$1
. "$(dirname "$0")/tap.sh"

# Prefixes a public name may start with, upper or lower case by kind.
allowed='^(SEQ_|seq_|MACH_|mach_|PSI_|psi_|PFS_|pfs_|CALC_LOAD_|calc_load_|UPROCFS_[A-Z0-9_]*_H$)'
# Names that are a module's own name rather than a prefixed one: calc_load()
# is the kernel function the module is named after.
exempt='^(calc_load)$'

# Print "KIND NAME" for every file-scope name of a header.
names() {
	awk '
	# Print the enum constants of an enum body (the text between its braces
	# on one line); 1 when the closing brace was on this line.
	function members(body,    done, nf, i, parts, name) {
		done = sub(/}.*/, "", body)
		nf = split(body, parts, ",")
		for (i = 1; i <= nf; i++)
			if (match(parts[i], /^[ \t]*[A-Za-z_][A-Za-z0-9_]*/)) {
				name = substr(parts[i], RSTART, RLENGTH)
				gsub(/[ \t]/, "", name)
				print "enum-constant", name
			}
		return done
	}
	# Strip comments, keeping line structure (block comments may span lines).
	{
		line = $0
		out = ""
		while (length(line) > 0) {
			if (incomment) {
				e = index(line, "*/")
				if (!e) { line = ""; break }
				line = substr(line, e + 2)
				incomment = 0
				continue
			}
			s = index(line, "/*")
			c = index(line, "//")
			if (c && (!s || c < s)) { out = out substr(line, 1, c - 1); line = ""; break }
			if (!s) { out = out line; line = ""; break }
			out = out substr(line, 1, s - 1) " "
			line = substr(line, s + 2)
			incomment = 1
		}
		$0 = out
	}
	/^[ \t]*#[ \t]*define[ \t]/ {
		sub(/^[ \t]*#[ \t]*define[ \t]+/, "")
		match($0, /^[A-Za-z_][A-Za-z0-9_]*/)
		print "macro", substr($0, RSTART, RLENGTH)
		next
	}
	/^[ \t]*#/ { next }
	# Members of an enum, up to its closing brace (which may share a line).
	inenum {
		if (members($0))
			inenum = 0
		next
	}
	/^(typedef[ \t]+)?enum([ \t]+[A-Za-z_][A-Za-z0-9_]*)?[ \t]*\{/ {
		if (match($0, /enum[ \t]+[A-Za-z_][A-Za-z0-9_]*/)) {
			tag = substr($0, RSTART, RLENGTH)
			sub(/^enum[ \t]+/, "", tag)
			print "enum-tag", tag
		}
		rest = $0
		sub(/^[^{]*\{/, "", rest)
		inenum = !members(rest)
		next
	}
	/^struct[ \t]+[A-Za-z_][A-Za-z0-9_]*[ \t]*(\{|;)/ {
		match($0, /^struct[ \t]+[A-Za-z_][A-Za-z0-9_]*/)
		tag = substr($0, RSTART, RLENGTH)
		sub(/^struct[ \t]+/, "", tag)
		print "struct-tag", tag
		next
	}
	/^typedef[ \t]/ {
		if (match($0, /\(\*[A-Za-z_][A-Za-z0-9_]*\)/))
			name = substr($0, RSTART + 2, RLENGTH - 3)
		else if (match($0, /[A-Za-z_][A-Za-z0-9_]*[ \t]*;/)) {
			name = substr($0, RSTART, RLENGTH)
			sub(/[ \t]*;$/, "", name)
		}
		print "typedef", name
		next
	}
	/^extern[ \t]/ && !/^extern[ \t]+"C"/ {
		if (match($0, /[A-Za-z_][A-Za-z0-9_]*[ \t]*(\[[^]]*\])?[ \t]*;/)) {
			name = substr($0, RSTART, RLENGTH)
			sub(/[ \t]*(\[[^]]*\])?[ \t]*;$/, "", name)
			print "object", name
		}
		next
	}
	# A declaration or definition starting in column 0: its first NAME( is
	# the function (return types never contain a parenthesis here).
	/^[A-Za-z_]/ {
		if (match($0, /[A-Za-z_][A-Za-z0-9_]*\(/))
			print "function", substr($0, RSTART, RLENGTH - 1)
	}
	' "$1"
}

for h in "$root"/include/uprocfs/*.h; do
	base=$(basename "$h")
	list=$(names "$h")
	bad=$(printf '%s\n' "$list" | awk -v allowed="$allowed" -v exempt="$exempt" \
		'NF == 2 && $2 !~ allowed && $2 !~ exempt')
	count=$(printf '%s\n' "$list" | grep -c .)
	ok "$([ -z "$bad" ] && echo 0 || echo 1)" "$base: all $count file-scope names are prefixed"
	[ -z "$bad" ] || printf '%s\n' "$bad" | sed 's/^/# unprefixed /'
done

# The compile test must cover every public header, including new ones.
missing=""
for h in "$root"/include/uprocfs/*.h; do
	base=$(basename "$h")
	grep -q "^#include \"uprocfs/$base\"" "$root/tests/unit/test_headers.c" ||
		missing="$missing $base"
done
ok "$([ -z "$missing" ] && echo 0 || echo 1)" "test_headers.c includes every public header"
[ -z "$missing" ] || echo "# not included:$missing"

# The scanner itself must see names, or every check above passes vacuously.
seen=$(names "$root/include/uprocfs/psi.h" | grep -c '^enum-constant PSI_NR_RUNNING$')
ok "$([ "$seen" = 1 ] && echo 0 || echo 1)" "the scanner finds psi.h's enum constant PSI_NR_RUNNING"

tap_done
