"""Everyday tools whose options run programs: the program they are given is read, not refused whole.

`tar -I pigz -xf a.tgz` and `tar --use-compress-program="pigz --processes 8"` hand the archive to a known
compressor given plain options; any other program (`tar -I 'sh -c id'`), an output file (`zstd -o x`), a
pipe or a run-time word still blocks. A batch edit in vim or ex (`ex -s -c '%s/a/b/g' -c x f`, `vim -es -c
'1d5|x' f`) substitutes, deletes and writes the files it edits, judged as writes; a filter (`%!sh`), a
command read back (`:r !id`, `:w !sh`), an expression (`\\=system()`), `:normal`, a tag's file or stdin read
after the given commands (`echo '!id' | ex -s f`) still blocks. `rsync --delete` into build output deletes
no more than `rm -rf` of it does.
"""

from __future__ import annotations

from conftest import every_case, guard_allows, guard_blocks

# each allowed line is followed by its blocked twin in BLOCKED, in the same order
ALLOWED = [
    # tar -I and --use-compress-program with a known compressor and plain options
    ("posix", "tar -I pigz -xf vendor/assets.tgz -C ./vendor"),
    ("posix", "tar -I 'zstd -19 -T0' -cf out/release.tar.zst dist"),
    ("posix", "tar -xIzstd -f cache.tar.zst"),
    ("posix", "tar -I 'xz -9e -T0' -cf pkg.tar.xz pkg"),
    ("posix", "tar -I 'pigz -p 8' -tvf data.tgz"),
    ("posix", 'tar -c --use-compress-program="pigz --fast" -f app-linux.tar.gz app'),
    ("posix", 'tar -xf tool.tar.gz -C out --use-compress-program="pigz -d -p 4"'),
    ("posix", "tar --use-compress-program 'zstd --long=31 -T0' -xf model.tar.zst"),
    ("posix", "tar --use-compress-program=lbzip2 -cf src.tar.bz2 src"),
    # vim and ex batch edits written back to the project's files
    ("posix", "ex -s -c '%s/http:/https:/g' -c x docs/links.md"),
    ("posix", "vim -es -c '%s/\\s\\+$//e' -c wq src/main.c"),
    ("posix", "vim -E -s -c 'g/^DEBUG/d' -c 'wqa' -- conf/a.ini conf/b.ini"),
    ("posix", "vim -e -s -c '1d3|x' wordlist.txt"),
    ("posix", "vim -Nu NONE -c 'set ff=unix' -c 'set fenc=utf-8' -c wq notes.txt"),
    ("posix", "vi -c ':retab' -c ':wq' Makefile"),
    ("posix", "ex -sc 'v/keep/d' -c 'w! filtered.txt' -c q input.txt"),
    ("posix", "nvim --headless crlf.conf -c 'set ff=unix' -c 'update' -c q"),
    ("posix", "vim -es '+%s/foo/bar/ge' '+x' config.ini"),
    # rsync --delete into build output
    ("posix", "rsync -a --delete docs/_build/html/ site/"),
    ("posix", "rsync -av --delete --exclude '*.map' build/ dist/"),
]

BLOCKED = [
    ("posix", "tar -I 'sh -c id' -xf vendor/assets.tgz -C ./vendor", "unverifiable.command-option"),
    ("posix", "tar -I 'zstd -19 -o /tmp/x' -cf out/release.tar.zst dist", "unverifiable.command-option"),
    ("posix", "tar -xIpython3 -f cache.tar.zst", "unverifiable.command-option"),
    ("posix", "tar -I 'xz -9e; id' -cf pkg.tar.xz pkg", "unverifiable.command-option"),
    ("posix", "tar -I ./pigz -tvf data.tgz", "unverifiable.command-option"),
    ("posix", 'tar -c --use-compress-program="pigz --fast | sh" -f app-linux.tar.gz app', "unverifiable"),
    ("posix", 'tar -xf tool.tar.gz -C out --use-compress-program="bash -c id"', "unverifiable"),
    ("posix", "tar --use-compress-program 'zstd --output=x' -xf model.tar.zst", "unverifiable"),
    ("posix", "tar -I lbzip2 -I perl -cf src.tar.bz2 src", "unverifiable.command-option"),
    ("posix", "ex -s -c '%!sh' -c x docs/links.md", "unverifiable.command-option"),
    ("posix", "vim -es -c '%s/x/\\=system(\"id\")/g' -c wq src/main.c", "unverifiable.command-option"),
    ("posix", "vim -E -s -c 'g/^DEBUG/normal dd' -c 'wqa' -- conf/a.ini", "unverifiable.command-option"),
    ("posix", "vim -e -s -c '1d3|r !id' -c x wordlist.txt", "unverifiable.command-option"),
    ("posix", "vim -Nu NONE -c 'set ff=unix' -c wq ../other/notes.txt", "containment"),
    ("posix", "vi -c ':retab' -c ':wq /etc/cron.d/x' Makefile", "containment"),
    ("posix", "ex -s -c 'w !sh' -c q input.txt", "unverifiable.command-option"),
    ("posix", "echo '!id' | ex -s crlf.conf", "unverifiable.command-option"),
    ("posix", "vim -t main -c '%s/a/b/' -c x", "unverifiable.command-option"),
    ("posix", "rsync -a --delete docs/_build/html/ src/", "destructive.rsync-delete"),
    ("posix", "rsync -av --delete --exclude build empty/ ~/", "destructive.rsync-delete"),
    ("posix", "rsync -a --remove-source-files build/ dist/", "destructive.rsync-delete"),
]


def test_known_compressors_batch_edits_and_syncs_into_output_are_allowed() -> None:
    every_case(ALLOWED, guard_allows)


def test_other_programs_code_and_deletes_of_work_stay_blocked() -> None:
    every_case(BLOCKED, guard_blocks)
